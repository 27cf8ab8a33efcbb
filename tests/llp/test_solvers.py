"""Every solver x worklist x thread count gives the exact reference answer for SSSP and BFS:
on random graphs (hypothesis), on the real graphs in ../shared/datasets, and over many
repetitions with more threads than cores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llpbench.errors import SpecError, UnknownNameError
from llpbench.graphs.formats import read_graph
from llpbench.graphs.graph import Graph
from llpbench.graphs.weights import assign_weights
from llpbench.llp.runtime import solve_llp
from llpbench.problems import bfs, sssp
from tests.llp.conftest import ALL_CONFIGS, config_id


def _check(problem, graph: Graph, source: int, config) -> dict:
    inst = problem.instance(graph, source)
    result = solve_llp(inst, *config)
    mismatch = problem.verify(problem.answer(inst, result.state), problem.reference(inst))
    assert mismatch is None, f"{config_id(config)}: {mismatch}"
    return result.counters


@st.composite
def random_graphs(draw, float_weights: bool = False):
    n = draw(st.integers(1, 40))
    m = draw(st.integers(0, 4 * n))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    if float_weights:
        w = draw(st.lists(st.floats(0, 100, allow_nan=False), min_size=m, max_size=m))
    else:
        w = draw(st.lists(st.integers(0, 50), min_size=m, max_size=m))
    undirected = draw(st.booleans())
    graph = Graph.from_edges(
        n, np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64),
        np.array(w, dtype=np.float64 if float_weights else np.int64), symmetrize=undirected,
    )
    source = draw(st.integers(0, n - 1))
    return graph, source


HYPO = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=config_id)
@HYPO
@given(case=random_graphs())
def test_sssp_integer_weights_exact_on_random_graphs(config, case):
    _check(sssp, *case, config)


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=config_id)
@HYPO
@given(case=random_graphs(float_weights=True))
def test_sssp_float_weights_match_on_random_graphs(config, case):
    _check(sssp, *case, config)


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=config_id)
@HYPO
@given(case=random_graphs())
def test_bfs_levels_exact_on_random_graphs(config, case):
    _check(bfs, *case, config)


@pytest.fixture(scope="module")
def real_graphs(datasets_dir):
    road = read_graph(datasets_dir / "luxembourg_osm.mtx")
    mesh = read_graph(datasets_dir / "delaunay_n16.mtx")
    return {
        "road": assign_weights(road, "uniform-int:1:255", 7),
        "mesh": assign_weights(mesh, "uniform-float:0:1", 7),
    }


# Scanning solvers on a road network need one pass per "hop wave": keep them to the mesh.
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=config_id)
@pytest.mark.parametrize("kind", ["road", "mesh"])
def test_sssp_exact_on_real_graphs(real_graphs, kind, config):
    if kind == "road" and config[0] in ("cyclic", "all-indices"):
        config = (config[0], None, min(config[2], 2))
    graph = real_graphs[kind]
    _check(sssp, graph, int(np.argmax(graph.out_degrees())), config)


@pytest.mark.parametrize("config", [c for c in ALL_CONFIGS if c[0] == "worklist"], ids=config_id)
def test_bfs_exact_on_real_road_graph(real_graphs, config):
    _check(bfs, real_graphs["road"], 3, config)


def test_directed_citation_graph_with_unreachable_vertices(datasets_dir):
    from llpbench.graphs.registry import compact_ids

    graph = compact_ids(read_graph(datasets_dir / "cit-HepPh.txt"))
    graph = assign_weights(graph, "uniform-int:1:255", 3)
    source = int(np.argmax(graph.out_degrees()))
    counters = _check(sssp, graph, source, ("worklist", "ptwb", 8))
    inst = sssp.instance(graph, source)
    reached = np.isfinite(sssp.reference(inst)).sum()
    assert 1 < reached < graph.n  # some vertices reached, some not: both paths exercised
    assert counters["advances"] >= reached - 1


@pytest.mark.parametrize("worklist", ["swb", "ptwb", "ptcf", "bucketed", "obim"])
def test_many_repetitions_with_more_threads_than_cores_stay_exact(worklist):
    from llpbench.graphs.generators import kronecker

    graph = assign_weights(kronecker(12, 8, seed=5), "uniform-int:1:255", 5)
    for rep in range(12):
        _check(sssp, graph, rep * 97 % graph.n, ("worklist", worklist, (2, 8, 32)[rep % 3]))


def test_incremental_form_pops_fewer_items_than_scanning_all_indices():
    from llpbench.graphs.generators import kronecker

    graph = assign_weights(kronecker(10, 8, seed=1), "uniform-int:1:255", 1)
    scan = _check(sssp, graph, 0, ("cyclic", None, 1))
    bag = _check(sssp, graph, 0, ("bag", "ptwb", 1))
    assert scan["rounds"] >= 2 and scan["items"] == scan["rounds"] * graph.n
    assert bag["items"] < scan["items"]
    assert bag["items"] == bag["pushes"]  # every pushed item was popped: nothing lost


def test_single_threaded_solvers_refuse_more_threads():
    inst = sssp.instance(Graph.from_edges(2, np.array([0]), np.array([1])), 0)
    with pytest.raises(SpecError, match="single-threaded"):
        solve_llp(inst, "cyclic", None, 2)


def test_unknown_names_are_reported_with_suggestions():
    inst = sssp.instance(Graph.from_edges(2, np.array([0]), np.array([1])), 0)
    with pytest.raises(UnknownNameError, match="ptwb"):
        solve_llp(inst, "worklist", "ptwbb", 1)
    with pytest.raises(UnknownNameError, match="solver"):
        solve_llp(inst, "dijkstra", None, 1)


@pytest.mark.parametrize("worklist", ["ptwb", "ptcf", "bucketed", "obim"])
def test_one_thread_takes_no_locks_and_two_threads_do(worklist):
    from llpbench.graphs.generators import kronecker

    graph = assign_weights(kronecker(10, 8, seed=2), "uniform-int:1:255", 2)
    alone = _check(sssp, graph, 0, ("worklist", worklist, 1))
    assert alone["contention"] == 0 and alone["steals"] == 0
    _check(sssp, graph, 0, ("worklist", worklist, 2))


@pytest.mark.parametrize("worklist", ["bucketed", "obim"])
@pytest.mark.parametrize("delta", [1, 8, 300, 10**9])
def test_level_worklists_are_exact_for_any_bucket_width(delta, worklist):
    from llpbench.graphs.generators import kronecker

    graph = assign_weights(kronecker(10, 8, seed=4), "uniform-int:1:255", 4)
    inst = sssp.instance(graph, 3, delta=delta)
    assert inst.bucket_width == delta
    assert sssp.instance(graph, 3).bucket_width == int(np.median(graph.weights))
    for threads in (1, 2, 4):
        result = solve_llp(inst, "worklist", worklist, threads)
        assert sssp.verify(sssp.answer(inst, result.state), sssp.reference(inst)) is None


def test_compact_state_is_int32_and_unreached_vertices_stay_infinite():
    graph = Graph.from_edges(4, np.array([0, 1]), np.array([1, 2]), np.array([5, 7]))
    inst = sssp.instance(graph, 0)
    assert inst.init_state().dtype == np.int32
    result = solve_llp(inst, "worklist", "ptwb", 2)
    assert sssp.answer(inst, result.state).tolist() == [0.0, 5.0, 12.0, np.inf]


@pytest.mark.parametrize("threads", [1, 2, 4, 8])
def test_obim_is_exact_on_several_graphs_at_its_tuned_width(real_graphs, threads):
    """OBIM at 1, 2, 4 and 8 threads: a road network (Δ 2048, GAP's best there: long
    levels), a mesh with float weights, and a Kronecker graph (Δ 8); every pop that found a
    newer distance is counted as stale, and stale pops never exceed the items popped."""
    from llpbench.graphs.generators import kronecker

    kron = assign_weights(kronecker(11, 16, seed=9), "uniform-int:1:255", 9)
    cases = [(real_graphs["road"], 2048), (real_graphs["mesh"], 0.01), (kron, 8)]
    for graph, delta in cases:
        source = int(np.argmax(graph.out_degrees()))
        inst = sssp.instance(graph, source, delta=delta)
        result = solve_llp(inst, "worklist", "obim", threads)
        assert sssp.verify(sssp.answer(inst, result.state), sssp.reference(inst)) is None
        c = result.counters
        assert c["items"] == c["pushes"] and 0 <= c["stale"] < c["items"]
        if threads == 1:
            assert c["steals"] == 0 and c["contention"] == 0


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_level_worklists_fuse_work_at_their_level_and_stay_exact(real_graphs, threads):
    """Bucket fusion (llpbench.llp.worklists.fusion): on a road network with wide levels
    (Δ 2048) most items a worker processes come from its own run, not the worklist; every
    fused item is still one item popped and one pushed; a worklist with no levels never
    fuses."""
    graph = real_graphs["road"]
    inst = sssp.instance(graph, 0, delta=2048)
    expected = sssp.reference(inst)
    for worklist in ("bucketed", "obim", "ptcf"):
        result = solve_llp(inst, "worklist", worklist, threads)
        assert sssp.verify(sssp.answer(inst, result.state), expected) is None
        c = result.counters
        assert c["items"] == c["pushes"] and 0 <= c["fused"] <= c["items"]
        if worklist == "ptcf":
            assert c["fused"] == 0
        elif threads == 1:
            assert c["fused"] > c["items"] // 2


def test_a_narrow_level_fuses_less_than_a_wide_one(real_graphs):
    graph = real_graphs["road"]
    fused = []
    for delta in (16, 2048):
        inst = sssp.instance(graph, 0, delta=delta)
        c = solve_llp(inst, "worklist", "bucketed", 1).counters
        fused.append(c["fused"] / c["items"])
    assert fused[0] < fused[1]


@pytest.mark.parametrize("worklist", ["ptcf", "obim"])
def test_steals_are_counted_through_the_counter_row_address(worklist):
    """Worklists count into a thread's counter row by address (``c.ctypes.data``): with 4
    threads and one seeded item, the other three threads get work only by stealing."""
    from llpbench.graphs.generators import kronecker

    graph = assign_weights(kronecker(14, 16, seed=5), "uniform-int:1:255", 5)
    source = int(np.argmax(graph.out_degrees()))
    counters = _check(sssp, graph, source, ("worklist", worklist, 4))
    assert counters["steals"] > 0
