"""Job scheduling: every LLP solver finds the earliest start times of a prerequisite DAG."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.errors import SpecError
from llpbench.graphs.generators import random_dag
from llpbench.graphs.graph import Graph
from llpbench.problems import job_scheduling as js
from llpbench.problems import problem_module
from tests.problems.conftest import solve_and_verify


def chain(n: int) -> Graph:
    """Jobs 0 -> 1 -> ... -> n-1, numbered backwards so that index order is the worst one."""
    ids = np.arange(n)[::-1]
    return Graph.from_edges(n, ids[:-1], ids[1:], name=f"chain-{n}", family="dag")


INSTANCES = {
    "single": lambda: js.generate(1, 0),
    "chain": lambda: js.instance(chain(12), np.arange(1, 13)),
    "layered": lambda: js.generate(120, 3, "layered"),
    "sparse": lambda: js.generate(120, 3, "sparse"),
    "no-arcs": lambda: js.instance(Graph.from_edges(4, [], []), np.full(4, 5)),
    "long-chain": lambda: js.instance(chain(3000), js.durations(3000, 1)),
    "diamonds": lambda: js.instance(
        Graph.from_edges(5, [0, 0, 1, 2, 3], [1, 2, 3, 3, 4]), np.array([1, 5, 2, 1, 1])
    ),
}


def test_every_solver_finds_the_earliest_start_times(solver_config):
    for make in INSTANCES.values():
        solve_and_verify(js, make(), *solver_config)


def test_released_form_pops_each_job_at_most_once_and_never_stale():
    inst = js.generate(5000, 4, "layered")
    for threads in (1, 2, 8):
        result = solve_and_verify(js, inst, "worklist", "ptcf", threads)
        c = result.counters
        assert c["items"] <= inst.n and c["stale"] == 0
        assert c["advances"] <= inst.arrays[1].shape[0]  # at most one raise per arc


def test_baseline_equals_reference_on_edge_cases():
    for make in INSTANCES.values():
        inst = make()
        result = js.baseline(inst)
        assert js.verify(result.answer, js.reference(inst)) is None


def test_chain_starts_are_prefix_sums_of_durations():
    inst = js.instance(chain(5), np.array([1, 2, 3, 4, 5]))
    # chain order is 4 -> 3 -> 2 -> 1 -> 0
    assert list(js.reference(inst)) == [14, 12, 9, 5, 0]


def test_baseline_equals_reference_on_both_variants():
    for variant in js.VARIANTS:
        inst = js.generate(3000, 2, variant)
        result = js.baseline(inst, threads=2)
        assert js.verify(result.answer, js.reference(inst)) is None


def test_make_takes_a_registry_dag_with_seeded_durations():
    graph = random_dag(50, 2.0, 9)
    a, b = js.make(graph, None, 1, 0), js.make(graph, None, 1, 0)
    assert problem_module("job-scheduling") is js
    assert np.array_equal(a.arrays[4], b.arrays[4])
    assert 1 <= a.arrays[4].min() and a.arrays[4].max() <= js.MAX_DURATION
    solve_and_verify(js, a, "worklist", "ptwb", 2)


def test_cycles_and_bad_durations_are_rejected():
    cycle = Graph.from_edges(3, [0, 1, 2], [1, 2, 0], name="triangle")
    with pytest.raises(SpecError, match="cycle"):
        js.make(cycle, None, 0, 0)
    with pytest.raises(SpecError, match="chain-3 needs 3 durations >= 1"):
        js.instance(chain(3), np.array([1, 0, 1]))
    with pytest.raises(SpecError, match="unknown variant 'dense'"):
        js.generate(10, 0, "dense")


def test_verify_names_the_first_differing_job():
    assert js.verify(np.array([0, 3]), np.array([0, 4])) == (
        "1 jobs differ, first 1: start 3, expected 4"
    )


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(1, 60),
    degree=st.sampled_from([0.5, 2.0, 5.0]),
    seed=st.integers(0, 99),
    layered=st.booleans(),
    config=st.sampled_from(
        [("worklist", "ptwb", 3), ("worklist", "bucketed", 2), ("all-indices", None, 3)]
    ),
)
def test_random_dags_match_the_topological_reference(n, degree, seed, layered, config):
    graph = random_dag(n, degree, seed, layered=layered)
    inst = js.instance(graph, js.durations(n, seed))
    solve_and_verify(js, inst, *config)


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("worklist", ["bucketed", "obim", "ptcf"])
@pytest.mark.parametrize("variant", ["sparse", "layered"])
def test_batches_that_fetch_jobs_ahead_give_the_longest_paths(variant, worklist, threads):
    """Big enough for the level worklists' batches of 64, where ``prefetch`` runs for the
    job ``PREFETCH_AHEAD`` places ahead; checked against the level-synchronous reference."""
    solve_and_verify(js, js.generate(20_000, 5, variant), "worklist", worklist, threads)


def test_prefetch_changes_nothing_even_past_the_last_arc():
    for inst in (INSTANCES["chain"](), INSTANCES["no-arcs"]()):  # no-arcs: every offset is m
        state = inst.init_state()
        before = state.copy()
        for j in range(inst.n):
            js.prefetch(inst.arrays, state, j)
        assert np.array_equal(state, before)
