"""Bucketed: shared FIFO buckets by priority range (ordered-by-integer-metric style).

An item with priority ``key`` goes to bucket ``key // width``; threads pop from the lowest
non-empty bucket. Buckets live in a ring of ``NUM_BUCKETS`` slots (as in Δ-stepping): a
bucket index far ahead wraps onto an earlier slot and may be processed early, which costs
work but never correctness, since LLP converges in any order. A shared hint holds the
lowest possibly non-empty bucket; pushes lower it with an atomic min (only when they would
lower it: a plain read first); a pop scans up to the highest bucket pushed, the whole ring
now and then (:mod:`.levels`). One thread alone takes no locks (nobody to exclude).
``wl = (meta, locks, control, shift, threads)``.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.rawmem import cas
from llpbench.llp.sync import PAD
from llpbench.llp.worklists import fusion
from llpbench.llp.worklists.levels import (
    count_miss,
    first_level,
    level_worklist,
    misses_word,
    note_push,
    scan_length,
)
from llpbench.llp.worklists.storage import (
    Stores,
    locked_ring_push,
    locked_ring_take,
    size_hint,
)

NUM_BUCKETS = 1024  # a power of two

FUSE = fusion.LEVEL_FUSE  # a worker's run of work created at its level (see fusion)
fuses = fusion.same_level


def create(n: int, threads: int, bucket_width: int):
    # hint and top; per thread, a pop scratch pair and its empty-pop count
    stores = Stores(NUM_BUCKETS, 64, extra_words=PAD + threads * PAD)
    return level_worklist(stores, bucket_width, threads)


@njit(nogil=True, cache=True, inline="always")
def push(wl, tid, key, item, ctr):
    meta, locks, control, shift, shared = wl[0], wl[1], wl[2], wl[3], wl[4] > 1
    bucket = key >> shift
    locked_ring_push(meta, locks, bucket & (NUM_BUCKETS - 1), key, item, shared, ctr)
    note_push(control, bucket)


@njit(nogil=True, cache=True, inline="always")
def _pop_scratch(wl, tid):
    """Thread ``tid``'s pop scratch: a pair (words 0-1), its empty-pop count (word 2)."""
    return wl[2] + 8 * (PAD + tid * PAD)


@njit(nogil=True, cache=True, inline="always")
def pop(wl, tid, ctr):
    """One pair: :func:`pop_batch` of one, through the thread's scratch words."""
    scratch = _pop_scratch(wl, tid)
    return fusion.first(pop_batch(wl, tid, ctr, scratch, 1), scratch)


@njit(nogil=True, cache=True, inline="always")
def pop_batch(wl, tid, ctr, dst, most):
    """Up to ``most`` pairs of the lowest non-empty bucket at once, written at address
    ``dst`` (one lock for all of them); returns how many."""
    meta, locks, control, shared = wl[0], wl[1], wl[2], wl[4] > 1
    current = first_level(control)
    misses = misses_word(_pop_scratch(wl, tid))
    for i in range(scan_length(control, current, NUM_BUCKETS, misses)):
        bucket = current + i
        slot = bucket & (NUM_BUCKETS - 1)
        if size_hint(meta, slot) == 0:
            continue
        n = locked_ring_take(meta, locks, slot, dst, most, shared, ctr)
        if n > 0:
            if i > 0:
                cas(control, 0, current, bucket)
            return n
    count_miss(misses)
    return 0
