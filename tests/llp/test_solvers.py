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
    expected = problem.reference(inst)
    answer = problem.answer(inst, result.state)
    mismatch = problem.verify(answer, expected)
    assert mismatch is None, f"{config_id(config)}: {mismatch}"
    _check_counters(result.counters, inst, config, answer, expected)
    return result.counters


def _check_counters(c: dict, inst, config, answer, expected) -> None:
    """The counters' invariants for SSSP and BFS, whatever the schedule: each is exact, so a
    miscount of one fails it."""
    solver, _worklist, threads = config
    where = config_id(config)
    assert all(v >= 0 for v in c.values()), f"{where}: {c}"
    assert 0 <= c["stale"] <= c["items"], f"{where}: {c}"
    reached = int(np.isfinite(answer).sum())
    assert reached == int(np.isfinite(np.asarray(expected, dtype=float)).sum())
    # every reached vertex but the source was lowered at least once
    assert c["advances"] >= reached - 1, f"{where}: {c}"
    if solver in ("bag", "worklist"):
        # every pushed item was popped once; every advance reported its vertex (the seed is
        # the source): the incremental form pushes nothing else
        assert c["items"] == c["pushes"] == c["advances"] + len(inst.init_work), f"{where}: {c}"
        assert 0 <= c["fused"] <= c["items"] and c["rounds"] == 0, f"{where}: {c}"
    else:
        # each round scans every index once (each worker its share, each counting the round);
        # every index found forbidden is advanced by its one owner, which cannot lose a race
        assert c["items"] * threads == c["rounds"] * inst.n, f"{where}: {c}"
        assert c["advances"] == c["items"] - c["stale"], f"{where}: {c}"
        assert c["pushes"] == 0 and c["retries"] == 0, f"{where}: {c}"
        assert c["rounds"] // threads <= inst.max_rounds, f"{where}: {c}"
    if threads == 1:
        assert c["steals"] == 0 and c["contention"] == 0, f"{where}: {c}"


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


# Graphs large enough that every thread of 8 pushes over a thousand items: heavy-tailed
# (R-MAT, Kronecker) and grid-like (a mesh with arcs knocked out and long "highways"), drawn
# from a seed, so that a worklist losing one push in a thousand shows.
BIG_CONFIGS = [c for c in ALL_CONFIGS if c[2] in (1, 2, 8)]


@st.composite
def big_graphs(draw):
    from llpbench.graphs.generators import kronecker, mesh, rmat

    seed = draw(st.integers(0, 2**31))
    kind = draw(st.sampled_from(["rmat", "kron", "grid"]))
    if kind == "grid":
        side = draw(st.integers(100, 130))
        base = mesh(side, side)
        src = np.repeat(np.arange(base.n), np.diff(base.indptr))
        rng = np.random.default_rng(seed)
        keep = rng.random(src.size) < 0.9
        hubs = rng.integers(0, base.n, size=(2, side // 2))
        graph = Graph.from_edges(
            base.n, np.concatenate([src[keep], hubs[0]]),
            np.concatenate([base.indices[keep], hubs[1]]), directed=False, symmetrize=True,
        )
    else:
        gen = rmat if kind == "rmat" else kronecker
        graph = gen(draw(st.integers(13, 14)), 8, seed=seed)
    rule = draw(st.sampled_from(["uniform-int:1:255", "uniform-int:0:3", "uniform-float:0:1"]))
    graph = assign_weights(graph, rule, seed)
    return graph, int(np.argmax(graph.out_degrees()))


@pytest.mark.parametrize("config", BIG_CONFIGS, ids=config_id)
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=big_graphs())
def test_sssp_exact_on_large_random_graphs(config, case):
    counters = _check(sssp, *case, config)
    if config[0] == "worklist" and config[2] == 8:
        assert counters["pushes"] > 8 * 1000  # the size this test is for


@pytest.mark.parametrize("config", [c for c in BIG_CONFIGS if c[0] == "worklist"], ids=config_id)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=big_graphs())
def test_bfs_exact_on_large_random_graphs(config, case):
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


