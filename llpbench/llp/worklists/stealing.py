"""Per-thread stores with work stealing, shared by PTWB (heaps) and PTCF (FIFO rings).

Each thread pushes into and pops from its own store under that store's lock (uncontended
unless a thief is visiting; a thread that is alone takes no lock at all). A thread whose
store is empty visits the others in order, takes a batch from the first non-empty one under
that store's lock, releases it, and only then files the batch into its own store (never
two locks at once, so no lock-order deadlock).
``ordered`` is a compile-time constant of each worklist module: heaps (smallest keys first,
half of the victim's store at most) or rings (a chunk from the front).

``wl = (meta, locks, scratch, nthreads)``: addresses of the stores' control words, their
locks, and each thread's scratch space for a stolen batch.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.counters import CONTENTION, STEALS
from llpbench.llp.rawmem import bump, peek, poke
from llpbench.llp.sync import PAD, lock_acquire, lock_release
from llpbench.llp.worklists.storage import (
    SIZE,
    Stores,
    heap_pop,
    heap_push,
    ring_pop,
    ring_push,
    size_hint,
)

STEAL_MAX = 64  # largest batch a thief takes (the chunk size of PTCF)


def create_per_thread(n: int, threads: int):
    """One store per thread, plus each thread's scratch space for a stolen batch."""
    stores = Stores(threads, max(256, n // (4 * threads)), extra_words=threads * STEAL_MAX * 2)
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
    nobody to steal from, when alone)."""
    meta, locks, shared = wl[0], wl[1], wl[3] > 1
    if not shared:
        return _take(meta, tid, ordered)
    if size_hint(meta, tid) > 0:
        bump(ctr, CONTENTION, lock_acquire(locks, tid * PAD))
        found, key, item = _take(meta, tid, ordered)
        lock_release(locks, tid * PAD)
        if found:
            return True, key, item
    return steal(meta, locks, wl[2], tid, wl[3], ctr, ordered)


@njit(nogil=True, cache=True)
def steal(meta, locks, scratch, tid, nthreads, ctr, ordered):
    """Steal a batch into thread ``tid``'s scratch; return ``(found, key, item)`` of its first
    pair and file the rest into the thief's own store."""
    mine = scratch + 8 * tid * STEAL_MAX * 2
    return steal_batch(meta, locks, mine, tid, nthreads, 1, 0, ordered, ordered, ctr)


@njit(nogil=True, cache=True, inline="always")
def steal_batch(meta, locks, mine, tid, nthreads, stride, slot, half, ordered, ctr):
    """Take a batch of up to ``STEAL_MAX`` pairs from the first other thread's non-empty
    store ``thread * stride + slot`` (at most ``half`` of it when ``half``), through the
    scratch words at address ``mine``; return its first pair and file the rest into the
    thief's own store ``tid * stride + slot`` (never two locks at once). Inlined into its
    callers, which pass the constants (per-thread stores: stride 1, slot 0; OBIM: a level
    slot of ``NUM_LEVELS``)."""
    own = tid * stride + slot
    for i in range(1, nthreads):
        victim = ((tid + i) % nthreads) * stride + slot
        if size_hint(meta, victim) == 0:
            continue
        bump(ctr, CONTENTION, lock_acquire(locks, victim * PAD))
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
            continue
        bump(ctr, STEALS, 1)
        if got > 1:
            bump(ctr, CONTENTION, lock_acquire(locks, own * PAD))
            for k in range(1, got):
                _put(meta, own, peek(mine, 2 * k), peek(mine, 2 * k + 1), ordered)
            lock_release(locks, own * PAD)
        return True, peek(mine, 0), peek(mine, 1)
    return False, 0, 0
