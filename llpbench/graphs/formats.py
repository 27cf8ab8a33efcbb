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
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from llpbench.errors import FormatError, ReadingWarning, SpecError
from llpbench.graphs.formats_text import (
    COMPRESSED_SUFFIXES,
    BodySpec,
    iter_lines,
    parse_body,
    quote_line,
    read_bytes,
    suffix_of,
)
from llpbench.graphs.formats_write import load_npz, save_npz, write_graph
from llpbench.graphs.graph import Graph
from llpbench.graphs.limits import check_claim

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
    if path.suffix.lower() in COMPRESSED_SUFFIXES:
        path = path.with_suffix("")
    return path.stem


def read_graph(
    path: str | Path,
    *,
    directed: bool | None = None,
    index_base: str | int = "auto",
    name: str | None = None,
    family: str = "file",
) -> Graph:
    """Read a graph file, choosing the reader by suffix.

    Parameters
    ----------
    path : str or Path
        ``.mtx`` (Matrix Market), ``.gr`` (DIMACS shortest path), ``.wel`` (weighted edge
        list), anything else a SNAP edge list; each optionally followed by ``.gz``, ``.xz``
        or ``.bz2``.
    directed : bool, optional
        None keeps the file's own answer (Matrix Market ``symmetric`` and llpbench-written
        undirected files are undirected, everything else directed). False adds every arc's
        twin; True marks the graph directed, keeping the arcs as stored.
    index_base : {"auto", 0, 1}
        First vertex id of an edge list (Matrix Market and DIMACS are 1-based by definition).
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
    suffix = suffix_of(path)
    if suffix not in (".mtx", ".gr"):  # an edge list: .wel weighted, anything else SNAP-like
        reader = read_wel if suffix == ".wel" else read_snap
        return reader(path, directed=directed, index_base=index_base, name=name, family=family)
    if str(index_base) not in ("auto", "1"):
        raise SpecError(
            f"{path}: {suffix} files are 1-based by definition; "
            f"--index-base {index_base} does not apply"
        )
    reader = read_matrix_market if suffix == ".mtx" else read_dimacs
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
    reading: dict[str, Any] | None = None,
    claim: bool | None = None,
    warns: list[str] | None = None,
) -> Graph:
    """The graph of the parsed arcs, with ``provenance["reading"]`` saying what was assumed.

    ``claim`` is what the file says about directedness (edge lists only; None when silent),
    ``native`` the format's own answer; an explicit ``directed`` overrides both.
    """
    src, dst, weights = arrays
    reading = dict(reading or {}, format=provenance["format"])
    warns = list(warns or [])
    if directed is not None:
        final, why = directed, "--directed" if directed else "--undirected"
    elif claim is not None:
        final, why = claim, "the file's comment says so"
    elif reading.get("format") in ("snap", "wel"):
        lonely = _without_reverse(n, src, dst, weights)
        if lonely == 0 and src.shape[0]:
            final, why = False, "every arc is listed in both directions"
        else:
            final, why = True, "the file does not say; read as directed"
            if src.shape[0]:
                share = 100.0 * lonely / max(1, int((src != dst).sum()))
                warns.append(
                    f"{path}: the file does not say whether it is directed; read as directed "
                    f"({share:.0f}% of arcs have no reverse arc); pass --undirected if each "
                    "edge is listed once, or --directed to confirm"
                )
    else:
        final = native
        why = (
            "the format says so"
            if reading.get("format") != "mtx"
            else ("Matrix Market 'general'" if native else "Matrix Market 'symmetric'")
        )
    loops = src == dst
    keys = src[~loops] * max(n, 1) + dst[~loops]
    reading.update(
        directed=bool(final),
        directed_because=why,
        arc_lines=int(src.shape[0]),
        self_loops=int(loops.sum()),
        parallel_arcs_merged=int(keys.shape[0] - np.unique(keys).shape[0]),
        n=int(n),
    )
    provenance = dict(provenance, reading=reading)
    for text in warns:
        warnings.warn(text, ReadingWarning, stacklevel=3)
    if warns:
        provenance["warnings"] = warns
    # Symmetric storage (one triangle) must be completed whatever the reading; an undirected
    # reading of a file that lists arcs gets every arc's twin (present twins merge).
    symmetrize = (not native and not stored_both) or not final
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
        graph = dataclasses.replace(graph, directed=final)
    return graph


def _without_reverse(n: int, src: np.ndarray, dst: np.ndarray, weights) -> int:
    """How many non-loop arcs have no reverse arc (of equal weight, when weighted)."""
    keep = src != dst
    s, d = src[keep], dst[keep]
    if weights is None:
        fwd, back = s * max(n, 1) + d, d * max(n, 1) + s
        return int((~np.isin(back, fwd)).sum())
    w = weights[keep]
    fwd = np.rec.fromarrays([s, d, w])
    back = np.rec.fromarrays([d, s, w])
    return int((~np.isin(back, fwd)).sum())


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
    check_claim(path, p_line, n, m, file_bytes=len(data), min_line=8,
                what="the problem line claims")
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
    directed: bool | None = None,
    *,
    index_base: str | int = "auto",
    name: str | None = None,
    family: str = "file",
) -> Graph:
    """Read a SNAP/KONECT-style edge list: ``#`` or ``%`` comments, ``from to`` per line.

    What the file does not state is detected and recorded in ``provenance["reading"]``:

    - a first data line ``n m`` whose ``m`` equals the number of lines after it (and whose ``n``
      bounds the ids) is a count header, not an arc;
    - ``index_base="auto"``: ids containing 0 are 0-based; ids starting at 1 (or reaching the
      declared ``n``) are 1-based; larger first ids are kept as labels;
    - ``directed=None``: a comment (SNAP ``Undirected graph``/``Directed graph``, KONECT
      ``% sym``/``% asym``) decides; else a file listing every arc both ways is undirected,
      and any other is read as directed with a :class:`ReadingWarning` naming ``--undirected``.

    Weights are unit (``provenance["pattern"] = True``). See :func:`read_graph`.
    """
    return _read_edge_list(path, directed, index_base, name, family, weighted=False)


def read_wel(
    path: str | Path,
    *,
    directed: bool | None = None,
    index_base: str | int = "auto",
    name: str | None = None,
    family: str = "file",
) -> Graph:
    """Read a weighted edge list: comments, an optional count header, ``u v w`` per line.

    ``n`` is declared by a count header or a ``# llpbench: n=<n>`` line, else the largest id
    plus one. Weights are int64 unless some weight is not an integer. Detection of headers,
    index base and directedness as in :func:`read_snap`.
    """
    return _read_edge_list(path, directed, index_base, name, family, weighted=True)


def _read_edge_list(path, directed, index_base, name, family, *, weighted: bool) -> Graph:
    path = Path(path)
    data = read_bytes(path)
    fmt = "wel" if weighted else "snap"
    base_flag = _index_base(index_base)
    warns: list[str] = []
    comment, comments, meta = b"#", [], {}
    first = None  # (lineno, tokens, offset of the line, offset of the next)
    offset = 0
    for lineno, line, nxt in iter_lines(data):
        stripped = line.strip()
        if not stripped:
            offset = nxt
            continue
        if stripped[:1] in (b"#", b"%"):
            if not comments:
                comment = stripped[:1]
            comments.append(stripped[1:].strip().decode("utf-8", "replace"))
            meta.update(_meta(path, lineno, line, b"#"))
            offset = nxt
            continue
        first = (lineno, stripped.split(), offset, nxt)
        break
    what = "an edge line 'u v w'" if weighted else "an edge line 'from to'"
    kind = _weight_kind(meta) if weighted else None
    declared = int(meta["n"]) if "n" in meta else None
    header = None
    start, start_line = 0, 1
    if first is not None:
        lineno, tokens, line_off, nxt = first
        ints = _ints(b" ".join(tokens), 2)
        if ints is not None and (weighted or _counts_rest(data, nxt, comment, ints)):
            header = (lineno, ints[0], ints[1])
            declared = ints[0]
            start, start_line = nxt, lineno + 1
    if declared is not None:
        check_claim(path, header[0] if header else None, declared, header[2] if header else None,
                    file_bytes=len(data), min_line=4 + 2 * weighted,
                    what="the count header claims" if header else "the llpbench comment claims")
    forced = None
    if base_flag is None and "n" in meta:  # written by llpbench: 0-based by definition
        base_flag, forced = 0, "an llpbench-written file (0-based)"
    spec = BodySpec(
        comment=comment,
        what=what,
        weights=kind,
        base=1 if base_flag == 1 else 0,
        n=declared if base_flag is not None else None,
        expected=header[2] if header else None,
        declared_on=header[0] if header else None,
    )
    src, dst, w = parse_body(path, data, start, start_line, spec)
    if forced:
        base, why = 0, forced
    elif base_flag == 1:
        base, why = 1, "--index-base 1"
    elif base_flag == 0:
        base, why = 0, "--index-base 0"
    else:
        base, why = _detect_base(path, src, dst, declared, warns)
        src, dst = src - base, dst - base
        if declared is not None and src.shape[0] and max(src.max(), dst.max()) >= declared:
            # parse again with the bound, for the error naming the first line beyond it
            bounded = dataclasses.replace(spec, base=base, n=declared)
            parse_body(path, data, start, start_line, bounded)
    n = declared
    if n is None:
        n = int(max(src.max(), dst.max())) + 1 if src.shape[0] else 0
        check_claim(path, None, n, src.shape[0], file_bytes=len(data), min_line=4 + 2 * weighted,
                    what=f"ids up to {n - 1:,} imply", isolated=False)
    claim = _claimed_direction(comments, comment, meta)
    text = " ".join(comments).lower()
    reading = {
        "format": fmt,
        "comment": comment.decode(),
        "header_line": header[0] if header else None,
        "declared_n": declared,
        "index_base": base,
        "index_base_because": why,
        "weights_in_file": weighted,
    }
    if not weighted:
        edges_claim = re.search(r"edges:\s*(\d+)", text)
        if edges_claim and int(edges_claim.group(1)) != src.shape[0]:
            warns.append(
                f"{path}: a comment says {edges_claim.group(1)} edges but the file has "
                f"{src.shape[0]} edge lines (a partial copy?)"
            )
    return _build(
        path,
        n,
        (src, dst, w),
        native=True,
        stored_both=True,
        directed=directed,
        name=name,
        family=family,
        provenance={"source": str(path), "format": fmt, "pattern": not weighted},
        reading=reading,
        claim=claim,
        warns=warns,
    )


def _claimed_direction(comments: list[str], comment: bytes, meta: dict) -> bool | None:
    """What the comments say: SNAP "Undirected graph"/"Directed graph", KONECT "% sym"/"% asym"
    on the first line, or llpbench's ``directed=`` (None when they say nothing)."""
    if meta.get("directed") in ("true", "false"):
        return meta["directed"] == "true"
    konect = comments[0].split()[:1] if comment == b"%" and comments else []
    text = " ".join(comments).lower()
    if konect == ["sym"] or re.search(r"\bundirected\b", text):
        return False
    if konect == ["asym"] or re.search(r"\bdirected\b", text):
        return True
    return None


