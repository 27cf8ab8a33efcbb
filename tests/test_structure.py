"""The shape of the package: no problem is named outside ``llpbench/problems/``."""

from __future__ import annotations

import re
from pathlib import Path

from llpbench.problems import PROBLEMS

PACKAGE = Path(__file__).resolve().parents[1] / "llpbench"

_NAMES = "|".join(re.escape(name) for name in PROBLEMS)
#: A test of which problem runs: ``problem == "..."`` or ``== "sssp"`` (any problem's name,
#: either side, ``in`` too); filtering rows by a problem held in a variable is not one.
PROBLEM_TEST = re.compile(
    rf"""problem\s*(?:[!=]=|(?:not\s+)?in)\s*[("'\[]"""
    rf"""|(?:[!=]=|\bin)\s*[(\[]?["'](?:{_NAMES})["']"""
    rf"""|["'](?:{_NAMES})["']\s*(?:[!=]=|(?:not\s+)?in\b)"""
)


def test_no_code_outside_the_problems_tests_which_problem_it_runs():
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{no}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if PACKAGE / "problems" not in path.parents
        for no, line in enumerate(path.read_text().splitlines(), 1)
        if PROBLEM_TEST.search(line)
    ]
    assert found == []


def test_the_problem_test_pattern_catches_what_it_is_for():
    for line in ('if cell.study.problem == "sssp":', 'weighted = problem == "sssp"',
                 'if name != "bfs":', 'x = "sssp" == p', 'if problem in ("sssp", "bfs"):',
                 'ok = "knapsack" in names'):
        assert PROBLEM_TEST.search(line), line
    for line in ('rows = rows[rows["problem"] == problem]', 'if problem not in PROBLEMS:',
                 'WEIGHTED = {"sssp": True, "bfs": False}'):
        assert not PROBLEM_TEST.search(line), line
