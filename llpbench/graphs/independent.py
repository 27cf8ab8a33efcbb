"""The verifier's own view of a graph: the file re-read, and its reading decided, here.

A reference answer computed from the solver's own instance shares every mistake of the reader
that built it: a count header read as an arc, 1-based ids kept, an undirected edge list read
one way. Re-reading the file under the reader's *recorded* decisions is not enough either: a
wrong decision is then applied twice. So the references of the graph problems start from
:func:`reference_matrix`, which re-reads ``provenance["source"]`` with code that shares nothing
with :mod:`.formats` (scipy's ``mmread``, numpy's ``loadtxt``) and decides for itself, by a
smaller rule set, everything the file leaves open:

- count header: a first data line of 2-3 integers whose last counts the lines after it and
  whose first is at least the number of distinct ids among them, unless it has three and the
  arcs do too (the columns of the lines after it; alone, a ``.wel`` arc's three): that line is
  an arc ``u v w`` (``0 0 0``, a self-loop of weight 0, is the graph's vertex 0, not n = 0);
- index base: a stated n (header, ``Nodes:``, KONECT ``% m n n``) reached by the ids means
  1-based; KONECT is 1-based; without a stated n, ids starting at 1 are 1-based;
- ids beyond a stated n whose distinct count is n are labels, renumbered 0..n-1;
- direction: every arc listed both ways (same weight) is undirected, a file of self-loops
  only too (each loop is its own reverse); else a comment saying undirected (or KONECT
  ``sym``) is; else directed;
- a third column is a weight unless a KONECT tag says unweighted; self-loop and parallel
  lines are counted (loops kept: a looped vertex reaches itself; parallel arcs merged by
  their minimum, the arc any shortest path uses).

Only the user's flags (``reading["flags"]``: ``--directed``, ``--index-base``,
``--compact-ids``, ``--weights file``) and the weight rule are shared. :func:`reading_dispute`
compares its decisions with the reader's: any difference, or a count the file states that the
graph does not have, makes verification fail with the decision named and the flag that settles
it (see :func:`with_dispute`). Generated graphs have no file; their matrix is built from the
graph's arcs and loops.
"""

from __future__ import annotations

import functools
import io
import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from llpbench.graphs.graph import Graph

_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)
_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def min_merged_matrix(
    n: int, src: np.ndarray, dst: np.ndarray, weights: np.ndarray, *,
    both_ways: bool = False, loops: np.ndarray | None = None,
):
    """A scipy CSR matrix of the arcs, each parallel group kept once with its minimum weight.

    scipy's constructors sum duplicates; shortest paths need the minimum. Explicit zero weights
    stay stored entries (csgraph treats a stored zero as an arc of weight zero). With
    ``both_ways`` every arc also stands for its reverse (an undirected reading, without a
    doubled copy of the arrays); ``loops`` adds a self-loop of weight 0 at each vertex listed.

    Built in O(m) by :func:`_merge_by_source`, this module's own counting sort: no sort of the
    arcs, no int64 copy of them, the matrix's own arrays (int32 heads, float64 weights) the
    only arc-sized allocations.
    """
    import scipy.sparse as sp

    loops = np.zeros(0, np.int64) if loops is None else np.asarray(loops)
    m = src.shape[0] * (2 if both_ways else 1) + loops.shape[0]
    index = np.int32 if max(n, m) < 2**31 else np.int64
    ends, heads, data = _merge_by_source(
        np.int64(n), np.asarray(src), np.asarray(dst), np.asarray(weights), both_ways, loops,
        np.zeros(0, index),
    )
    indptr = np.zeros(n + 1, index)
    indptr[1:] = ends[:n]
    del ends
    return sp.csr_matrix((data, heads, indptr), shape=(n, n), copy=False)