def _index_base(value: str | int) -> int | None:
    if str(value) in ("0", "1"):
        return int(value)
    if value != "auto":
        raise SpecError(f"bad index base {value!r}: expected 0, 1 or auto")
    return None


def _counts_rest(data: bytes, offset: int, comment: bytes, ints: list[int]) -> bool:
    """Whether ``ints = [n, m]`` counts what follows: exactly ``m`` data lines after it, none
    naming a vertex beyond ``n`` (``0 1`` then ``1 0`` is two arcs, not a header)."""
    n, m = ints
    rest = 0
    for line in data[offset:].splitlines():
        tokens = line.split(comment, 1)[0].split()
        if tokens:
            rest += 1
            if rest > m or any(not t.isdigit() or int(t) > n for t in tokens[:2]):
                return False
    return rest == m


def _detect_base(path: Path, src, dst, declared: int | None, warns: list[str]) -> tuple[int, str]:
    """The index base of an edge list whose reader was not told; an ambiguous guess adds a
    warning naming ``--index-base`` to ``warns``."""
    if not src.shape[0]:
        return 0, "no arcs"
    lo, hi = int(min(src.min(), dst.min())), int(max(src.max(), dst.max()))
    if lo == 0:
        return 0, "id 0 appears"
    if declared is not None and hi == declared:
        return 1, f"ids reach the declared n = {declared}"
    if lo == 1:
        warns.append(
            f"{path}: ids start at 1, read as 1-based (vertex 1 becomes 0); "
            "pass --index-base 0 to keep them as they are"
        )
        return 1, "ids start at 1 (assumed 1-based)"
    return 0, f"ids start at {lo}: kept as labels"


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
    return quote_line(line)
