"""PTWB: per-thread work bags ordered by priority, with stealing.

Each thread pushes the items its advances produce into its own min-heap keyed by their
priority at push time (for SSSP the new tentative distance: the paper's recency bias towards
the work a thread just created) and pops its smallest. A thread with an empty heap steals
up to half of another thread's heap, smallest keys first.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.llp.sync import PAD, lock_acquire, lock_release
from llpbench.llp.worklists.stealing import STEAL_MAX, steal
from llpbench.llp.worklists.storage import heap_pop, heap_push, new_stores, size_hint


def create(n: int, threads: int, bucket_width: int):
    bufs, meta, locks = new_stores(threads, max(256, n // (4 * threads)))
    scratch = np.empty((threads, STEAL_MAX, 2), dtype=np.int64)
    return bufs, meta, locks, scratch, threads


@njit(nogil=True, cache=True, inline="always")
def push(wl, tid, key, item, ctr):
    bufs, meta, locks, scratch, nthreads = wl
    lock_acquire(locks, tid * PAD, ctr)
    heap_push(bufs, meta, tid, key, item)
    lock_release(locks, tid * PAD)


@njit(nogil=True, cache=True, inline="always")
def pop(wl, tid, ctr):
    bufs, meta, locks, scratch, nthreads = wl
    if size_hint(meta, tid) > 0:
        lock_acquire(locks, tid * PAD, ctr)
        found, key, item = heap_pop(bufs, meta, tid)
        lock_release(locks, tid * PAD)
        if found:
            return True, key, item
    return steal(bufs, meta, locks, scratch, tid, nthreads, ctr, True)
