"""Run one LLP solve: bind the solver template, compile it apart, launch threads, time.

The solvers (``cyclic``, ``bag``, ``all-indices``, ``worklist``) and how each is launched are
the entries of :data:`llpbench.llp.solvers.SOLVERS`; the worklists (``swb``, ``ptwb``,
``ptcf``, ``bucketed``, ``obim``) those of :data:`llpbench.llp.worklists.WORKLISTS`. This
module names neither: it prepares what every solve shares (the state, one counter row and
output buffer per thread, the control block, the time limit) in a :class:`SolveRun` and hands
it to the solver's launch.

Workers are real OS threads: Python threads calling ``nogil`` kernels, any number of them
whatever the core count (numba's own ``prange`` pool is capped at the core count). The
clock starts when every worker has reached the start barrier and stops when all have
returned; compilation happens before, is timed apart, and comes from numba's disk cache when
a previous process compiled the same kernel.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import numpy as np

from llpbench.errors import SpecError, UnknownNameError
from llpbench.llp import counters as C
from llpbench.llp import faults
from llpbench.llp.compile import bind
from llpbench.llp.contract import Instance
from llpbench.llp.solve_run import SolveRun
from llpbench.llp.solvers import SOLVERS
from llpbench.llp.watchdog import solve_timeout
from llpbench.llp.worklists import WORKLISTS

__all__ = ["MAX_THREADS", "SLOW_WORKLIST_ENV", "SOLVERS", "SolveResult", "SolveRun",
           "check_config", "slow_worklist_seconds", "slow_worklists", "solve_llp"]

MAX_THREADS = 256
#: Test-only: ``swb:0.005`` makes every timed solve over the SWB worklist sleep 5 ms more,
#: inside the timed region. It exists so that tests can produce a run that is really slower
#: in one configuration and check that ``llpbench compare`` flags it; a run made with it set
#: records the setting in its ``meta.json``.
SLOW_WORKLIST_ENV = "LLPBENCH_TEST_SLOW_WORKLIST"


@dataclass
class SolveResult:
    """The outcome of one timed solve."""

    state: np.ndarray
    seconds: float
    compile_seconds: float
    cache_hits: int
    counters: dict[str, int]
    solver: str
    worklist: str | None
    threads: int
    extra: dict = field(default_factory=dict)


def check_config(solver: str, worklist: str | None, threads: int) -> str | None:
    """Validate a (solver, worklist, threads) triple; return the worklist actually used."""
    if solver not in SOLVERS:
        raise UnknownNameError("solver", solver, sorted(SOLVERS))
    if not 1 <= threads <= MAX_THREADS:
        raise SpecError(f"threads must be between 1 and {MAX_THREADS}, got {threads}")
    entry = SOLVERS[solver]
    if entry.single_threaded and threads != 1:
        raise SpecError(f"solver {solver!r} is single-threaded; use --threads 1")
    if entry.uses_worklist:
        worklist = worklist or entry.default_worklist
        if worklist not in WORKLISTS:
            raise UnknownNameError("worklist", worklist, sorted(WORKLISTS))
        return worklist
    return None


def solve_llp(
    instance: Instance,
    solver: str = "worklist",
    worklist: str | None = None,
    threads: int = 1,
    timeout: float | None = None,
) -> SolveResult:
    """Solve ``instance`` with an LLP solver; return the final state, time and counters.

    Parameters
    ----------
    instance : Instance
        Built by a problem module's ``instance(...)``.
    solver : str
        A name of :data:`~llpbench.llp.solvers.SOLVERS` (``cyclic``, ``bag``,
        ``all-indices``, ``worklist``).
    worklist : str, optional
        A name of :data:`~llpbench.llp.worklists.WORKLISTS`, for a solver that takes one
        (default: the solver's ``default_worklist``; ``swb`` for ``bag``, ``ptwb`` for
        ``worklist``).
    threads : int
        Worker threads, 1 to 256, whatever the number of cores.
    timeout : float, optional
        Seconds the solve may run (default ``$LLPBENCH_SOLVE_TIMEOUT``, else no limit).

    Raises
    ------
    SolveFailedError
        When the solve cannot finish: its worklist lost work (every worker idle with items
        pending, or a bag emptied before every pushed item was popped), a scanning solver
        ran past the instance's ``max_rounds``, or the time limit passed
        (:mod:`llpbench.llp.watchdog`). The message names problem, solver, worklist, threads.
    KeyboardInterrupt
        On Ctrl-C, within a poll, once the workers have been told to stop.

    Notes
    -----
    ``compile_seconds`` is the time to compile the kernels for these argument types (or
    load them from numba's cache: ``cache_hits`` > 0); it is excluded from ``seconds``.
    ``seconds`` runs from the workers' start barrier to the last one's return, as the
    workers stamp it in compiled code (``extra["stamped_end"]``; not when their threads are
    back in Python, which waits for the GIL), plus the allocation of the solve's state and
    worklist (``extra["setup_seconds"]``), as GAP's Trial Time covers its arrays'
    allocation; starting the OS threads is not timed.
    """
    worklist = check_config(solver, worklist, threads)
    wl_module = WORKLISTS[worklist].module if worklist else None
    if wl_module is not None and (every := faults.drop_every(worklist)):
        wl_module = faults.lossy_worklist(wl_module, every)
    entry = SOLVERS[solver]
    module = bind(entry.template, instance.problem, wl_module)
    run = SolveRun(instance, solver, worklist, threads, solve_timeout(timeout))
    delay = slow_worklist_seconds(worklist)
    try:
        seconds = entry.launch(module, run) + run.setup_seconds
        _sleep(delay)
        seconds += delay
    finally:
        run.close()
    return SolveResult(
        state=run.state,
        seconds=seconds,
        compile_seconds=run.compile_seconds,
        cache_hits=run.cache_hits,
        counters=C.summarize(np.stack(run.rows)),
        solver=solver,
        worklist=worklist,
        threads=threads,
        extra={"setup_seconds": run.setup_seconds, "stamped_end": run.stamped},
    )


def slow_worklist_seconds(worklist: str | None) -> float:
    """The test-only extra time of :data:`SLOW_WORKLIST_ENV` for ``worklist`` (0 if none).

    Raises
    ------
    SpecError
        If the variable is set but is not ``NAME:SECONDS[,NAME:SECONDS...]``.
    """
    return slow_worklists().get(worklist or "", 0.0)


def slow_worklists() -> dict[str, float]:
    """Every worklist :data:`SLOW_WORKLIST_ENV` slows down, with its extra seconds."""
    text = os.environ.get(SLOW_WORKLIST_ENV, "").strip()
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition(":")
        try:
            seconds = float(value)
        except ValueError:
            seconds = -1.0
        if name not in WORKLISTS or not 0 <= seconds <= 10:
            raise SpecError(
                f"{SLOW_WORKLIST_ENV}={text!r}: expected WORKLIST:SECONDS (0..10), got {part!r}"
            )
        out[name] = seconds
    return out


def _sleep(seconds: float) -> None:
    if seconds > 0:
        time.sleep(seconds)
