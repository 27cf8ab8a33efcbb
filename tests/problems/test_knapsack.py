"""0-1 knapsack: every LLP solver computes the DP table's last row exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.errors import SpecError
from llpbench.problems import knapsack as ks
from llpbench.problems import problem_module
from tests.problems.conftest import solve_and_verify

INSTANCES = {
    "single": lambda: ks.instance([3], [7], 5),
    "generated": lambda: ks.generate(25, 2),
    "heavier-than-capacity": lambda: ks.instance([50, 4, 80, 3], [9, 5, 100, 2], 10),
    "zero-capacity": lambda: ks.instance([1, 2], [3, 4], 0),
    "zero-weight-and-value": lambda: ks.instance([0, 2, 3, 2], [5, 0, 4, 3], 6),
}


def test_every_solver_computes_the_last_row(solver_config):
    for make in INSTANCES.values():
        solve_and_verify(ks, make(), *solver_config)


def test_reference_matches_a_hand_solved_instance():
    inst = ks.instance([2, 3, 4], [3, 4, 5], 5)
    assert list(ks.reference(inst)) == [0, 0, 3, 4, 5, 7]


def test_baseline_equals_reference():
    inst = ks.generate(200, 5)
    result = ks.baseline(inst, threads=2)
    assert ks.verify(result.answer, ks.reference(inst)) is None
    assert result.seconds >= 0 and result.compile_seconds >= 0


def test_generate_follows_the_capacity_rule_and_seed():
    a, b = ks.generate(40, 3), ks.generate(40, 3)
    assert problem_module("knapsack") is ks
    assert a.meta["capacity"] == ks.CAPACITY_PER_ITEM * 40
    assert a.n == 41 * (ks.CAPACITY_PER_ITEM * 40 + 1)
    assert all(np.array_equal(x, y) for x, y in zip(a.arrays[:2], b.arrays[:2], strict=True))


def test_bad_items_are_rejected():
    with pytest.raises(SpecError):
        ks.instance([1, 2], [3], 4)
    with pytest.raises(SpecError):
        ks.instance([1], [-1], 4)
    with pytest.raises(SpecError):
        ks.make(None, None, 0, None)


@settings(max_examples=12, deadline=None)
@given(
    items=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=12),
    capacity=st.integers(0, 60),
    config=st.sampled_from(
        [("worklist", "ptcf", 3), ("worklist", "ptwb", 2), ("all-indices", None, 3)]
    ),
)
def test_random_items_match_the_dp(items, capacity, config):
    weights, values = zip(*items, strict=True)
    solve_and_verify(ks, ks.instance(weights, values, capacity), *config)
