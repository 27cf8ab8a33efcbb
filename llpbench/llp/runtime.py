"""Run one LLP solve: bind the solver template, compile it apart, launch threads, time.

Solvers (CLI spellings in :data:`SOLVERS`):

- ``cyclic``: one thread scans all indices until a pass finds nothing forbidden;
- ``bag``: one thread with a worklist fed by ``advance``;
- ``all-indices``: T threads scan static partitions in rounds;
- ``worklist``: T threads over a pluggable worklist (``swb``, ``ptwb``, ``ptcf``,
  ``bucketed``, ``obim``).

Workers are real OS threads: Python threads calling ``nogil`` kernels, any number of them
whatever the core count (numba's own ``prange`` pool is capped at the core count). The
clock starts when every worker has reached the start barrier and stops when all have
returned; compilation happens before, is timed apart, and comes from numba's disk cache when
a previous process compiled the same kernel.
"""

from __future__ import annotations

import importlib
import os
import time
from dataclasses import dataclass, field

import numpy as np

from llpbench.errors import SolveFailedError, SpecError, UnknownNameError
from llpbench.llp import counters as C
from llpbench.llp import faults, sync
from llpbench.llp.compile import bind
from llpbench.llp.contract import Instance
from llpbench.llp.launch import Stopped, Supervision, compile_kernel, run_threads
from llpbench.llp.watchdog import LostWork, solve_timeout
from llpbench.llp.worklists import WORKLISTS
from llpbench.llp.worklists.fusion import BATCH

SOLVERS: dict[str, str] = {
    "cyclic": "llpbench.llp.templates.cyclic_solver",
    "bag": "llpbench.llp.templates.bag_solver",
    "all-indices": "llpbench.llp.templates.all_indices_solver",
    "worklist": "llpbench.llp.templates.worklist_solver",
}
SINGLE_THREADED = ("cyclic", "bag")
USES_WORKLIST = ("bag", "worklist")
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
    if solver in SINGLE_THREADED and threads != 1:
        raise SpecError(f"solver {solver!r} is single-threaded; use --threads 1")
    if solver in USES_WORKLIST:
        worklist = worklist or ("ptwb" if solver == "worklist" else "swb")
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
    solver : {"cyclic", "bag", "all-indices", "worklist"}
    worklist : {"swb", "ptwb", "ptcf", "bucketed", "obim"}, optional
        For ``bag`` and ``worklist`` (default ``swb`` and ``ptwb``).
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
    """
    worklist = check_config(solver, worklist, threads)
    wl_module = WORKLISTS[worklist] if worklist else None
    if wl_module is not None and (every := faults.drop_every(worklist)):
        wl_module = faults.lossy_worklist(wl_module, every)
    module = bind(SOLVERS[solver], instance.problem, wl_module)
    inst = instance.arrays
    state = instance.init_state()
    # One counter row and one output buffer per thread, each its own array (see rawmem).
    rows = [C.new_counters(1)[0] for _ in range(threads)]
    bufs = [np.empty(max(1, instance.max_out), dtype=np.int64) for _ in range(threads)]
    ctl = sync.new_control()
    work = np.ascontiguousarray(instance.init_work, dtype=np.int64)
    rounds = np.int64(-1 if instance.max_rounds is None else instance.max_rounds)
    limit = solve_timeout(timeout)
    compile_s = 0.0
    hits = 0

    def compiled(fn, args):
        nonlocal compile_s, hits
        s, h = compile_kernel(fn, args)
        compile_s += s
        hits += h

    def launch(fn, per_thread, watch=None) -> float:
        compiled(fn, per_thread[0])
        sup = Supervision(abort=sync.ABORT, watch=watch, timeout=limit)
        try:
            done = run_threads(fn, per_thread, ctl, supervision=sup)
        except Stopped as stop:
            raise _failed(instance, solver, worklist, threads, stop.reason, rows) from None
        _check_codes(done.codes, instance, solver, worklist, threads, rows)
        return done.seconds

    owner = None
    delay = slow_worklist_seconds(worklist)
    try:
        if solver == "cyclic":
            seconds = launch(module.solve, [(inst, state, rows[0], bufs[0], ctl, rounds)])
        elif solver == "bag":
            wl, owner = _create_worklist(worklist, instance, 1)
            seconds = launch(module.solve, [(inst, state, wl, work, rows[0], bufs[0], ctl)])
        elif solver == "all-indices":
            nt = np.int64(threads)
            seconds = launch(module.worker, [
                (np.int64(t), nt, inst, state, ctl, rows[t], bufs[t], rounds)
                for t in range(threads)
            ])
        else:
            wl, owner = _create_worklist(worklist, instance, threads)
            # each worker's fused run and batch (a worklist without levels: one pair each)
            fuse = importlib.import_module(WORKLISTS[worklist]).FUSE
            runs = [np.empty(2 * fuse, dtype=np.int64) for _ in range(threads)]
            batches = [np.empty(2 * min(BATCH, fuse), dtype=np.int64) for _ in range(threads)]
            compiled(module.seed, (wl, inst, state, work, threads, ctl, rows[0]))
            t0 = time.perf_counter()
            module.seed(wl, inst, state, work, threads, ctl, rows[0])
            seed_s = time.perf_counter() - t0
            seconds = seed_s + launch(module.worker, [
                (np.int64(t), inst, state, wl, ctl, rows[t], bufs[t], runs[t], batches[t])
                for t in range(threads)
            ], LostWork(ctl, threads))
        _sleep(delay)
        seconds += delay
    finally:
        if owner is not None:
            owner.close()
    ctr = np.stack(rows)
    return SolveResult(
        state=state,
        seconds=seconds,
        compile_seconds=compile_s,
        cache_hits=hits,
        counters=C.summarize(ctr),
        solver=solver,
        worklist=worklist,
        threads=threads,
    )


def _failed(instance: Instance, solver: str, worklist: str | None, threads: int, reason: str,
            rows: list[np.ndarray]) -> SolveFailedError:
    """The one-line error of a solve that could not finish: where, why, and how far it got
    (the counters are read while stopped workers may still write them: a lower bound)."""
    problem = instance.problem.rsplit(".", 1)[-1]
    config = f"{solver}/{worklist}" if worklist else solver
    c = C.summarize(np.stack(rows))
    return SolveFailedError(
        f"{problem} {config} x{threads}: {reason} ({c['items']} items popped, "
        f"{c['pushes']} pushed, {c['advances']} advances)"
    )


def _check_codes(codes: list, instance: Instance, solver: str, worklist: str | None,
                 threads: int, rows: list[np.ndarray]) -> None:
    """Raise the error a worker's return value reports (see :mod:`llpbench.llp.sync`)."""
    if sync.ROUND_BOUND in codes:
        reason = (f"no fixed point after {instance.max_rounds} rounds, the most its lattice "
                  "allows (an advance that does not advance?)")
    elif sync.LOST_WORK in codes:
        c = C.summarize(np.stack(rows))
        reason = (f"work lost: the worklist emptied with {c['pushes'] - c['items']} of "
                  f"{c['pushes']} pushed items never popped")
    elif sync.ABORTED in codes:  # told to stop by nobody: the control block was corrupted
        reason = "a worker stopped without being told to"
    else:
        return
    raise _failed(instance, solver, worklist, threads, reason, rows)


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


def _create_worklist(worklist: str, instance: Instance, threads: int):
    """``(wl, owner)``: the worklist's words for compiled code, and the owner of its memory."""
    return importlib.import_module(WORKLISTS[worklist]).create(
        instance.n, threads, instance.bucket_width
    )
