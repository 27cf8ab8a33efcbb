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

from llpbench.errors import FormatError, NegativeWeightError, ReadingWarning, SpecError
from llpbench.graphs.file_claims import claims_of, line_count_note
from llpbench.graphs.formats_text import (
    COMPRESSED_SUFFIXES,
    BodySpec,
    iter_lines,
    parse_body,
    parse_body_slow,
    quote_line,
    read_bytes,
    suffix_of,
)
from llpbench.graphs.formats_write import load_npz, save_npz, write_graph
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import FileIds, one_based, zero_based
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

#: The edge-list formats whose direction the arcs themselves may decide.
EDGE_LISTS = ("snap", "wel", "konect")

_BANNER = "a banner '%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>'"


def graph_name(path: Path) -> str:
    """The file name without suffixes; a KONECT ``out.NAME`` file is called NAME, since
    its suffix is the name and its stem only says what kind of KONECT file it is."""
    name = path.name
    if path.suffix.lower() in COMPRESSED_SUFFIXES:
        name = path.with_suffix("").name
    if name.startswith("out.") and len(name) > 4:
        return name[4:]
    return Path(name).stem


def read_graph(
    path: str | Path,
    *,
    directed: bool | None = None,
    index_base: str | int = "auto",
    name: str | None = None,
    family: str = "file",
    compact: bool = False,
    weights_column: bool = False,
    negative_weights: bool = False,
    negative_aside: bool = False,
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
    compact : bool
        Edge lists: renumber the ids that occur to 0..k-1 (``--compact-ids``).
    weights_column : bool
        Edge lists: a third column is a weight even where a KONECT header says the file is
        unweighted (``--weights file``).
    negative_weights : bool
        Accept negative weights instead of refusing the file, for a caller that replaces the
        weights by a rule (``--weights unit``): they are read as placeholders.
    negative_aside : bool
        Accept negative *file* weights too, setting them aside: the graph's weights become
        0 and ``provenance["negative_weights"]`` says how many there were, the least and the
        line of the first, so that BFS (which ignores weights) and ``datasets info`` take the
        file and a problem that uses weights refuses it naming the flag that helps
        (:func:`llpbench.problems.check_input`).

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
        return _read_edge_list(
            path, directed, index_base, name, family, weighted=suffix == ".wel",
            compact=compact, weights_column=weights_column, negative_weights=negative_weights,
            negative_aside=negative_aside,
        )
    if str(index_base) not in ("auto", "1"):
        raise SpecError(
            f"{path}: {suffix} files are 1-based by definition; "
            f"--index-base {index_base} does not apply"
        )
    reader = read_matrix_market if suffix == ".mtx" else read_dimacs
    return reader(path, directed=directed, name=name, family=family,
                  negative_weights=negative_weights, negative_aside=negative_aside)


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
    flags: dict[str, Any] | None = None,
    file_ids: FileIds | None = None,
    negative_note: str | None = None,
) -> Graph:
    """The graph of the parsed arcs, with ``provenance["reading"]`` saying what was assumed.

    ``claim`` is what the file's comments say about directedness (edge lists only; None when
    silent), ``native`` the format's own answer; an explicit ``directed`` overrides both. A
    comment saying "directed" on a file that lists every arc both ways (SNAP's boilerplate
    on ca-GrQc and Email-Enron) gives way to the arcs, with a warning naming ``--directed``.
    ``flags`` are the user's own settings, recorded for the verifier, which shares nothing else.
    ``file_ids`` is how the file names the vertices (see :mod:`.ids`), recorded in words too.
    """
    src, dst, weights = arrays
    reading = dict(reading or {}, format=provenance["format"])
    given = flags or {"directed": directed}
    reading["flags"] = {k: v for k, v in given.items() if v is not None and v is not False}
    if directed is not None:
        reading["flags"]["directed"] = directed
    warns = list(warns or [])
    lonely = None
    if directed is None and claim and reading.get("format") in EDGE_LISTS:
        lonely = _without_reverse(n, src, dst, weights)
    if directed is not None:
        final, why = directed, "--directed" if directed else "--undirected"
    elif lonely == 0 and src.shape[0] and "llpbench:" not in reading.get("claim", ""):
        final, why = False, "every arc is listed in both directions (a comment says directed)"
        warns.append(
            f"{path}: a comment says the graph is directed, but every arc is listed in both "
            "directions; read as undirected (one edge per pair); pass --directed to keep the "
            "arcs apart"
        )
    elif claim is not None:
        final, why = claim, "the file's comment says so"
    elif reading.get("format") in EDGE_LISTS:
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
        looped_vertices=int(np.unique(src[loops]).shape[0]),
        parallel_arcs_merged=int(keys.shape[0] - np.unique(keys).shape[0]),
        n=int(n),
    )
    if file_ids is not None:
        reading["ids"] = file_ids.how
    provenance = dict(provenance, reading=reading)
    if negative_note:
        provenance["negative_weights"] = negative_note
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
        name=name or graph_name(path),
        family=family,
        provenance=provenance,
        file_ids=file_ids,
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
    path: str | Path, *, directed: bool | None = None, name: str | None = None,
    family: str = "file", negative_weights: bool = False, negative_aside: bool = False,
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
        negative=negative_weights or negative_aside,
        aside=negative_aside and not negative_weights,
    )
    arrays, aside = set_aside(path, data, start, lineno + 1, spec,
                              parse_body(path, data, start, lineno + 1, spec))
    prov = {"source": str(path), "format": "mtx", "pattern": field == "pattern"}
    stated = f"the size line {lineno}: n = {n}, {nnz} entries (checked)"
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
        reading={"stated": stated},
        file_ids=one_based("Matrix Market"),
        negative_note=aside,
    )


