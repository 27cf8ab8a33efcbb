"""The one harness: every cell of a sweep is warmed up, timed, verified and stored alike.

For each study, instance (graph and source, or size and seed), configuration and thread
count, the runner does one warm-up solve (it compiles, or loads compiled kernels from the
cache, and its compile time is recorded apart), then ``reps`` timed solves, each checked
against the problem's independent reference. Each finished solve becomes one row, on disk
before the next starts; ``resume`` skips rows already stored. Like GAP's
``BenchmarkKernel``, no kernel times itself and no problem is special-cased here.

Order. The configurations compared on one instance at one thread count form a *group*. With
``order="interleaved"`` (the default) every configuration of a group is warmed up, then the
repetitions alternate A B C A B C ...: a slow drift of the machine (another job starting,
the clock throttling) then lands on every configuration alike instead of on whichever ran
last. ``order="grouped"`` runs each configuration's repetitions back to back (A A A B B B).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from llpbench.baselines.selection import baseline_params, baselines_of, default_baseline
from llpbench.bench.options import ORDERS
from llpbench.bench.plan import CellId, instance_slots, runnable
from llpbench.bench.spec import FLOOR, Config, Study, Sweep, variant_of
from llpbench.bench.store import RunStore
from llpbench.errors import NOT_FINISHED, SolveFailedError, SpecError
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import FileIds
from llpbench.graphs.reading import reading_label
from llpbench.graphs.sources import pick_sources
from llpbench.llp import placement
from llpbench.llp.counters import NAMES as COUNTER_NAMES
from llpbench.llp.placement import core_count
from llpbench.llp.runtime import solve_llp
from llpbench.llp.worklists import BY_LEVEL
from llpbench.phases import phase
from llpbench.problems import build_instance, check_input, problem_module
from llpbench.problems.tuned import TunedParams, level_names, tuned_names


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
    file_source: int | None = None  # the source in the graph file's ids (runs.csv's)

    def key(self, rep: int) -> dict[str, Any]:
        return {
            "graph": self.input_name,
            "problem": self.study.problem,
            "kind": self.config.kind,
            "solver": self.solver_name,
            "worklist": self.config.worklist or "",
            "threads": self.threads,
            "source": self.source if self.file_source is None else self.file_source,
            "size": self.size,
            "seed": self.seed,
            "variant": self.variant,
            "rep": rep,
        }

    @property
    def variant(self) -> str:
        return variant_of(self.study)

    @property
    def solver_name(self) -> str:
        """The LLP solver, ``baseline`` / ``baseline/NAME`` for a baseline, ``floor/NAME``."""
        return self.config.label if self.config.kind != "llp" else self.config.solver

    @property
    def label(self) -> str:
        where = self.input_name if self.source < 0 else f"{self.input_name}@{self.key(0)['source']}"
        variant = f" ({self.variant})" if self.study.variant else ""
        return f"{self.study.problem} {where}{variant} {self.config.label} x{self.threads}"


def plan(
    sweep: Sweep, load: Callable[[str], Graph], only: Collection[CellId] | None = None
) -> Iterator[Cell]:
    """Every cell of the sweep, in a fixed order (instances outermost); with ``only``, just
    those cells (a shard's), and no graph is loaded for an input none of them uses."""
    wanted = None if only is None else set(only)
    for i, study in enumerate(sweep.studies):
        module = problem_module(study.problem)
        pairs = runnable(study)
        sources: dict[str, list[int]] = {}
        ids: dict[str, FileIds] = {}
        for name, size, k in instance_slots(study):
            chosen = [
                (config, threads) for config, threads in pairs
                if wanted is None or CellId(i, name, k, config.label, threads) in wanted
            ]
            if not chosen:
                continue
            source, seed = -1, study.seed + k
            if size < 0 and module.INPUT == "graph":
                if name not in sources:
                    graph = check_input(module, load(name))
                    sources[name] = pick_sources(graph, study.sources, study.seed)
                    ids[name] = graph.ids
                source, seed = sources[name][k], study.seed
            else:
                check_input(module, size=size, variant=study.variant)
            shown = ids[name].to_file(source) if source >= 0 else None
            for config, threads in chosen:
                yield Cell(study, name, source, size, seed, config, threads, shown)


def group_cells(
    todo: list[tuple[Cell, list[int]]], order: str = "interleaved"
) -> list[list[tuple[Cell, list[int]]]]:
    """The cells to run together: one group per instance and thread count (interleaved), or
    one group per cell (grouped); first-seen order either way."""
    if order not in ORDERS:
        raise SpecError(f"unknown order {order!r}; expected one of {', '.join(ORDERS)}")
    if order == "grouped":
        return [[item] for item in todo]
    groups: dict[tuple, list[tuple[Cell, list[int]]]] = {}
    for cell, reps in todo:
        key = (cell.study, cell.input_name, cell.source, cell.size, cell.seed, cell.threads)
        groups.setdefault(key, []).append((cell, reps))
    return list(groups.values())


@dataclass
class Outcome:
    """What one solve produced, whatever ran it."""

    answer: np.ndarray | None  # None: an external program that prints no answer, or a floor
    seconds: float
    compile_seconds: float
    counters: dict[str, int]
    label: str
    _: KW_ONLY  # the optional fields by name: a new one cannot shift the others
    delta: float | None = None  # Δ-stepping's Δ, weight units (a baseline that takes one)
    bucket_width: int | None = None  # a level worklist's width, priority units (LLP rows)
    reached: int | None = None  # an external program's count, when it prints no answer


@dataclass
class RunSummary:
    rows_written: int = 0
    rows_skipped: int = 0
    failures: list[str] = field(default_factory=list)


def preflight(
    sweep: Sweep, *, cache_dir: Path | None = None, only: Collection[CellId] | None = None
) -> int:
    """Plan every cell of ``sweep`` before anything is written, and return their number.

    Loads each graph the cells use (reading it as the run will) and picks its sources, so a
    graph that cannot be read or a ``sources`` count it cannot give fails here, before a run
    folder exists. The graphs are then let go: the run loads them again (from the cache for
    registry graphs).
    """
    return len(Runner(sweep, None, cache_dir=cache_dir, only=only).cells())


class Runner:
    """Execute a sweep into a :class:`RunStore`."""

    def __init__(
        self,
        sweep: Sweep,
        store: RunStore | None,
        *,
        cache_dir: Path | None = None,
        tuned: TunedParams | None = None,
        only: Collection[CellId] | None = None,
    ) -> None:
        self.sweep = sweep
        self.store = store
        self.cache_dir = cache_dir
        self.tuned = tuned or TunedParams(cache_dir)
        self.only = only  # a shard's cells; None: every cell of the sweep
        self.cores = core_count()  # each row says how many threads this machine could run
        self._graphs: dict[str, Graph] = {}
        self._instances: dict[tuple, Any] = {}
        self._references: dict[tuple, np.ndarray] = {}
        # the reference keys each graph still has to compute, set by pending(): once a
        # graph's last one is computed its verifier matrix goes (None: never released)
        self._references_left: dict[str, set[tuple]] | None = None
        self._cells_left: dict[str, int] | None = None  # pending repetitions per graph

    def graph(self, name: str) -> Graph:
        if name not in self._graphs:
            from llpbench.graphs.registry import load_graph

            self._graphs[name] = load_graph(
                name, cache_dir=self.cache_dir, options=self._read_options(name)
            )
        return self._graphs[name]

    def _read_options(self, name: str):
        """How the studies naming graph file ``name`` read it (one way per run)."""
        found = {s.read for s in self.sweep.studies if name in s.graphs}
        if len(found) > 1:
            raise SpecError(
                f"{name}: studies of this sweep read it in different ways ({found}); "
                "one graph file is read one way per run"
            )
        return found.pop() if found else None

    def cells(self) -> list[Cell]:
        return list(plan(self.sweep, self.graph, self.only))

    def _instance(self, cell: Cell, module: ModuleType):
        key = self._instance_key(cell)
        if key not in self._instances:
            self._instances.clear()  # one instance alive at a time: instances can be large
            self._references.clear()
            graph = self.graph(cell.input_name) if cell.size < 0 else None
            # tuned parameters depend on the thread count: each solve applies its own
            with phase(f"{cell.input_name}: building the instance"):
                self._instances[key] = build_instance(
                    module, graph=graph, size=cell.size if cell.size >= 0 else None,
                    seed=cell.seed, source=max(cell.source, 0), variant=cell.study.variant,
                )
        inst = self._instances[key]
        if self.sweep.verify and key not in self._references:
            with phase(f"{cell.input_name}: the reference answer"):
                self._references[key] = module.reference(inst)
            self._reference_done(cell, key)
        return inst, self._references.get(key)

    @staticmethod
    def _instance_key(cell: Cell) -> tuple:
        return (cell.study.problem, cell.input_name, cell.source, cell.size, cell.seed,
                cell.variant)

    def _reference_done(self, cell: Cell, key: tuple) -> None:
        """Release the verifier's matrix of ``cell``'s graph after its last reference of the
        run: it then costs no memory while the solves run (issue 31's 40 bytes per arc)."""
        left = None if self._references_left is None else self._references_left.get(
            cell.input_name)
        if left is None or cell.size >= 0:
            return
        left.discard(key)
        if not left and cell.input_name in self._graphs:
            from llpbench.graphs.independent import release_reference_matrix

            release_reference_matrix(self._graphs[cell.input_name])

    def _params(
        self, cell: Cell, module: ModuleType, inst, names: tuple[str, ...] | None = None
    ) -> dict[str, Any]:
        """The problem's tuned parameters (``names`` alone, when given) for ``cell``'s graph
        at its thread count (looked up, or tuned once, by :class:`TunedParams`); none for
        problems that declare none."""
        graph = inst.meta.get("graph") if isinstance(inst.meta, dict) else None
        if not tuned_names(module) or not isinstance(graph, Graph):
            return {}
        return self.tuned(
            module, graph, cell.study.given_params(), threads=cell.threads, names=names
        )

    def _solve(self, cell: Cell, module: ModuleType, inst) -> Outcome:
        # With pinning on, the calling thread (which runs the baselines that launch no
        # workers) sits on worker 0's CPU; launched workers (every LLP solve's, one thread
        # included) pin themselves.
        with placement.pinned_here(0):
            return self._solve_unpinned(cell, module, inst)

    def _solve_unpinned(self, cell: Cell, module: ModuleType, inst) -> Outcome:
        if cell.config.kind == FLOOR:  # timed, never verified: it solves nothing
            res = module.FLOORS[cell.config.baseline](inst)
            return Outcome(None, res.seconds, res.compile_seconds,
                           dict.fromkeys(COUNTER_NAMES, 0), res.name)
        if cell.config.kind == "baseline":
            name = cell.config.baseline or default_baseline(module)
            # looked up (or tuned, which takes a while) only for a baseline that takes them
            takes = baseline_params(module, name, dict.fromkeys(tuned_names(module)))
            tuned = self._params(cell, module, inst, tuple(takes)) if takes else {}
            params = baseline_params(module, name, tuned, cell.study.given_params())
            res = baselines_of(module)[name](inst, cell.threads, **params)
            counters = {name: int(res.counters.get(name, 0)) for name in COUNTER_NAMES}
            return Outcome(
                res.answer, res.seconds, res.compile_seconds, counters, res.name,
                delta=res.params.get("delta"), reached=res.reached,
            )
        if cell.config.worklist in BY_LEVEL and tuned_names(module):
            # a level worklist's bucket width, tuned at this thread count
            module.apply_params(inst, self._params(cell, module, inst, level_names(module)))
        res = solve_llp(inst, cell.config.solver, cell.config.worklist, cell.threads)
        width = inst.bucket_width if cell.config.worklist in BY_LEVEL else None
        return Outcome(
            module.answer(inst, res.state), res.seconds, res.compile_seconds, res.counters,
            cell.config.label, bucket_width=width,
        )

    def run_cell(self, cell: Cell, reps: list[int], on_row: Callable[[], None]) -> list[str]:
        """Warm up, then time the missing repetitions ``reps`` of ``cell``; store each row."""
        return self.run_group([(cell, reps)], lambda _cell: on_row())

    def run_group(
        self, group: list[tuple[Cell, list[int]]], on_row: Callable[[Cell], None]
    ) -> list[str]:
        """Warm up every cell of ``group`` (one instance), then time their missing
        repetitions round-robin: repetition r of each cell before repetition r + 1 of any.

        A group of one cell is the grouped order; ``on_row`` is called after each stored row.
        """
        module = problem_module(group[0][0].study.problem)
        compile_s: dict[Cell, float] = {}
        broken: dict[Cell, str] = {}  # cells whose solve could not finish, and why
        for cell, _ in group:
            inst, _expected = self._instance(cell, module)
            try:
                compile_s[cell] = self._solve(cell, module, inst).compile_seconds
            except SolveFailedError as exc:
                broken[cell], compile_s[cell] = str(exc), float("nan")
        failures = []
        for rep in sorted({r for _, reps in group for r in reps}):
            for cell, reps in group:
                if rep not in reps:
                    continue
                inst, expected = self._instance(cell, module)
                if cell not in broken:
                    try:
                        out = self._solve(cell, module, inst)
                    except SolveFailedError as exc:
                        broken[cell] = str(exc)
                if cell in broken:  # recorded as failed, never solved again (it would fail
                    # the same way, seconds or a time limit later)
                    failures.append(f"{NOT_FINISHED}: {cell.label} rep {rep}: {broken[cell]}")
                    self.store.append(self._failed_row(cell, rep, inst, broken[cell]))
                    on_row(cell)
                    continue
                verified = None
                if expected is not None and (out.answer is not None or out.reached is not None):
                    mismatch = (
                        module.verify(out.answer, expected) if out.answer is not None
                        else _reached_mismatch(out.reached, expected)
                    )
                    verified = mismatch is None
                    if mismatch:
                        failures.append(f"{cell.label} rep {rep}: {mismatch}")
                row = self._row(cell, rep, inst, out, compile_s[cell], verified)
                self.store.append(row)
                on_row(cell)
        self._cells_done(group)
        return failures

    def _cells_done(self, group: list[tuple[Cell, list[int]]]) -> None:
        """Let a graph go once its last pending repetition has run: a sweep over several big
        graphs then holds one at a time, not all of them (nothing happens without
        :meth:`pending`, which counts the repetitions; a graph needed again is loaded
        again)."""
        if self._cells_left is None:
            return
        for cell, reps in group:
            name = cell.input_name
            if name in self._cells_left:
                self._cells_left[name] -= len(reps)
                if self._cells_left[name] <= 0 and name in self._graphs:
                    del self._cells_left[name]
                    self._instances.clear()
                    self._references.clear()
                    del self._graphs[name]

    def _failed_row(self, cell: Cell, rep: int, inst, error: str) -> dict[str, Any]:
        """The row of a solve that could not finish: no time, no answer, the reason."""
        out = Outcome(None, float("nan"), float("nan"), dict.fromkeys(COUNTER_NAMES, 0),
                      cell.config.label)
        row = self._row(cell, rep, inst, out, float("nan"), False)
        row.update(seconds="", compile_seconds="", reached=None, error=error)
        return row

    def _row(self, cell, rep, inst, out: Outcome, compile_s, verified) -> dict[str, Any]:
        graph = inst.meta.get("graph") if isinstance(inst.meta.get("graph"), Graph) else None
        if out.answer is None:  # a program that prints no answer (its count), or a floor
            reached = out.reached
        elif graph is not None and np.asarray(out.answer).dtype.kind == "f":
            reached = int(np.isfinite(out.answer).sum())
        else:
            reached = inst.n
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
            bucket_width=out.bucket_width,
            reached=reached,
            timestamp=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            reading=reading_label(graph) if graph is not None else "generated",
            variant=cell.variant,
            cores=self.cores,
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
        self._references_left, self._cells_left = {}, {}
        for cell, reps in todo:
            self._references_left.setdefault(cell.input_name, set()).add(
                self._instance_key(cell))
            self._cells_left[cell.input_name] = self._cells_left.get(cell.input_name, 0) + len(reps)
        return todo


def _reached_mismatch(reached: int | None, expected: np.ndarray) -> str | None:
    """The check of a baseline that prints no answer: it must reach the vertices the
    reference reaches (finite entries)."""
    want = int(np.isfinite(np.asarray(expected, dtype=float)).sum())
    if reached == want:
        return None
    return f"reached {reached} vertices, the reference {want}"
