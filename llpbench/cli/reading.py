"""The ``--directed/--undirected``, ``--index-base``, ``--weights`` and ``--compact-ids``
flags of every command that takes a graph file, shared so they read and behave the same
everywhere.

They say what a file cannot say about itself; a registry name refuses them (its table in
``configs/datasets.toml`` states how it is read).
"""

from __future__ import annotations

import typer

DIRECTED = typer.Option(
    None,
    "--directed/--undirected",
    help="Graph files: read arcs as directed, or each line as an undirected edge "
    "[default: what the file says].",
    show_default=False,
)
INDEX_BASE = typer.Option(
    "auto", "--index-base", help="Graph files: first vertex id, 0, 1 or auto [auto]."
)
WEIGHTS = typer.Option(
    None,
    "--weights",
    help="Graph files: file | unit | uniform-int:LO:HI | uniform-float:LO:HI | uniform:1..255 "
    "[the file's, else uniform-int:1:255].",
    show_default=False,
)

COMPACT = typer.Option(
    False,
    "--compact-ids",
    help="Graph files: renumber the vertex ids that occur to 0..k-1 (ids that are labels, "
    "such as SNAP's paper numbers).",
)


def read_options(
    directed: bool | None, index_base: str, weights: str | None, compact: bool = False
):
    """The :class:`~llpbench.graphs.registry.ReadOptions` of the flags, checked."""
    from llpbench.errors import SpecError
    from llpbench.graphs.registry import ReadOptions

    if index_base not in ("auto", "0", "1"):
        raise SpecError(f"bad --index-base {index_base!r}: expected 0, 1 or auto")
    return ReadOptions(
        directed=directed, index_base=index_base, weights=weights, compact=compact
    )