def read_dimacs(
    path: str | Path, *, directed: bool | None = None, name: str | None = None,
    family: str = "file", negative_weights: bool = False, negative_aside: bool = False,
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
        negative=negative_weights or negative_aside,
        aside=negative_aside and not negative_weights,
    )
    first_line = first_arc or _last_line(data) + 1
    arrays, aside = set_aside(path, data, start, first_line, spec,
                              parse_body(path, data, start, first_line, spec))
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
        reading={"stated": f"'p sp {n} {m}' on line {p_line}: n = {n}, {m} arc lines (checked)"},
        file_ids=one_based("DIMACS"),
        negative_note=aside,
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

    - a first data line ``n m`` whose ``m`` equals the number of lines after it is a count
      header, not an arc, when ``n`` bounds the ids or is the number of distinct ids (then the
      ids are labels and are renumbered 0..n-1 with a warning naming ``--compact-ids``);
    - every count the file states (that header, SNAP ``# Nodes: N Edges: E``, KONECT
      ``% m n n``) is checked against what was read, and a stated n sets the index base:
      ids reaching n are 1-based, ids within 0..n-1 are 0-based; without one, ids containing 0
      are 0-based, ids starting at 1 are 1-based, larger first ids are kept as labels;
      KONECT files are 1-based;
    - ``directed=None``: a comment (SNAP ``Undirected graph``/``Directed graph``, KONECT
      ``% sym``/``% asym``) decides, except that a "directed" file listing every arc both ways
      is undirected (with a warning naming ``--directed``); a silent file listing every arc
      both ways is undirected, any other is read as directed with a warning naming
      ``--undirected``;
    - a third column is a weight (KONECT ``posweighted``, ``weighted``, ``signed``..., or no
      KONECT header), or a multiplicity, ignored (KONECT ``unweighted``, ``positive``); a
      fourth column (KONECT's timestamp) is ignored. See :mod:`.file_claims`.

    Without a weight column the weights are unit (``provenance["pattern"] = True``). See
    :func:`read_graph`.
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


def _read_edge_list(
    path, directed, index_base, name, family, *, weighted: bool, compact: bool = False,
    weights_column: bool = False, negative_weights: bool = False, negative_aside: bool = False,
) -> Graph:
    path = Path(path)
    data, table = delimited(read_bytes(path))
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
    claims = claims_of(comments, comment)
    if claims.konect:
        fmt = "konect"
    cols = _arc_columns(data, first, comment, 3 if weighted else 2)
    header, candidate = None, None  # (lineno, n, m)
    start, start_line = 0, 1
    if first is not None:
        lineno, tokens, _, nxt = first
        ints = _ints(b" ".join(tokens), len(tokens)) if len(tokens) in (2, 3) else None
        if ints is not None and len(tokens) != cols:  # unlike the arcs: a count header if it
            if weighted or _data_lines(data, nxt, comment) == ints[-1]:  # counts them
                header = (lineno, ints[0], ints[-1])
                start, start_line = nxt, lineno + 1
            else:  # an arc line; the next line's columns are wrong, and the parse says so
                cols = len(tokens)
        if ints is not None and header is None and cols == 2:  # like an arc: what follows
            candidate = (lineno, ints[0], ints[-1])  # decides
    third = _third_column(cols, weighted, claims, weights_column)
    reading: dict[str, Any] = {"format": fmt, "comment": comment.decode(), **table}
    if claims.konect:
        reading["konect"] = f"{claims.konect} {claims.konect_weights}"
    if cols >= 3:
        reading["third_column"] = third
    if cols == 4:
        reading["fourth_column"] = "a timestamp, ignored"
    keep_weights = cols >= 3 and third.startswith("weight")
    what = {2: "an edge line 'from to'", 3: "an edge line 'u v w'", 4: "an edge line 'u v w t'"}
    what = what[cols]
    spec = BodySpec(
        comment=comment,
        what=what,
        weights=(_weight_kind(meta) if weighted else "infer") if cols >= 3 else None,
        ignored=max(0, cols - 3),
        expected=header[2] if header else None,
        declared_on=header[0] if header else None,
        negative=negative_weights or negative_aside or not keep_weights,  # a count is no
        aside=negative_aside and keep_weights and not negative_weights,  # weight
    )
    (src, dst, w), aside = set_aside(path, data, start, start_line, spec,
                                     parse_body(path, data, start, start_line, spec))
    if candidate is not None:
        because = count_header(candidate[1], candidate[2], src[1:], dst[1:])
        if because:
            header, src, dst = candidate, src[1:], dst[1:]
            w = None if w is None else w[1:]
            start, start_line = first[3], first[0] + 1
            reading["header_because"] = because
    if not keep_weights:
        w = None
    stated, stated_where = None, ""
    if header is not None:
        stated, stated_where = header[1], f"the count header on line {header[0]}"
    elif claims.n is not None:
        stated, stated_where = claims.n, claims.where
    elif "n" in meta:
        stated, stated_where = int(meta["n"]), "the llpbench comment"
    base, why = _decide_base(path, src, dst, base_flag, stated, stated_where, claims, meta, warns)
    src, dst = src - base, dst - base
    n, compacted = _vertex_count(path, src, dst, stated, stated_where, compact, warns)
    # n is claimed (a header, a comment) or implied by the ids: refused before the graph's
    # arrays of n entries exist if the file or the machine cannot hold it
    if stated is not None and n == stated:
        check_claim(path, header[0] if header else None, n, header[2] if header else None,
                    file_bytes=len(data), min_line=4 + 2 * weighted,
                    what="the count header claims" if header else f"{stated_where} claims")
    else:
        check_claim(path, None, n, src.shape[0], file_bytes=len(data), min_line=4 + 2 * weighted,
                    what=f"ids up to {n - 1:,} imply", isolated=False)
    file_ids = (one_based if base else zero_based)(why)
    if compacted is not None:
        ids, inverse = np.unique(np.concatenate([src, dst]), return_inverse=True)
        src, dst = inverse[: src.shape[0]], inverse[src.shape[0] :]
        reading["ids_compacted"] = compacted
        file_ids = file_ids.compose(ids, compacted)
    if src.shape[0] and (
        min(src.min(), dst.min()) < 0
        or ((header or "n" in meta) and max(src.max(), dst.max()) >= (stated or 0))
    ):
        # an id below the base, or beyond the n of a header or an llpbench comment: parse
        # again with the bounds, for the error naming the first line outside them
        bounded = dataclasses.replace(spec, base=base, n=None if compacted else stated)
        parse_body(path, data, start, start_line, bounded)
    reading.update(
        header_line=header[0] if header else None,
        declared_n=stated,
        stated=_stated(stated_where, stated, claims, header, int(src.shape[0])),
        index_base=base,
        index_base_because=why,
        weights_in_file=keep_weights,
    )
    claim = _claimed_direction(comments, comment, meta)
    if claim is not None:
        reading["claim"] = "llpbench: directed=" if "directed" in meta else "a comment"
    note = line_count_note(path, claims, int(src.shape[0])) if header is None else None
    if note:
        warns.append(note)
    provenance = {"source": str(path), "format": fmt, "pattern": not keep_weights}
    if compacted is not None:
        provenance["compacted_from_n"] = int(ids[-1]) + 1
    return _build(
        path,
        n,
        (src, dst, w),
        native=True,
        stored_both=True,
        directed=directed,
        name=name,
        family=family,
        provenance=provenance,
        reading=reading,
        claim=claim,
        warns=warns,
        flags={"directed": directed, "index_base": base_flag, "compact": compact,
               "weights_column": weights_column},
        file_ids=file_ids,
        negative_note=aside,
    )


def set_aside(path: Path, data: bytes, start: int, first_line: int, spec: BodySpec,
              arrays: tuple) -> tuple[tuple, str | None]:
    """``arrays`` with negative weights set aside (``spec.aside``): the weights all 0, and the
    note that says so, naming the file, the line of the first one, their count and the least;
    ``(arrays, None)`` when there are none or the caller replaces the weights anyway."""
    src, dst, w = arrays
    if not spec.aside or w is None or not w.shape[0] or w.min() >= 0:
        return arrays, None
    first = f"{path}: negative weight"
    try:  # the line of the first, from the line-by-line parse (stopped there: the error path)
        parse_body_slow(path, data, start, first_line,
                        dataclasses.replace(spec, negative=False, aside=False))
    except NegativeWeightError as exc:
        first = str(exc).split(";")[0]  # "<file>:<line>: negative weight <w>"
    count, least = int((w < 0).sum()), w.min().item()
    note = (f"{first} ({count:,} negative, the least {least}), set aside: the graph's "
            "weights are 0")
    return (src, dst, np.zeros_like(w)), note


_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_ .:-]*")


