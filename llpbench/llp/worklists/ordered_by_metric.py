"""OBIM: ordered by integer metric, with per-thread bags per priority level and stealing.

Galois' ``OrderedByIntegerMetric<Indexer, PerSocketChunkFIFO<64>>`` (Nguyen, Lenharth and
Pingali, "A lightweight infrastructure for graph analytics", SOSP 2013) is the anchor: an
item with priority ``key`` belongs to level ``key >> shift`` (the shift from the bucket width,
SSSP's tuned Δ, as for ``bucketed``), and threads work on the lowest non-empty level. What
makes it scale where ``bucketed`` does not is that a level is not one shared bag: each thread
pushes into, and pops from, *its own* FIFO at each level, so the common case touches only
the thread's own store and lock (no lock at all with one thread). A thread whose own bag at
the lowest level it can find is empty takes a chunk of up to ``STEAL_MAX`` items from another
thread's bag at that level, filed into its own bag.

The current minimum level is shared and approximate, as in Galois: a hint that pushes lower
with an atomic min (only when they would lower it: a plain read first) and a pop raises with a
compare-and-swap to the level it found work at, after seeing every bag below it empty. A race
may leave the hint too low (a later scan skips the empty levels) or let a thread take work a
level above another's (more stale pops, never a wrong answer: LLP converges in any order).
A pop scans only up to the highest level pushed, with a whole-ring scan now and then
(:mod:`.levels`: with 32 threads on 2 cores, idle workers' empty scans of every bag at every
level were what made it slow).
Levels live in a ring of ``NUM_LEVELS`` slots as in ``bucketed``: a level far ahead wraps
onto an earlier slot and is processed early.

Counters (:mod:`llpbench.llp.counters`): the solver counts ``stale`` pops (items whose
distance had been improved since their push: Galois' ``BadWork``); this worklist counts
``steals`` (chunks taken from another thread's bag) and ``contention`` (waits for a bag's
lock). ``wl = (meta, locks, control, shift, threads)``; store ``tid * NUM_LEVELS + slot`` is
thread ``tid``'s bag at a level slot; ``control`` holds the hint, then each thread's scratch
space for a stolen chunk, then each thread's pop scratch (a pair, its empty-pop count).
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
from llpbench.llp.worklists.stealing import STEAL_MAX, steal_batch
from llpbench.llp.worklists.storage import (
    Stores,
    locked_ring_push,
    locked_ring_take,
    size_hint,
)

NUM_LEVELS = 1024  # a power of two

FUSE = fusion.LEVEL_FUSE  # a worker's run of work created at its level (see fusion)
fuses = fusion.same_level


def create(n: int, threads: int, bucket_width: int):
    """One small FIFO per (thread, level slot); the shared hint; per-thread steal scratch,
    then per-thread pop scratch."""
    stores = Stores(  # buffers allocated on first use (most (thread, level) bags never are)
        threads * NUM_LEVELS, 0, extra_words=PAD + threads * STEAL_MAX * 2 + threads * PAD
    )
    return level_worklist(stores, bucket_width, threads)


@njit(nogil=True, cache=True, inline="always")
def push(wl, tid, key, item, ctr):
    meta, locks, control, shift, shared = wl[0], wl[1], wl[2], wl[3], wl[4] > 1
    level = key >> shift
    s = tid * NUM_LEVELS + (level & (NUM_LEVELS - 1))
    locked_ring_push(meta, locks, s, key, item, shared, ctr)
    note_push(control, level)


@njit(nogil=True, cache=True, inline="always")
def _pop_scratch(wl, tid):
    """Thread ``tid``'s pop scratch: a pair (words 0-1), its empty-pop count (word 2)."""
    return wl[2] + 8 * (PAD + wl[4] * STEAL_MAX * 2 + tid * PAD)


@njit(nogil=True, cache=True, inline="always")
def pop(wl, tid, ctr):
    """One pair: :func:`pop_batch` of one, through the thread's scratch words."""
    scratch = _pop_scratch(wl, tid)
    return fusion.first(pop_batch(wl, tid, ctr, scratch, 1), scratch)


@njit(nogil=True, cache=True, inline="always")
def pop_batch(wl, tid, ctr, dst, most):
    """Up to ``most`` pairs of the thread's own bag at the lowest level at once, written at
    address ``dst``; a steal hands one pair (and files the rest of its chunk into the thief's
    bag, taken by the next call). Returns how many."""
    meta, locks, control, nthreads = wl[0], wl[1], wl[2], wl[4]
    current = first_level(control)
    misses = misses_word(_pop_scratch(wl, tid))
    for i in range(scan_length(control, current, NUM_LEVELS, misses)):
        level = current + i
        slot = level & (NUM_LEVELS - 1)
        own = tid * NUM_LEVELS + slot
        n = 0
        if size_hint(meta, own) > 0:
            n = locked_ring_take(meta, locks, own, dst, most, nthreads > 1, ctr)
        if n == 0 and nthreads > 1:
            n = fusion.one(_steal_level(meta, locks, control, tid, nthreads, slot, ctr), dst)
        if n > 0:
            if i > 0:
                cas(control, 0, current, level)
            return n
    count_miss(misses)
    return 0


@njit(nogil=True, cache=True)
def _steal_level(meta, locks, control, tid, nthreads, slot, ctr):
    """Take a chunk (up to half) from another thread's bag at level ``slot``: return its
    first pair and file the rest into the thief's own bag there."""
    scratch = control + 8 * (PAD + tid * STEAL_MAX * 2)
    return steal_batch(
        meta, locks, scratch, tid, nthreads, NUM_LEVELS, slot, True, False, True, ctr
    )
