"""Δ-stepping's buckets and bins: the constants, bucket index and chunk-list helpers that
both kernels (:mod:`~llpbench.baselines.delta.serial`, :mod:`~llpbench.baselines.delta.parallel`)
inline.

numba's disk cache checks only the file of the function it compiled: an edit here must be
followed by one to ``serial.py`` and ``parallel.py`` (their kernels inline this code and
freeze these constants), or a cached kernel keeps the old layout. The tuned-Δ cache key
(:func:`llpbench.baselines.delta.family.cache_key`) digests all three files.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from llpbench.llp.atomics import prefetch

INT_INF = np.iinfo(np.int64).max
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
C_WAIT_NS = 9  # nanoseconds waited at the round barriers (parallel kernel)
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
    "barrier_ns",
)

# Shared control slots of the parallel kernel (int64, one cache line apart). The start
# barrier and the round barrier slots live here rather than in llpbench.llp.sync, beside the
# kernels' own constants (see the module docstring on numba's cache).
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
SH_END = 11 * _PAD  # and + 1: each worker's end, stamped as it returns (llpbench.llp.sync)
SH_SLOTS = 12 * _PAD


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


@njit(nogil=True, cache=True, inline="always")
def _link_chunk(cnext, pst, head, tail, s, sz):
    """Give ring slot ``s`` (holding ``sz`` items, a multiple of CHUNK) a new tail chunk."""
    nc = _new_chunk(cnext, pst)
    if sz == 0:
        head[s] = nc
    else:
        cnext[tail[s]] = nc
    tail[s] = nc


@njit(nogil=True, cache=True, inline="always")
def _append(pool, cnext, pst, head, tail, size, s, v):
    """Append ``v`` to ring slot ``s``'s chunk list (a new tail chunk when the last is full).

    For the cold pushes (far-pile pulls). The relaxation loops write it out instead: an
    inlined call with a branch keeps numba's reference counts of its six arrays, two atomic
    operations each per push, which doubled the kernels' time (same-process A/B,
    2026-12-07)."""
    sz = size[s]
    if sz & CMASK == 0:
        _link_chunk(cnext, pst, head, tail, s, sz)
    pool[tail[s] * CHUNK + (sz & CMASK)] = v
    size[s] = sz + 1
