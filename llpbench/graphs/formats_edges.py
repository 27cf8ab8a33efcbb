"""Edge lists: SNAP and KONECT files (``.txt``, ``.el``, any other suffix) and weighted edge
lists (``.wel``): the readers and the ``.wel`` writer.

An edge list states little: what it leaves open (a count header, the index base, direction,
what a third column is, ids that are labels) is decided here from its comments and its arcs,
each decision recorded in ``provenance["reading"]`` and warned about, naming the flag that
settles it, where it was a guess. The rules are stated in :func:`read_snap`; the
comment-level claims (SNAP ``# Nodes:``, KONECT ``% sym``) are read by :mod:`.file_claims`.
Both formats' lines in :data:`llpbench.graphs.format_table.FORMATS` name their reader here.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from llpbench.errors import SpecError
from llpbench.graphs.file_claims import claims_of, line_count_note
from llpbench.graphs.formats_common import (
    graph_from_arcs,
    ints,
    llpbench_meta,
    set_aside,
    weight_kind,
)
from llpbench.graphs.formats_text import (
    BodySpec,
    arcs_text,
    iter_lines,
    parse_body,
    quote_line,
    read_bytes,
)
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import one_based, zero_based
from llpbench.graphs.limits import check_claim
from llpbench.graphs.read_options import ReadOptions


def read_snap(
    path: str | Path, options: ReadOptions | None = None, *, name: str | None = None,
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
    Without a weight column the weights are unit (``provenance["pattern"] = True``). See
    :func:`llpbench.graphs.formats.read_graph` for the options.
    """
    return _read_edge_list(Path(path), options or ReadOptions(), name, family, weighted=False)


def read_wel(
    path: str | Path, options: ReadOptions | None = None, *, name: str | None = None,
    family: str = "file",
) -> Graph:
    """Read a weighted edge list: comments, an optional count header, ``u v w`` per line.

    ``n`` is declared by a count header or a ``# llpbench: n=<n>`` line, else the largest id
    plus one. Weights are int64 unless some weight is not an integer. Detection of headers,
    index base and directedness as in :func:`read_snap`.
    """
    return _read_edge_list(Path(path), options or ReadOptions(), name, family, weighted=True)


@dataclass
class _Head:
    """The lines before the first data line: the comment mark, the comments, the
    ``llpbench:`` settings, and the first data line ``(lineno, tokens, offset, next)``."""

    comment: bytes = b"#"
    comments: list[str] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    first: tuple | None = None


@dataclass
class _Layout:
    """Where the arcs start and how many columns they have; the count header ``(lineno, n,
    m)`` found before parsing, or the first line that may be one once the arcs are known."""

    cols: int
    header: tuple | None = None
    candidate: tuple | None = None
    start: int = 0
    start_line: int = 1


def _read_edge_list(
    path: Path, options: ReadOptions, name: str | None, family: str, *, weighted: bool
) -> Graph:
    """Both edge-list formats: the head scanned, the body parsed in one pass (see
    :mod:`.formats_text`), then every open question decided (see :func:`read_snap`)."""
    data, table = delimited(read_bytes(path))
    base_flag = _index_base(options.index_base)
    head = _scan_head(path, data)
    claims = claims_of(head.comments, head.comment)
    lay = _layout(data, head, weighted)
    third = _third_column(lay.cols, weighted, claims, options.weights_column)
    keep_weights = lay.cols >= 3 and third.startswith("weight")
    reading = _column_reading(weighted, head, table, claims, lay.cols, third)
    spec = _body_spec(head, lay, weighted, keep_weights, options)
    (src, dst, w), aside = set_aside(path, data, lay.start, lay.start_line, spec,
                                     parse_body(path, data, lay.start, lay.start_line, spec))
    if lay.candidate is not None:
        because = count_header(lay.candidate[1], lay.candidate[2], src[1:], dst[1:])
        if because:
            lay.header, src, dst = lay.candidate, src[1:], dst[1:]
            w = None if w is None else w[1:]
            lay.start, lay.start_line = head.first[3], head.first[0] + 1
            reading["header_because"] = because
    stated, where = _stated_n(lay.header, claims, head.meta)
    warns: list[str] = []
    base, why = _decide_base(path, src, dst, base_flag, stated, where, claims, head.meta, warns)
    src, dst = src - base, dst - base
    n, compacted = _vertex_count(path, src, dst, stated, where, options.compact, warns)
    _check_size(path, len(data), n, stated, where, lay.header, src.shape[0], weighted)
    file_ids = (one_based if base else zero_based)(why)
    if compacted is not None:
        ids, inverse = np.unique(np.concatenate([src, dst]), return_inverse=True)
        src, dst = inverse[: src.shape[0]], inverse[src.shape[0] :]
        reading["ids_compacted"] = compacted
        file_ids = file_ids.compose(ids, compacted)
    if src.shape[0] and (
        min(src.min(), dst.min()) < 0
        or ((lay.header or "n" in head.meta) and max(src.max(), dst.max()) >= (stated or 0))
    ):
        # an id below the base, or beyond the n of a header or an llpbench comment: parse
        # again with the bounds, for the error naming the first line outside them
        bounded = dataclasses.replace(spec, base=base, n=None if compacted else stated)
        parse_body(path, data, lay.start, lay.start_line, bounded)
    reading.update(
        header_line=lay.header[0] if lay.header else None,
        declared_n=stated,
        stated=_stated(where, stated, claims, lay.header, int(src.shape[0])),
        index_base=base,
        index_base_because=why,
        weights_in_file=keep_weights,
    )
    claim = _claimed_direction(head.comments, head.comment, head.meta)
    if claim is not None:
        reading["claim"] = "llpbench: directed=" if "directed" in head.meta else "a comment"
    note = line_count_note(path, claims, int(src.shape[0])) if lay.header is None else None
    if note:
        warns.append(note)
    provenance = {"source": str(path), "format": reading["format"], "pattern": not keep_weights}
    if compacted is not None:
        provenance["compacted_from_n"] = int(ids[-1]) + 1
    return graph_from_arcs(
        path, n, (src, dst, w if keep_weights else None), native=True, stored_both=True,
        directed=options.directed, name=name, family=family, provenance=provenance,
        reading=reading, claim=claim, warns=warns, file_ids=file_ids, negative_note=aside,
        flags={"directed": options.directed, "index_base": base_flag,
               "compact": options.compact, "weights_column": options.weights_column},
    )


