"""Work stealing shared by the per-thread worklists.

A thread whose own store is empty visits the others in order, takes a batch from the first
non-empty one under that store's lock, releases it, and only then files the batch into its
own store (never two locks at once, so no lock-order deadlock).
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.counters import STEALS
from llpbench.llp.sync import PAD, lock_acquire, lock_release
from llpbench.llp.worklists.storage import (
    SIZE,
    heap_pop,
    heap_push,
    ring_pop,
    ring_push,
    size_hint,
)

STEAL_MAX = 64  # largest batch a thief takes (the chunk size of PTCF)


@njit(nogil=True, cache=True)
def steal(bufs, meta, locks, scratch, tid, nthreads, ctr, ordered):
    """Steal a batch into ``scratch[tid]``; return ``(found, key, item)`` of its first pair.

    ``ordered`` selects heaps (take the smallest keys, half the victim's store at most)
    over rings (take a chunk from the front).
    """
    mine = scratch[tid]
    for i in range(1, nthreads):
        victim = (tid + i) % nthreads
        avail = size_hint(meta, victim)
        if avail == 0:
            continue
        lock_acquire(locks, victim * PAD, ctr)
        size = meta[victim * PAD + SIZE]
        take = min(STEAL_MAX, (size + 1) // 2) if ordered else min(STEAL_MAX, size)
        got = 0
        for _ in range(take):
            if ordered:
                found, key, item = heap_pop(bufs, meta, victim)
            else:
                found, key, item = ring_pop(bufs, meta, victim)
            if not found:
                break
            mine[got, 0] = key
            mine[got, 1] = item
            got += 1
        lock_release(locks, victim * PAD)
        if got == 0:
            continue
        ctr[STEALS] += 1
        if got > 1:
            lock_acquire(locks, tid * PAD, ctr)
            for k in range(1, got):
                if ordered:
                    heap_push(bufs, meta, tid, mine[k, 0], mine[k, 1])
                else:
                    ring_push(bufs, meta, tid, mine[k, 0], mine[k, 1])
            lock_release(locks, tid * PAD)
        return True, mine[0, 0], mine[0, 1]
    return False, 0, 0
