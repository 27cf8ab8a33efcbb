"""DIMACS shortest-path files (``.gr``): the reader and the writer.

``c`` comments, one ``p sp <nodes> <arcs>`` line, then ``a u v w`` arcs, 1-based by
definition. The format has no place for directedness or the weight dtype: llpbench's writer
records them (and n) in a ``c llpbench: n=<n> directed=<true|false> weights=<dtype>`` line,
which the reader honours and other tools skip. Its line in
:data:`llpbench.graphs.format_table.FORMATS` names :func:`read_dimacs`, :func:`gr_bytes`
and the verifier's own reader.
"""

from __future__ import annotations

from pathlib import Path

from llpbench.errors import FormatError
from llpbench.graphs.formats_common import (
    found,
    graph_from_arcs,
    ints,
    last_line,
    llpbench_meta,
    set_aside,
    weight_kind,
)
from llpbench.graphs.formats_text import BodySpec, arcs_text, iter_lines, parse_body, read_bytes
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import one_based
from llpbench.graphs.limits import check_claim
from llpbench.graphs.read_options import ReadOptions

_PROBLEM = "a problem line 'p sp <nodes> <arcs>'"


def read_dimacs(
    path: str | Path, options: ReadOptions | None = None, *, name: str | None = None,
    family: str = "file",
) -> Graph:
    """Read a DIMACS shortest-path file: ``c`` comments, ``p sp n m``, ``a u v w`` (1-based).

    Directed unless it carries llpbench's ``c llpbench: ... directed=false`` line. Weights are
    int64 unless some weight is not an integer. See
    :func:`llpbench.graphs.formats.read_graph` for the options and errors.
    """
    path, options = Path(path), options or ReadOptions()
    data = read_bytes(path)
    problem, meta, start, first_arc, line_start = None, {}, len(data), None, 0
    for lineno, line, nxt in iter_lines(data):
        tokens = line.split()
        if not tokens or tokens[0].startswith(b"c"):
            meta.update(llpbench_meta(path, lineno, line, b"c"))
        elif tokens[0] == b"p" and problem is None:
            problem = ints(b" ".join(tokens[2:]), 2) if tokens[1:2] == [b"sp"] else None
            if problem is None:
                raise FormatError(path, lineno, f"{_PROBLEM}, found {found(line)}")
            p_line = lineno
        elif tokens[0] == b"a":
            if problem is None:
                raise FormatError(path, lineno, f"{_PROBLEM} before the first arc")
            start, first_arc = line_start, lineno
            break
        else:
            raise FormatError(
                path,
                lineno,
                f"a line 'c ...', 'p sp <nodes> <arcs>' (once) or 'a u v w', found {found(line)}",
            )
        line_start = nxt
    if problem is None:
        raise FormatError(path, last_line(data), f"{_PROBLEM} before the first arc")
    n, m = problem
    check_claim(path, p_line, n, m, file_bytes=len(data), min_line=8,
                what="the problem line claims")
    spec = BodySpec(
        comment=b"c",
        what="an arc line 'a u v w'",
        weights=weight_kind(meta),
        prefix=b"a",
        base=1,
        n=n,
        expected=m,
        declared_on=p_line,
        negative=options.replaces_weights or options.negative_aside,
        aside=options.negative_aside,
    )
    first_line = first_arc or last_line(data) + 1
    arrays, aside = set_aside(path, data, start, first_line, spec,
                              parse_body(path, data, start, first_line, spec))
    return graph_from_arcs(
        path, n, arrays, native=meta.get("directed") != "false", stored_both=True,
        directed=options.directed, name=name, family=family,
        provenance={"source": str(path), "format": "gr"},
        reading={"stated": f"'p sp {n} {m}' on line {p_line}: n = {n}, {m} arc lines (checked)"},
        file_ids=one_based("DIMACS"), negative_note=aside,
    )


def gr_bytes(graph: Graph, arcs) -> bytes:
    """Every arc as ``a u v w`` (1-based), n, directedness and the weight dtype in the
    ``c llpbench:`` line. ``arcs``: a :class:`~llpbench.graphs.formats_write.WrittenArcs`."""
    head = f"c {arcs.banner}\nc {arcs.meta}\np sp {graph.n} {arcs.src.shape[0]}\n"
    return head.encode("utf-8") + arcs_text(arcs.src + 1, arcs.dst + 1, arcs.weights,
                                            prefix="a")
