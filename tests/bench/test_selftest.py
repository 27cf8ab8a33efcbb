"""The stress command: random cases are exact, replayable, and a wrong answer is caught."""

from __future__ import annotations

import subprocess
import sys

import llpbench.bench.selftest as st


def test_random_cases_across_solvers_and_threads_are_exact():
    seen = set()
    failures = st.selftest(250, seed=1000, problems=["sssp", "bfs"],
                           on_case=lambda c, m: seen.add((c.solver, c.threads)))
    assert failures == []
    assert {s for s, _ in seen} == {"cyclic", "bag", "all-indices", "worklist"}
    assert max(t for _, t in seen) >= 16


def test_a_case_is_a_pure_function_of_its_seed():
    a, _ = st.make_case(77, ["sssp", "bfs"])
    b, _ = st.make_case(77, ["sssp", "bfs"])
    assert a == b


def test_a_wrong_answer_is_reported_with_its_seed(monkeypatch):
    real = st.solve_llp

    def broken(inst, solver, worklist, threads):
        result = real(inst, solver, worklist, threads)
        result.state[:] = result.state[::-1].copy() if result.state.size > 1 else -1
        return result

    monkeypatch.setattr(st, "solve_llp", broken)
    failures = st.selftest(20, seed=5, problems=["sssp"])
    assert failures, "a corrupted answer went unnoticed"
    assert all(5 <= case.seed < 25 for case, _ in failures)


def test_replay_through_the_command_line():
    proc = subprocess.run(
        [sys.executable, "-m", "llpbench", "selftest", "--replay", "3", "-p", "bfs"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "seed=3 bfs" in proc.stdout and "exact" in proc.stdout
