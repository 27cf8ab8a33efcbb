"""Graph files: Matrix Market, DIMACS ``.gr``, SNAP edge lists, weighted edge lists, npz cache.

Readers return a :class:`~llpbench.graphs.graph.Graph` (self-loops dropped, parallel arcs
collapsed to their smallest weight) and load large files at I/O speed: the arc lines are parsed
by pandas' C tokenizer, never by a Python loop per line (see :mod:`.formats_text`). Any
malformed input raises :class:`~llpbench.errors.FormatError` naming file, line and what was
expected; a negative weight raises :class:`~llpbench.errors.NegativeWeightError` naming both.

Writers produce files the readers give back exactly (n, arcs, weights, dtype and directedness)
and never leave a half-written file: they write a temporary file next to the target and rename
it. Formats without a place for n or directedness (``.gr``, ``.wel``) carry them in a comment
line, ``c llpbench: n=<n> directed=<true|false> weights=<int64|float64>`` (``#`` for ``.wel``),
which other tools skip.

Every reader and writer also accepts the name with ``.gz`` appended.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from llpbench.errors import FormatError
from llpbench.graphs.formats_text import (
    BodySpec,
    iter_lines,
    parse_body,
    read_bytes,
    suffix_of,
)
from llpbench.graphs.formats_write import load_npz, save_npz, write_graph
from llpbench.graphs.graph import Graph

__all__ = [
    "load_npz",
    "read_dimacs",
    "read_graph",
    "read_matrix_market",
    "read_snap",
    "read_wel",
    "save_npz",
    "write_graph",
]

_BANNER = "a banner '%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>'"


def _stem(path: Path) -> str:
    name = path.name[:-3] if path.name.lower().endswith(".gz") else path.name
    return Path(name).stem


def read_graph(
    path: str | Path, *, directed: bool | None = None, name: str | None = None, family: str = "file"
) -> Graph:
    """Read a graph file, choosing the reader by suffix.

    Parameters
    ----------
    path : str or Path
        ``.mtx`` (Matrix Market), ``.gr`` (DIMACS shortest path), ``.wel`` (weighted edge
        list), anything else a SNAP edge list; each optionally followed by ``.gz``.
    directed : bool, optional
        None keeps the file's own answer (Matrix Market ``symmetric`` and llpbench-written
        undirected files are undirected, everything else directed). False adds every arc's
        twin; True marks the graph directed, keeping the arcs as stored.
    name, family : str
        Registry name (default: the file name without suffixes) and family.

    Returns
    -------
    Graph

    Raises
    ------
    FormatError
        The file is missing, unreadable or malformed; the message names file and line.
    NegativeWeightError
        A weight below zero; the message names file and line.
    """
    path = Path(path)
    readers = {".mtx": read_matrix_market, ".gr": read_dimacs, ".wel": read_wel}
    reader = readers.get(suffix_of(path), read_snap)
    return reader(path, directed=directed, name=name, family=family)


def _build(
    path: Path,
    n: int,
    arrays: tuple,
    *,
    native: bool,
    stored_both: bool,
    directed: bool | None,
    name: str | None,
    family: str,
    provenance: dict[str, Any],
) -> Graph:
    src, dst, weights = arrays
    final = native if directed is None else directed
    # Symmetric storage must be completed; an explicit directed=False asks for twins.
    symmetrize = (not native and (not stored_both or directed is None)) or directed is False
    graph = Graph.from_edges(
        n,
        src,
        dst,
        weights,
        directed=final,
        symmetrize=symmetrize,
        name=name or _stem(path),
        family=family,
        provenance=provenance,
    )
    if graph.directed != final:
        graph = Graph(
            graph.indptr,
            graph.indices,
            graph.weights,
            final,
            graph.name,
            graph.family,
            graph.provenance,
        )
    return graph


def read_matrix_market(
    path: str | Path, *, directed: bool | None = None, name: str | None = None, family: str = "file"
) -> Graph:
    """Read a ``coordinate`` Matrix Market file; entry ``i j [w]`` is the arc ``i-1 -> j-1``.

    ``symmetric`` files give undirected graphs (both arcs stored), ``general`` directed ones.
    ``pattern`` files get unit int64 weights and ``provenance["pattern"] = True`` so that a
    weight rule can be applied later; ``integer`` gives int64 and ``real`` float64 weights.
    See :func:`read_graph` for the keywords and errors.
    """
    path = Path(path)
    data = read_bytes(path)
    lines = iter_lines(data)
    first = next(lines, None)
    tokens = first[1].split() if first else []
    if len(tokens) != 5 or tokens[0].lower() != b"%%matrixmarket":
        found = _found(first[1]) if first else "an empty file"
        raise FormatError(path, 1, f"{_BANNER}, found {found}")
    obj, storage, field, symmetry = (t.decode("ascii", "replace").lower() for t in tokens[1:])
    if obj != "matrix" or storage != "coordinate":
        what = "dense 'array' files are not graphs" if storage == "array" else "not a sparse matrix"
        raise FormatError(path, 1, f"{_BANNER} ({what}), found {_found(first[1])}")
    if field not in ("pattern", "integer", "real") or symmetry not in ("general", "symmetric"):
        raise FormatError(path, 1, f"{_BANNER}, found field {field!r} and symmetry {symmetry!r}")
    size = None
    for lineno, line, nxt in lines:
        stripped = line.strip()
        if stripped and not stripped.startswith(b"%"):
            size = _ints(stripped, 3)
            if size is None or size[0] != size[1]:
                raise FormatError(
                    path,
                    lineno,
                    "a size line 'n n entries' (a square matrix, "
                    f"non-negative integers), found {_found(line)}",
                )
            start = nxt
            break
    if size is None:
        raise FormatError(
            path, _last_line(data), "a size line 'rows cols entries', found the end of the file"
        )
    n, nnz = size[0], size[2]
    spec = BodySpec(
        comment=b"%",
        what="an entry 'row col" + ("'" if field == "pattern" else " value'"),
        weights={"pattern": None, "integer": "int", "real": "float"}[field],
        base=1,
        n=n,
        expected=nnz,
        declared_on=lineno,
    )
    arrays = parse_body(path, data, start, lineno + 1, spec)
    prov = {"source": str(path), "format": "mtx", "pattern": field == "pattern"}
    return _build(
        path,
        n,
        arrays,
        native=symmetry == "general",
        stored_both=False,
        directed=directed,
        name=name,
        family=family,
        provenance=prov,
    )


def read_dimacs(
    path: str | Path, *, directed: bool | None = None, name: str | None = None, family: str = "file"
) -> Graph:
    """Read a DIMACS shortest-path file: ``c`` comments, ``p sp n m``, ``a u v w`` (1-based).

    Directed unless it carries llpbench's ``c llpbench: ... directed=false`` line. Weights are
    int64 unless some weight is not an integer. See :func:`read_graph` for keywords and errors.
    """
    path = Path(path)
    data = read_bytes(path)
    problem, meta, start, first_arc, line_start = None, {}, len(data), None, 0
    for lineno, line, nxt in iter_lines(data):
        tokens = line.split()
        if not tokens or tokens[0].startswith(b"c"):
            meta.update(_meta(path, lineno, line, b"c"))
        elif tokens[0] == b"p" and problem is None:
            problem = _ints(b" ".join(tokens[2:]), 2) if tokens[1:2] == [b"sp"] else None
            if problem is None:
                raise FormatError(
                    path, lineno, f"a problem line 'p sp <nodes> <arcs>', found {_found(line)}"
                )
            p_line = lineno
        elif tokens[0] == b"a":
            if problem is None:
                raise FormatError(
                    path, lineno, "a problem line 'p sp <nodes> <arcs>' before the first arc"
                )
            start, first_arc = line_start, lineno
            break
        else:
            raise FormatError(
                path,
                lineno,
                f"a line 'c ...', 'p sp <nodes> <arcs>' (once) or 'a u v w', found {_found(line)}",
            )
        line_start = nxt
    if problem is None:
        raise FormatError(
            path, _last_line(data), "a problem line 'p sp <nodes> <arcs>' before the first arc"
        )
    n, m = problem
    spec = BodySpec(
        comment=b"c",
        what="an arc line 'a u v w'",
        weights=_weight_kind(meta),
        prefix=b"a",
        base=1,
        n=n,
        expected=m,
        declared_on=p_line,
    )
    arrays = parse_body(path, data, start, first_arc or _last_line(data) + 1, spec)
    undirected = meta.get("directed") == "false"
    return _build(
        path,
        n,
        arrays,
        native=not undirected,
        stored_both=True,
        directed=directed,
        name=name,
        family=family,
        provenance={"source": str(path), "format": "gr"},
    )


def read_snap(
    path: str | Path,
    directed: bool | None = True,
    *,
    name: str | None = None,
    family: str = "file",
) -> Graph:
    """Read a SNAP edge list: ``#`` comments, ``from to`` per line, tabs or spaces, any EOL.

    Ids are 0-based and kept as they are (not compacted): ``n`` is the largest id plus one.
    Weights are unit (``provenance["pattern"] = True``). Directed unless ``directed=False``.
    """
    path = Path(path)
    data = read_bytes(path)
    spec = BodySpec(comment=b"#", what="an edge line 'from to'", weights=None)
    src, dst, _ = parse_body(path, data, 0, 1, spec)
    n = int(max(src.max(), dst.max())) + 1 if src.shape[0] else 0
    prov = {"source": str(path), "format": "snap", "pattern": True}
    return _build(
        path,
        n,
        (src, dst, None),
        native=True,
        stored_both=True,
        directed=True if directed is None else directed,
        name=name,
        family=family,
        provenance=prov,
    )


def read_wel(
    path: str | Path, *, directed: bool | None = None, name: str | None = None, family: str = "file"
) -> Graph:
    """Read a weighted edge list: ``#`` comments, ``u v w`` per line, 0-based ids.

    ``n`` is the largest id plus one unless a ``# llpbench: n=<n>`` line declares it. Weights
    are int64 unless some weight is not an integer. See :func:`read_graph`.
    """
    path = Path(path)
    data = read_bytes(path)
    meta: dict[str, str] = {}
    for lineno, line, _ in iter_lines(data):
        if line.strip() and not line.lstrip().startswith(b"#"):
            break
        meta.update(_meta(path, lineno, line, b"#"))
    declared = int(meta["n"]) if "n" in meta else None
    spec = BodySpec(
        comment=b"#", what="an edge line 'u v w'", weights=_weight_kind(meta), n=declared
    )
    src, dst, w = parse_body(path, data, 0, 1, spec)
    n = declared
    if n is None:
        n = int(max(src.max(), dst.max())) + 1 if src.shape[0] else 0
    return _build(
        path,
        n,
        (src, dst, w),
        native=meta.get("directed") != "false",
        stored_both=True,
        directed=directed,
        name=name,
        family=family,
        provenance={"source": str(path), "format": "wel"},
    )


def _ints(text: bytes, count: int) -> list[int] | None:
    tokens = text.split()
    if len(tokens) != count or not all(t.isdigit() for t in tokens):
        return None
    return [int(t) for t in tokens]


def _weight_kind(meta: dict[str, str]) -> str:
    return {"int64": "int", "float64": "float"}.get(meta.get("weights", ""), "infer")


def _meta(path: Path, lineno: int, line: bytes, mark: bytes) -> dict[str, str]:
    """``key=value`` pairs of an llpbench comment line (``c llpbench: n=5 directed=false``)."""
    body = line.strip()[len(mark) :].strip()
    if not body.startswith(b"llpbench:"):
        return {}
    out = {}
    for item in body[len(b"llpbench:") :].split():
        key, _, value = item.decode("ascii", "replace").partition("=")
        ok = (
            (key == "n" and value.isdigit())
            or (key == "directed" and value in ("true", "false"))
            or (key == "weights" and value in ("int64", "float64"))
        )
        if not ok:
            raise FormatError(
                path,
                lineno,
                "'n=<int>', 'directed=<true|false>' or 'weights=<int64|float64>' in the "
                f"llpbench comment, found {item.decode('ascii', 'replace')!r}",
            )
        out[key] = value
    return out


def _last_line(data: bytes) -> int:
    return max(1, len(data.splitlines()))


def _found(line: bytes) -> str:
    text = line.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= 60 else text[:60] + "...")
