"""The one harness: every cell of a sweep is warmed up, timed, verified and stored alike.

For each study, instance (graph and source, or size and seed), configuration and thread
count, the runner does one warm-up solve (it compiles, or loads compiled kernels from the
cache, and its compile time is recorded apart), then ``reps`` timed solves, each checked
against the problem's independent reference. Each finished solve becomes one row, on disk
before the next starts; ``resume`` skips rows already stored. Like GAP's
``BenchmarkKernel``, no kernel times itself and no problem is special-cased here.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from llpbench.bench.spec import BASELINE, Config, Study, Sweep
from llpbench.bench.store import RunStore
from llpbench.errors import SpecError
from llpbench.graphs.graph import Graph
from llpbench.graphs.reading import reading_label
from llpbench.llp.counters import NAMES as COUNTER_NAMES
from llpbench.llp.runtime import solve_llp
from llpbench.problems import build_instance, problem_module


@dataclass(frozen=True)
class Cell:
    """One configuration at one thread count on one instance; ``reps`` rows."""

    study: Study
    input_name: str  # graph name/path, or "size=N"
    source: int  # -1 for generated problems
    size: int  # -1 for graph problems
    seed: int
    config: Config
    threads: int

    def key(self, rep: int) -> dict[str, Any]:
        return {
            "graph": self.input_name,
            "problem": self.study.problem,
            "kind": self.config.kind,
            "solver": self.solver_name,
            "worklist": self.config.worklist or "",
            "threads": self.threads,
            "source": self.source,
            "size": self.size,
            "seed": self.seed,
            "rep": rep,
        }

    @property
    def solver_name(self) -> str:
        return BASELINE if self.config.kind == "baseline" else self.config.solver

    @property
    def label(self) -> str:
        where = self.input_name if self.source < 0 else f"{self.input_name}@{self.source}"
        return f"{self.study.problem} {where} {self.config.label} x{self.threads}"


def pick_sources(graph: Graph, count: int, seed: int) -> list[int]:
    """``count`` source vertices with at least one out-arc, drawn with a fixed seed.

    The draw depends only on the graph's name and size and the seed, so every solver and
    thread count (and every rerun) gets the same sources, as GAP's ``SourcePicker`` does.
    """
    candidates = np.flatnonzero(graph.out_degrees() > 0)
    if candidates.size == 0:
        return [0]
    rng = np.random.default_rng([seed, zlib.crc32(graph.name.encode()), graph.n])
    replace = candidates.size < count
    return [int(v) for v in rng.choice(candidates, size=count, replace=replace)]


def plan(sweep: Sweep, load: Callable[[str], Graph]) -> Iterator[Cell]:
    """Every cell of the sweep, in a fixed order (instances outermost)."""
    for study in sweep.studies:
        module = problem_module(study.problem)
        inputs: list[tuple[str, int, int, int]] = []
        for name in study.graphs:
            if module.INPUT == "graph":
                for src in pick_sources(load(name), study.sources, study.seed):
                    inputs.append((name, src, -1, study.seed))
            else:
                inputs += [(name, -1, -1, study.seed + k) for k in range(study.sources)]
        for size in study.sizes:
            inputs += [(f"size={size}", -1, size, study.seed + k) for k in range(study.sources)]
        for name, src, size, seed in inputs:
            for config in study.configs:
                for threads in study.threads:
                    if config.runs_at(threads):
                        yield Cell(study, name, src, size, seed, config, threads)


@dataclass
class Outcome:
    """What one solve produced, whatever ran it."""

    answer: np.ndarray
    seconds: float
    compile_seconds: float
    counters: dict[str, int]
    label: str
    delta: float | None = None


@dataclass
class RunSummary:
    rows_written: int = 0
    rows_skipped: int = 0
    failures: list[str] = field(default_factory=list)


class Runner:
    """Execute a sweep into a :class:`RunStore`."""

    def __init__(
        self,
        sweep: Sweep,
        store: RunStore,
        *,
        cache_dir: Path | None = None,
        delta_for: Callable[[Graph, int, float | None], float | None] | None = None,
    ) -> None:
        self.sweep = sweep
        self.store = store
        self.cache_dir = cache_dir
        self.delta_for = delta_for or (lambda graph, source, delta: delta)
        self._graphs: dict[str, Graph] = {}
        self._instances: dict[tuple, Any] = {}
        self._references: dict[tuple, np.ndarray] = {}

    def graph(self, name: str) -> Graph:
        if name not in self._graphs:
            from llpbench.graphs.registry import load_graph

            self._graphs[name] = load_graph(
                name, cache_dir=self.cache_dir, options=self._read_options(name)
            )
        return self._graphs[name]

    def _read_options(self, name: str):
        """How the studies naming graph file ``name`` read it (one way per run)."""
        found = {s.read_options() for s in self.sweep.studies if name in s.graphs}
        if len(found) > 1:
            raise SpecError(
                f"{name}: studies of this sweep read it in different ways ({found}); "
                "one graph file is read one way per run"
            )
        return found.pop() if found else None

    def cells(self) -> list[Cell]:
        return list(plan(self.sweep, self.graph))

    def _instance(self, cell: Cell, module: ModuleType):
        key = (cell.study.problem, cell.input_name, cell.source, cell.size, cell.seed)
        if key not in self._instances:
            self._instances.clear()  # one instance alive at a time: instances can be large
            self._references.clear()
            graph = self.graph(cell.input_name) if cell.size < 0 else None
            self._instances[key] = build_instance(
                module, graph=graph, size=cell.size if cell.size >= 0 else None,
                seed=cell.seed, source=max(cell.source, 0),
            )
            if (cell.study.problem == "sssp" and graph is not None
                    and any(c.worklist == "bucketed" for c in cell.study.configs)):
                # the bucketed worklist's bucket width is the Δ Δ-stepping gets
                delta = self.delta_for(graph, cell.source, cell.study.delta)
                if delta is not None:
                    inst = self._instances[key]
                    inst.bucket_width = module.bucket_width(graph, inst.arrays[6], delta)
        inst = self._instances[key]
        if self.sweep.verify and key not in self._references:
            self._references[key] = module.reference(inst)
        return inst, self._references.get(key)

    def _solve(self, cell: Cell, module: ModuleType, inst) -> Outcome:
        if cell.config.kind == "baseline":
            params = {}
            if module.INPUT == "graph" and cell.study.problem == "sssp":
                params["delta"] = self.delta_for(
                    inst.meta["graph"], cell.source, cell.study.delta
                )
            res = module.baseline(inst, cell.threads, **params)
            counters = {name: int(res.counters.get(name, 0)) for name in COUNTER_NAMES}
            return Outcome(
                res.answer, res.seconds, res.compile_seconds, counters, res.name,
                res.params.get("delta"),
            )
        res = solve_llp(inst, cell.config.solver, cell.config.worklist, cell.threads)
        delta = inst.bucket_width if cell.config.worklist == "bucketed" else None
        return Outcome(
            module.answer(inst, res.state), res.seconds, res.compile_seconds, res.counters,
            cell.config.label, delta,
        )

    def run_cell(self, cell: Cell, reps: list[int], on_row: Callable[[], None]) -> list[str]:
        """Warm up, then time the missing repetitions ``reps`` of ``cell``; store each row."""
        module = problem_module(cell.study.problem)
        inst, expected = self._instance(cell, module)
        warm = self._solve(cell, module, inst)
        failures = []
        for rep in reps:
            out = self._solve(cell, module, inst)
            verified = None
            if expected is not None:
                mismatch = module.verify(out.answer, expected)
                verified = mismatch is None
                if mismatch:
                    failures.append(f"{cell.label} rep {rep}: {mismatch}")
            self.store.append(self._row(cell, rep, inst, out, warm.compile_seconds, verified))
            on_row()
        return failures

    def _row(self, cell, rep, inst, out: Outcome, compile_s, verified) -> dict[str, Any]:
        graph = inst.meta.get("graph") if isinstance(inst.meta.get("graph"), Graph) else None
        answer = np.asarray(out.answer)
        reached = (
            int(np.isfinite(answer).sum()) if graph is not None and answer.dtype.kind == "f"
            else inst.n
        )
        row = cell.key(rep)
        row.update(
            family=graph.family if graph is not None else "generated",
            n=graph.n if graph is not None else inst.n,
            m=graph.m if graph is not None else 0,
            config=out.label,
            seconds=f"{out.seconds:.9f}",
            compile_seconds=f"{compile_s:.6f}",
            verified=verified,
            delta=out.delta,
            reached=reached,
            timestamp=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            reading=reading_label(graph) if graph is not None else "generated",
            **out.counters,
        )
        return row

    def pending(self) -> list[tuple[Cell, list[int]]]:
        """Cells with the repetitions not yet stored."""
        done = self.store.done_keys()
        todo = []
        for cell in self.cells():
            reps = [
                r for r in range(cell.study.reps)
                if RunStore.key_of(cell.key(r)) not in done
            ]
            if reps:
                todo.append((cell, reps))
        return todo

