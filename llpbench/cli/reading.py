"""The ``--directed/--undirected``, ``--index-base``, ``--weights``, ``--compact-ids`` and
``--max-memory`` flags of every command that takes a graph file: one group,
:data:`READING`, that such a command takes whole as ``reading: ReadOptions``
(:func:`llpbench.cli.flag_groups.takes`), so they read and behave the same everywhere.

They say what a file cannot say about itself; a registry name refuses them (its table in
``configs/datasets.toml`` states how it is read).
"""

from __future__ import annotations

import typer

from llpbench.cli.flag_groups import Flag, FlagGroup
from llpbench.graphs.read_options import ReadOptions

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

MAX_MEMORY = typer.Option(
    None,
    "--max-memory",
    help="Graph files: the memory a file's claimed size may take, such as 8G; setting it "
    "also allows headers with many isolated vertices [$LLPBENCH_MAX_MEMORY, else the "
    "memory available].",
    show_default=False,
)


def read_options(
    directed: bool | None,
    index_base: str,
    weights: str | None,
    compact: bool = False,
    max_memory: str | None = None,
) -> ReadOptions:
    """The :class:`~llpbench.graphs.read_options.ReadOptions` of the flags, checked; a
    ``--max-memory`` bound is applied to this process (see :mod:`llpbench.graphs.limits`)."""
    from llpbench.errors import SpecError
    from llpbench.graphs.limits import set_max_memory

    set_max_memory(max_memory)
    if index_base not in ("auto", "0", "1"):
        raise SpecError(f"bad --index-base {index_base!r}: expected 0, 1 or auto")
    return ReadOptions(
        directed=directed, index_base=index_base, weights=weights, compact=compact,
        negative=True,  # set aside: BFS and `datasets info` take such a file, SSSP refuses it
    )



#: The graph-file flags, as every command that reads a graph file takes them.
READING = FlagGroup(
    flags=(
        Flag("directed", bool | None, DIRECTED),
        Flag("index_base", str, INDEX_BASE),
        Flag("weights", str | None, WEIGHTS),
        Flag("compact", bool, COMPACT),
        Flag("max_memory", str | None, MAX_MEMORY),
    ),
    build=read_options,
)
