"""Transitive closure: every LLP solver computes exactly the reachability bitsets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import connected_components

from llpbench.baselines.condensation import unpack_closure
from llpbench.errors import SpecError
from llpbench.graphs.generators import random_dag
from llpbench.graphs.graph import Graph
from llpbench.problems import problem_module
from llpbench.problems import transitive_closure as tc
from tests.problems.conftest import solve_and_verify


def _graph(n: int, arcs: list[tuple[int, int]], **kwargs) -> Graph:
    src = np.array([u for u, _ in arcs], dtype=np.int64)
    dst = np.array([v for _, v in arcs], dtype=np.int64)
    return Graph.from_edges(n, src, dst, **kwargs)


COMPLETE_DAG = [(i, j) for i in range(9) for j in range(i + 1, 9)]

INSTANCES = {
    "single-vertex": lambda: tc.instance(_graph(1, [])),
    "no-arcs": lambda: tc.instance(_graph(7, [])),
    "cycle": lambda: tc.instance(_graph(5, [(i, (i + 1) % 5) for i in range(5)])),
    "complete-dag": lambda: tc.instance(_graph(9, COMPLETE_DAG)),
    "self-loop": lambda: tc.instance(_graph(3, [(0, 0), (1, 2)], drop_self_loops=False)),
    "crosses-word-boundary": lambda: tc.instance(_graph(130, [(i, i + 1) for i in range(129)])),
    "random-dag": lambda: tc.instance(random_dag(90, 3, seed=4)),
    "generated": lambda: tc.generate(150, 2),
}


def test_every_solver_computes_the_closure(solver_config):
    for make in INSTANCES.values():
        solve_and_verify(tc, make(), *solver_config)


def test_reference_matches_hand_computed_closures():
    cycle = tc.vertex_rows(tc.reference(INSTANCES["cycle"]()))
    assert np.array_equal(cycle[:, 0], np.full(5, 0b11111, dtype=np.uint64))
    loop = tc.vertex_rows(tc.reference(INSTANCES["self-loop"]()))
    assert list(loop[:, 0]) == [0b001, 0b100, 0b000]
    chain = tc.vertex_rows(tc.reference(INSTANCES["crosses-word-boundary"]()))
    assert chain.shape == (130, 3)
    assert int(np.bitwise_count(chain).sum()) == 129 * 130 // 2


def test_answer_is_one_row_per_component_numbered_by_smallest_vertex():
    g = _graph(6, [(3, 4), (4, 3), (4, 1), (5, 0), (0, 2)])
    labels, reach = unpack_closure(tc.reference(tc.instance(g)))
    assert labels.tolist() == [0, 1, 2, 3, 3, 4]  # {3, 4} is one component, named 3
    assert reach[:, 0].tolist() == [0b100, 0, 0, 0b1010, 0b101]  # 3 reaches itself and 1
    inst = tc.instance(g)
    assert inst.n == inst.meta["components"] == 5 and inst.meta["dag_arcs"] == 3


def test_baseline_equals_reference():
    inst = tc.generate(400, 7)
    components, _ = connected_components(
        inst.meta["graph"].to_scipy(), directed=True, connection="strong"
    )
    for threads in (1, 3):
        result = tc.baseline(inst, threads=threads)
        assert tc.verify(result.answer, tc.reference(inst)) is None
        assert result.name == "scc-bitset"
        assert result.params["components"] == components  # one bitset row per SCC


TWO_CYCLES_AND_A_TAIL = [(0, 1), (1, 0), (1, 2), (2, 3), (3, 4), (4, 2), (4, 5), (6, 6), (6, 0)]


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_every_baseline_equals_reference_on_edge_cases(threads):
    cases = {
        **INSTANCES,
        "cycles-into-cycles": lambda: tc.instance(
            _graph(7, TWO_CYCLES_AND_A_TAIL, drop_self_loops=False)
        ),
        "long-chain": lambda: tc.instance(_graph(700, [(i, i + 1) for i in range(699)])),
        "loops-only": lambda: tc.instance(_graph(4, [(1, 1), (3, 3)], drop_self_loops=False)),
    }
    for name, make in cases.items():
        inst = make()
        for baseline_name, run in tc.BASELINES.items():
            result = run(inst, threads)
            assert tc.verify(result.answer, tc.reference(inst)) is None, (name, baseline_name)


def test_scc_baseline_keeps_one_row_per_component():
    from llpbench.baselines.condensation import tarjan_components

    g = _graph(7, TWO_CYCLES_AND_A_TAIL, drop_self_loops=False)
    comp, ncomp = tarjan_components(g.indptr, g.indices)
    assert ncomp == 4  # {0, 1}, {2, 3, 4}, {5}, {6}
    assert comp[0] == comp[1] and comp[2] == comp[3] == comp[4]
    for u, v in TWO_CYCLES_AND_A_TAIL:  # arcs lead to components numbered no higher
        assert comp[v] <= comp[u]
    for run in tc.BASELINES.values():
        rows = tc.vertex_rows(run(tc.instance(g)).answer)[:, 0]
        assert rows.tolist() == [0b111111, 0b111111, 0b111100, 0b111100, 0b111100, 0,
                                 0b1111111]


def test_released_form_settles_each_component_once():
    inst = tc.generate(3000, 5)
    for threads in (1, 2, 8):
        c = solve_and_verify(tc, inst, "worklist", "ptcf", threads).counters
        assert c["items"] == c["advances"] == inst.meta["components"] and c["stale"] == 0


def test_verify_names_the_first_differing_vertex():
    g = _graph(6, [(0, 1), (1, 2), (2, 0), (3, 4), (5, 3)])
    expected = tc.reference(tc.instance(g))
    wrong = expected.copy()
    labels, reach = unpack_closure(wrong)
    reach[labels[5], 0] ^= np.uint64(1)
    assert "first vertex 5" in tc.verify(wrong, expected)
    relabelled = expected.copy()
    unpack_closure(relabelled).labels[4] = 0
    assert "components differ at 1 vertices, first vertex 4" in tc.verify(relabelled, expected)
    assert "not a condensed closure" in tc.verify(expected[:-1], expected)


def test_generate_is_seeded_and_registered():
    a, b = tc.generate(64, 9), tc.generate(64, 9)
    assert problem_module("transitive-closure") is tc
    assert all(np.array_equal(x, y) for x, y in zip(a.arrays[:4], b.arrays[:4], strict=True))
    assert a.n == a.meta["components"] and a.meta["words"] == -(-a.n // 64)
    assert tc.make(None, 64, 9, None).meta["graph"].m == a.meta["graph"].m
    kron = tc.make(None, 256, 3, None, variant="kron")
    assert kron.meta["graph"].n == 256 and kron.meta["graph"].directed
    solve_and_verify(tc, kron, "worklist", "ptwb", 2)


def test_bad_sizes_and_graphs_are_rejected(monkeypatch):
    with pytest.raises(SpecError, match="transitive-closure needs a size or a graph"):
        tc.make(None, None, 0, None)
    with pytest.raises(SpecError, match="size must be >= 1, got 0"):
        tc.generate(0, 1)
    with pytest.raises(SpecError, match="unknown variant 'dense'"):
        tc.generate(10, 1, "dense")
    with pytest.raises(SpecError, match="size must be a power of 2, got 100"):
        tc.generate(100, 1, "kron")
    monkeypatch.setenv("LLPBENCH_MAX_MEMORY", "1M")
    tc.instance(_graph(1500, [(i, i + 1) for i in range(1499)]))  # 1500 rows: 3 x 281 KB
    with pytest.raises(SpecError, match=r"has 3,000 strongly connected components; their "
                       r"reachability rows .* need 3\.2 MB, more than the LLPBENCH_MAX_MEMORY"):
        tc.instance(_graph(3000, []))


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(1, 70),
    arcs=st.lists(st.tuples(st.integers(0, 69), st.integers(0, 69)), max_size=150),
    config=st.sampled_from(
        [("worklist", "ptcf", 3), ("worklist", "ptwb", 2), ("all-indices", None, 3)]
    ),
)
def test_random_graphs_match_scipy(n, arcs, config):
    arcs = [(u % n, v % n) for u, v in arcs]
    solve_and_verify(tc, tc.instance(_graph(n, arcs, drop_self_loops=False)), *config)