def delimited(data: bytes) -> tuple[bytes, dict[str, str]]:
    """The edge list ``data`` as whitespace-separated lines, and what was found: a comma
    delimiter and a header row of column names (``from,to,weight``, ``source,target``: what
    pandas' ``to_csv`` and NetworkX users write), each stated for ``reading``.

    A header row is the first data line when none of its 2 to 4 fields is a number and each
    is a name; it is blanked (line numbers stay those of the file). A header whose first
    name is empty (``,source,target,weight``: pandas' index column) drops that column from
    every line. Commas become spaces. A file with neither comes back unchanged.
    """
    first, start = None, 0
    for lineno, line, nxt in iter_lines(data):
        stripped = line.strip()
        if stripped and stripped[:1] not in (b"#", b"%"):
            first = (lineno, line, nxt)
            break
        start = nxt
    if first is None:
        return data, {}
    lineno, line, nxt = first
    comma = b"," in line
    fields = [f.strip() for f in (line.split(b",") if comma else line.split())]
    said: dict[str, str] = {}
    if comma:
        said["delimiter"] = f"comma (line {lineno} has one)"
    names = [f for f in fields if f]
    index = comma and not fields[0]  # pandas' unnamed index column
    header = 2 <= len(names) <= 4 and len(fields) - len(names) == int(index)
    header = header and all(_NAME.fullmatch(f) and _number(f) is None for f in names)
    if not header:
        return (data.replace(b",", b" ") if comma else data), said
    said["header_row"] = f"line {lineno} {quote_line(line)}: column names, skipped"
    body = data[nxt:]
    if index:  # its values are row numbers, no vertex
        body = re.sub(rb"(?m)^[ \t]*[^,#%\r\n]*,", b"", body)
        said["header_row"] += "; its unnamed first column (an index) dropped"
    data = data[:start] + data[start + len(line):nxt] + body  # the line blanked, its end kept
    return (data.replace(b",", b" ") if comma else data), said


