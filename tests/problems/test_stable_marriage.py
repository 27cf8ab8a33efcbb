"""Stable marriage: every LLP solver finds Gale-Shapley's man-optimal matching."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.errors import SpecError
from llpbench.problems import problem_module
from llpbench.problems import stable_marriage as sm
from tests.problems.conftest import solve_and_verify

INSTANCES = {
    "single": lambda: sm.generate(1, 0),
    "random-2": lambda: sm.generate(2, 5),
    "random-40": lambda: sm.generate(40, 1),
    "identical-25": lambda: sm.generate(25, 0, "identical"),
}


def test_every_solver_finds_the_man_optimal_matching(solver_config):
    for make in INSTANCES.values():
        solve_and_verify(sm, make(), *solver_config)


def test_identical_lists_take_exactly_one_advance_per_rejection(solver_config):
    n = 30
    result = solve_and_verify(sm, sm.generate(n, 0, "identical"), *solver_config)
    assert result.counters["advances"] == n * (n - 1) // 2


def test_reference_is_stable_and_man_k_marries_woman_k_on_identical_lists():
    inst = sm.generate(60, 2)
    assert sm.is_stable(inst, sm.reference(inst))
    assert list(sm.reference(sm.generate(7, 0, "identical"))) == list(range(7))


def test_verify_flags_a_swapped_pair_and_is_stable_rejects_it():
    inst = sm.generate(30, 4)
    ref = sm.reference(inst)
    swapped = ref.copy()
    swapped[[0, 1]] = swapped[[1, 0]]
    assert sm.verify(ref, ref) is None
    assert "2 men differ" in sm.verify(swapped, ref)


def test_baseline_equals_reference_and_times_without_compilation():
    inst = sm.generate(200, 7)
    result = sm.baseline(inst, threads=2)
    assert sm.verify(result.answer, sm.reference(inst)) is None
    assert result.name == "parallel-gale-shapley" and result.params == {"threads": 2}
    assert isinstance(result.compile_seconds, float)  # reported apart from the solve's seconds


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_every_baseline_finds_the_man_optimal_matching(threads):
    for make in [*INSTANCES.values(), lambda: sm.generate(300, 3, "identical")]:
        inst = make()
        for name, run in sm.BASELINES.items():
            result = run(inst, threads)
            assert sm.verify(result.answer, sm.reference(inst)) is None, name
    assert sm.baseline(sm.generate(50, 1), threads).name == "parallel-gale-shapley"


def test_make_is_the_registered_constructor_and_rejects_bad_input():
    module = problem_module("stable-marriage")
    assert module is sm and sm.INPUT == "size"
    assert module.make(None, 5, 1, None).n == 5
    with pytest.raises(SpecError, match="stable-marriage needs a size >= 1, got 0"):
        sm.make(None, 0, 1, None)
    with pytest.raises(SpecError, match="unknown variant 'sorted'"):
        sm.generate(4, 0, "sorted")
    with pytest.raises(SpecError, match="lists must rank all 0..1"):
        sm.instance(np.zeros((2, 2)), np.zeros((2, 2)))


@st.composite
def preference_lists(draw):
    n = draw(st.integers(1, 9))
    perms = st.permutations(list(range(n)))
    men = [draw(perms) for _ in range(n)]
    women = [draw(perms) for _ in range(n)]
    return np.array(men), np.array(women)


@settings(max_examples=15, deadline=None)
@given(prefs=preference_lists(), threads=st.sampled_from([2, 3, 8]))
def test_random_preferences_match_gale_shapley_in_parallel_mcvitie_wilson(prefs, threads):
    inst = sm.instance(*prefs)
    result = sm.parallel_mcvitie_wilson(inst, threads)
    assert sm.verify(result.answer, sm.reference(inst)) is None


@settings(max_examples=15, deadline=None)
@given(
    prefs=preference_lists(),
    config=st.sampled_from(
        [("worklist", "ptwb", 3), ("worklist", "swb", 2), ("all-indices", None, 2)]
    ),
)
def test_random_preferences_match_gale_shapley_in_parallel(prefs, config):
    inst = sm.instance(*prefs)
    solve_and_verify(sm, inst, *config)
    assert sm.is_stable(inst, sm.reference(inst))
