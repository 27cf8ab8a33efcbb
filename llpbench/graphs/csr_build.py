"""A weighted CSR built from arc lists in O(n + m): what :meth:`Graph.from_edges` does for a
big graph read from a file.

``from_edges`` sorts every arc on three keys (``np.lexsort`` of weight, head, tail) and the
reader then counts the file's parallel arcs with ``np.unique`` over a combined key: for the
10.2 M arcs of kron-2e20 the two took 11.9 of the 12.4 s of reading its Matrix Market file,
whose numbers are parsed in 0.3 s. Here the arcs are partitioned by tail range and each
part's rows are placed, sorted by head and weight where they are not already (a file
written sorted, as GAP's and ours are, needs no sort at all) and merged to the lightest arc
of each (tail, head) pair, on every core (:mod:`llpbench.graphs.csr_parallel`). The result
is the lexsort's, array for array (``tests/graphs/test_csr_build.py``).

Used from :data:`llpbench.graphs.graph.CSR_BUILD_MIN_ARCS` arcs up; smaller graphs keep the
numpy path and do not compile.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.graphs.csr_parallel import build_rows


@njit(cache=True, nogil=True)
def _distinct_pairs(n, src, dst):
    """How many distinct (tail, head) pairs the arcs other than self-loops have (a stamp
    per head, over the arcs bucketed by tail)."""
    k = src.shape[0]
    start = np.zeros(n + 1, np.int64)
    for e in range(k):
        if src[e] != dst[e]:
            start[src[e] + 1] += 1
    for i in range(n):
        start[i + 1] += start[i]
    heads = np.empty(start[n], np.int64)
    pos = start[:n].copy()
    for e in range(k):
        if src[e] != dst[e]:
            heads[pos[src[e]]] = dst[e]
            pos[src[e]] += 1
    stamp = np.full(n, -1, np.int64)
    distinct = 0
    for u in range(n):
        for p in range(start[u], start[u + 1]):
            if stamp[heads[p]] != u:
                stamp[heads[p]] = u
                distinct += 1
    return distinct


def build_csr(n: int, src: np.ndarray, dst: np.ndarray, weights: np.ndarray,
              symmetrize: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indptr, heads, weights)`` as ``np.lexsort((weights, dst, src))`` and dropping all
    but the first of each (tail, head) pair give them, self-loops left out."""
    ids = np.int32 if n < 2**31 - 1 else np.int64
    pack = (weights.dtype.kind == "i" and n < 2**32 and
            (weights.shape[0] == 0 or (int(weights.min()) >= 0 and int(weights.max()) < 2**31)))
    return build_rows(int(n), [src, dst], weights, bool(symmetrize), ids, pack)


def distinct_pairs(n: int, src: np.ndarray, dst: np.ndarray) -> int:
    """The number of distinct (tail, head) pairs among the arcs that are not self-loops."""
    return int(_distinct_pairs(np.int64(n), src, dst))
