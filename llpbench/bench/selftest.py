"""Randomized stress test of the runtime: thousands of small solves, each checked.

Each case is a pure function of its seed (problem, instance, solver, worklist, threads), so a
mismatch is reported with the seed that replays it exactly: ``llpbench selftest --replay S``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from llpbench.graphs.graph import Graph
from llpbench.llp.runtime import solve_llp
from llpbench.llp.solvers import SOLVERS
from llpbench.llp.worklists import WORKLISTS
from llpbench.problems import PROBLEMS, build_instance, problem_module

THREAD_CHOICES = (1, 2, 3, 4, 8, 16, 32)


@dataclass(frozen=True)
class Case:
    seed: int
    problem: str
    solver: str
    worklist: str | None
    threads: int
    n: int

    def describe(self) -> str:
        wl = f"/{self.worklist}" if self.worklist else ""
        return f"seed={self.seed} {self.problem} {self.solver}{wl} x{self.threads} n={self.n}"


def random_graph(rng: np.random.Generator, name: str) -> Graph:
    n = int(rng.integers(1, 200))
    m = int(rng.integers(0, 5 * n + 1))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if rng.random() < 0.5:
        weights = rng.integers(0, 100, m)
    else:
        weights = rng.random(m) * 100
    return Graph.from_edges(n, src, dst, weights, symmetrize=bool(rng.random() < 0.5), name=name)


def make_case(seed: int, problems: list[str]) -> tuple[Case, object]:
    """The case of ``seed``, and its instance."""
    rng = np.random.default_rng(seed)
    problem = problems[int(rng.integers(len(problems)))]
    module = problem_module(problem)
    solver = list(SOLVERS)[int(rng.integers(len(SOLVERS)))]
    worklist = list(WORKLISTS)[int(rng.integers(len(WORKLISTS)))]
    worklist = worklist if SOLVERS[solver].uses_worklist else None
    threads = 1 if SOLVERS[solver].single_threaded else int(rng.choice(THREAD_CHOICES))
    if module.INPUT == "graph":
        graph = random_graph(rng, f"selftest-{seed}")
        source = int(rng.integers(graph.n))
        inst = build_instance(module, graph=graph, source=source, seed=seed)
    else:
        inst = build_instance(module, size=int(rng.integers(1, 40)), seed=seed)
    return Case(seed, problem, solver, worklist, threads, inst.n), inst


def run_case(seed: int, problems: list[str]) -> tuple[Case, str | None]:
    """Solve the case of ``seed``; return it and the mismatch (None when exact)."""
    case, inst = make_case(seed, problems)
    module = problem_module(case.problem)
    result = solve_llp(inst, case.solver, case.worklist, case.threads)
    return case, module.verify(module.answer(inst, result.state), module.reference(inst))


def selftest(
    count: int,
    seed: int = 0,
    problems: list[str] | None = None,
    on_case: Callable[[Case, str | None], None] | None = None,
) -> list[tuple[Case, str]]:
    """Run ``count`` random cases with seeds ``seed .. seed + count - 1``; return mismatches."""
    problems = problems or list(PROBLEMS)
    failures = []
    for s in range(seed, seed + count):
        case, mismatch = run_case(s, problems)
        if mismatch is not None:
            failures.append((case, mismatch))
        if on_case:
            on_case(case, mismatch)
    return failures
