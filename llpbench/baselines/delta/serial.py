"""Δ-stepping on one thread: plain loads and stores, no atomics, no barriers.

GAP's bins without its threads (see :mod:`llpbench.baselines.delta.stepping`): bucket ``b``
is an append-only list of chunks in ring slot ``b % ring`` (a vertex is appended again each
time its distance drops; nothing is ever unlinked), the current bucket is detached and worked
through until no new entry arrives in it, and an entry is skipped when its vertex's distance
has dropped below the bucket (it was relaxed in an earlier one). Arcs that land ``ring`` or
more buckets ahead go to the far pile.

The kernel is one function on purpose: split into ``inline="always"`` phases (a bucket, the
next bucket) it measured 2-7% slower at one thread (same-process A/B of thread CPU time,
2026-12-07): every inlined call that holds a loop keeps numba's reference counts of the
arrays it is handed. Only the cold pushes (far-pile pulls) call :func:`.bins._append`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.baselines.delta.bins import (
    C_BUCKETS,
    C_CHUNKS,
    C_FAR,
    C_IMPROVED,
    C_PROCESSED,
    C_RELAX,
    C_STALE,
    CHUNK,
    CMASK,
    INIT_CHUNKS,
    NO_BIN,
    P_FREE,
    P_NFREE,
    P_USED,
    PREFETCH,
    _append,
    _below,
    _bucket,
    _bucket_start,
    _grow_far,
    _grow_pool,
    _new_chunk,
    _prefetch_ahead,
    _pushes_bound,
)


@njit(nogil=True, cache=True)
def _solve_serial(
    indptr, indices, weights, step, dist, source, delta, shift, ring, maxdeg, ctr
):
    """Δ-stepping on one thread; ``dist`` holds inf/INT_INF everywhere except the source.

    GAP's shape without its threads: bucket ``b`` is an append-only list of chunks in ring
    slot ``b % ring`` (a vertex is appended again each time its distance drops; nothing is
    ever unlinked), the current bucket is detached and worked through until no new entry
    arrives in it, and an entry is skipped when its vertex's distance has dropped below the
    bucket (it was relaxed in an earlier one). Arcs that land ``ring`` or more buckets ahead
    go to the far pile.
    """
    mask = ring - 1
    pool = np.empty(INIT_CHUNKS * CHUNK, indices.dtype)
    cnext = np.empty(INIT_CHUNKS, np.int64)
    pst = np.zeros(4, np.int64)
    pst[P_FREE] = -1
    head = np.full(ring, -1, np.int64)
    tail = np.full(ring, -1, np.int64)
    size = np.zeros(ring, np.int64)
    far = np.empty(64, indices.dtype)
    n_buckets = 0
    n_processed = 0
    n_relax = 0
    n_improved = 0
    n_stale = 0
    n_far = 0
    far_len = 0
    far_min = NO_BIN
    in_ring = 1
    cur = _bucket(dist[source], delta, shift)
    c0 = _new_chunk(cnext, pst)
    pool[c0 * CHUNK] = source
    head[cur & mask] = c0
    tail[cur & mask] = c0
    size[cur & mask] = 1
    while True:
        slot = cur & mask
        lo_dist = _bucket_start(cur, delta)
        n_buckets += 1
        while size[slot] > 0:
            c = head[slot]  # detach the bucket; what its vertices add to it forms a new list
            rem = size[slot]
            head[slot] = -1
            tail[slot] = -1
            size[slot] = 0
            in_ring -= rem
            while c >= 0:
                cnt = min(rem, CHUNK)
                rem -= cnt
                start = c * CHUNK
                stop = start + cnt
                # room first for all that this chunk's vertices may push: arrays are only
                # replaced here, once per chunk (numba pays two atomic reference-count
                # updates per replaced array and loop iteration where it happens)
                total = _pushes_bound(indptr, pool, start, stop, maxdeg)
                need = total // CHUNK + min(total, ring) + 2
                if cnext.shape[0] - pst[P_USED] + pst[P_NFREE] < need:
                    pool, cnext = _grow_pool(pool, cnext, pst, need)
                if far_len + total > far.shape[0]:
                    far = _grow_far(far, far_len, total)
                for k in range(start, stop):
                    if PREFETCH:
                        _prefetch_ahead(pool, k, stop, indptr, indices, step, dist)
                    u = pool[k]
                    du = dist[u]
                    if _below(du, cur, lo_dist, delta, shift):
                        n_stale += 1  # lowered since, and relaxed in an earlier bucket
                        continue
                    n_processed += 1
                    lo = indptr[u]
                    hi = indptr[u + 1]
                    n_relax += hi - lo
                    for e in range(lo, hi):
                        ue = np.uint64(e * step)  # unsigned: no negative-index wraparound
                        v = indices[ue]
                        nd = du + weights[ue]
                        uv = np.uint64(v)
                        if nd < dist[uv]:
                            dist[uv] = nd
                            n_improved += 1
                            b = _bucket(nd, delta, shift)
                            if b - cur < ring:
                                s = b & mask  # _append written out (see bins._append)
                                sz = size[s]
                                if sz & CMASK == 0:
                                    nc = _new_chunk(cnext, pst)
                                    if sz == 0:
                                        head[s] = nc
                                    else:
                                        cnext[tail[s]] = nc
                                    tail[s] = nc
                                pool[tail[s] * CHUNK + (sz & CMASK)] = v
                                size[s] = sz + 1
                                in_ring += 1
                            else:
                                far[far_len] = v
                                far_len += 1
                                if b < far_min:
                                    far_min = b
                                n_far += 1
                nc = cnext[c]
                cnext[c] = pst[P_FREE]
                pst[P_FREE] = c
                pst[P_NFREE] += 1
                c = nc
        # the next non-empty bucket in the ring
        nb = NO_BIN
        if in_ring > 0:
            for b in range(cur + 1, cur + ring):
                if size[b & mask] > 0:
                    nb = b
                    break
        if far_len > 0 and far_min <= nb:
            # the far pile may hold the next bucket: move there, pull in what fits the ring
            exact = NO_BIN
            for j in range(far_len):
                x = far[j]
                exact = min(exact, _bucket(dist[x], delta, shift))
            nb = min(nb, exact)
            kept = 0
            far_min = NO_BIN
            need = far_len // CHUNK + min(far_len, ring) + 2
            if cnext.shape[0] - pst[P_USED] + pst[P_NFREE] < need:
                pool, cnext = _grow_pool(pool, cnext, pst, need)
            for j in range(far_len):
                x = far[j]
                b = _bucket(dist[x], delta, shift)
                if b < cur:
                    n_stale += 1  # lowered since, and relaxed in an earlier bucket
                    continue
                if b - nb < ring:
                    _append(pool, cnext, pst, head, tail, size, b & mask, x)
                    in_ring += 1
                    n_far += 1
                else:
                    far[kept] = x
                    kept += 1
                    if b < far_min:
                        far_min = b
            far_len = kept
        if nb == NO_BIN:
            break
        cur = nb
    ctr[0, C_BUCKETS] = n_buckets
    ctr[0, C_PROCESSED] = n_processed
    ctr[0, C_RELAX] = n_relax
    ctr[0, C_IMPROVED] = n_improved
    ctr[0, C_STALE] = n_stale
    ctr[0, C_FAR] = n_far
    ctr[0, C_CHUNKS] = pst[P_USED]