def _number(token: bytes) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def count_header(n: int, m: int, src: np.ndarray, dst: np.ndarray) -> str | None:
    """Why a first line ``n m``, shaped like an arc, is a count header; None when it is not.

    It is one when ``m`` is the number of lines after it and ``n`` either bounds the ids or
    is the number of distinct ids (labels, as in SNAP's ``5242 28980`` copies of ca-GrQc).
    ``0 1`` then ``1 0`` is two arcs. A module-level function so that tests can force a
    misreading (see ``tests/graphs/test_corpus.py``).
    """
    if src.shape[0] != m:
        return None
    if not m or max(src.max(), dst.max()) <= n:
        return f"it counts the {m} lines after it"
    distinct = np.unique(np.concatenate([src, dst])).shape[0]
    if distinct == n:
        return f"it counts the {m} lines after it and the {n} distinct ids"
    return None


def _arc_columns(data: bytes, first, comment: bytes, least: int) -> int:
    """Columns of the arc lines: those of the second data line (the first may be a header)."""
    if first is None:
        return least
    for _, line, _ in iter_lines(data, first[3], first[0] + 1):
        tokens = line.split(comment, 1)[0].split()
        if tokens:
            return len(tokens) if len(tokens) in (2, 3, 4) and len(tokens) >= least else least
    return len(first[1]) if len(first[1]) in (2, 3, 4) and len(first[1]) >= least else least


