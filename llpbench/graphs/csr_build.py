"""A weighted CSR built from arc lists in O(n + m): what :meth:`Graph.from_edges` does for a
big graph read from a file.

``from_edges`` sorts every arc on three keys (``np.lexsort`` of weight, head, tail) and the
reader then counts the file's parallel arcs with ``np.unique`` over a combined key: for the
10.2 M arcs of kron-2e20 the two took 11.9 of the 12.4 s of reading its Matrix Market file,
whose numbers are parsed in 0.3 s. Here one counting pass puts every arc in its tail's row,
as GAP's builder does, and each row is then sorted by head and weight where it is not already
(a file written sorted, as GAP's and ours are, needs no sort at all), so the arcs of one
(tail, head) pair lie side by side, lightest first, and the first is kept. The result is the
lexsort's, array for array (``tests/graphs/test_csr_build.py``).

Used from :data:`llpbench.graphs.graph.CSR_BUILD_MIN_ARCS` arcs up; smaller graphs keep the
numpy path and do not compile.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def _before(h1, w1, h2, w2):
    return h1 < h2 or (h1 == h2 and w1 < w2)


@njit(cache=True, nogil=True)
def _merge_runs(heads, ws, lo, hi):
    """Sort a row made of a few sorted runs by merging them (linear per merge round); False,
    touching nothing, when it holds more than 8. A sorted file read as undirected gives rows
    of three runs: the twins of smaller tails, its own arcs, the twins of larger ones."""
    bounds = np.empty(10, np.int64)
    runs = 0
    bounds[0] = lo
    for q in range(lo + 1, hi):
        if _before(heads[q], ws[q], heads[q - 1], ws[q - 1]):
            runs += 1
            if runs >= 8:
                return False
            bounds[runs] = q
    runs += 1
    bounds[runs] = hi
    tmp_h = np.empty(hi - lo, heads.dtype)
    tmp_w = np.empty(hi - lo, ws.dtype)
    while runs > 1:
        merged = 0
        for r in range(0, runs, 2):
            a, mid = bounds[r], bounds[r + 1]
            b = bounds[r + 2] if r + 1 < runs else mid
            i, j, d = a, mid, a - lo
            while i < mid and j < b:
                if _before(heads[j], ws[j], heads[i], ws[i]):
                    tmp_h[d], tmp_w[d] = heads[j], ws[j]
                    j += 1
                else:
                    tmp_h[d], tmp_w[d] = heads[i], ws[i]
                    i += 1
                d += 1
            while i < mid:
                tmp_h[d], tmp_w[d] = heads[i], ws[i]
                i += 1
                d += 1
            while j < b:
                tmp_h[d], tmp_w[d] = heads[j], ws[j]
                j += 1
                d += 1
            bounds[merged] = a
            merged += 1
        bounds[merged] = hi
        runs = merged
        heads[lo:hi] = tmp_h
        ws[lo:hi] = tmp_w
    return True


@njit(cache=True, nogil=True)
def _sort_row(heads, ws, lo, hi, pack):
    """Sort ``heads[lo:hi]`` (and ``ws`` alongside) by head, then weight: insertion sort for a
    short row; for a long one one sort of ``head << 31 | weight`` keys where ``pack`` (weights
    integers in 0 .. 2^31 - 1), else two stable merge sorts; nothing for a row already sorted."""
    ordered = True
    for q in range(lo + 1, hi):
        if heads[q] < heads[q - 1] or (heads[q] == heads[q - 1] and ws[q] < ws[q - 1]):
            ordered = False
            break
    if ordered:
        return
    if hi - lo > 32 and _merge_runs(heads, ws, lo, hi):
        return
    if hi - lo <= 32:
        for q in range(lo + 1, hi):
            h, w = heads[q], ws[q]
            r = q - 1
            while r >= lo and (heads[r] > h or (heads[r] == h and ws[r] > w)):
                heads[r + 1] = heads[r]
                ws[r + 1] = ws[r]
                r -= 1
            heads[r + 1] = h
            ws[r + 1] = w
        return
    if pack:
        keys = np.empty(hi - lo, np.int64)
        for q in range(hi - lo):
            keys[q] = (np.int64(heads[lo + q]) << 31) | np.int64(ws[lo + q])
        keys.sort()
        for q in range(hi - lo):
            heads[lo + q] = keys[q] >> 31
            ws[lo + q] = keys[q] & 0x7FFFFFFF
        return
    by_weight = np.argsort(ws[lo:hi], kind="mergesort")  # then by head, stably
    seg_h = heads[lo:hi][by_weight]
    seg_w = ws[lo:hi][by_weight]
    order = np.argsort(seg_h, kind="mergesort")
    for q in range(hi - lo):
        heads[lo + q] = seg_h[order[q]]
        ws[lo + q] = seg_w[order[q]]


@njit(cache=True, nogil=True)
def _build(n, src, dst, weights, symmetrize, ids, pack):
    """(indptr, heads, weights) of the arcs without self-loops, each (tail, head) pair once
    with its smallest weight, rows sorted by head; ``symmetrize`` adds every arc's twin.
    Vertex ids are stored in the type of ``ids`` (an empty array: int32 while they fit).

    One counting pass puts each arc in its tail's row (in file order: sequential writes for a
    file sorted by tail), then each row is sorted where it is not already (in cache: a row
    is short) and its parallel arcs merged."""
    k = src.shape[0]
    start = np.zeros(n + 1, np.int64)
    for e in range(k):
        u, v = src[e], dst[e]
        if u != v:
            start[u + 1] += 1
            if symmetrize:
                start[v + 1] += 1
    for i in range(n):
        start[i + 1] += start[i]
    heads = np.empty(start[n], ids.dtype)
    ws = np.empty(start[n], weights.dtype)
    fill = start[:n].copy()
    for e in range(k):
        u, v = src[e], dst[e]
        if u != v:
            heads[fill[u]] = v
            ws[fill[u]] = weights[e]
            fill[u] += 1
            if symmetrize:
                heads[fill[v]] = u
                ws[fill[v]] = weights[e]
                fill[v] += 1
    indptr = np.zeros(n + 1, np.int64)
    for u in range(n):
        lo, hi = start[u], start[u + 1]
        _sort_row(heads, ws, lo, hi, pack)
        d = lo
        for q in range(lo, hi):  # the lightest of each head comes first: keep it
            if q == lo or heads[q] != heads[q - 1]:
                heads[d] = heads[q]
                ws[d] = ws[q]
                d += 1
        indptr[u + 1] = indptr[u] + (d - lo)
    if indptr[n] == start[n]:
        return indptr, heads, ws
    out_heads = np.empty(indptr[n], ids.dtype)
    out_w = np.empty(indptr[n], weights.dtype)
    for u in range(n):
        lo, count = start[u], indptr[u + 1] - indptr[u]
        out_heads[indptr[u]:indptr[u + 1]] = heads[lo:lo + count]
        out_w[indptr[u]:indptr[u + 1]] = ws[lo:lo + count]
    return indptr, out_heads, out_w


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
    ids = np.empty(0, np.int32 if n < 2**31 - 1 else np.int64)
    pack = (weights.dtype.kind == "i" and n < 2**32 and
            (weights.shape[0] == 0 or (int(weights.min()) >= 0 and int(weights.max()) < 2**31)))
    return _build(np.int64(n), src, dst, weights, bool(symmetrize), ids, pack)


def distinct_pairs(n: int, src: np.ndarray, dst: np.ndarray) -> int:
    """The number of distinct (tail, head) pairs among the arcs that are not self-loops."""
    return int(_distinct_pairs(np.int64(n), src, dst))
