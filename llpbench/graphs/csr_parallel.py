"""A CSR built from arc lists on every core: sorted rows, no self-loops, no parallel arcs
(the lightest kept), the same arrays for any thread count. Generated graphs
(:func:`csr_from_arcs`) and big files read (:func:`llpbench.graphs.csr_build.build_csr`)
are built this way.

A generator's edges come in no order, so every arc is a random write into its tail's row.
The serial two-pass counting sort this replaces (by head, then stably by tail) made two such
passes over every arc on one core: 12.9 of the 17 s that a Kronecker graph of scale 22 and
edge factor 16 (128 M arcs) took to generate here, where GAP's builder takes both cores.
GAP's builder counts degrees and places arcs with atomic fetch-and-adds, then sorts each
row; numba's ``prange`` has no atomics and the graph floor may not import the runtime's, so
this does the same work without them, in three passes that each split the work into parts
no two threads share:

1. **Partition by tail range.** Each of ``P`` chunks of the arc list counts its arcs per
   coarse bucket of tails (``tail >> shift``, at most 2^16 buckets: ``P x 2^16`` counts,
   not ``P x n``); the buckets are cut into parts of about equal arc counts; each chunk
   then copies its arcs, in their order, into its own slice of each part. Sequential writes
   to ``parts`` streams.
2. **Rows within a part.** Each part (a contiguous range of tails, and the contiguous range
   of the output its rows fill) counts its arcs per tail, places them, and sorts and
   de-duplicates each row in cache (:mod:`llpbench.graphs.row_sort`: a row already in order,
   as a sorted file's are, is only checked), compacting its rows towards the front of its
   range. Arcs keep their list order within a row, so the lightest of a (tail, head) pair
   of equal weights is the one listed first, as a stable sort would keep it.
3. **Concatenation.** The parts' compacted ranges are copied to the output in part order.

The rows are sorted and de-duplicated, so the result is a function of the arc set alone,
whatever the chunking or the number of threads (``tests/graphs/test_csr_parallel.py``
checks it against scipy's COO-to-CSR conversion and across thread counts).

Memory: the two id arrays given (4 + 4 bytes per listed edge) are released by the caller
after pass 1 (:func:`csr_from_arcs` takes them in a list and empties it), so the peak is the
partition (8 bytes per arc) plus the placed rows (4) plus 8 bytes per vertex, where the
serial build held the ids, two arc arrays and 24 bytes per vertex.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from llpbench.graphs.row_sort import first_of_each_head, sort_row, sorted_unique

_BUCKET_BITS = 16  # at most 2^16 coarse buckets of tails


@njit(cache=True, parallel=True)
def _bucket_counts(src, dst, symmetrize, shift, buckets, chunks):
    """Arcs per (chunk of the list, bucket of tails); self-loops are not arcs."""
    k = src.shape[0]
    counts = np.zeros((chunks, buckets), np.int64)
    for c in prange(chunks):
        for e in range(k * c // chunks, k * (c + 1) // chunks):
            u, v = src[e], dst[e]
            if u != v:
                counts[c, u >> shift] += 1
                if symmetrize:
                    counts[c, v >> shift] += 1
    return counts


@njit(cache=True, parallel=True)
def _partition(src, dst, weights, symmetrize, shift, part_of, slot, tails, heads, ws):
    """Copy each arc (and its twin) into its tail's part: chunk ``c`` writes its arcs of
    part ``p`` from ``slot[c, p]`` on, in list order; weights too where ``ws`` is not
    empty."""
    k = src.shape[0]
    chunks = slot.shape[0]
    weighted = ws.shape[0] > 0
    for c in prange(chunks):
        fill = slot[c].copy()
        for e in range(k * c // chunks, k * (c + 1) // chunks):
            u, v = src[e], dst[e]
            if u == v:
                continue
            for twin in range(2 if symmetrize else 1):  # the arc, then (v, u)
                tail, head = (u, v) if twin == 0 else (v, u)
                p = part_of[tail >> shift]
                f = fill[p]
                tails[f] = tail
                heads[f] = head
                if weighted:
                    ws[f] = weights[e]
                fill[p] = f + 1


@njit(cache=True, parallel=True)
def _rows(vertex_bounds, arc_bounds, tails, heads, ws, out, out_w, degree, kept, pack):
    """Build each part's rows in ``out[arc_bounds[p]:arc_bounds[p + 1]]`` (and ``out_w``
    where weighted): ``degree[v]`` ends as row v's distinct heads, ``kept[p]`` as the
    part's arcs after de-duplication, compacted to the front of its range."""
    weighted = ws.shape[0] > 0
    for p in prange(vertex_bounds.shape[0] - 1):
        vlo, vhi = vertex_bounds[p], vertex_bounds[p + 1]
        alo, ahi = arc_bounds[p], arc_bounds[p + 1]
        for q in range(alo, ahi):
            degree[tails[q]] += 1
        run = alo
        for v in range(vlo, vhi):  # degree[v]: row v's first slot, then its next free one
            c = degree[v]
            degree[v] = run
            run += c
        for q in range(alo, ahi):
            u = tails[q]
            out[degree[u]] = heads[q]
            if weighted:
                out_w[degree[u]] = ws[q]
            degree[u] += 1
        start = alo  # degree[v] is now the end of row v; rows move down to ``w``
        w = alo
        for v in range(vlo, vhi):
            end = degree[v]
            if weighted:
                sort_row(out, out_w, start, end, pack)
                d = first_of_each_head(out, out_w, start, end)
            else:
                d = sorted_unique(out, start, end)
            if w < start:
                for q in range(d):  # w < start: copying upwards never overwrites a source
                    out[w + q] = out[start + q]
                    if weighted:
                        out_w[w + q] = out_w[start + q]
            w += d
            degree[v] = d
            start = end
        kept[p] = w - alo