def _diamond() -> Graph:
    """0 -> 1 (10), 0 -> 2 (1), 2 -> 1 (1), 1 -> 3 (1): vertex 1 is first reached the long
    way, then improved, so an ordered worklist pops its first item stale."""
    return Graph.from_edges(4, np.array([0, 0, 2, 1]), np.array([1, 2, 1, 3]),
                            np.array([10, 1, 1, 1]))


# Worked by hand at one thread. By distance (PTWB, bucketed, OBIM at width 1): pop 0, 2, 1
# (key 2), 3, then 1 (key 10) is stale. FIFO (SWB, PTCF): 0, 1 (10; lowers 3 to 11), 2
# (lowers 1 to 2), 3 (11), 1 (2; lowers 3 to 3), 3 (3): nothing stale, one advance more.
# Cyclic: round 1 advances 1, 2, 3 (to 11), round 2 advances 1 and 3, round 3 finds none.
EXACT = {
    ("worklist", "ptwb"): {"items": 5, "pushes": 5, "advances": 4, "stale": 1},
    ("worklist", "bucketed"): {"items": 5, "pushes": 5, "advances": 4, "stale": 1},
    ("worklist", "obim"): {"items": 5, "pushes": 5, "advances": 4, "stale": 1},
    ("bag", "ptwb"): {"items": 5, "pushes": 5, "advances": 4, "stale": 1},
    ("worklist", "swb"): {"items": 6, "pushes": 6, "advances": 5, "stale": 0},
    ("worklist", "ptcf"): {"items": 6, "pushes": 6, "advances": 5, "stale": 0},
    ("bag", "swb"): {"items": 6, "pushes": 6, "advances": 5, "stale": 0},
    ("cyclic", None): {"items": 12, "pushes": 0, "advances": 5, "stale": 7, "rounds": 3},
}


@pytest.mark.parametrize("key", sorted(EXACT, key=str), ids=lambda k: f"{k[0]}-{k[1]}")
def test_exact_counters_on_a_hand_built_graph_at_one_thread(key):
    solver, worklist = key
    inst = sssp.instance(_diamond(), 0, level_delta=1)
    result = solve_llp(inst, solver, worklist, 1)
    assert sssp.answer(inst, result.state).tolist() == [0.0, 2.0, 1.0, 3.0]
    got = {name: result.counters[name] for name in EXACT[key]}
    assert got == EXACT[key]


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
    inst = sssp.instance(graph, 3, level_delta=delta)
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
        inst = sssp.instance(graph, source, level_delta=delta)
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
    inst = sssp.instance(graph, 0, level_delta=2048)
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
        inst = sssp.instance(graph, 0, level_delta=delta)
        c = solve_llp(inst, "worklist", "bucketed", 1).counters
        fused.append(c["fused"] / c["items"])
    assert fused[0] < fused[1]


@pytest.mark.parametrize("worklist", ["ptcf", "obim"])
def test_steals_are_counted_through_the_counter_row_address(worklist):
    """Worklists count into a thread's counter row by address (``c.ctypes.data``): with 4
    threads and one seeded item, the other three threads get work only by stealing.

    On a loaded 2-core machine the OS may run the first worker alone through the whole
    graph before the others are scheduled (no steal needed, none counted), so the solve is
    tried up to five times: a counter that is never written fails all five."""
    from llpbench.graphs.generators import kronecker

    graph = assign_weights(kronecker(14, 16, seed=5), "uniform-int:1:255", 5)
    source = int(np.argmax(graph.out_degrees()))
    steals = []
    for _ in range(5):
        steals.append(_check(sssp, graph, source, ("worklist", worklist, 4))["steals"])
        if steals[-1] > 0:
            break
    assert max(steals) > 0, steals
