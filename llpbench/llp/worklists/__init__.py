"""Worklists: where the parallel worklist solver keeps the indices that may be forbidden.

Each worklist is one module exposing the same three functions, so that a solver takes the
worklist as a parameter (Galois-style) and never knows which one it runs on:

- ``create(n, threads, bucket_width) -> (wl, owner)`` (Python): ``wl`` is a tuple of int64
  words (addresses and sizes, see :mod:`llpbench.llp.rawmem`), ``owner`` holds the memory
  until its ``close()``;
- ``push(wl, tid, key, item, ctr)`` (compiled): thread ``tid`` adds ``item`` with priority ``key``;
- ``pop(wl, tid, ctr) -> (found, key, item)`` (compiled): thread ``tid`` takes an item,
  stealing from other threads when its own part is empty;
- ``pop_batch(wl, tid, ctr, dst, most) -> n`` (compiled): like ``pop``, up to ``most``
  pairs written at address ``dst`` (the worker's batch);
- ``FUSE`` and ``fuses(wl, run_key, key)``: bucket fusion (see :mod:`.fusion`).

``ctr`` is the *address* of the thread's counter row (``c.ctypes.data``; counts go in with
:func:`llpbench.llp.rawmem.bump`), not the array: numba keeps two atomic reference-count
updates around an array handed through inlined functions with loops, which cost 4-6 ns a
push or pop on this machine, a third of a bucketed push and pop.

Termination is not the worklist's job: the solver counts pending items (see
:mod:`llpbench.llp.templates.worklist_solver`). The paper's short names (SWB, PTWB, PTCF,
bucketed, OBIM) map to modules in :data:`WORKLISTS`, the one place they are spelled.
"""

from __future__ import annotations

WORKLISTS: dict[str, str] = {
    "swb": "llpbench.llp.worklists.shared_bag",
    "ptwb": "llpbench.llp.worklists.per_thread_priority_bags",
    "ptcf": "llpbench.llp.worklists.per_thread_chunked_fifo",
    "bucketed": "llpbench.llp.worklists.priority_buckets",
    "obim": "llpbench.llp.worklists.ordered_by_metric",
}

DESCRIPTIONS: dict[str, str] = {
    "swb": "one shared work bag (FIFO) for all threads",
    "ptwb": "per-thread work bags ordered by priority, with stealing",
    "ptcf": "per-thread chunked FIFOs, with chunk stealing",
    "bucketed": "shared buckets by priority range (ordered-by-integer-metric)",
    "obim": "priority levels of per-thread bags, with chunk stealing (Galois' OBIM)",
}

#: The paper's four, the worklists a sweep runs by default (others, e.g. ``obim``, when named
#: with ``--worklist``): default sweeps, tables and figures stay comparable with the paper's.
PAPER_WORKLISTS = ("swb", "ptwb", "ptcf", "bucketed")

#: The worklists that order by priority level (``key >> log2(bucket width)``): for SSSP their
#: bucket width is the Δ Δ-stepping gets, recorded in each row's ``delta``.
BY_LEVEL = ("bucketed", "obim")
