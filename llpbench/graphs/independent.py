"""The verifier's own view of a graph: re-read from its file by a separate minimal reader.

A reference answer computed from the solver's own instance shares every mistake of the reader
that built it: a count header read as an arc, 1-based ids kept, an undirected edge list read
one way. So the references of the graph problems start from :func:`reference_matrix`, which
re-reads ``provenance["source"]`` here, sharing no code with :mod:`.formats` or
:mod:`.formats_text`: scipy's own ``mmread`` for Matrix Market and numpy's ``loadtxt`` for edge
lists and DIMACS. It applies the assumptions the reader *recorded* (``provenance["reading"]``:
directedness, index base, count-header line), renumbers with ``np.unique`` when the graph was
compacted, recomputes assigned weights with its own numpy splitmix64, keeps self-loops (a
looped vertex reaches itself) and merges parallel arcs by their minimum (the arc any shortest
path uses). A reader that misreads the file and records the same assumptions therefore
disagrees with this matrix, and verification fails.

Generated graphs have no file; their matrix is built from the graph's arcs and loops.
"""

from __future__ import annotations

import re
import weakref
from pathlib import Path

import numpy as np

from llpbench.graphs.graph import Graph

_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)
_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def min_merged_matrix(n: int, src: np.ndarray, dst: np.ndarray, weights: np.ndarray):
    """A scipy CSR matrix of the arcs, each parallel group kept once with its minimum weight.

    scipy's constructors sum duplicates; shortest paths need the minimum. Explicit zero weights
    stay stored entries (csgraph treats a stored zero as an arc of weight zero).
    """
    import scipy.sparse as sp

    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    weights = np.asarray(weights)
    order = np.lexsort((weights, dst, src))
    src, dst, weights = src[order], dst[order], weights[order]
    first = np.ones(src.shape[0], dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    src, dst, weights = src[first], dst[first], weights[first]
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return sp.csr_matrix((weights, dst, indptr), shape=(n, n))


def reference_matrix(graph: Graph):
    """The weighted adjacency (self-loops included) the references compute from, cached.

    From the source file when the graph was read from one that still exists, else from the
    graph's own arcs (generated graphs). :func:`reference_input` says which.
    """
    hit = _cache.get(graph)
    if hit is None:
        hit = _build(graph)
        _cache[graph] = hit
    return hit[0]


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


def _build(graph: Graph):
    reading = graph.provenance.get("reading")
    source = graph.provenance.get("source")
    if isinstance(reading, dict) and source and Path(source).is_file():
        n, src, dst, w = _arcs_of_file(Path(source), reading, graph)
        return min_merged_matrix(n, src, dst, w), f"file {source} re-read independently"
    src, dst, w = graph.edges()
    loops = graph.loops
    src = np.concatenate([src, loops])
    dst = np.concatenate([dst, loops])
    w = np.concatenate([w, np.zeros(loops.shape[0], dtype=w.dtype)])
    return min_merged_matrix(graph.n, src, dst, w), "the graph's arcs (no source file)"


def _arcs_of_file(path: Path, reading: dict, graph: Graph):
    fmt = reading.get("format")
    if fmt == "mtx":
        import scipy.io

        with _open(path, binary=True) as fh:  # scipy reads .gz and .bz2 by name, not .xz
            coo = scipy.io.mmread(fh).tocoo()  # symmetric files come back expanded
        n, src, dst = coo.shape[0], coo.row.astype(np.int64), coo.col.astype(np.int64)
        w = np.asarray(coo.data, dtype=np.float64)
    elif fmt == "gr":
        n, src, dst, w = _dimacs(path)
    else:
        n, src, dst, w = _edge_list(path, reading)
    if not reading["directed"]:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        w = np.concatenate([w, w])
    if "compacted_from_n" in graph.provenance:
        ids, inverse = np.unique(np.concatenate([src, dst]), return_inverse=True)
        n = ids.shape[0]
        src, dst = inverse[: src.shape[0]], inverse[src.shape[0] :]
    rule = str(graph.provenance.get("weights", "file"))
    if rule == "unit":
        w = np.ones(src.shape[0])
    elif rule != "file":
        w = _rule_weights(rule, src, dst, symmetric=not reading["directed"])
    return n, src, dst, w


def _dimacs(path: Path):
    n = None
    with _open(path) as fh:
        for line in fh:
            if line.startswith("p"):
                n = int(line.split()[2])
                break
    table = np.loadtxt(_open(path), comments=["c", "p"], usecols=(1, 2, 3), ndmin=2)
    table = table.reshape(-1, 3)
    return n, table[:, 0].astype(np.int64) - 1, table[:, 1].astype(np.int64) - 1, table[:, 2]


def _edge_list(path: Path, reading: dict):
    comment = reading.get("comment", "#")
    skip = int(reading.get("header_line") or 0)  # the count header and anything before it
    cols = 3 if reading.get("format") == "wel" else 2
    table = np.loadtxt(_open(path), comments=comment, skiprows=skip, ndmin=2, dtype=np.float64)
    table = table.reshape(-1, cols) if table.size else np.zeros((0, cols))
    base = int(reading["index_base"])
    src = table[:, 0].astype(np.int64) - base
    dst = table[:, 1].astype(np.int64) - base
    w = table[:, 2] if cols == 3 else np.ones(src.shape[0])
    n = int(max(src.max(), dst.max())) + 1 if src.shape[0] else 0
    declared = _declared_n(path, comment, skip)
    return (n if declared is None else declared), src, dst, w


def _declared_n(path: Path, comment: str, header_line: int) -> int | None:
    """n from the count header (its first number) or an ``llpbench: n=<n>`` comment."""
    with _open(path) as fh:
        for lineno, line in enumerate(fh, start=1):
            found = re.search(r"llpbench:.*\bn=(\d+)", line)
            if found and line.lstrip().startswith(comment):
                return int(found.group(1))
            if lineno == header_line:
                return int(line.split()[0])
            if lineno > max(header_line, 50):
                return None
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
