"""The graph formats: one table that every reader, writer, verifier and help text reads.

A format is one module (its reader, its writer, and the verifier's own reader of it, which
shares no code with the first) plus one :class:`GraphFormat` entry in :data:`FORMATS`. The
reader dispatch (:func:`llpbench.graphs.formats.read_graph`), the writer dispatch
(:func:`llpbench.graphs.formats_write.write_graph`), the verifier
(:func:`llpbench.graphs.independent.read_file`), the registry's "does this look like a path"
test, ``llpbench datasets export`` and ``llpbench datasets formats`` and the help of every
option that takes a graph file look a file's format up here, by suffix; none spells one.

Entries name their functions as ``"module:function"``, imported when first used: this table
imports nothing, so the modules that read it (the verifier among them) never import the
readers, and a format's module may import whatever it needs.

The three contracts:

- ``reader(path: Path, options: ReadOptions, *, name: str | None, family: str) -> Graph``
  (:class:`~llpbench.graphs.read_options.ReadOptions` whole, as the command line gave it);
- ``writer(graph: Graph, arcs: WrittenArcs) -> bytes``: the file's uncompressed bytes
  (:class:`~llpbench.graphs.formats_write.WrittenArcs`: every arc, loops included, and the
  ``llpbench:`` comment a format without a place for n or directedness carries);
- ``independent(path: Path, flags: dict) -> FileReading``
  (:class:`~llpbench.graphs.independent.FileReading`; ``flags`` the user's own).

Every suffix may be followed by ``.gz``, ``.xz`` or ``.bz2`` (:data:`COMPRESSED`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: What a name may end in after its format's suffix: the file is compressed
#: (:mod:`llpbench.graphs.formats_text` holds the codecs).
COMPRESSED = (".gz", ".xz", ".bz2")


@dataclass(frozen=True)
class GraphFormat:
    """One graph file format.

    ``suffixes``: the names it answers to, lower case, with their dot (a ``.gz``, ``.xz`` or
    ``.bz2`` after one is understood). ``reader``, ``writer`` and ``independent`` name
    functions as ``"module:function"`` (see the module notes); ``writer`` None: the format
    is read only. ``description``: one line for listings and help. ``index_base``: the
    format's own first vertex id (Matrix Market and DIMACS: 1), which ``--index-base``
    may not contradict; None when the file decides (an edge list).
    """

    suffixes: tuple[str, ...]
    reader: str
    independent: str
    description: str
    writer: str | None = None
    index_base: int | None = None

    def read(self) -> Callable[..., Any]:
        return load(self.reader)

    def write(self) -> Callable[..., Any] | None:
        return load(self.writer) if self.writer else None

    def read_independently(self) -> Callable[..., Any]:
        return load(self.independent)


_MTX, _GR = "llpbench.graphs.formats_mtx", "llpbench.graphs.formats_dimacs"
_EDGES, _VERIFIER = "llpbench.graphs.formats_edges", "llpbench.graphs.independent"

#: Every graph format by name, in the order listings show them. A file whose suffix no
#: entry names is read as :data:`DEFAULT` (a SNAP edge list: any text of ``u v`` lines).
FORMATS: dict[str, GraphFormat] = {
    "mtx": GraphFormat(
        suffixes=(".mtx",), reader=f"{_MTX}:read_matrix_market", writer=f"{_MTX}:mtx_bytes",
        independent=f"{_VERIFIER}:_matrix_market", index_base=1,
        description="Matrix Market coordinate (pattern, integer or real; general or "
        "symmetric)",
    ),
    "gr": GraphFormat(
        suffixes=(".gr",), reader=f"{_GR}:read_dimacs", writer=f"{_GR}:gr_bytes",
        independent=f"{_VERIFIER}:_dimacs", index_base=1,
        description="DIMACS shortest path ('p sp n m', 'a u v w' lines)",
    ),
    "wel": GraphFormat(
        suffixes=(".wel",), reader=f"{_EDGES}:read_wel", writer=f"{_EDGES}:wel_bytes",
        independent=f"{_VERIFIER}:read_weighted_edge_list",
        description="weighted edge list ('u v w' lines)",
    ),
    "snap": GraphFormat(
        suffixes=(".txt", ".el", ".edges", ".tsv", ".csv"), reader=f"{_EDGES}:read_snap",
        independent=f"{_VERIFIER}:read_edge_list",
        description="SNAP or KONECT edge list ('u v [w [t]]' lines, # or % comments), and "
        "any other suffix",
    ),
}
DEFAULT = "snap"


def load(target: str) -> Callable[..., Any]:
    """The function a ``"module:function"`` entry names."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def format_suffix(path: str | Path) -> str:
    """The suffix that names ``path``'s format, lower case, looking through a trailing
    ``.gz``, ``.xz`` or ``.bz2`` (``""`` when there is none)."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] in COMPRESSED:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def named_format(path: str | Path) -> str | None:
    """The name of the format whose suffix ``path`` has, None when no entry names it."""
    suffix = format_suffix(path)
    return next((name for name, f in FORMATS.items() if suffix in f.suffixes), None)


def format_of(path: str | Path) -> tuple[str, GraphFormat]:
    """The format ``path`` is read in, and its name: by suffix, else :data:`DEFAULT`."""
    name = named_format(path) or DEFAULT
    return name, FORMATS[name]


def writable() -> dict[str, GraphFormat]:
    """The formats a graph can be written in (those with a writer), by name."""
    return {name: f for name, f in FORMATS.items() if f.writer}


def all_suffixes() -> tuple[str, ...]:
    """Every suffix that names a format, compressed forms excluded, in table order."""
    return tuple(s for f in FORMATS.values() for s in f.suffixes)


def one_of(items: list[str] | tuple[str, ...]) -> str:
    """``a, b or c``."""
    return " or ".join(filter(None, [", ".join(items[:-1]), *items[-1:]]))


def suffix_list(formats: dict[str, GraphFormat] | None = None) -> str:
    """``.mtx, .gr or .wel`` (each format's first suffix): for help texts and errors."""
    return one_of([f.suffixes[0] for f in (FORMATS if formats is None else formats).values()])


def compressed_note() -> str:
    """``optionally .gz, .xz or .bz2``."""
    return f"optionally {one_of(COMPRESSED)}"


def files_help() -> str:
    """The help phrase for an option that takes a graph file: which suffixes are read."""
    return (f"a graph file ({suffix_list()}, {compressed_note()}; any other suffix: an "
            "edge list; `llpbench datasets formats` lists them)")
