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

from llpbench.errors import SpecError, UnknownNameError
from llpbench.llp import counters as C
from llpbench.llp import placement, sync
from llpbench.llp.compile import bind
from llpbench.llp.contract import Instance
from llpbench.llp.launch import compile_kernel, run_threads
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

    Notes
    -----
    ``compile_seconds`` is the time to compile the kernels for these argument types (or
    load them from numba's cache: ``cache_hits`` > 0); it is excluded from ``seconds``.
    """
    worklist = check_config(solver, worklist, threads)
    module = bind(SOLVERS[solver], instance.problem, WORKLISTS[worklist] if worklist else None)
    inst = instance.arrays
    state = instance.init_state()
    # One counter row and one output buffer per thread, each its own array (see rawmem).
    rows = [C.new_counters(1)[0] for _ in range(threads)]
    bufs = [np.empty(max(1, instance.max_out), dtype=np.int64) for _ in range(threads)]
    ctl = sync.new_control()
    work = np.ascontiguousarray(instance.init_work, dtype=np.int64)
    compile_s = 0.0
    hits = 0

    def compiled(fn, args):
        nonlocal compile_s, hits
        s, h = compile_kernel(fn, args)
        compile_s += s
        hits += h

    owner = None
    try:
        if solver == "cyclic":
            compiled(module.solve, (inst, state, rows[0], bufs[0]))
            with placement.pinned_here(0):
                t0 = time.perf_counter()
                module.solve(inst, state, rows[0], bufs[0])
                seconds = time.perf_counter() - t0
        elif solver == "bag":
            wl, owner = _create_worklist(worklist, instance, 1)
            compiled(module.solve, (inst, state, wl, work, rows[0], bufs[0]))
            delay = slow_worklist_seconds(worklist)
            with placement.pinned_here(0):
                t0 = time.perf_counter()
                module.solve(inst, state, wl, work, rows[0], bufs[0])
                _sleep(delay)
                seconds = time.perf_counter() - t0
        elif solver == "all-indices":
            compiled(module.worker, (0, threads, inst, state, ctl, rows[0], bufs[0]))
            args = [(t, threads, inst, state, ctl, rows[t], bufs[t]) for t in range(threads)]
            seconds = run_threads(module.worker, args, ctl)
        else:
            wl, owner = _create_worklist(worklist, instance, threads)
            # each worker's fused run and batch (a worklist without levels: one pair each)
            fuse = importlib.import_module(WORKLISTS[worklist]).FUSE
            runs = [np.empty(2 * fuse, dtype=np.int64) for _ in range(threads)]
            batches = [np.empty(2 * min(BATCH, fuse), dtype=np.int64) for _ in range(threads)]
            compiled(module.seed, (wl, inst, state, work, threads, ctl, rows[0]))
            compiled(
                module.worker, (0, inst, state, wl, ctl, rows[0], bufs[0], runs[0], batches[0])
            )
            delay = slow_worklist_seconds(worklist)
            t0 = time.perf_counter()
            module.seed(wl, inst, state, work, threads, ctl, rows[0])
            _sleep(delay)
            seed_s = time.perf_counter() - t0
            args = [
                (t, inst, state, wl, ctl, rows[t], bufs[t], runs[t], batches[t])
                for t in range(threads)
            ]
            seconds = run_threads(module.worker, args, ctl) + seed_s
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