@njit(cache=True)
def _merge_by_source(n, src, dst, weights, both_ways, loops, index):
    """Counting sort of the arcs by source, then one pass per row keeping the lightest arc to
    each head (``last[v]`` remembers where row u stored v: O(1) per arc, O(m + n) in all).
    Rows come out in order of first appearance of each head (csgraph needs no sorted rows).

    Per vertex it holds one int64 array (the rows' starts, then their ends, then the merged
    rows' ends) and ``last`` in the index type: 12 bytes, where a separate fill pointer, an
    int64 ``last`` and a separate output cost 32 (15 bytes per arc on a road graph)."""
    k = src.shape[0]
    ends = np.zeros(n + 1, np.int64)
    for e in range(k):
        ends[src[e] + 1] += 1
        if both_ways:
            ends[dst[e] + 1] += 1
    for e in range(loops.shape[0]):
        ends[loops[e] + 1] += 1
    for u in range(n):
        ends[u + 1] += ends[u]  # ends[u]: where row u starts
    total = ends[n]
    heads = np.empty(total, index.dtype)
    data = np.empty(total, np.float64)
    for e in range(k):  # ends[u] moves from row u's start to its end
        u, v, w = src[e], dst[e], np.float64(weights[e])
        heads[ends[u]] = v
        data[ends[u]] = w
        ends[u] += 1
        if both_ways:
            heads[ends[v]] = u
            data[ends[v]] = w
            ends[v] += 1
    for e in range(loops.shape[0]):
        u = loops[e]
        heads[ends[u]] = u
        data[ends[u]] = 0.0
        ends[u] += 1
    last = np.full(n, -1, index.dtype)  # where the current row keeps head v, -1: not yet
    put = 0
    begin = 0  # where row u's arcs start: the previous row's end
    for u in range(n):
        start = put
        stop = ends[u]
        for p in range(begin, stop):
            v = heads[p]
            if last[v] >= start:
                if data[p] < data[last[v]]:
                    data[last[v]] = data[p]
            else:
                heads[put] = v
                data[put] = data[p]
                last[v] = put
                put += 1
        begin = stop
        ends[u] = put  # now the merged row's end: the matrix's indptr[u + 1]
    if put == total:  # no parallel arcs (a CSR graph's case): no second copy
        return ends, heads, data
    return ends, heads[:put].copy(), data[:put].copy()


def reference_matrix(graph: Graph):
    """The weighted adjacency (self-loops included) the references compute from, cached.

    From the source file when the graph was read from one that still exists, else from the
    graph's own arcs (generated graphs). :func:`reference_input` says which.
    """
    hit = _cache.get(graph)
    if hit is None or hit[0] is None:
        hit = _build(graph)
        _cache[graph] = hit
    return hit[0]


def release_reference_matrix(graph: Graph) -> None:
    """Let the verifier's matrix of ``graph`` go once no more references will be computed
    from it (its weights and row pointers cost 10 bytes per arc or more, as much as the
    graph's own arcs); where it was read from, and its dispute, are kept. A later reference
    builds it again."""
    hit = _cache.get(graph)
    if hit is not None and hit[0] is not None:
        _cache[graph] = (None, *hit[1:])


def reference_structure(graph: Graph):
    """:func:`reference_matrix` with every stored arc of weight 1: for reachability and levels.

    scipy's traversals read the sparsity structure, but a copy with no zero weights cannot be
    misread by any routine that drops explicit zeros.
    """
    mat = reference_matrix(graph).copy()
    mat.data = np.ones(mat.data.shape[0], dtype=np.float64)
    return mat


def reference_input(graph: Graph) -> str:
    """Where :func:`reference_matrix` took the graph from, in words."""
    reference_matrix(graph)
    return _cache[graph][1]


@dataclass
class FileReading:
    """The verifier's own reading of a graph file: arcs as listed, and its decisions."""

    n: int
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray
    directed: bool
    base: int | None = None  # None: fixed by the format
    header_line: int | None = None
    weighted: bool | None = None  # whether a third column is a weight (edge lists)
    compacted: bool = False
    lines: int = 0
    stated: list[tuple[str, int | None, int | None]] = field(default_factory=list)

    @property
    def loops(self) -> int:
        return int((self.src == self.dst).sum())


