"""The LLP solvers, one table entry each: what ``solve_llp``, the sweep specs, the self-test
and the CLI's help and ``llpbench list solvers`` all read.

A solver is a template module (written once against the problem contract and the worklist
interface, bound per problem by :mod:`llpbench.llp.compile`) plus a *launch*: the Python
function that hands its compiled kernels their per-thread arguments and times them through
the :class:`~llpbench.llp.solve_run.SolveRun` it gets. Four shapes of argument list exist
today; a new template that takes one of them reuses its launch, one with its own writes its
launch beside its entry. Adding a solver is therefore one entry in :data:`SOLVERS` (and its
template module): nothing else in the package names a solver.

Kept free of numba (numpy only), so that the CLI can list the solvers in its help without
importing the compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from llpbench.llp.solve_run import SolveRun

#: How a solver is started: its bound template module and the solve's run; returns seconds.
Launch = Callable[[ModuleType, "SolveRun"], float]


def launch_one_scan(module: ModuleType, run: SolveRun) -> float:
    """One thread running ``solve(inst, state, ctr, buf, ctl, max_rounds)`` (cyclic)."""
    return run.launch(module.solve, [(run.inst, run.state, run.rows[0], run.bufs[0], run.ctl,
                                      run.rounds)])


def launch_one_bag(module: ModuleType, run: SolveRun) -> float:
    """One thread running ``solve(inst, state, wl, items, ctr, buf, ctl)`` over a one-thread
    worklist (bag)."""
    wl = run.create_worklist(1)
    return run.launch(module.solve, [(run.inst, run.state, wl, run.work, run.rows[0],
                                      run.bufs[0], run.ctl)])


def launch_partitions(module: ModuleType, run: SolveRun) -> float:
    """T threads running ``worker(tid, nthreads, inst, state, ctl, ctr, buf, max_rounds)``
    over static partitions (all-indices)."""
    nt = np.int64(run.threads)
    return run.launch(module.worker, [
        (np.int64(t), nt, run.inst, run.state, run.ctl, run.rows[t], run.bufs[t], run.rounds)
        for t in range(run.threads)
    ])


def launch_worklist_workers(module: ModuleType, run: SolveRun) -> float:
    """``seed(wl, inst, state, items, nthreads, ctl, ctr, policy)`` on the calling thread
    (timed; ``policy`` is the code of the instance's ``seed_policy``), then T threads
    running ``worker(tid, inst, state, wl, ctl, ctr, buf, run, batch)`` over a shared
    worklist, watched for lost work (worklist)."""
    wl = run.create_worklist(run.threads)
    # each worker's fused run and batch (a worklist without levels: one pair each)
    fuse = run.worklist_module().FUSE
    runs = [np.empty(2 * fuse, dtype=np.int64) for _ in range(run.threads)]
    batches = [np.empty(2 * min(run.batch, fuse), dtype=np.int64) for _ in range(run.threads)]
    seed_args = (wl, run.inst, run.state, run.work, run.threads, run.ctl, run.rows[0],
                 np.int64(run.seed_policy))
    run.compile(module.seed, seed_args)
    seed_s = module.seed(*seed_args) * 1e-9  # timed in compiled code (see its docstring)
    return seed_s + run.launch(module.worker, [
        (np.int64(t), run.inst, run.state, wl, run.ctl, run.rows[t], run.bufs[t], runs[t],
         batches[t])
        for t in range(run.threads)
    ], run.lost_work())


@dataclass(frozen=True)
class Solver:
    """One LLP solver.

    Parameters
    ----------
    template : str
        Dotted name of its template module (with the ``# LLP-BIND`` import line).
    launch : Launch
        How its compiled kernels are started (one of the ``launch_*`` above, or its own).
    description : str
        One line for ``llpbench list solvers`` and the CLI's help.
    single_threaded : bool
        Runs on one thread only (``--threads 1``; a sweep skips it at other counts).
    default_worklist : str, optional
        The worklist it runs on when none is named; None: it takes no worklist.
    """

    template: str
    launch: Launch
    description: str
    single_threaded: bool = False
    default_worklist: str | None = None

    @property
    def uses_worklist(self) -> bool:
        return self.default_worklist is not None


SOLVERS: dict[str, Solver] = {
    "cyclic": Solver(
        "llpbench.llp.templates.cyclic_solver", launch_one_scan,
        "one thread scans every index until a pass finds none forbidden (null worklist)",
        single_threaded=True,
    ),
    "bag": Solver(
        "llpbench.llp.templates.bag_solver", launch_one_bag,
        "one thread over a worklist fed by advance (the sequential LLP algorithm)",
        single_threaded=True, default_worklist="swb",
    ),
    "all-indices": Solver(
        "llpbench.llp.templates.all_indices_solver", launch_partitions,
        "T threads scan static partitions of the indices in rounds",
    ),
    "worklist": Solver(
        "llpbench.llp.templates.worklist_solver", launch_worklist_workers,
        "T threads over a shared, pluggable worklist (--worklist)",
        default_worklist="ptwb",
    ),
}


def single_threaded(name: str) -> bool:
    """Whether solver ``name`` runs on one thread only (False for a name that is no LLP
    solver: a baseline's or a floor's runs at every thread count)."""
    return name in SOLVERS and SOLVERS[name].single_threaded


def uses_worklist(name: str) -> bool:
    """Whether solver ``name`` takes a worklist (False for a name that is no LLP solver)."""
    return name in SOLVERS and SOLVERS[name].uses_worklist


def solver_names() -> str:
    """The solvers' CLI spellings as help texts write them: ``cyclic | bag | ...``."""
    return " | ".join(SOLVERS)