def _data_lines(data: bytes, offset: int, comment: bytes) -> int:
    """How many data lines (not blank, not comments) follow ``offset``."""
    rest = (line.split(comment, 1)[0] for line in data[offset:].splitlines())
    return sum(1 for line in rest if line.strip())


def _third_column(cols: int, weighted: bool, claims, weights_column: bool) -> str:
    """What the third column of an edge list is, in words starting ``weight`` or not."""
    if cols < 3:
        return ""
    if weighted:
        return "weights (a .wel file)"
    if claims.konect_weighted is None:
        return "weights (no KONECT header says otherwise)"
    tag = f"KONECT '{claims.konect_weights}'"
    if claims.konect_weighted:
        return f"weights ({tag})"
    if weights_column:
        return f"weights (--weights file; {tag} says unweighted)"
    return f"multiplicity ({tag}: unweighted), ignored"


def _decide_base(path, src, dst, flag, stated, where, claims, meta, warns) -> tuple[int, str]:
    """The index base and why: a flag, then the file's statements, then the ids themselves.

    With a stated n, ids reaching n are 1-based and ids within 0..n-1 are 0-based (a warning
    when 0 is missing: both fit); without one, ids starting at 1 are 1-based (a warning)."""
    if flag is not None:
        return flag, f"--index-base {flag}"
    if "n" in meta:
        return 0, "an llpbench-written file (0-based)"
    if not src.shape[0]:
        return 0, "no arcs"
    lo, hi = int(min(src.min(), dst.min())), int(max(src.max(), dst.max()))
    if lo == 0:
        return 0, "id 0 appears"
    if claims.konect:
        return 1, "KONECT files are 1-based"
    if stated is not None and hi == stated:
        return 1, f"ids reach the declared n = {stated} ({where})"
    if stated is not None and hi < stated:
        warns.append(
            f"{path}: ids {lo}..{hi} fit {where} either 0- or 1-based; read 0-based "
            f"(ids 0..{stated - 1}); pass --index-base 1 if vertex 1 is the first"
        )
        return 0, f"ids fit 0..{stated - 1} of the declared n = {stated} ({where})"
    if lo == 1:
        warns.append(
            f"{path}: ids start at 1, read as 1-based (vertex 1 becomes 0); "
            "pass --index-base 0 to keep them as they are"
        )
        return 1, "ids start at 1 (assumed 1-based)"
    return 0, f"ids start at {lo}: kept as labels"


def _stated(where: str, n: int | None, claims, header, lines: int) -> str | None:
    """Every count the file states, and the lines read to check the edge count against."""
    if n is None and claims.m is None:
        return None
    m = header[2] if header else claims.m
    said = [f"n = {n:,}"] if n is not None else []
    if m is not None:
        said.append(f"{m:,} edge lines ({lines:,} read)")
    return f"{where or claims.where}: {', '.join(said)}"


def _vertex_count(path, src, dst, stated, where, compact, warns) -> tuple[int, str | None]:
    """n, and why the ids are renumbered 0..k-1 (None when they are not).

    A stated n bounds the ids; ids beyond it whose distinct count is n are labels, renumbered
    with a warning naming ``--compact-ids`` (which says so, silencing it)."""
    top = int(max(src.max(), dst.max())) + 1 if src.shape[0] else 0
    distinct = np.unique(np.concatenate([src, dst])).shape[0] if src.shape[0] else 0
    if compact:
        return distinct, "--compact-ids"
    if stated is None or top <= stated:
        return (top if stated is None else stated), None
    if distinct == stated:
        warns.append(
            f"{path}: {where} says n = {stated:,} and {distinct:,} distinct ids occur, up to "
            f"{top - 1:,}: they are labels, renumbered 0..{stated - 1:,} in order; pass "
            "--compact-ids to say so"
        )
        return distinct, f"{distinct} distinct ids, as {where} states"
    warns.append(
        f"{path}: {where} says n = {stated:,} but the ids go up to {top - 1:,} "
        f"({distinct:,} distinct); kept as they are; pass --compact-ids to renumber them"
    )
    return top, None


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