def _build(graph: Graph):
    reading = graph.provenance.get("reading")
    source = graph.provenance.get("source")
    if isinstance(reading, dict) and source and Path(source).is_file():
        mine = read_file(Path(source), reading.get("flags", {}))
        src, dst, w = mine.src, mine.dst, mine.weights
        rule = str(graph.provenance.get("weights", "file"))
        if rule == "unit":
            w = np.ones(src.shape[0])
        elif rule != "file":  # the hash is symmetric: an arc and its reverse weigh the same
            w = _rule_weights(rule, src, dst, symmetric=not mine.directed)
        matrix = min_merged_matrix(mine.n, src, dst, w, both_ways=not mine.directed)
        return matrix, f"file {source} re-read independently", _dispute(graph, reading, mine)
    # the arcs' sources from the row lengths, in the graph's own index type (int32)
    src = np.repeat(np.arange(graph.n, dtype=graph.indices.dtype), np.diff(graph.indptr))
    matrix = min_merged_matrix(graph.n, src, graph.indices, graph.weights, loops=graph.loops)
    del src
    return _sharing_heads(matrix, graph), "the graph's arcs (no source file)", None


def _sharing_heads(matrix, graph: Graph):
    """``matrix`` holding the graph's own head array where the merge computed one equal to it
    (a CSR graph without parallel arcs or loops: every generated graph), so that the
    verifier's copy costs its weights and row pointers only (4 bytes per arc less). The
    values are the merge's: they are compared, element for element, before the swap."""
    import scipy.sparse as sp

    heads = graph.indices
    if matrix.indices.dtype != heads.dtype or not np.array_equal(matrix.indices, heads):
        return matrix
    return sp.csr_matrix((matrix.data, heads, matrix.indptr), shape=matrix.shape, copy=False)


def read_file(path: Path, flags: dict) -> FileReading:
    """The verifier's reading of ``path``: Matrix Market by scipy, DIMACS and edge lists by
    numpy, each decision taken here (``flags`` are the user's, which settle what they name)."""
    from llpbench.graphs.format_table import format_of  # the format's own line names it

    return format_of(path)[1].read_independently()(path, flags)


def read_edge_list(path: Path, flags: dict) -> FileReading:
    return _edge_list(path, flags, weighted_format=False)


def read_weighted_edge_list(path: Path, flags: dict) -> FileReading:
    return _edge_list(path, flags, weighted_format=True)


def _matrix_market(path: Path, flags: dict) -> FileReading:
    import scipy.io

    with _open(path, binary=True) as fh:  # scipy reads .gz and .bz2 by name, not .xz
        data = fh.read()
    rows, _, entries, _, _, symmetry = scipy.io.mminfo(io.BytesIO(data))
    coo = scipy.io.mmread(io.BytesIO(data)).tocoo()  # symmetric files come back expanded
    src, dst = coo.row.astype(np.int64), coo.col.astype(np.int64)
    w = np.asarray(coo.data, dtype=np.float64)
    directed = symmetry == "general" if "directed" not in flags else bool(flags["directed"])
    if symmetry != "general":  # one arc per stored entry: the lower triangle and diagonal
        keep = src >= dst
        src, dst, w = src[keep], dst[keep], w[keep]
    reading = FileReading(rows, src, dst, w, directed, lines=int(entries))
    reading.stated.append((f"the size line '{rows} {rows} {entries}'", rows, entries))
    return _compact(reading, flags)


def _dimacs(path: Path, flags: dict) -> FileReading:
    n = m = None
    directed = True
    with _open(path) as fh:
        for line in fh:
            if line.startswith("p") and n is None:
                n, m = int(line.split()[2]), int(line.split()[3])
            elif line.startswith("c") and "llpbench:" in line and "directed=false" in line:
                directed = False
            elif line.startswith("a"):
                break
    table = _table(path, ["c", "p"], 0, usecols=(1, 2, 3))
    src, dst = table[:, 0].astype(np.int64) - 1, table[:, 1].astype(np.int64) - 1
    directed = bool(flags.get("directed", directed))
    reading = FileReading(n or 0, src, dst, table[:, 2], directed, lines=src.shape[0])
    reading.stated.append((f"the problem line 'p sp {n} {m}'", n, m))
    return _compact(reading, flags)


