"""PTWB: per-thread work bags ordered by priority, with stealing.

Each thread pushes the items its advances produce into its own min-heap keyed by their
priority at push time (for SSSP the new tentative distance: the paper's recency bias towards
the work a thread just created) and pops its smallest. A thread with an empty heap steals
up to half of another thread's heap, smallest keys first (see :mod:`.stealing`).
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.worklists import fusion
from llpbench.llp.worklists.stealing import create_per_thread, pop_own_or_steal, push_own

ORDERED = True

FUSE = fusion.NO_FUSE  # no levels: nothing to fuse (see fusion)
fuses = fusion.never


def create(n: int, threads: int, bucket_width: int):
    return create_per_thread(n, threads)


@njit(nogil=True, cache=True, inline="always")
def push(wl, tid, key, item, ctr):
    push_own(wl, tid, key, item, ctr, ORDERED)


@njit(nogil=True, cache=True, inline="always")
def pop(wl, tid, ctr):
    return pop_own_or_steal(wl, tid, ctr, ORDERED)


@njit(nogil=True, cache=True, inline="always")
def pop_batch(wl, tid, ctr, dst, most):
    """One pair at a time (see :func:`.fusion.one`)."""
    return fusion.one(pop(wl, tid, ctr), dst)
