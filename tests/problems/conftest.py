"""Shared by the problem tests: every (solver, worklist, threads) configuration a problem
must solve exactly, and a helper that solves an instance and checks it against the reference.
"""

from __future__ import annotations

import pytest

from llpbench.llp.runtime import solve_llp

#: Every solver, with every worklist where it takes one, at 1, 2 and 8 threads where parallel.
SOLVER_CONFIGS: list[tuple[str, str | None, int]] = (
    [("cyclic", None, 1)]
    + [("bag", wl, 1) for wl in ("swb", "ptwb", "ptcf", "bucketed")]
    + [("all-indices", None, t) for t in (1, 2, 8)]
    + [("worklist", wl, t) for wl in ("swb", "ptwb", "ptcf", "bucketed") for t in (1, 2, 8)]
)


def config_id(config: tuple[str, str | None, int]) -> str:
    solver, worklist, threads = config
    return f"{solver}-{worklist}-t{threads}" if worklist else f"{solver}-t{threads}"


@pytest.fixture(params=SOLVER_CONFIGS, ids=[config_id(c) for c in SOLVER_CONFIGS])
def solver_config(request) -> tuple[str, str | None, int]:
    """One (solver, worklist, threads) configuration; tests using it run once per config."""
    return request.param


def solve_and_verify(problem, instance, solver: str, worklist: str | None, threads: int):
    """Solve ``instance`` and assert the answer equals ``problem.reference``; return the result."""
    result = solve_llp(instance, solver, worklist, threads)
    got = problem.answer(instance, result.state)
    reason = problem.verify(got, problem.reference(instance))
    assert reason is None, f"{config_id((solver, worklist, threads))}: {reason}"
    return result