def _edge_list(path: Path, flags: dict, weighted_format: bool) -> FileReading:
    comments, first, first_line = [], None, 0
    delimiter, drop = None, 0  # a CSV's comma; pandas' unnamed index column, dropped
    titled = False  # a header row seen
    with _open(path) as fh:
        for lineno, line in enumerate(fh, start=1):
            text = line.strip()
            if text[:1] in ("#", "%"):
                comments.append(text[1:].strip())
            elif text:
                delimiter = delimiter or ("," if "," in text else None)
                fields = [f.strip() for f in text.split(delimiter)]
                if not titled and not any(_is_number(f) for f in fields if f):
                    titled = True  # a header row of column names: the arcs follow it
                    drop = int(delimiter is not None and not fields[0])
                    continue
                first, first_line = fields[drop:], lineno
                break
    rest = _table(path, ["#", "%"], first_line, delimiter=delimiter, drop=drop)
    konect = comments[0].split()[:2] if comments else []
    if konect[:1] not in (["sym"], ["asym"], ["bip"]):
        konect = []
    stated = _stated_in_comments(comments, konect)
    header = None
    if first is not None and 2 <= len(first) <= 3 and all(t.isdigit() for t in first):
        ids = np.unique(rest[:, :2]) if rest.shape[0] else np.zeros(0)
        columns = rest.shape[1] if rest.shape[0] else (3 if weighted_format else len(first))
        like_an_arc = len(first) == 3 == columns  # ``u v w``: ``0 0 0`` is a loop, not n = 0
        counts = int(first[-1]) == rest.shape[0] and int(first[0]) >= ids.shape[0]
        if counts and not like_an_arc:
            header = first_line
            where = f"the count header on line {first_line}"
            stated.insert(0, (where, int(first[0]), rest.shape[0]))
    if header is None and first is not None:
        width = rest.shape[1] if rest.shape[0] else len(first)
        row = np.array([float(t) for t in first[:width]], ndmin=2)
        rest = np.concatenate([row, rest]) if rest.shape[0] else row
    src, dst = rest[:, 0].astype(np.int64), rest[:, 1].astype(np.int64)
    tag = konect[-1] if len(konect) > 1 else ""
    # KONECT's handbook: "...weighted" and "...signed" tags carry weights; "unweighted",
    # "positive" (a count of multiple edges) and "dynamic" do not ("unweighted" holds
    # "weight" too: it is tested first)
    tag_weighted = not tag.endswith("unweighted") and ("weighted" in tag or "signed" in tag)
    weighted = rest.shape[1] >= 3 and (
        weighted_format
        or not konect
        or tag_weighted
        or bool(flags.get("weights_column"))
    )
    w = rest[:, 2] if weighted else np.ones(src.shape[0])
    stated_n = next((n for _, n, _ in stated if n is not None), None)
    base = _base(src, dst, flags, comments, konect, stated_n)
    src, dst = src - base, dst - base
    top = int(max(src.max(), dst.max())) + 1 if src.shape[0] else 0
    n = top if stated_n is None or top > stated_n else stated_n
    reading = FileReading(
        n, src, dst, w, _direction(src, dst, w, flags, comments, konect), base, header,
        weighted if rest.shape[1] >= 3 else None, lines=src.shape[0], stated=stated,
    )
    return _compact(reading, flags, stated_n)


def _stated_in_comments(comments: list[str], konect: list[str]) -> list:
    out = []
    text = " ".join(comments)
    nodes, edges = re.search(r"Nodes:\s*(\d+)", text), re.search(r"Edges:\s*(\d+)", text)
    if nodes or edges:
        out.append(
            ("the comment 'Nodes/Edges'", int(nodes[1]) if nodes else None,
             int(edges[1]) if edges else None)
        )
    counts = comments[1].split() if konect and len(comments) > 1 else []
    if 2 <= len(counts) <= 3 and all(t.isdigit() for t in counts):
        out.append((f"the KONECT line '% {comments[1]}'", int(counts[1]), int(counts[0])))
    written = re.search(r"llpbench:.*\bn=(\d+)", text)
    if written:
        out.append(("the llpbench comment", int(written[1]), None))
    return out


