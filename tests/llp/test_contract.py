"""Every registered problem module keeps the contract of :class:`llpbench.llp.contract.Problem`."""

from __future__ import annotations

import types

import numpy as np
import pytest

from llpbench.graphs.generators import kronecker
from llpbench.graphs.weights import assign_weights
from llpbench.llp.contract import MEMBERS, Problem, contract_breaches
from llpbench.problems import PROBLEMS, problem_module


@pytest.mark.parametrize("name", list(PROBLEMS))
def test_every_problem_keeps_the_contract(name):
    module = problem_module(name)
    assert isinstance(module, Problem)
    assert contract_breaches(module) == []
    assert module.NAME == name


def _copy(module: types.ModuleType) -> types.ModuleType:
    clone = types.ModuleType(module.__name__)
    clone.__dict__.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
    return clone


def test_a_missing_member_is_named():
    broken = _copy(problem_module("bfs"))
    del broken.stale
    assert not isinstance(broken, Problem)
    assert contract_breaches(broken) == ["llpbench.problems.bfs: lacks stale"]
    assert "stale" in MEMBERS


def test_a_drifted_make_or_kernel_is_caught():
    broken = _copy(problem_module("sssp"))
    del broken.TUNED  # make still takes params=
    broken.priority = problem_module("bfs").stale  # four arguments where three are due
    breaches = contract_breaches(broken)
    assert "llpbench.problems.sssp.make: takes params= only with TUNED declared" in breaches
    assert "llpbench.problems.sssp.priority: takes 4 arguments, not 3" in breaches


def test_a_python_function_is_not_a_kernel():
    broken = _copy(problem_module("knapsack"))
    broken.forbidden = broken.forbidden.py_func
    assert contract_breaches(broken) == [
        "llpbench.problems.knapsack.forbidden: not a compiled (numba) kernel"
    ]


@pytest.mark.parametrize("name", list(PROBLEMS))
def test_prefetch_is_a_hint_that_leaves_the_state_alone(name):
    # the worklist solver calls prefetch for items ahead in its batch: it may read, never write
    module = problem_module(name)
    graph = assign_weights(kronecker(6, 4, seed=3), "uniform-int:1:9", 3)
    inst = module.make(graph if module.INPUT == "graph" else None, 24, 7, 0)
    state = inst.init_state()
    before = state.copy()
    for j in range(module.num_indices(inst.arrays, state)):
        module.prefetch(inst.arrays, state, j)
    np.testing.assert_array_equal(state, before)
