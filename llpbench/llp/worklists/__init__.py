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
bucketed, OBIM) map to modules in :data:`WORKLISTS`, the one place they are spelled: adding a
worklist is its module plus one entry there.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Worklist:
    """One worklist.

    Parameters
    ----------
    module : str
        Dotted name of its module (``create``, ``push``, ``pop``, ``pop_batch``, ``FUSE``,
        ``fuses``).
    description : str
        One line for ``llpbench list worklists`` and the CLI's help.
    paper : bool
        One of the paper's four: a sweep runs it by default (others when named with
        ``--worklist``), so that default sweeps, tables and figures stay comparable with the
        paper's.
    by_level : bool
        It orders by priority level (``key >> log2(bucket width)``): for SSSP its bucket
        width is the Δ Δ-stepping gets, recorded in each row's ``delta``.
    """

    module: str
    description: str
    paper: bool = False
    by_level: bool = False


#: The one table of worklists, in the order tables, figures and the CLI list them.
WORKLISTS: dict[str, Worklist] = {
    "swb": Worklist("llpbench.llp.worklists.shared_bag",
                    "one shared work bag (FIFO) for all threads", paper=True),
    "ptwb": Worklist("llpbench.llp.worklists.per_thread_priority_bags",
                     "per-thread work bags ordered by priority, with stealing", paper=True),
    "ptcf": Worklist("llpbench.llp.worklists.per_thread_chunked_fifo",
                     "per-thread chunked FIFOs, with chunk stealing", paper=True),
    "bucketed": Worklist("llpbench.llp.worklists.priority_buckets",
                         "shared buckets by priority range (ordered-by-integer-metric)",
                         paper=True, by_level=True),
    "obim": Worklist("llpbench.llp.worklists.ordered_by_metric",
                     "priority levels of per-thread bags, with chunk stealing (Galois' OBIM)",
                     by_level=True),
}

#: Derived from :data:`WORKLISTS` when this module is imported (a default sweep's worklists).
PAPER_WORKLISTS = tuple(name for name, wl in WORKLISTS.items() if wl.paper)

#: Derived from :data:`WORKLISTS` when this module is imported; :func:`orders_by_level`
#: reads the table itself.
BY_LEVEL = tuple(name for name, wl in WORKLISTS.items() if wl.by_level)


def orders_by_level(name: str | None) -> bool:
    """Whether worklist ``name`` orders by priority level (False for None: no worklist)."""
    return name in WORKLISTS and WORKLISTS[name].by_level


def worklist_names() -> str:
    """The worklists' CLI spellings as help texts write them: ``swb | ptwb | ...``."""
    return " | ".join(WORKLISTS)
