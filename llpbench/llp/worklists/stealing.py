"""Per-thread stores with work stealing, shared by PTWB (heaps) and PTCF (FIFO rings).

Each thread pushes into and pops from its own store under that store's lock (uncontended
unless a thief is visiting; a thread that is alone takes no lock at all). A thread whose
store is empty visits the others in order, takes a batch from the first non-empty one under
that store's lock (if it is free within a few polls: a held lock may belong to a preempted
thread, and the thief tries the next store instead of waiting; OBIM's thieves, which scan by
level, wait), releases it, and only then files the batch into its own store (never two locks
at once, so no lock-order deadlock).
``ordered`` is a compile-time constant of each worklist module: heaps (smallest keys first,
half of the victim's store at most) or rings (a chunk from the front).

``wl = (meta, locks, scratch, nthreads)``: addresses of the stores' control words, their
locks, and each thread's scratch space for a stolen batch.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.counters import CONTENTION, STEALS
from llpbench.llp.rawmem import bump, load_relaxed, peek, poke
from llpbench.llp.sync import PAD, lock_acquire, lock_release, lock_try
from llpbench.llp.worklists.storage import (
    SIZE,
    Stores,
    heap_pop,
    heap_push,
    least_hint,
    ring_pop,
    ring_push,
    size_hint,
)

STEAL_MAX = 64  # largest batch a thief takes (the chunk size of PTCF)
# A heap's owner looks at another heap every this many pops (a power of two; _peek_stalled).
PEEK_EVERY = 32


def create_per_thread(n: int, threads: int):
    """One store per thread, plus each thread's scratch space for a stolen batch, then its
    clock (a line: its pops, and a victim's as last seen; see :func:`_peek_stalled`)."""
    stores = Stores(
        threads, max(256, n // (4 * threads)), extra_words=threads * (STEAL_MAX * 2 + PAD)
    )
    return (stores.meta, stores.locks, stores.extra, threads), stores


@njit(nogil=True, cache=True, inline="always")
def _put(meta, s, key, item, ordered):
    if ordered:
        heap_push(meta, s, key, item)
    else:
        ring_push(meta, s, key, item)


@njit(nogil=True, cache=True, inline="always")
def _take(meta, s, ordered):
    if ordered:
        return heap_pop(meta, s)
    return ring_pop(meta, s)


@njit(nogil=True, cache=True, inline="always")
def push_own(wl, tid, key, item, ctr, ordered):
    """Thread ``tid`` files ``(key, item)`` into its own store (no lock when alone)."""
    meta, locks, shared = wl[0], wl[1], wl[3] > 1
    if shared:
        bump(ctr, CONTENTION, lock_acquire(locks, tid * PAD))
    _put(meta, tid, key, item, ordered)
    if shared:
        lock_release(locks, tid * PAD)


@njit(nogil=True, cache=True, inline="always")
def pop_own_or_steal(wl, tid, ctr, ordered):
    """Thread ``tid`` takes from its own store, or steals when it is empty (no lock, and
    nobody to steal from, when alone).

    Heaps (``ordered``) also look out for stalled owners (:func:`_peek_stalled`)."""
    meta, locks, shared = wl[0], wl[1], wl[3] > 1
    if not shared:
        return _take(meta, tid, ordered)
    if ordered:
        found, key, item = _peek_stalled(wl, tid, ctr)
        if found:
            return True, key, item
    if size_hint(meta, tid) > 0:
        bump(ctr, CONTENTION, lock_acquire(locks, tid * PAD))
        found, key, item = _take(meta, tid, ordered)
        lock_release(locks, tid * PAD)
        if found:
            return True, key, item
    return steal(meta, locks, wl[2], tid, wl[3], ctr, ordered)


@njit(nogil=True, cache=True, inline="always")
def _peek_stalled(wl, tid, ctr):
    """Every ``PEEK_EVERY`` pops, thread ``tid`` looks at one victim (each in turn, twice
    running): the second time, if the victim popped nothing in between (its pop count, word
    0 of its clock, has not moved: it is preempted, or idle with an empty heap) and its
    smallest key is below the thief's, take a batch of its smallest. Returns ``(found, key,
    item)``.

    Without it a heap keeps no order across threads: with 32 threads on 2 cores the urgent
    work sits in the heaps of preempted threads while the running ones advance vertices at
    distances later lowered again (2.8x the items of 2 threads on the grid). A victim that
    is running is left alone: taking from it whenever its key is smaller made two running
    threads trade batches back and forth (2 threads took twice as long on the grid)."""
    meta, locks, nthreads = wl[0], wl[1], wl[3]
    clocks = wl[2] + 8 * nthreads * STEAL_MAX * 2
    mine = clocks + 8 * tid * PAD  # word 0: this thread's pops; word 1: the victim's, seen
    pops = peek(mine, 0) + 1
    poke(mine, 0, pops)
    if (pops & (PEEK_EVERY - 1)) != 0:
        return False, 0, 0
    period = pops // PEEK_EVERY  # 1, 2: the first victim; 3, 4: the next; ...
    victim = (tid + 1 + ((period - 1) // 2) % (nthreads - 1)) % nthreads
    seen = load_relaxed(clocks + 8 * victim * PAD, 0)
    if period % 2 == 1:
        poke(mine, 1, seen)
        return False, 0, 0
    if seen != peek(mine, 1) or size_hint(meta, victim) == 0:
        return False, 0, 0
    if size_hint(meta, tid) > 0 and least_hint(meta, victim) >= least_hint(meta, tid):
        return False, 0, 0
    scratch = wl[2] + 8 * tid * STEAL_MAX * 2
    return steal_from(meta, locks, scratch, victim, tid, True, True, False, ctr)


@njit(nogil=True, cache=True)
def steal(meta, locks, scratch, tid, nthreads, ctr, ordered):
    """Steal a batch into thread ``tid``'s scratch; return ``(found, key, item)`` of its first
    pair and file the rest into the thief's own store."""
    mine = scratch + 8 * tid * STEAL_MAX * 2
    return steal_batch(meta, locks, mine, tid, nthreads, 1, 0, ordered, ordered, False, ctr)


@njit(nogil=True, cache=True, inline="always")
def steal_batch(meta, locks, mine, tid, nthreads, stride, slot, half, ordered, wait, ctr):
    """Take a batch of up to ``STEAL_MAX`` pairs from the first other thread's non-empty
    store ``thread * stride + slot`` (at most ``half`` of it when ``half``), through the
    scratch words at address ``mine``; return its first pair and file the rest into the
    thief's own store ``tid * stride + slot`` (never two locks at once); ``wait``: wait for a
    held lock rather than pass the victim by. Inlined into its callers, which pass the
    constants (per-thread stores: stride 1, slot 0, no wait; OBIM: a level slot of
    ``NUM_LEVELS``, wait: passing a level's lock by takes a higher level first, 2.7x the
    items on luxembourg-road at 2 threads)."""
    own = tid * stride + slot
    for i in range(1, nthreads):
        victim = ((tid + i) % nthreads) * stride + slot
        if size_hint(meta, victim) == 0:
            continue
        found, key, item = steal_from(meta, locks, mine, victim, own, half, ordered, wait, ctr)
        if found:
            return True, key, item
    return False, 0, 0


@njit(nogil=True, cache=True, inline="always")
def steal_from(meta, locks, mine, victim, own, half, ordered, wait, ctr):
    """Take a batch from store ``victim`` (see :func:`steal_batch`): ``(found, key, item)``
    of its first pair, the rest filed into store ``own``. Unless ``wait``, only if its lock
    is free within a few polls."""
    if wait:
        bump(ctr, CONTENTION, lock_acquire(locks, victim * PAD))
    elif not lock_try(locks, victim * PAD):  # held: perhaps by a preempted thread
        bump(ctr, CONTENTION, 1)
        return False, 0, 0
    size = peek(meta, victim * PAD + SIZE)
    take = min(STEAL_MAX, (size + 1) // 2) if half else min(STEAL_MAX, size)
    got = 0
    for _ in range(take):
        found, key, item = _take(meta, victim, ordered)
        if not found:
            break
        poke(mine, 2 * got, key)
        poke(mine, 2 * got + 1, item)
        got += 1
    lock_release(locks, victim * PAD)
    if got == 0:
        return False, 0, 0
    bump(ctr, STEALS, 1)
    if got > 1:
        bump(ctr, CONTENTION, lock_acquire(locks, own * PAD))
        for k in range(1, got):
            _put(meta, own, peek(mine, 2 * k), peek(mine, 2 * k + 1), ordered)
        lock_release(locks, own * PAD)
    return True, peek(mine, 0), peek(mine, 1)