@njit(cache=True, parallel=True)
def _concatenate(out, arc_bounds, kept, first, result):
    for p in prange(kept.shape[0]):
        result[first[p]:first[p] + kept[p]] = out[arc_bounds[p]:arc_bounds[p] + kept[p]]


def build_rows(n: int, arcs: list[np.ndarray], weights: np.ndarray | None, symmetrize: bool,
               ids: type, pack: bool = False, threads: int | None = None):
    """``(indptr, heads, weights or None)``: the three passes of the module docstring over
    ``arcs = [src, dst]`` (emptied after the partition), heads stored as ``ids``; with
    ``weights``, each row sorted by head then weight (``pack``: integer weights in
    0 .. 2^31 - 1, sorted as one key) and the lightest of each head kept."""
    src, dst = arcs
    threads = max(1, int(threads or numba.get_num_threads()))
    shift = max(0, int(max(n - 1, 1)).bit_length() - _BUCKET_BITS)
    buckets = ((max(n, 1) - 1) >> shift) + 1
    chunks = threads if src.shape[0] >= 1 << 16 else 1
    counts = _bucket_counts(src, dst, symmetrize, shift, buckets, chunks)
    per_bucket = counts.sum(axis=0)
    total = int(per_bucket.sum())
    parts = min(buckets, 4 * threads)  # a few parts per thread even out the rows' costs
    cum = np.cumsum(per_bucket)
    cuts = np.searchsorted(cum, total * np.arange(1, parts) / parts, side="left") + 1
    bucket_bounds = np.unique(np.concatenate([[0], np.minimum(cuts, buckets), [buckets]]))
    parts = bucket_bounds.shape[0] - 1
    part_of = np.repeat(np.arange(parts, dtype=np.int32), np.diff(bucket_bounds))
    per_part = np.add.reduceat(counts, bucket_bounds[:-1], axis=1)  # (chunks, parts)
    arc_bounds = np.zeros(parts + 1, np.int64)
    arc_bounds[1:] = np.cumsum(per_part.sum(axis=0))
    slot = arc_bounds[:-1][None, :] + np.cumsum(per_part, axis=0) - per_part
    weighted = weights is not None and total > 0
    wdtype = weights.dtype if weights is not None else np.int8
    tails = np.empty(total, ids)
    heads = np.empty(total, ids)
    ws = np.empty(total if weighted else 0, wdtype)  # empty: nothing weighs the arcs
    _partition(src, dst, weights if weighted else ws, symmetrize, shift, part_of, slot,
               tails, heads, ws)
    del src, dst
    arcs.clear()
    vertex_bounds = np.minimum(bucket_bounds.astype(np.int64) << shift, n)
    out = np.empty(total, ids)
    out_w = np.empty(total if weighted else 0, wdtype)
    degree = np.zeros(n, np.int64)
    kept = np.zeros(parts, np.int64)
    _rows(vertex_bounds, arc_bounds, tails, heads, ws, out, out_w, degree, kept, pack)
    del tails, heads, ws
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(degree, out=indptr[1:])
    del degree
    first = np.zeros(parts, np.int64)
    first[1:] = np.cumsum(kept)[:-1]
    result = np.empty(int(indptr[n]), ids)
    _concatenate(out, arc_bounds, kept, first, result)
    del out
    if weights is None:
        return indptr, result, None
    result_w = np.empty(int(indptr[n]), wdtype)
    if weighted:
        _concatenate(out_w, arc_bounds, kept, first, result_w)
    return indptr, result, result_w


def csr_from_arcs(n: int, arcs: list[np.ndarray], symmetrize: bool,
                  threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(indptr, indices)`` of the arcs ``arcs = [src, dst]`` (int32 ids below ``n``)
    without self-loops or parallel arcs, rows sorted; ``symmetrize`` adds every twin.

    The list is emptied once the arcs are partitioned, so that the ids' memory goes back
    before the rows are built (drop your own references to ``src`` and ``dst`` first).
    ``threads`` sets the parts and chunks (default: numba's thread count); the arrays do not
    depend on it.
    """
    indptr, indices, _ = build_rows(n, arcs, None, symmetrize, np.int32, threads=threads)
    return indptr, indices
