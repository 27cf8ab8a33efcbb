"""Δ-stepping single-source shortest paths: the tuned baseline of the LLP-FW evaluation.

Meyer and Sanders, "Δ-stepping: a parallelizable shortest path algorithm", J. Algorithms 49
(2003), in the shape of the GAP Benchmark Suite's ``sssp.cc`` (Beamer, Asanović and Patterson,
arXiv:1508.03619): vertices sit in buckets of width Δ by tentative distance; the lowest
non-empty bucket is processed by relaxing every out-arc of its vertices, and a vertex whose
distance drops is put into the bucket of its new distance.

Two kernels:

* **one thread** (:func:`_solve_serial`): plain loads and stores, no atomics, no barriers,
  GAP's bins without its threads: a vertex is appended to the bucket of each new distance
  (append-only chunk lists, nothing unlinked), the current bucket is worked through until no
  entry arrives in it, and an entry whose vertex was already relaxed at its present distance
  is skipped. (An earlier version kept each vertex in exactly one bucket with intrusive
  doubly linked lists; the unlinking cost ~3x GAP's time per vertex on road networks.)
* **T threads** (:func:`_worker`), GAP's algorithm: a shared frontier holds the current
  bucket; threads claim chunks of it dynamically, relax with an atomic min and put improved
  vertices into *thread-local* bins; each thread keeps processing its own copy of the current
  bucket while it stays small (GAP's *bucket fusion*, which saves barriers on long thin
  buckets); then a min-reduction picks the next bucket, every thread appends its local bin for
  it to the shared frontier (mostly deduplicated with a per-vertex stamp) and a barrier starts the
  next round. Waiting threads yield the core (``sched_yield``), so T may exceed the cores.

Both kernels prefetch: while a vertex of a bin is processed, the CSR offsets and the distance
of the vertex ``PF_FAR`` entries ahead and the first arcs of the one ``PF_NEAR`` ahead are
requested (:func:`llpbench.llp.atomics.prefetch`), so the cache misses of several vertices
overlap instead of following one another (GAP's kernel has no prefetch; same-process A/B,
2026-12-05: 0.78x the time on the road network at one thread, 0.80-0.85x at two, 0.91x on
Kronecker and Graph500 graphs at one thread).

Buckets live in a ring of ``W`` slots (a power of two at least ``max_weight / Δ + 2``, so
that every relaxation from the current bucket lands inside the ring); when Δ is so small that
the ring would be too large, arcs landing beyond it go to a *far pile* that is pulled into the
ring when the ring's buckets run out. Local bins are linked lists of fixed-size chunks in a
per-thread pool that grows by doubling.

Weights int64 (exact) or non-negative float64 (bucket ``floor(d / Δ)``); answers are float64
distances with ``inf`` for unreachable vertices, like :func:`llpbench.problems.sssp.answer`.
"""

from __future__ import annotations

import math
import os
import time

import numpy as np
from numba import njit, types
from numba.extending import overload

from llpbench.baselines import BaselineResult
from llpbench.graphs.graph import Graph
from llpbench.llp.atomics import (
    atomic_fetch_add,
    atomic_load,
    atomic_min,
    cpu_yield,
    prefetch,
)
from llpbench.llp.launch import compile_kernel, launch_workers
from llpbench.llp.sync import barrier_at

__all__ = ["delta_stepping", "default_delta", "resolve_delta", "MAX_THREADS", "NAME"]

NAME = "delta-stepping"
MAX_THREADS = 256
INT_INF = np.iinfo(np.int64).max
MAX_INT_DELTA = 2**62  # larger integer Δ values act alike (one bucket) and are clamped
NO_BIN = np.int64(2**62)  # "no bucket": larger than any real bucket index
BIN_CAP = np.int64(2**62 - 2**40)  # bucket indices are clamped below this (tiny float Δ)
FLOAT_BIN_CAP = float(BIN_CAP)
MAX_RING_SERIAL = 1 << 16  # ring slots, one thread (int32 heads: 256 KiB)
MAX_RING_PARALLEL = 1 << 12  # ring slots per thread (four int64 arrays each)
CHUNK = 256  # items per chunk of a thread-local bin
INIT_CHUNKS = 16  # chunks per thread before the pool first grows
GRAIN = 64  # frontier items claimed at a time (GAP: schedule(dynamic, 64)) ...
GRAIN_MIN = 4  # ... down to this many when the frontier is small:
GRAIN_SPLIT = 8  # about this many grains per thread at least
PREFETCH = True  # False compiles the prefetches out (for A/B measurements)
PF_NEAR = 4  # bin entries ahead whose first arcs are prefetched ...
PF_FAR = 12  # ... and whose CSR offsets and distance are (2/6 and 8/16 measure the same)
FUSE_LIMIT = 1000  # GAP's kBinSizeThreshold: fuse the current bucket while below this

