"""PTCF: per-thread chunked FIFOs with chunk stealing (Galois' ``PerThreadChunkFIFO``).

Each thread appends to and pops from the front of its own FIFO; an idle thread steals a
chunk of up to 64 items from the front of another's. Order is FIFO per thread, with no
priority at all: the counters show what ignoring priority costs on SSSP.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.llp.sync import PAD, lock_acquire, lock_release
from llpbench.llp.worklists.stealing import STEAL_MAX, steal
from llpbench.llp.worklists.storage import new_stores, ring_pop, ring_push, size_hint


def create(n: int, threads: int, bucket_width: int):
    bufs, meta, locks = new_stores(threads, max(256, n // (4 * threads)))
    scratch = np.empty((threads, STEAL_MAX, 2), dtype=np.int64)
    return bufs, meta, locks, scratch, threads


@njit(nogil=True, cache=True, inline="always")
def push(wl, tid, key, item, ctr):
    bufs, meta, locks, scratch, nthreads = wl
    lock_acquire(locks, tid * PAD, ctr)
    ring_push(bufs, meta, tid, key, item)
    lock_release(locks, tid * PAD)


@njit(nogil=True, cache=True, inline="always")
def pop(wl, tid, ctr):
    bufs, meta, locks, scratch, nthreads = wl
    if size_hint(meta, tid) > 0:
        lock_acquire(locks, tid * PAD, ctr)
        found, key, item = ring_pop(bufs, meta, tid)
        lock_release(locks, tid * PAD)
        if found:
            return True, key, item
    return steal(bufs, meta, locks, scratch, tid, nthreads, ctr, False)