def _base(src, dst, flags: dict, comments: list[str], konect: list[str], stated) -> int:
    if "index_base" in flags:
        return int(flags["index_base"])
    if not src.shape[0] or any("llpbench:" in c for c in comments):
        return 0
    lo, hi = int(min(src.min(), dst.min())), int(max(src.max(), dst.max()))
    if lo == 0:
        return 0
    if konect:
        return 1
    if stated is not None:
        return 1 if hi == stated else 0
    return 1 if lo == 1 else 0


def _direction(src, dst, w, flags: dict, comments: list[str], konect: list[str]) -> bool:
    if "directed" in flags:
        return bool(flags["directed"])
    written = re.search(r"llpbench:.*\bdirected=(true|false)", " ".join(comments))
    if written:
        return written[1] == "true"
    keep = src != dst
    fwd = np.stack([src[keep], dst[keep], w[keep]], axis=1)
    back = np.stack([dst[keep], src[keep], w[keep]], axis=1)
    if src.shape[0] and np.array_equal(np.unique(fwd, axis=0), np.unique(back, axis=0)):
        return False
    text = " ".join(comments).lower()
    return not (konect[:1] == ["sym"] or re.search(r"\bundirected\b", text))


def _compact(reading: FileReading, flags: dict, stated_n: int | None = None) -> FileReading:
    """Renumber the ids that occur when the user says so, or when ids beyond a stated n are
    exactly n distinct labels."""
    ids = np.unique(np.concatenate([reading.src, reading.dst]))
    beyond = stated_n is not None and ids.shape[0] and ids[-1] >= stated_n
    if flags.get("compact") or (beyond and ids.shape[0] == stated_n):
        inverse = np.searchsorted(ids, np.concatenate([reading.src, reading.dst]))
        k = reading.src.shape[0]
        reading.src, reading.dst = inverse[:k], inverse[k:]
        reading.n, reading.compacted = int(ids.shape[0]), True
    return reading


