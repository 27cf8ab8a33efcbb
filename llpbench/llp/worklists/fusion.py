"""Bucket fusion for the level worklists: a worker keeps the work it creates at its level.

GAP's Δ-stepping (Beamer, Asanović and Patterson, "The GAP Benchmark Suite", 2015) processes
the vertices a thread adds to the bucket it is working on at once, from a thread-local bin,
instead of sending them through the shared frontier and back ("bucket fusion", while the
local bin holds fewer than 1000). The worklist solver does the same for a worklist that
orders by level: an index reported by the item a worker is processing, whose priority falls
in the level of the item the worker last took from the worklist (or below it), goes into the
worker's own FIFO *run* of at most ``FUSE`` pairs and is processed next, without a push and
a pop of the shared worklist. Anything else, or anything beyond ``FUSE``, is pushed as usual.

This is scheduling only: the items are counted as pending like any other (see
:mod:`llpbench.llp.templates.worklist_solver`), and LLP converges in any order. A run hides
at most ``FUSE`` items from other threads, the price GAP's threshold pays too; worklists with
no levels never fuse (``FUSE = 1`` and :func:`never`, which compile away).
"""

from __future__ import annotations

from numba import njit

LEVEL_FUSE = 1024  # a power of two: pairs in a worker's run (GAP's bin threshold is 1000)
NO_FUSE = 1


@njit(nogil=True, cache=True, inline="always")
def same_level(wl, run_key, key):
    """``key`` is at the level of ``run_key`` or below (``wl[3]`` is the level shift)."""
    return (key >> wl[3]) <= (run_key >> wl[3])


@njit(nogil=True, cache=True, inline="always")
def never(wl, run_key, key):
    """No fusion: every reported index goes to the worklist."""
    return False