def _scan_head(path: Path, data: bytes) -> _Head:
    """Blank and comment lines up to the first data line; the first comment's mark (``#`` or
    ``%``) is the file's."""
    head = _Head()
    offset = 0
    for lineno, line, nxt in iter_lines(data):
        stripped = line.strip()
        if not stripped:
            offset = nxt
            continue
        if stripped[:1] in (b"#", b"%"):
            if not head.comments:
                head.comment = stripped[:1]
            head.comments.append(stripped[1:].strip().decode("utf-8", "replace"))
            head.meta.update(llpbench_meta(path, lineno, line, b"#"))
            offset = nxt
            continue
        head.first = (lineno, stripped.split(), offset, nxt)
        break
    return head


def _layout(data: bytes, head: _Head, weighted: bool) -> _Layout:
    """The arcs' columns, and whether the first data line is a count header: unlike the arcs
    (another column count) it is one if it counts the lines after it (a ``.wel`` always);
    like an arc (``n m``) it is a candidate that the parsed arcs decide."""
    lay = _Layout(_arc_columns(data, head.first, head.comment, 3 if weighted else 2))
    if head.first is None:
        return lay
    lineno, tokens, _, nxt = head.first
    numbers = ints(b" ".join(tokens), len(tokens)) if len(tokens) in (2, 3) else None
    if numbers is not None and len(tokens) != lay.cols:
        if weighted or _data_lines(data, nxt, head.comment) == numbers[-1]:
            lay.header = (lineno, numbers[0], numbers[-1])
            lay.start, lay.start_line = nxt, lineno + 1
        else:  # an arc line; the next line's columns are wrong, and the parse says so
            lay.cols = len(tokens)
    if numbers is not None and lay.header is None and lay.cols == 2:
        lay.candidate = (lineno, numbers[0], numbers[-1])
    return lay


def _column_reading(weighted: bool, head: _Head, table: dict[str, str], claims, cols: int,
                    third: str) -> dict[str, Any]:
    """The start of ``provenance["reading"]``: format, comment mark, delimiter and header
    row, KONECT's header and what the third and fourth columns are."""
    fmt = "konect" if claims.konect else ("wel" if weighted else "snap")
    reading: dict[str, Any] = {"format": fmt, "comment": head.comment.decode(), **table}
    if claims.konect:
        reading["konect"] = f"{claims.konect} {claims.konect_weights}"
    if cols >= 3:
        reading["third_column"] = third
    if cols == 4:
        reading["fourth_column"] = "a timestamp, ignored"
    return reading


_WHAT = {2: "an edge line 'from to'", 3: "an edge line 'u v w'", 4: "an edge line 'u v w t'"}


def _body_spec(head: _Head, lay: _Layout, weighted: bool, keep_weights: bool,
               options: ReadOptions) -> BodySpec:
    """How to parse the arc lines; a third column that is a count takes any sign."""
    return BodySpec(
        comment=head.comment,
        what=_WHAT[lay.cols],
        weights=(weight_kind(head.meta) if weighted else "infer") if lay.cols >= 3 else None,
        ignored=max(0, lay.cols - 3),
        expected=lay.header[2] if lay.header else None,
        declared_on=lay.header[0] if lay.header else None,
        negative=options.replaces_weights or options.negative_aside or not keep_weights,
        aside=options.negative_aside and keep_weights,
    )


def _stated_n(header, claims, meta: dict[str, str]) -> tuple[int | None, str]:
    """The n the file states and where: a count header, a comment, the llpbench line."""
    if header is not None:
        return header[1], f"the count header on line {header[0]}"
    if claims.n is not None:
        return claims.n, claims.where
    if "n" in meta:
        return int(meta["n"]), "the llpbench comment"
    return None, ""


def _check_size(path: Path, file_bytes: int, n: int, stated: int | None, where: str, header,
                arcs: int, weighted: bool) -> None:
    """Refuse, before the graph's arrays of n entries exist, an n claimed (a header, a
    comment) or implied by the ids that the file or the machine cannot hold."""
    if stated is not None and n == stated:
        check_claim(path, header[0] if header else None, n, header[2] if header else None,
                    file_bytes=file_bytes, min_line=4 + 2 * weighted,
                    what="the count header claims" if header else f"{where} claims")
    else:
        check_claim(path, None, n, arcs, file_bytes=file_bytes, min_line=4 + 2 * weighted,
                    what=f"ids up to {n - 1:,} imply", isolated=False)


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




def wel_bytes(graph: Graph, arcs) -> bytes:
    """Every arc as ``u v w`` (0-based), n, directedness and the weight dtype in the
    ``# llpbench:`` line. ``arcs``: a :class:`~llpbench.graphs.formats_write.WrittenArcs`."""
    head = f"# {arcs.banner}\n# {arcs.meta}\n"
    return head.encode("utf-8") + arcs_text(arcs.src, arcs.dst, arcs.weights)
