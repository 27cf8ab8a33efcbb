"""Bucketed: shared FIFO buckets by priority range (ordered-by-integer-metric style).

An item with priority ``key`` goes to bucket ``key // width``; threads pop from the lowest
non-empty bucket. Buckets live in a ring of ``NUM_BUCKETS`` slots (as in Δ-stepping): a
bucket index far ahead wraps onto an earlier slot and may be processed early, which costs
work but never correctness, since LLP converges in any order. A shared hint holds the
lowest possibly non-empty bucket; pushes lower it with an atomic min.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.llp.atomics import atomic_cas, atomic_load, atomic_min
from llpbench.llp.sync import PAD, lock_acquire, lock_release
from llpbench.llp.worklists.storage import new_stores, ring_pop, ring_push, size_hint

NUM_BUCKETS = 1024  # a power of two
CURRENT = 0  # control slot: lowest possibly non-empty bucket
SHIFT = 8  # control slot: log2 of the bucket width


def create(n: int, threads: int, bucket_width: int):
    bufs, meta, locks = new_stores(NUM_BUCKETS, 64)
    ctl = np.zeros(16, dtype=np.int64)
    ctl[CURRENT] = np.iinfo(np.int64).max
    ctl[SHIFT] = max(0, int(bucket_width).bit_length() - 1)
    return bufs, meta, locks, ctl


@njit(nogil=True, cache=True, inline="always")
def push(wl, tid, key, item, ctr):
    bufs, meta, locks, ctl = wl
    bucket = key >> ctl[SHIFT]
    slot = bucket & (NUM_BUCKETS - 1)
    lock_acquire(locks, slot * PAD, ctr)
    ring_push(bufs, meta, slot, key, item)
    lock_release(locks, slot * PAD)
    atomic_min(ctl, CURRENT, bucket)


@njit(nogil=True, cache=True, inline="always")
def pop(wl, tid, ctr):
    bufs, meta, locks, ctl = wl
    current = atomic_load(ctl, CURRENT)
    if current == np.iinfo(np.int64).max:
        current = 0
    for i in range(NUM_BUCKETS):
        bucket = current + i
        slot = bucket & (NUM_BUCKETS - 1)
        if size_hint(meta, slot) == 0:
            continue
        lock_acquire(locks, slot * PAD, ctr)
        found, key, item = ring_pop(bufs, meta, slot)
        lock_release(locks, slot * PAD)
        if found:
            if i > 0:
                atomic_cas(ctl, CURRENT, current, bucket)
            return True, key, item
    return False, 0, 0
