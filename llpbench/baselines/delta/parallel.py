"""Δ-stepping on T threads, GAP's algorithm (see :mod:`llpbench.baselines.delta.stepping`).

A round, in phases: (1) threads claim grains of the shared frontier (the current bucket)
and relax with an atomic min into *thread-local* bins; (2) *bucket fusion*: each thread works
through its own bin of the current bucket while it stays small; (3) a min-reduction picks the
next bucket; (4) far-pile vertices that now fit the ring are pulled in; (5) every thread
appends its bin of the next bucket to the shared frontier (deduplicated with a per-vertex
round stamp) and a barrier starts the next round. Waiting threads yield the core.

The worker is one function on purpose: split into ``inline="always"`` phases it measured
5-40% slower (same-process A/B, 2026-12-07; see :mod:`.serial`). Only the cold pushes
(far-pile pulls) call :func:`.bins._append`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.baselines.delta.bins import (
    _PAD,
    C_BUCKETS,
    C_CHUNKS,
    C_FAR,
    C_FUSED,
    C_IMPROVED,
    C_LOST,
    C_PROCESSED,
    C_RELAX,
    C_STALE,
    C_WAIT_NS,
    CHUNK,
    CMASK,
    FUSE_LIMIT,
    GRAIN,
    GRAIN_MIN,
    GRAIN_SPLIT,
    INIT_CHUNKS,
    NO_BIN,
    P_FREE,
    P_NFREE,
    P_USED,
    PREFETCH,
    SH_BIN,
    SH_COUNT,
    SH_CURSOR,
    SH_END,
    SH_GEN,
    SH_GO,
    SH_READY,
    SH_SIZE,
    SH_SPINS,
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
from llpbench.llp.atomics import atomic_fetch_add, atomic_load, atomic_min, cpu_yield
from llpbench.llp.sync import barrier_at, now_ns, stamp_end


@njit(nogil=True, cache=True)
def _worker(
    tid, nthreads, indptr, indices, weights, step, dist, delta, shift, ring, maxdeg, frontier,
    mark, sh, ctr,
):
    """One of T threads running GAP's parallel Δ-stepping (see the module docstring)."""
    mask = ring - 1
    row = ctr[tid]
    pool = np.empty(INIT_CHUNKS * CHUNK, frontier.dtype)
    cnext = np.empty(INIT_CHUNKS, np.int64)
    pst = np.zeros(4, np.int64)
    pst[P_FREE] = -1
    head = np.full(ring, -1, np.int64)
    tail = np.full(ring, -1, np.int64)
    size = np.zeros(ring, np.int64)
    far = np.empty(64, frontier.dtype)
    tmp = np.empty(CHUNK, frontier.dtype)
    in_ring = 0  # items in this thread's ring
    low = NO_BIN  # no non-empty bucket of this thread's ring lies below this one
    far_len = 0
    far_min = NO_BIN
    n_processed = 0
    n_relax = 0
    n_improved = 0
    n_stale = 0
    n_fused = 0
    n_far = 0
    n_lost = 0
    n_wait = 0  # ns at the round barriers: a thread busy while another waits shows here
    atomic_fetch_add(sh, SH_READY, 1)  # start barrier: the launcher sets GO when all are in
    while atomic_load(sh, SH_GO) == 0:
        cpu_yield()

    par = 0
    rnd = 0
    cur = atomic_load(sh, SH_BIN)
    while True:
        rnd += 1
        if tid == 0:
            row[C_BUCKETS] += 1
        # 1-2. the shared frontier (the current bucket), claimed a grain at a time, then
        # bucket fusion: this thread's own part of the bucket, chunk by chunk, while it stays
        # small. Work comes in batches (a grain, or a chunk); room for everything a batch may
        # push is made before it, so arrays are replaced once per batch, never per vertex
        # (numba pays two atomic reference-count updates per replaced array and iteration).
        fsize = atomic_load(sh, SH_SIZE + par * _PAD)
        # small frontiers are claimed in smaller grains: on a road network a round starts from a
        # few hundred vertices, and each thread's share of them seeds all that it fuses after
        # (GAP's fixed grain of 64 hands 100 items out as 64 and 36)
        grain = min(GRAIN, max(GRAIN_MIN, fsize // (GRAIN_SPLIT * nthreads)))
        cslot = cur & mask
        lo_dist = _bucket_start(cur, delta)
        fusing = False
        c = -1
        rem = 0
        while True:
            if not fusing:
                i = atomic_fetch_add(sh, SH_CURSOR + par * _PAD, grain)
                if i >= fsize:
                    fusing = True
                    continue
                stop = min(i + grain, fsize)
                batch = frontier
                start = i
            else:
                if c < 0:
                    sz = size[cslot]
                    if sz == 0 or sz >= FUSE_LIMIT:
                        break
                    c = head[cslot]  # detach the slot's list and work through it
                    rem = sz
                    head[cslot] = -1
                    tail[cslot] = -1
                    size[cslot] = 0
                    in_ring -= sz
                batch = pool
                start = c * CHUNK
                cnt = min(rem, CHUNK)
                rem -= cnt
                stop = start + cnt
            total = _pushes_bound(indptr, batch, start, stop, maxdeg)
            need = total // CHUNK + min(total, ring) + 2
            if cnext.shape[0] - pst[P_USED] + pst[P_NFREE] < need:
                pool, cnext = _grow_pool(pool, cnext, pst, need)
                if fusing:
                    batch = pool
            if far_len + total > far.shape[0]:
                far = _grow_far(far, far_len, total)
            for k in range(start, stop):
                if PREFETCH:
                    _prefetch_ahead(batch, k, stop, indptr, indices, step, dist)
                u = batch[k]
                du = atomic_load(dist, u)
                if _below(du, cur, lo_dist, delta, shift):
                    n_stale += 1
                    continue
                if fusing:
                    n_fused += 1
                lo = indptr[u]
                hi = indptr[u + 1]
                n_processed += 1
                n_relax += hi - lo
                for e in range(lo, hi):
                    ue = np.uint64(e * step)  # unsigned: no negative-index wraparound
                    v = indices[ue]
                    nd = du + weights[ue]
                    if nd < atomic_load(dist, v):
                        if nd < atomic_min(dist, v, nd):
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
                                if b < low:
                                    low = b
                            else:
                                far[far_len] = v
                                far_len += 1
                                if b < far_min:
                                    far_min = b
                                n_far += 1
                        else:
                            n_lost += 1
            if fusing:  # chunk done: free it, go to the next
                nc = cnext[c]
                cnext[c] = pst[P_FREE]
                pst[P_FREE] = c
                pst[P_NFREE] += 1
                c = nc
        # 3. this thread's lowest non-empty bucket, min-reduced into the next round's slot
        cand = NO_BIN
        if in_ring > 0:
            for b in range(max(cur, low), cur + ring):
                if size[b & mask] > 0:
                    cand = b
                    break
            low = cand
        if far_len > 0 and far_min < cand:
            cand = far_min
        nxt_par = 1 - par
        if cand < NO_BIN:
            atomic_min(sh, SH_BIN + nxt_par * _PAD, cand)
        w0 = now_ns()
        barrier_at(sh, nthreads, SH_COUNT, SH_GEN, sh[SH_SPINS])
        n_wait += now_ns() - w0
        nb = atomic_load(sh, SH_BIN + nxt_par * _PAD)
        if tid == 0:  # reset this round's slots: they serve the round after next
            sh[SH_BIN + par * _PAD] = NO_BIN
            sh[SH_SIZE + par * _PAD] = 0
            sh[SH_CURSOR + nxt_par * _PAD] = 0
        if nb == NO_BIN:
            break
        # 4. pull far-pile vertices that now fit in the ring (dist is quiet between barriers)
        if far_len > 0 and far_min - nb < ring:
            kept = 0
            fmin = NO_BIN
            need = far_len // CHUNK + min(far_len, ring) + 2
            if cnext.shape[0] - pst[P_USED] + pst[P_NFREE] < need:
                pool, cnext = _grow_pool(pool, cnext, pst, need)
            for j in range(far_len):
                v = far[j]
                b = _bucket(atomic_load(dist, v), delta, shift)
                if b < nb:
                    n_stale += 1  # it was lowered and processed in an earlier bucket
                elif b - nb < ring:
                    _append(pool, cnext, pst, head, tail, size, b & mask, v)
                    in_ring += 1
                    if b < low:
                        low = b
                    n_far += 1
                else:
                    far[kept] = v
                    kept += 1
                    if b < fmin:
                        fmin = b
            far_len = kept
            far_min = fmin
        # 5. append this thread's bin for the next bucket to the shared frontier, about once per
        # vertex (the same bucket may span rounds, so the stamp is the round)
        s = nb & mask
        if size[s] > 0:
            c = head[s]
            rem = size[s]
            head[s] = -1
            tail[s] = -1
            size[s] = 0
            in_ring -= rem
            while c >= 0:
                cnt = min(rem, CHUNK)
                rem -= cnt
                m = 0
                for j in range(c * CHUNK, c * CHUNK + cnt):
                    v = pool[j]
                    if _bucket(atomic_load(dist, v), delta, shift) < nb:
                        n_stale += 1
                    elif mark[v] != rnd:  # plain load and store, no locked exchange: a
                        mark[v] = rnd  # race lets a vertex in twice, and that is harmless
                        tmp[m] = v
                        m += 1
                if m > 0:
                    pos = atomic_fetch_add(sh, SH_SIZE + nxt_par * _PAD, m)
                    for j in range(m):
                        frontier[pos + j] = tmp[j]
                nc = cnext[c]
                cnext[c] = pst[P_FREE]
                pst[P_FREE] = c
                pst[P_NFREE] += 1
                c = nc
        w0 = now_ns()
        barrier_at(sh, nthreads, SH_COUNT, SH_GEN, sh[SH_SPINS])
        n_wait += now_ns() - w0
        cur = nb
        par = nxt_par
    row[C_PROCESSED] = n_processed
    row[C_RELAX] = n_relax
    row[C_IMPROVED] = n_improved
    row[C_STALE] = n_stale
    row[C_FUSED] = n_fused
    row[C_FAR] = n_far
    row[C_LOST] = n_lost
    row[C_CHUNKS] = pst[P_USED]
    row[C_WAIT_NS] = n_wait
    stamp_end(sh, SH_END)
