"""What a solver's launch gets: one solve's arrays, state, counters, control block and the
calls that compile, create the worklist and time the workers (:class:`SolveRun`).

Apart from :mod:`llpbench.llp.runtime`, which makes one per solve, so that the solver table
(:mod:`llpbench.llp.solvers`), whose launches take it, needs nothing from the runtime that
reads the table.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from llpbench.errors import SolveFailedError
from llpbench.llp import counters as C
from llpbench.llp import sync
from llpbench.llp.contract import Instance, seed_policy_code
from llpbench.llp.launch import Stopped, Supervision, compile_kernel, run_threads
from llpbench.llp.watchdog import LostWork
from llpbench.llp.worklists import WORKLISTS
from llpbench.llp.worklists.fusion import BATCH

__all__ = ["SolveRun"]


@dataclass
class SolveRun:
    """What a solver's launch (:data:`llpbench.llp.solvers.Launch`) gets: the instance's
    arrays, the state, one counter row and output buffer per thread, the control block, and
    the calls that compile a kernel apart, create the worklist and time the workers; it adds
    up the compile time and cache hits, and owns the worklist's memory until :meth:`close`."""

    instance: Instance
    solver: str
    worklist: str | None
    threads: int
    limit: float | None
    inst: tuple = ()
    state: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    work: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    rows: list[np.ndarray] = field(default_factory=list)
    bufs: list[np.ndarray] = field(default_factory=list)
    ctl: np.ndarray = field(default_factory=sync.new_control)
    rounds: np.int64 = np.int64(-1)
    seed_policy: int = 0  # the instance's seed policy, as a code of contract.SEED_POLICIES
    batch: int = BATCH
    compile_seconds: float = 0.0
    cache_hits: int = 0
    owner: Any = None
    setup_seconds: float = 0.0  # the state's and the worklist's allocation, part of the time
    stamped: bool = False  # the time ended at the workers' own stamps (launch.run_threads)

    def __post_init__(self) -> None:
        t0 = time.perf_counter()
        inst = self.instance
        self.inst = inst.arrays
        self.state = inst.init_state()
        # One counter row and one output buffer per thread, each its own array (see rawmem).
        self.rows = [C.new_counters(1)[0] for _ in range(self.threads)]
        self.bufs = [np.empty(max(1, inst.max_out), dtype=np.int64)
                     for _ in range(self.threads)]
        self.work = np.ascontiguousarray(inst.init_work, dtype=np.int64)
        self.rounds = np.int64(-1 if inst.max_rounds is None else inst.max_rounds)
        self.seed_policy = seed_policy_code(inst)
        self.setup_seconds += time.perf_counter() - t0

    def compile(self, fn: Callable, args: tuple) -> None:
        """Compile ``fn`` for ``args``' types (or load it from numba's cache), timed apart."""
        seconds, hits = compile_kernel(fn, args)
        self.compile_seconds += seconds
        self.cache_hits += hits

    def launch(self, fn: Callable, per_thread: Sequence[tuple], watch: Any = None) -> float:
        """Compile ``fn``, run it on one supervised thread per argument tuple; the seconds
        from the start barrier until all returned. A stopped or failed worker raises
        :class:`SolveFailedError`."""
        self.compile(fn, per_thread[0])
        sup = Supervision(abort=sync.ABORT, watch=watch, timeout=self.limit)
        try:
            done = run_threads(fn, per_thread, self.ctl, supervision=sup, end=sync.END)
        except Stopped as stop:
            raise self.failed(stop.reason) from None
        _check_codes(done.codes, self)
        self.stamped = done.stamped
        return done.seconds

    def worklist_module(self) -> ModuleType:
        """The worklist's module as named in :data:`WORKLISTS` (its ``FUSE``, ``create``)."""
        assert self.worklist is not None, f"solver {self.solver!r} takes no worklist"
        return importlib.import_module(WORKLISTS[self.worklist].module)

    def create_worklist(self, threads: int) -> tuple:
        """The worklist's words for compiled code, for ``threads`` threads; its memory is
        held until :meth:`close`. Its allocation is timed into :attr:`setup_seconds`, which
        the solve's time includes, as GAP's Trial Time includes its frontier's allocation."""
        t0 = time.perf_counter()
        wl, self.owner = self.worklist_module().create(
            self.instance.n, threads, self.instance.bucket_width
        )
        self.setup_seconds += time.perf_counter() - t0
        return wl

    def lost_work(self) -> LostWork:
        """The watch that stops a worklist solve whose workers are idle with work pending."""
        return LostWork(self.ctl, self.threads)

    def failed(self, reason: str) -> SolveFailedError:
        """The one-line error of a solve that could not finish: where, why, and how far it
        got (the counters are read while stopped workers may still write them: a lower
        bound)."""
        problem = self.instance.problem.rsplit(".", 1)[-1]
        config = f"{self.solver}/{self.worklist}" if self.worklist else self.solver
        c = C.summarize(np.stack(self.rows))
        return SolveFailedError(
            f"{problem} {config} x{self.threads}: {reason} ({c['items']} items popped, "
            f"{c['pushes']} pushed, {c['advances']} advances)"
        )

    def close(self) -> None:
        """Free the worklist's memory (if one was created)."""
        if self.owner is not None:
            self.owner.close()
            self.owner = None


def _check_codes(codes: list, run: SolveRun) -> None:
    """Raise the error a worker's return value reports (see :mod:`llpbench.llp.sync`)."""
    if sync.ROUND_BOUND in codes:
        reason = (f"no fixed point after {run.instance.max_rounds} rounds, the most its "
                  "lattice allows (an advance that does not advance?)")
    elif sync.LOST_WORK in codes:
        c = C.summarize(np.stack(run.rows))
        reason = (f"work lost: the worklist emptied with {c['pushes'] - c['items']} of "
                  f"{c['pushes']} pushed items never popped")
    elif sync.ABORTED in codes:  # told to stop by nobody: the control block was corrupted
        reason = "a worker stopped without being told to"
    else:
        return
    raise run.failed(reason)
