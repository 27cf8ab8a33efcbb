"""SWB: one shared work bag (a FIFO ring) that every thread pushes to and pops from.

The simplest parallel worklist and the paper's contention baseline: one lock serialises
all pushes and pops, so its counters show the contention that per-thread bags avoid.
FIFO order makes it a parallel Bellman-Ford-style queue for SSSP. ``wl = (meta, locks)``.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.counters import CONTENTION
from llpbench.llp.rawmem import bump
from llpbench.llp.sync import lock_acquire, lock_release
from llpbench.llp.worklists import fusion
from llpbench.llp.worklists.storage import Stores, ring_pop, ring_push, size_hint

FUSE = fusion.NO_FUSE  # no levels: nothing to fuse (see fusion)
fuses = fusion.never


def create(n: int, threads: int, bucket_width: int):
    """One shared store for all ``threads``."""
    stores = Stores(1, max(256, n // 8))
    return (stores.meta, stores.locks), stores


@njit(nogil=True, cache=True, inline="always")
def push(wl, tid, key, item, ctr):
    meta, locks = wl[0], wl[1]
    bump(ctr, CONTENTION, lock_acquire(locks, 0))
    ring_push(meta, 0, key, item)
    lock_release(locks, 0)


@njit(nogil=True, cache=True, inline="always")
def pop(wl, tid, ctr):
    meta, locks = wl[0], wl[1]
    if size_hint(meta, 0) == 0:
        return False, 0, 0
    bump(ctr, CONTENTION, lock_acquire(locks, 0))
    found, key, item = ring_pop(meta, 0)
    lock_release(locks, 0)
    return found, key, item


@njit(nogil=True, cache=True, inline="always")
def pop_batch(wl, tid, ctr, dst, most):
    """One pair at a time (see :func:`.fusion.one`)."""
    return fusion.one(pop(wl, tid, ctr), dst)
