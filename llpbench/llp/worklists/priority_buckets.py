"""Bucketed: shared FIFO buckets by priority range (ordered-by-integer-metric style).

An item with priority ``key`` goes to bucket ``key // width``; threads pop from the lowest
non-empty bucket. Buckets live in a ring of ``NUM_BUCKETS`` slots (as in Δ-stepping): a
bucket index far ahead wraps onto an earlier slot and may be processed early, which costs
work but never correctness, since LLP converges in any order. A shared hint holds the
lowest possibly non-empty bucket; pushes lower it with an atomic min (only when they would
lower it: a plain read first). One thread alone takes no locks (nobody to exclude).
``wl = (meta, locks, control, shift, threads)``.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.rawmem import cas, fetch_min, load_relaxed
from llpbench.llp.sync import PAD, lock_acquire, lock_release
from llpbench.llp.worklists.storage import Stores, ring_pop, ring_push, size_hint

NUM_BUCKETS = 1024  # a power of two
EMPTY = 2**63 - 1  # the hint when nothing was ever pushed


def create(n: int, threads: int, bucket_width: int):
    stores = Stores(NUM_BUCKETS, 64, extra_words=PAD)
    stores.extra_array()[0] = EMPTY
    shift = max(0, int(bucket_width).bit_length() - 1)
    return (stores.meta, stores.locks, stores.extra, shift, threads), stores


@njit(nogil=True, cache=True, inline="always")
def push(wl, tid, key, item, ctr):
    meta, locks, control, shift, shared = wl[0], wl[1], wl[2], wl[3], wl[4] > 1
    bucket = key >> shift
    slot = bucket & (NUM_BUCKETS - 1)
    if shared:
        lock_acquire(locks, slot * PAD, ctr)
    ring_push(meta, slot, key, item)
    if shared:
        lock_release(locks, slot * PAD)
    if bucket < load_relaxed(control, 0):
        fetch_min(control, 0, bucket)


@njit(nogil=True, cache=True, inline="always")
def pop(wl, tid, ctr):
    meta, locks, control, shared = wl[0], wl[1], wl[2], wl[4] > 1
    current = load_relaxed(control, 0)
    if current == EMPTY:
        current = 0
    for i in range(NUM_BUCKETS):
        bucket = current + i
        slot = bucket & (NUM_BUCKETS - 1)
        if size_hint(meta, slot) == 0:
            continue
        if shared:
            lock_acquire(locks, slot * PAD, ctr)
        found, key, item = ring_pop(meta, slot)
        if shared:
            lock_release(locks, slot * PAD)
        if found:
            if i > 0:
                cas(control, 0, current, bucket)
            return True, key, item
    return False, 0, 0
