"""The shared, approximate lowest-level hint of the level worklists (``bucketed`` and
``obim``): a word of their control block that pushes lower with an atomic min (only when
they would lower it: a plain read first) and a pop raises with a compare-and-swap. Written
once here so that both worklists keep the same protocol.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.rawmem import fetch_min, load_relaxed

EMPTY = 2**63 - 1  # the hint when nothing was ever pushed


def level_worklist(stores, bucket_width: int, threads: int):
    """``(wl, stores)`` of a level worklist over ``stores``: ``wl = (meta, locks, control,
    shift, threads)``, with the hint (word 0 of ``control``) at :data:`EMPTY`."""
    stores.extra_array()[0] = EMPTY
    return (stores.meta, stores.locks, stores.extra, level_shift(bucket_width), threads), stores


def level_shift(bucket_width: int) -> int:
    """The shift that maps a priority to its level: the bucket width rounded down to a power
    of two (so a level is one shift, not a division, on the hot path)."""
    return max(0, int(bucket_width).bit_length() - 1)


@njit(nogil=True, cache=True, inline="always")
def lower_hint(control, level):
    """Lower the hint (word 0 of ``control``) to ``level`` if that lowers it."""
    if level < load_relaxed(control, 0):
        fetch_min(control, 0, level)


@njit(nogil=True, cache=True, inline="always")
def first_level(control):
    """The level a pop starts its scan at: the hint, or 0 when nothing was ever pushed."""
    current = load_relaxed(control, 0)
    if current == EMPTY:
        current = 0
    return current