# Counter slots (one padded row per thread).
C_BUCKETS = 0  # rounds: buckets taken up (a bucket split by a large fusion counts again)
C_PROCESSED = 1  # vertices whose out-arcs were relaxed
C_RELAX = 2  # arcs examined
C_IMPROVED = 3  # distances lowered
C_STALE = 4  # bucket entries skipped (their vertex had moved to a lower bucket)
C_FUSED = 5  # vertices processed by bucket fusion (parallel kernel)
C_FAR = 6  # vertices pushed to, or pulled back from, the far pile
C_LOST = 7  # atomic mins that lost to a concurrent lower value (parallel kernel)
C_CHUNKS = 8  # bin chunks each thread ever held at once (parallel kernel; memory use)
ROW = 16
COUNTER_NAMES = (
    "buckets",
    "processed",
    "relaxations",
    "improved",
    "stale",
    "fused",
    "far",
    "lost_races",
    "chunks",
)

# Shared control slots of the parallel kernel (int64, one cache line apart). The start
# barrier and the round barrier live here rather than in llpbench.llp.sync: numba's disk
# cache only notices edits to this file, so a kernel cached here must not depend on another
# module's slot layout.
_PAD = 8
SH_BIN = 0  # + parity * PAD: bucket of the round (and min-reduction target of the next)
SH_SIZE = 2 * _PAD  # + parity * PAD: frontier size
SH_CURSOR = 4 * _PAD  # + parity * PAD: next frontier item to claim
SH_READY = 6 * _PAD  # workers at the start barrier
SH_GO = 7 * _PAD  # set by the launcher once all are ready: the clock starts
SH_COUNT = 8 * _PAD  # round barrier: arrivals
SH_GEN = 9 * _PAD  # round barrier: generation
SH_SPINS = 10 * _PAD  # polls of a barrier waiter before it yields (see BARRIER_SPINS)
# A barrier waiter first polls this many times before yielding its core when every thread has
# a core of its own: a round's barrier is usually reached within microseconds, and a
# sched_yield per poll is a system call each time (GAP's OpenMP barrier spins too); 17% off
# the 2-thread road network at Δ = 8 (15,000 buckets). With more threads than cores a
# spinning waiter steals the core of the thread it waits for (1.65x slower at 8 threads on 2
# cores), so then it yields at once.
BARRIER_SPINS = 4000
SH_SLOTS = 11 * _PAD


# --------------------------------------------------------------------------- bucket index


def _bucket(d, delta, shift):  # pragma: no cover - replaced by the overload in compiled code
    raise NotImplementedError


