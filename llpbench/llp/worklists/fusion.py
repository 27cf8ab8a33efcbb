"""Bucket fusion for the level worklists: a worker keeps the work it creates at its level.

GAP's Δ-stepping (Beamer, Asanović and Patterson, "The GAP Benchmark Suite", 2015) processes
the vertices a thread adds to the bucket it is working on at once, from a thread-local bin,
instead of sending them through the shared frontier and back ("bucket fusion", while the
local bin holds fewer than 1000). The worklist solver does the same for a worklist that
orders by level: an index reported by the item a worker is processing, whose priority falls
in the level of the item the worker last took from the worklist (or below it), goes into the
worker's own FIFO *run* of at most ``FUSE`` pairs and is processed next, without a push and
a pop of the shared worklist. Anything else, or anything beyond ``FUSE``, is pushed as usual.

Items come from the worklist in batches: when a worker's run and batch are both empty, the
worklist's ``pop_batch`` hands it up to ``BATCH`` pairs of its lowest level at once (one lock
and one update of the store for all of them, as Galois' OBIM hands out chunks of 64) into
the worker's batch array, processed after whatever they add to the run. The batch is a
separate array from the run: the worklist writes it by address, and an array whose address
has escaped that way is one LLVM must reload around every store through an address (the run,
written by address too, made road 1.2x slower).

This is scheduling only: the items are counted as pending like any other (see
:mod:`llpbench.llp.templates.worklist_solver`), and LLP converges in any order. A run hides
at most ``FUSE`` items from other threads, the price GAP's threshold pays too; worklists with
no levels never fuse and hand out one pair at a time (``FUSE = 1``, :func:`never` and
:func:`one`).
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.rawmem import peek, poke

LEVEL_FUSE = 1024  # a power of two: pairs in a worker's run (GAP's bin threshold is 1000)
NO_FUSE = 1
BATCH = 64  # pairs a level worklist hands a worker at once, into its batch (Galois' chunk size)


@njit(nogil=True, cache=True, inline="always")
def same_level(wl, run_key, key):
    """``key`` is at the level of ``run_key`` or below (``wl[3]`` is the level shift)."""
    return (key >> wl[3]) <= (run_key >> wl[3])


@njit(nogil=True, cache=True, inline="always")
def never(wl, run_key, key):
    """No fusion: every reported index goes to the worklist."""
    return False


@njit(nogil=True, cache=True, inline="always")
def one(popped, dst):
    """``pop_batch`` of a worklist that hands out one pair at a time: write ``popped``'s
    pair at address ``dst``; return 1, or 0 when nothing was popped."""
    found, key, item = popped
    if not found:
        return 0
    poke(dst, 0, key)
    poke(dst, 1, item)
    return 1


@njit(nogil=True, cache=True, inline="always")
def first(n, scratch):
    """``pop`` of a worklist that hands out batches: the pair its ``pop_batch(..., scratch,
    1)`` wrote, as ``(found, key, item)``."""
    if n == 0:
        return False, 0, 0
    return True, peek(scratch, 0), peek(scratch, 1)
