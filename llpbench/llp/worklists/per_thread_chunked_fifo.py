"""PTCF: per-thread chunked FIFOs with chunk stealing (Galois' ``PerThreadChunkFIFO``).

Each thread appends to and pops from the front of its own FIFO; an idle thread steals a
chunk of up to 64 items from the front of another's (see :mod:`.stealing`). Order is FIFO
per thread, with no priority at all: the counters show what ignoring priority costs on SSSP.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.worklists import fusion
from llpbench.llp.worklists.stealing import create_per_thread, pop_own_or_steal, push_own

ORDERED = False

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
