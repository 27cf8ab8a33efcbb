"""Matrix Market ``coordinate`` files (``.mtx``): the reader and the writer.

Entry ``i j [w]`` is the arc ``i-1 -> j-1``: ``symmetric`` files are undirected (one
triangle stored), ``general`` ones directed; ``pattern`` files have no weights. The format
is 1-based by definition. Its line in :data:`llpbench.graphs.format_table.FORMATS` names
:func:`read_matrix_market`, :func:`mtx_bytes` and the verifier's own reader
(:func:`llpbench.graphs.independent.read_file`, by scipy's ``mmread``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from llpbench.errors import FormatError
from llpbench.graphs.formats_common import found, graph_from_arcs, ints, last_line, set_aside
from llpbench.graphs.formats_text import BodySpec, arcs_text, iter_lines, parse_body, read_bytes
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import one_based
from llpbench.graphs.limits import check_claim
from llpbench.graphs.read_options import ReadOptions

_BANNER = "a banner '%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>'"


def read_matrix_market(
    path: str | Path, options: ReadOptions | None = None, *, name: str | None = None,
    family: str = "file",
) -> Graph:
    """Read a ``coordinate`` Matrix Market file; entry ``i j [w]`` is the arc ``i-1 -> j-1``.

    ``symmetric`` files give undirected graphs (both arcs stored), ``general`` directed ones.
    ``pattern`` files get unit int64 weights and ``provenance["pattern"] = True`` so that a
    weight rule can be applied later; ``integer`` gives int64 and ``real`` float64 weights.
    See :func:`llpbench.graphs.formats.read_graph` for the options and errors.
    """
    path, options = Path(path), options or ReadOptions()
    data = read_bytes(path)
    lines = iter_lines(data)
    first = next(lines, None)
    field, symmetry = _banner(path, first)
    size = None
    for lineno, line, nxt in lines:
        stripped = line.strip()
        if stripped and not stripped.startswith(b"%"):
            size = ints(stripped, 3)
            if size is None or size[0] != size[1]:
                raise FormatError(
                    path,
                    lineno,
                    "a size line 'n n entries' (a square matrix, "
                    f"non-negative integers), found {found(line)}",
                )
            start = nxt
            break
    if size is None:
        raise FormatError(
            path, last_line(data), "a size line 'rows cols entries', found the end of the file"
        )
    n, nnz = size[0], size[2]
    check_claim(path, lineno, n, nnz, file_bytes=len(data), min_line=4 + 2 * (field != "pattern"),
                what="the size line claims")
    spec = BodySpec(
        comment=b"%",
        what="an entry 'row col" + ("'" if field == "pattern" else " value'"),
        weights={"pattern": None, "integer": "int", "real": "float"}[field],
        base=1,
        n=n,
        expected=nnz,
        declared_on=lineno,
        negative=options.replaces_weights or options.negative_aside,
        aside=options.negative_aside,
    )
    arrays, aside = set_aside(path, data, start, lineno + 1, spec,
                              parse_body(path, data, start, lineno + 1, spec))
    prov = {"source": str(path), "format": "mtx", "pattern": field == "pattern"}
    stated = f"the size line {lineno}: n = {n}, {nnz} entries (checked)"
    return graph_from_arcs(
        path, n, arrays, native=symmetry == "general", stored_both=False,
        directed=options.directed, name=name, family=family, provenance=prov,
        reading={"stated": stated}, file_ids=one_based("Matrix Market"), negative_note=aside,
    )


def _banner(path: Path, first) -> tuple[str, str]:
    """The field and symmetry of the banner line ``first``, checked."""
    tokens = first[1].split() if first else []
    if len(tokens) != 5 or tokens[0].lower() != b"%%matrixmarket":
        what = found(first[1]) if first else "an empty file"
        raise FormatError(path, 1, f"{_BANNER}, found {what}")
    obj, storage, field, symmetry = (t.decode("ascii", "replace").lower() for t in tokens[1:])
    if obj != "matrix" or storage != "coordinate":
        what = "dense 'array' files are not graphs" if storage == "array" else "not a sparse matrix"
        raise FormatError(path, 1, f"{_BANNER} ({what}), found {found(first[1])}")
    if field not in ("pattern", "integer", "real") or symmetry not in ("general", "symmetric"):
        raise FormatError(path, 1, f"{_BANNER}, found field {field!r} and symmetry {symmetry!r}")
    return field, symmetry


def mtx_bytes(graph: Graph, arcs) -> bytes:
    """``coordinate integer|real general``, or ``symmetric`` with the lower triangle when the
    graph is undirected, and ``pattern`` when the graph came from a pattern file and still
    has its unit weights (the lower triangle assumes, as ``Graph`` does for an undirected
    graph, that twin arcs carry equal weights). ``arcs``: a
    :class:`~llpbench.graphs.formats_write.WrittenArcs`."""
    src, dst, weights = arcs.src, arcs.dst, arcs.weights
    unit = weights.dtype.kind == "i" and bool(np.all(weights == 1))
    field = (
        "pattern"
        if graph.provenance.get("pattern") and unit
        else ("integer" if weights.dtype.kind == "i" else "real")
    )
    if not graph.directed:
        keep = src >= dst
        src, dst, weights = src[keep], dst[keep], weights[keep]
    symmetry = "general" if graph.directed else "symmetric"
    head = (
        f"%%MatrixMarket matrix coordinate {field} {symmetry}\n% {arcs.banner}\n"
        f"{graph.n} {graph.n} {src.shape[0]}\n"
    )
    return head.encode("utf-8") + arcs_text(src + 1, dst + 1,
                                            None if field == "pattern" else weights)
