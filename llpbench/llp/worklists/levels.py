"""The shared, approximate level bounds of the level worklists (``bucketed`` and ``obim``),
written once here so that both keep the same protocol.

Two words of their control block. The *hint* (word 0), the lowest possibly non-empty level:
pushes lower it with an atomic min (only when they would lower it: a plain read first) and a
pop raises it with a compare-and-swap to the level it found work at. The *top* (word
:data:`TOP`), the highest level ever pushed: pushes raise it with an atomic max, the same way.

A pop scans from the hint up to the top, not the whole ring of levels. That matters when
workers outnumber cores: an empty pop of ``obim`` reads every thread's bag at every level
(32 threads x 1,024 levels), and 30 idle workers doing that between their yields took the
cores from the two that held work (32 threads took 5.7x the 2-thread time on the grid, 2 cores).
The bound is safe by construction, not by a protocol: a pop that raced a push can leave the
hint above an item (the push's min saw the old hint, the pop's compare-and-swap raised it
past the item), and a scan from the hint misses such an item. So every
:data:`FULL_SCAN_EVERY`-th empty pop of a thread scans the whole ring, as every pop did
before: an item below the hint waits at most that many idle rounds (the termination count
keeps the workers looking meanwhile), never forever.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.rawmem import fetch_max, fetch_min, load_relaxed, peek, poke

EMPTY = 2**63 - 1  # the hint when nothing was ever pushed
TOP = 1  # the top's word in the control block (the hint's cache line: both rarely written)
FULL_SCAN_EVERY = 64  # a power of two


def level_worklist(stores, bucket_width: int, threads: int):
    """``(wl, stores)`` of a level worklist over ``stores``: ``wl = (meta, locks, control,
    shift, threads)``, with the hint (word 0 of ``control``) at :data:`EMPTY`, the top at 0."""
    stores.extra_array()[0] = EMPTY
    stores.extra_array()[TOP] = 0
    return (stores.meta, stores.locks, stores.extra, level_shift(bucket_width), threads), stores


def level_shift(bucket_width: int) -> int:
    """The shift that maps a priority to its level: the bucket width rounded down to a power
    of two (so a level is one shift, not a division, on the hot path)."""
    return max(0, int(bucket_width).bit_length() - 1)


@njit(nogil=True, cache=True, inline="always")
def note_push(control, level):
    """A push at ``level``: lower the hint and raise the top where that moves them."""
    if level < load_relaxed(control, 0):
        fetch_min(control, 0, level)
    if level > load_relaxed(control, TOP):
        fetch_max(control, TOP, level)


@njit(nogil=True, cache=True, inline="always")
def first_level(control):
    """The level a pop starts its scan at: the hint, or 0 when nothing was ever pushed."""
    current = load_relaxed(control, 0)
    if current == EMPTY:
        current = 0
    return current


@njit(nogil=True, cache=True, inline="always")
def scan_length(control, current, ring, misses):
    """How many levels a pop scans from ``current`` in a ring of ``ring`` levels: up to the
    top, or the whole ring on every :data:`FULL_SCAN_EVERY`-th empty pop of the thread
    whose empty pops are counted in the word at address ``misses``."""
    if (peek(misses, 0) & (FULL_SCAN_EVERY - 1)) == FULL_SCAN_EVERY - 1:
        return ring
    return min(ring, max(0, load_relaxed(control, TOP) - current) + 1)


@njit(nogil=True, cache=True, inline="always")
def misses_word(scratch):
    """The address of a thread's empty-pop count: word 2 of its pop scratch (words 0-1 are
    the pair :func:`pop` hands out), in both level worklists."""
    return scratch + 16


@njit(nogil=True, cache=True, inline="always")
def count_miss(misses):
    """An empty pop of the thread whose count is the word at address ``misses``."""
    poke(misses, 0, peek(misses, 0) + 1)