@overload(_bucket)
def _bucket_impl(d, delta, shift):
    """``floor(d / Δ)``: exact integer division for int64 (a shift by ``shift`` when Δ is
    ``2**shift``, else ``shift`` is -1), monotone ``floor`` for float64. Distances are never
    negative, so the shift equals the division; it saves a divide per improved distance."""
    if isinstance(d, types.Integer):

        def int_impl(d, delta, shift):
            if shift >= 0:
                return min(d >> shift, BIN_CAP)
            return min(d // delta, BIN_CAP)

        return int_impl

    def float_impl(d, delta, shift):
        return np.int64(min(np.floor(d / delta), FLOAT_BIN_CAP))

    return float_impl


def _bucket_start(b, delta):  # pragma: no cover - replaced by the overload in compiled code
    raise NotImplementedError


@overload(_bucket_start)
def _bucket_start_impl(b, delta):
    """The smallest distance of bucket ``b`` (exact for integers; floats use :func:`_below`)."""
    return lambda b, delta: b * delta


def _below(d, b, start, delta, shift):  # pragma: no cover - replaced by the overload
    raise NotImplementedError


@overload(_below)
def _below_impl(d, b, start, delta, shift):
    """Whether distance ``d`` lies below bucket ``b`` (whose smallest distance is ``start``):
    one comparison for integers (GAP's ``dist[u] >= delta * bin``), the exact bucket for
    floats, where ``b * Δ`` and ``floor(d / Δ)`` may round differently."""
    if isinstance(d, types.Integer):
        return lambda d, b, start, delta, shift: d < start
    return lambda d, b, start, delta, shift: _bucket(d, delta, shift) < b


# --------------------------------------------------------------------------- bins
# Bins (both kernels): slot s of the ring is a linked list of chunks (head[s] .. tail[s]) in
# a pool (one per thread), holding size[s] items: every chunk but the tail is full, so the
# tail's fill is size[s] % CHUNK and an append reads two independent words (size, tail)
# rather than following tail to a per-chunk count; chunk c holds pool[c * CHUNK : ...] and
# links to cnext[c]. pst = [free-list head, chunks ever used, free chunks].
# The hot path (claim an item, relax its arcs, push to a bin) is written out inline in
# the kernels: numba increfs every array argument of a called function, two atomic operations
# per array and call, which cost more than the relaxations themselves. The counts that the
# hot path updates (items in the ring, far-pile length and least bucket, lowest bucket) are
# local variables, not array slots: a store into an array may alias any other array, so LLVM
# would reload and store such slots around every bin write.

P_FREE = 0
P_USED = 1
P_NFREE = 2
# A batch (a grain or a chunk) of vertices needs room for all it may push; when the degree
# bound (batch size x largest out-degree) is at most this many items, room for the bound is
# made without reading the batch's degrees (low-degree graphs: road networks, meshes).
BOUND_ITEMS = 1 << 12
assert CHUNK & (CHUNK - 1) == 0, "CHUNK must be a power of two (the tail's fill is size % CHUNK)"
CMASK = CHUNK - 1


@njit(nogil=True, cache=True, inline="always")
def _new_chunk(cnext, pst):
    c = pst[P_FREE]
    if c >= 0:
        pst[P_FREE] = cnext[c]
        pst[P_NFREE] -= 1
    else:
        c = pst[P_USED]
        pst[P_USED] = c + 1
    cnext[c] = -1
    return c


@njit(nogil=True, cache=True)
def _grow_pool(pool, cnext, pst, need):
    """Bigger copies of the pool arrays, with room for ``need`` more chunks."""
    nch = cnext.shape[0]
    new = max(2 * nch, pst[P_USED] + need)
    pool2 = np.empty(new * CHUNK, pool.dtype)
    pool2[: nch * CHUNK] = pool
    cnext2 = np.empty(new, np.int64)
    cnext2[:nch] = cnext
    return pool2, cnext2


@njit(nogil=True, cache=True)
def _grow_far(far, length, need):
    """A bigger copy of the far pile, keeping its first ``length`` entries."""
    far2 = np.empty(max(2 * far.shape[0], length + need), far.dtype)
    far2[:length] = far[:length]
    return far2


@njit(nogil=True, cache=True, inline="always")
def _pushes_bound(indptr, batch, start, stop, maxdeg):
    """At most how many items the vertices ``batch[start:stop]`` push: the degree bound
    when it is small, else the sum of their out-degrees."""
    bound = (stop - start) * maxdeg
    if bound <= BOUND_ITEMS:
        return bound
    total = 0
    for k in range(start, stop):
        u = batch[k]
        total += indptr[u + 1] - indptr[u]
    return total


@njit(nogil=True, cache=True, inline="always")
def _prefetch_ahead(batch, k, stop, indptr, indices, step, dist):
    """While ``batch[k]`` is processed: the first arcs of the entry ``PF_NEAR`` ahead, and
    the CSR offset and distance of the one ``PF_FAR`` ahead (clamped to the batch)."""
    w = batch[min(k + PF_NEAR, stop - 1)]
    prefetch(indices, indptr[w] * step)
    w = batch[min(k + PF_FAR, stop - 1)]
    prefetch(indptr, w)
    prefetch(dist, w)


# --------------------------------------------------------------------------- one thread


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
                                s = b & mask
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
                    s = b & mask
                    sz = size[s]
                    if sz & CMASK == 0:
                        nc = _new_chunk(cnext, pst)
                        if sz == 0:
                            head[s] = nc
                        else:
                            cnext[tail[s]] = nc
                        tail[s] = nc
                    pool[tail[s] * CHUNK + (sz & CMASK)] = x
                    size[s] = sz + 1
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


# --------------------------------------------------------------------------- T threads
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
                                s = b & mask
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
        barrier_at(sh, nthreads, SH_COUNT, SH_GEN, sh[SH_SPINS])
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
                    s = b & mask
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
        barrier_at(sh, nthreads, SH_COUNT, SH_GEN, sh[SH_SPINS])
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


# --------------------------------------------------------------------------- Python side


def _usable_cores() -> int:
    """The CPUs this process may run on (its affinity set), else the core count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_delta(graph: Graph) -> int | float:
    """The default Δ: the median arc weight (positive weights only if the median is 0).

    int for integer weights (at least 1), float otherwise (1.0 if no weight is positive).
    """
    w = graph.weights
    med = float(np.median(w)) if w.shape[0] else 0.0
    if med <= 0 and w.shape[0]:
        pos = w[w > 0]
        med = float(np.median(pos)) if pos.shape[0] else 0.0
    if graph.integer_weights:
        return max(1, int(round(med)))
    return med if med > 0 else 1.0


def resolve_delta(graph: Graph, delta: float | None) -> int | float:
    """The Δ actually used: ``delta`` as the weights' type (int >= 1), or the default.

    Raises
    ------
    ValueError
        If ``delta`` is not a positive finite number.
    """
    if delta is None:
        return default_delta(graph)
    d = float(delta)
    if not math.isfinite(d) or d <= 0:
        raise ValueError(f"delta must be a positive finite number, got {delta!r}")
    if graph.integer_weights:
        return min(max(1, int(math.floor(d))), MAX_INT_DELTA)
    return d


def distance_type(graph: Graph) -> tuple[type, int | float]:
    """The kernels' distance dtype and its "unreached" value.

    int32 (GAP's ``WeightT``) when the weights are integers packed as int32
    (:attr:`Graph.packed_arcs`) and no simple path can reach 2**31 - 1 ((n - 1) * max weight
    below it): half the bytes of int64 in the randomly accessed distance array. int64 for
    other integer weights, float64 (inf) for float weights.
    """
    if not graph.integer_weights:
        return np.float64, np.inf
    maxw = int(graph.weights.max()) if graph.m else 0
    if graph.packed_arcs is not None and max(graph.n - 1, 1) * maxw < 2**31 - 1:
        return np.int32, 2**31 - 1
    return np.int64, INT_INF


def _ring_size(graph: Graph, delta: int | float, cap: int) -> int:
    """Ring slots: a power of two >= max_weight / Δ + 2 (then no arc reaches past the ring)."""
    maxw = graph.weights.max() if graph.m else 0
    if graph.integer_weights:
        span = int(maxw) // int(delta) + 2
    else:
        ratio = float(maxw) / float(delta)
        span = int(ratio) + 2 if ratio < cap else cap
    ring = 2
    while ring < span and ring < cap:
        ring *= 2
    return ring


def _shift_of(delta: int) -> int:
    """log2(Δ) when the integer Δ is a power of two (buckets by a shift), else -1."""
    return delta.bit_length() - 1 if delta & (delta - 1) == 0 else -1


def _interleaved(graph: Graph) -> tuple[np.ndarray, np.ndarray, int]:
    """The packed int32 arcs as two *contiguous* arrays read at even positions (step 2):
    ``flat[2e]`` is arc e's head and ``flat[1:][2e]`` its weight. The strided views of
    :attr:`Graph.packed_arcs` are typed ``'A'`` layout by numba, which then reads each
    element's stride from memory and multiplies by it in the innermost loop."""
    heads, weights = graph.packed_arcs
    arcs = heads.base
    if arcs is None or arcs.shape != (graph.m, 2) or not arcs.flags.c_contiguous:
        arcs = np.stack([heads, weights], axis=1)
    flat = arcs.reshape(-1)
    return flat, flat[1:], 2


def delta_stepping(
    graph: Graph, source: int, *, threads: int = 1, delta: float | None = None
) -> BaselineResult:
    """Shortest-path distances from ``source`` by Δ-stepping on ``threads`` OS threads.

    Parameters
    ----------
    graph : Graph
        Non-negative int64 or float64 arc weights.
    source : int
        The source vertex.
    threads : int
        Worker threads, 1 to 256, whatever the number of cores; 1 runs the serial kernel
        (no atomics, no barriers).
    delta : float, optional
        Bucket width; default :func:`default_delta` (the median arc weight). Integer weights
        use ``max(1, floor(delta))``.

    Returns
    -------
    BaselineResult
        ``answer``: float64 distances, ``inf`` where unreachable (exact for int weights);
        ``seconds``: the solve, from the moment all workers are ready (compilation, or
        loading it from numba's cache, is in ``compile_seconds``); ``params``:
        ``{"delta": Δ used, "threads": T}``; ``counters``: buckets (rounds), processed
        (vertices whose arcs were relaxed), relaxations (arcs examined), improved (distances
        lowered), stale (bucket entries skipped), fused (processed by bucket fusion), far
        (far-pile moves), lost_races (atomic mins beaten by another thread), chunks (local
        bin chunks held by the threads, summed), ring (bucket ring slots).

    Raises
    ------
    ValueError
        If ``source`` is not a vertex, ``threads`` is out of range or ``delta`` is not positive.

    Examples
    --------
    >>> import numpy as np
    >>> g = Graph.from_edges(3, np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([1, 1, 5]))
    >>> delta_stepping(g, 0).answer.tolist()
    [0.0, 1.0, 2.0]
    """
    n = graph.n
    if isinstance(source, bool) or not 0 <= int(source) < n:
        raise ValueError(f"source {source} is not a vertex of {graph.name} (0..{n - 1})")
    if not 1 <= int(threads) <= MAX_THREADS:
        raise ValueError(f"threads must be between 1 and {MAX_THREADS}, got {threads}")
    source = int(source)
    threads = int(threads)
    delta_used = resolve_delta(graph, delta)
    integer = graph.integer_weights
    indptr, indices, weights = graph.indptr, graph.indices, graph.weights
    step = 1
    dtype, inf = distance_type(graph)
    if integer:
        kdelta = np.int64(delta_used)
        if dtype == np.int32:
            indices, weights, step = _interleaved(graph)
    else:
        kdelta = np.float64(delta_used)
    kshift = np.int64(_shift_of(delta_used) if integer else -1)
    dist = np.full(n, inf, dtype=dtype)
    dist[source] = 0
    ctr = np.zeros((threads, ROW), dtype=np.int64)
    maxdeg = np.int64(graph.out_degrees().max(initial=0))

    if threads == 1:
        ring = _ring_size(graph, delta_used, MAX_RING_SERIAL)
        args = (indptr, indices, weights, np.int64(step), dist, np.int64(source), kdelta, kshift,
            np.int64(ring), maxdeg, ctr,
        )
        compile_s, _ = compile_kernel(_solve_serial, args)
        c0, t0 = time.thread_time(), time.perf_counter()
        _solve_serial(*args)
        seconds = time.perf_counter() - t0
        cpu_seconds = time.thread_time() - c0
    else:
        ring = _ring_size(graph, delta_used, MAX_RING_PARALLEL)
        frontier = np.empty(max(1, n), dtype=indices.dtype)
        frontier[0] = source
        mark = np.zeros(max(1, n), dtype=np.int32)  # round stamps
        sh = np.zeros(SH_SLOTS, dtype=np.int64)
        sh[SH_SPINS] = BARRIER_SPINS if threads <= _usable_cores() else 0
        sh[SH_BIN] = int(dist[source] // kdelta)  # bucket 0
        sh[SH_BIN + _PAD] = int(NO_BIN)
        sh[SH_SIZE] = 1
        common = (
            indptr, indices, weights, np.int64(step), dist, kdelta, kshift, np.int64(ring),
            maxdeg, frontier, mark, sh, ctr,
        )
        seconds, compile_s = launch_workers(_worker, threads, common, sh, SH_READY, SH_GO)
        cpu_seconds = None

    answer = dist.astype(np.float64)
    if integer:
        answer[dist == inf] = np.inf
    totals = ctr.sum(axis=0)
    counters = {name: int(totals[i]) for i, name in enumerate(COUNTER_NAMES)}
    counters["ring"] = int(ring)
    return BaselineResult(
        answer=answer,
        seconds=seconds,
        compile_seconds=compile_s,
        name=NAME,
        params={"delta": delta_used, "threads": threads},
        counters=counters,
        cpu_seconds=cpu_seconds,
    )
