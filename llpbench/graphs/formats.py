"""Graph files: Matrix Market, DIMACS ``.gr``, SNAP edge lists, weighted edge lists, npz cache.

Readers return a :class:`~llpbench.graphs.graph.Graph` (self-loops kept aside in
``Graph.loops``, parallel arcs collapsed to their smallest weight), record in
``provenance["reading"]`` every assumption they made about the file (directedness and why,
index base and why, count header, self-loops, merged parallel arcs), warn with a
:class:`~llpbench.errors.ReadingWarning` naming the deciding flag when a guess was needed, and
load large files at I/O speed: the arc lines are parsed
by pandas' C tokenizer, never by a Python loop per line (see :mod:`.formats_text`). Any
malformed input raises :class:`~llpbench.errors.FormatError` naming file, line and what was
expected; a negative weight raises :class:`~llpbench.errors.NegativeWeightError` naming both.

Writers produce files the readers give back exactly (n, arcs, weights, dtype and directedness)
and never leave a half-written file: they write a temporary file next to the target and rename
it. Formats without a place for n or directedness (``.gr``, ``.wel``) carry them in a comment
line, ``c llpbench: n=<n> directed=<true|false> weights=<int64|float64>`` (``#`` for ``.wel``),
which other tools skip.

Every reader and writer also accepts the name with ``.gz``, ``.xz`` or ``.bz2`` appended.

Which reader reads a file is :data:`~llpbench.graphs.format_table.FORMATS`'s answer for its
suffix; the readers live one module per format (:mod:`.formats_mtx`, :mod:`.formats_dimacs`,
:mod:`.formats_edges`), what they share in :mod:`.formats_common` and :mod:`.formats_text`.
This module is the public face: :func:`read_graph`, and each format's reader and the writers
under their old names.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from llpbench.errors import SpecError
from llpbench.graphs.format_table import format_of, format_suffix
from llpbench.graphs.formats_common import graph_name
from llpbench.graphs.formats_dimacs import read_dimacs
from llpbench.graphs.formats_edges import read_snap, read_wel
from llpbench.graphs.formats_mtx import read_matrix_market
from llpbench.graphs.formats_write import load_npz, save_npz, write_graph
from llpbench.graphs.graph import Graph
from llpbench.graphs.read_options import ReadOptions

__all__ = [
    "graph_name",
    "load_npz",
    "read_dimacs",
    "read_graph",
    "read_matrix_market",
    "read_snap",
    "read_wel",
    "save_npz",
    "write_graph",
]


def read_graph(
    path: str | Path,
    options: ReadOptions | None = None,
    *,
    name: str | None = None,
    family: str = "file",
    **settings,
) -> Graph:
    """Read a graph file, choosing the reader by suffix.

    Parameters
    ----------
    path : str or Path
        ``.mtx`` (Matrix Market), ``.gr`` (DIMACS shortest path), ``.wel`` (weighted edge
        list), anything else a SNAP edge list; each optionally followed by ``.gz``, ``.xz``
        or ``.bz2``. The suffixes are those of
        :data:`~llpbench.graphs.format_table.FORMATS` (``llpbench datasets formats``).
    options : ReadOptions, optional
        How to read what the file does not settle, as the command line's graph-file flags
        say it (:class:`~llpbench.graphs.read_options.ReadOptions`):

        - ``directed``: None keeps the file's own answer (Matrix Market ``symmetric`` and
          llpbench-written undirected files are undirected, everything else directed).
          False adds every arc's twin; True marks the graph directed, keeping the arcs.
        - ``index_base`` (``"auto"``, ``"0"``, ``"1"``): first vertex id of an edge list
          (Matrix Market and DIMACS are 1-based by definition and refuse another).
        - ``compact``: edge lists: renumber the ids that occur to 0..k-1 (``--compact-ids``).
        - ``weights``: ``"file"`` makes an edge list's third column a weight even where a
          KONECT header says the file is unweighted (``--weights file``); a rule (which the
          caller applies after reading) accepts negative weights as placeholders.
        - ``negative``: accept negative *file* weights too, setting them aside: the
          graph's weights become 0 and ``provenance["negative_weights"]`` says how many
          there were, the least and the line of the first, so that BFS (which ignores
          weights) and ``datasets info`` take the file and a problem that uses weights
          refuses it naming the flag that helps (:func:`llpbench.problems.check_input`).
    name, family : str
        Registry name (default: the file name without suffixes) and family.
    **settings
        Fields of :class:`ReadOptions` (``directed=False``), replacing those of ``options``.

    Returns
    -------
    Graph

    Raises
    ------
    FormatError
        The file is missing, unreadable or malformed; the message names file and line.
    NegativeWeightError
        A weight below zero; the message names file and line.
    SpecError
        ``--index-base`` contradicts the format's own.
    """
    path = Path(path)
    options = dataclasses.replace(options or ReadOptions(), **settings)
    _, fmt = format_of(path)
    if fmt.index_base is not None and str(options.index_base) not in ("auto",
                                                                       str(fmt.index_base)):
        raise SpecError(
            f"{path}: {format_suffix(path)} files are {fmt.index_base}-based by definition; "
            f"--index-base {options.index_base} does not apply"
        )
    return fmt.read()(path, options, name=name, family=family)