def _table(path: Path, comments: list[str], skip: int, usecols=None, delimiter=None,
           drop: int = 0) -> np.ndarray:
    """The data lines after the first ``skip`` lines, one row each (columns as in the file,
    split at ``delimiter``, whitespace when None, the first ``drop`` left out)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an empty table is an answer, not a problem
        with _open(path) as fh:
            table = np.loadtxt(
                fh, comments=comments, skiprows=skip, ndmin=2, usecols=usecols, dtype=np.float64,
                delimiter=delimiter,
            )
    table = table[:, drop:]
    return table if table.size else np.zeros((0, 3 if usecols else 2))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def reading_dispute(graph: Graph) -> str | None:
    """Why the verifier does not accept the reader's reading of the graph's file, else None."""
    reference_matrix(graph)
    return _cache[graph][2]


_SETTLED_BY = {
    "count header": "no flag settles it; the file is ambiguous",
    "index base": "--index-base 0 or 1 settles it",
    "direction": "--directed or --undirected settles it",
    "vertex count": "--compact-ids or --index-base settles it",
    "third column": "--weights file or --weights unit settles it",
    "self-loop lines": "no flag settles it; the file is misread",
    "parallel lines": "no flag settles it; the file is misread",
}


def _dispute(graph: Graph, reading: dict, mine: FileReading) -> str | None:
    edge_list = mine.base is not None
    merged_mine = mine.lines - mine.loops
    keys = np.unique(np.stack([mine.src, mine.dst], axis=1)[mine.src != mine.dst], axis=0)
    merged_mine -= keys.shape[0]
    pairs = [
        ("direction", reading.get("directed"), mine.directed),
        ("vertex count", graph.n, mine.n),
        ("self-loop lines", reading.get("self_loops"), mine.loops),
        ("parallel lines", reading.get("parallel_arcs_merged"), merged_mine),
    ]
    if edge_list:
        pairs[:0] = [
            ("count header", reading.get("header_line"), mine.header_line),
            ("index base", reading.get("index_base"), mine.base),
        ]
        if mine.weighted is not None:
            said = {True: "weights", False: "no weights (a count or a timestamp, ignored)"}
            pairs.append(("third column", said[bool(reading.get("weights_in_file"))],
                          said[mine.weighted]))
    out = [
        f"{what}: the reader has {_say(theirs)}, the verifier {_say(ours)} ({_SETTLED_BY[what]})"
        for what, theirs, ours in pairs
        if theirs != ours
    ]
    out += _stated_counts(graph, mine)
    return "; ".join(out) or None


def _stated_counts(graph: Graph, mine: FileReading) -> list[str]:
    """Counts the file states that the graph read does not have (both readers may share a
    mistake; the file's own statements do not). A file with fewer lines than it states is a
    partial copy: its n may then be smaller."""
    out = []
    for where, n, m in mine.stated:
        partial = m is not None and mine.lines < m
        if n is not None and (graph.n > n or (graph.n < n and not partial)):
            out.append(f"{where} states n = {n:,}, the graph read has n = {graph.n:,}")
        if m is not None and mine.lines > m:
            out.append(f"{where} states {m:,} lines, the file has {mine.lines:,}")
    return out


def _say(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "directed" if value else "undirected"
    return f"{value:,}" if isinstance(value, int) else str(value)


class DisputedReference(np.ndarray):
    """A reference answer whose graph the verifier reads differently: never a match.

    ``reason`` names the decisions that differ and the flags that settle them."""

    reason: str = ""


def with_dispute(expected: np.ndarray, graph: Graph) -> np.ndarray:
    """``expected``, marked with the verifier's objection to the graph's reading if any."""
    reason = reading_dispute(graph)
    if reason is None:
        return expected
    marked = np.asarray(expected).view(DisputedReference)
    marked.reason = reason
    return marked


def dispute_of(expected: np.ndarray) -> str | None:
    """The one-line reason a reference cannot verify anything, or None."""
    if isinstance(expected, DisputedReference):
        return f"not verified: the verifier reads the file differently: {expected.reason}"
    return None


def _open(path: Path, *, binary: bool = False):
    import bz2
    import gzip
    import lzma

    opener = {".gz": gzip.open, ".xz": lzma.open, ".bz2": bz2.open}.get(path.suffix.lower(), open)
    if binary:
        return opener(path, "rb")
    mode = "r" if opener is open else "rt"
    return opener(path, mode, encoding="utf-8", errors="replace", newline=None)


def _splitmix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _seed_key(seed: int) -> np.uint64:
    mask = (1 << 64) - 1
    z = (seed & mask) ^ 0x57E1647C0FFEE123
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return np.uint64(z ^ (z >> 31))


def _rule_weights(rule: str, src: np.ndarray, dst: np.ndarray, symmetric: bool) -> np.ndarray:
    """Weights of ``"<kind>:<lo>:<hi>;seed=<s>"``, recomputed arc by arc (see weights.py's
    documented definition: splitmix64 of (min(u, v), max(u, v), seed) on undirected graphs)."""
    spec, _, seed_text = rule.partition(";seed=")
    kind, lo_text, hi_text = spec.split(":")
    u, v = src.astype(np.uint64), dst.astype(np.uint64)
    if symmetric:
        u, v = np.minimum(u, v), np.maximum(u, v)
    with np.errstate(over="ignore"):
        golden = np.uint64(0x9E3779B97F4A7C15)
        h = _splitmix(_splitmix(_seed_key(int(seed_text)) ^ (u * golden)) + v)
    if kind == "uniform-int":
        lo, hi = int(lo_text), int(hi_text)
        return (lo + (h % np.uint64(hi - lo + 1)).astype(np.int64)).astype(np.float64)
    lo, hi = float(lo_text), float(hi_text)
    return lo + ((h >> np.uint64(11)).astype(np.float64) * 2.0**-53) * (hi - lo)


def checks_reading(reference):
    """Decorate a problem's ``reference(inst)`` so that its answer carries the verifier's
    objection to how ``inst.meta["graph"]`` was read (see :func:`with_dispute`)."""

    @functools.wraps(reference)
    def wrapped(inst):
        graph = inst.meta.get("graph")
        expected = reference(inst)
        return with_dispute(expected, graph) if isinstance(graph, Graph) else expected

    return wrapped
