"""Δ-stepping and its Δ grid: exact answers against scipy's Dijkstra, any thread count."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra

from llpbench.baselines import BaselineResult
from llpbench.baselines.delta.family import delta_grid
from llpbench.baselines.delta.stepping import (
    BOUND_ITEMS,
    CHUNK,
    INIT_CHUNKS,
    _shift_of,
    default_delta,
    delta_stepping,
    resolve_delta,
)
from llpbench.graphs.generators import kronecker, mesh
from llpbench.graphs.graph import Graph
from llpbench.graphs.weights import assign_weights

THREADS = [1, 2, 3, 8, 32]


def reference(graph: Graph, source: int) -> np.ndarray:
    return dijkstra(graph.to_scipy(), directed=True, indices=source)


def assert_same(got: np.ndarray, want: np.ndarray, integer: bool) -> None:
    assert got.dtype == np.float64 and got.shape == want.shape
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    if integer:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=0)


def pick_delta(graph: Graph, kind: str):
    fixed = {"default": None, "one": 1, "huge": 1e12, "small": 1e-3}
    return default_delta(graph) if kind == "median" else fixed[kind]


@st.composite
def random_graphs(draw):
    n = draw(st.integers(1, 24))
    m = draw(st.integers(0, 3 * n))
    ends = st.lists(st.integers(0, n - 1), min_size=m, max_size=m)
    src, dst = np.array(draw(ends), dtype=np.int64), np.array(draw(ends), dtype=np.int64)
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.integers(0, 1000), min_size=m, max_size=m)), np.int64)
    else:
        real = st.floats(0, 100, allow_nan=False, allow_infinity=False)
        w = np.array(draw(st.lists(real, min_size=m, max_size=m)), np.float64)
    g = Graph.from_edges(
        n, src, dst, w, symmetrize=draw(st.booleans()), drop_self_loops=draw(st.booleans())
    )
    return g, draw(st.integers(0, n - 1))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=random_graphs(),
    threads=st.sampled_from(THREADS),
    kind=st.sampled_from(["default", "one", "huge", "small"]),
)
def test_random_graphs_match_scipy(case, threads, kind):
    graph, source = case
    res = delta_stepping(graph, source, threads=threads, delta=pick_delta(graph, kind))
    assert_same(res.answer, reference(graph, source), graph.integer_weights)


@pytest.fixture(scope="module")
def kron_int() -> Graph:
    return assign_weights(kronecker(8, 4, seed=3), "uniform-int:1:255", 7)


@pytest.fixture(scope="module")
def kron_float() -> Graph:
    return assign_weights(kronecker(8, 4, seed=3), "uniform-float:0:1", 7)


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("kind", ["one", "median", "huge"])
@pytest.mark.parametrize("weights", ["int", "float"])
def test_tiny_kronecker_matches_scipy(kron_int, kron_float, threads, kind, weights):
    graph = kron_int if weights == "int" else kron_float
    source = int(np.argmax(graph.out_degrees()))
    res = delta_stepping(graph, source, threads=threads, delta=pick_delta(graph, kind))
    want = reference(graph, source)
    assert_same(res.answer, want, graph.integer_weights)
    assert np.isinf(want).any()  # isolated vertices of the Kronecker graph stay unreachable
    assert res.counters["processed"] >= np.isfinite(want).sum()
    assert res.counters["relaxations"] > 0


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_far_pile_with_delta_far_below_the_weights(threads):
    # max weight / Δ is far beyond the bucket ring, so relaxations land in the far pile
    g = assign_weights(kronecker(7, 4, seed=1), "uniform-int:1:1000000000", 2)
    source = int(np.argmax(g.out_degrees()))
    res = delta_stepping(g, source, threads=threads, delta=1)
    assert_same(res.answer, reference(g, source), True)
    assert res.counters["far"] > 0
    gf = assign_weights(kronecker(7, 4, seed=1), "uniform-float:0:1000", 2)
    res = delta_stepping(gf, source, threads=threads, delta=1e-6)
    assert_same(res.answer, reference(gf, source), False)
    assert res.counters["far"] > 0


def test_large_buckets_grow_the_local_bins():
    # one bucket holding everything: bucket fusion stops, local bins outgrow their first pool
    g = assign_weights(kronecker(14, 8, seed=5), "uniform-int:1:255", 5)
    source = int(np.argmax(g.out_degrees()))
    want = reference(g, source)
    for threads in (1, 2, 3):
        res = delta_stepping(g, source, threads=threads, delta=10**12)
        assert_same(res.answer, want, True)
        if threads > 1:  # so some thread held more chunks than its first pool has
            assert res.counters["chunks"] > INIT_CHUNKS * threads


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_bins_sized_by_the_degree_bound_and_by_the_degrees(threads):
    # A mesh's batches get room from the degree bound (batch x largest degree is small); a
    # Kronecker graph's hubs push the bound past BOUND_ITEMS, so room comes from the exact
    # degree sum. Wide buckets fill many chunks: every chunk but a slot's tail is full, and
    # the tail's fill is the slot's size mod CHUNK, across chunk boundaries and pool growth.
    low = assign_weights(mesh(60, 60), "uniform-int:1:255", 3)
    high = assign_weights(kronecker(12, 16, seed=2), "uniform-int:1:255", 3)
    assert CHUNK * int(low.out_degrees().max()) <= BOUND_ITEMS
    assert CHUNK * int(high.out_degrees().max()) > BOUND_ITEMS
    for g in (low, high):
        source = int(np.argmax(g.out_degrees()))
        want = reference(g, source)
        for delta in (1, 64, 4096, 10**9):
            res = delta_stepping(g, source, threads=threads, delta=delta)
            assert_same(res.answer, want, True)
        assert res.counters["processed"] >= int(np.isfinite(want).sum())


def test_unreachable_and_trivial_graphs():
    g = Graph.from_edges(5, np.array([0, 1, 3]), np.array([1, 2, 4]), np.array([0, 7, 1]))
    for threads in (1, 4):
        res = delta_stepping(g, 0, threads=threads)
        assert res.answer.tolist() == [0.0, 0.0, 7.0, np.inf, np.inf]
    single = Graph.from_edges(1, np.array([], np.int64), np.array([], np.int64))
    assert delta_stepping(single, 0, threads=3).answer.tolist() == [0.0]


def test_result_fields(kron_int):
    res = delta_stepping(kron_int, 0, threads=2, delta=37.9)
    assert isinstance(res, BaselineResult)
    assert res.name == "delta-stepping"
    assert res.params["delta"] == 37 and isinstance(res.params["delta"], int)
    assert {"buckets", "processed", "relaxations", "improved", "stale"} <= set(res.counters)
    assert_same(res.answer, reference(kron_int, 0), True)
    c, reached = res.counters, int(np.isfinite(res.answer).sum())
    assert reached - 1 <= c["improved"] <= c["relaxations"] and reached <= c["processed"]
    median = int(round(float(np.median(kron_int.weights))))
    assert delta_stepping(kron_int, 0).params["delta"] == default_delta(kron_int) == median


def test_delta_rules():
    gi = Graph.from_edges(3, np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([0, 0, 5]))
    assert default_delta(gi) == 5  # median 0: the median of the positive weights
    assert resolve_delta(gi, 0.5) == 1 and resolve_delta(gi, 9.9) == 9
    gf = Graph.from_edges(2, np.array([0]), np.array([1]), np.array([0.0]))
    assert default_delta(gf) == 1.0 and resolve_delta(gf, 0.25) == 0.25
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=f"positive finite number, got {bad}$"):
            resolve_delta(gi, bad)


def test_bad_arguments(kron_int):
    with pytest.raises(ValueError, match="source"):
        delta_stepping(kron_int, kron_int.n)
    with pytest.raises(ValueError, match="threads"):
        delta_stepping(kron_int, 0, threads=0)
    with pytest.raises(ValueError, match="delta"):
        delta_stepping(kron_int, 0, delta=0)


# --------------------------------------------------------------------------- the Δ grid


def test_delta_grid():
    gi = Graph.from_edges(2, np.array([0]), np.array([1]), np.array([8]))
    assert delta_grid(gi, range(-4, 5)) == [1, 2, 4, 8, 16, 32, 64, 128]
    gf = Graph.from_edges(2, np.array([0]), np.array([1]), np.array([0.5]))
    grid = delta_grid(gf, range(-1, 2))
    assert grid == [0.25, 0.5, 1.0] and all(isinstance(d, float) for d in grid)


# --------------------------------------------------------------------------- distance types


def test_compact_int32_kernels_and_their_int64_fallback_agree_with_scipy():
    from llpbench.baselines.delta.stepping import distance_type

    g = assign_weights(kronecker(8, 4, seed=5), "uniform-int:1:255", 1)
    assert distance_type(g) == (np.int32, 2**31 - 1)
    heads, wts = g.packed_arcs
    np.testing.assert_array_equal(heads, g.indices)
    np.testing.assert_array_equal(wts, g.weights)
    # weights large enough that a path could pass 2**31 - 1: int64 distances
    big = Graph(g.indptr, g.indices, g.weights.astype(np.int64) * 2**22, g.directed, "big")
    assert big.packed_arcs is not None and distance_type(big)[0] == np.int64
    huge = Graph(g.indptr, g.indices, g.weights.astype(np.int64) * 2**32, g.directed, "huge")
    assert huge.packed_arcs is None
    for graph in (g, big, huge):
        want = reference(graph, 0)
        for threads in (1, 2):
            for delta in (1, 64, None):
                res = delta_stepping(graph, 0, threads=threads, delta=delta)
                assert_same(res.answer, want, True)
    gf = assign_weights(kronecker(6, 4, seed=5), "uniform-float:0:1", 1)
    assert gf.packed_arcs is None and distance_type(gf) == (np.float64, np.inf)


def test_one_thread_reports_cpu_time_and_no_stale_relaxations_twice(kron_int):
    res = delta_stepping(kron_int, 0, threads=1, delta=4)
    assert isinstance(res.cpu_seconds, float)
    c = res.counters
    reached = int(np.isfinite(res.answer).sum())
    assert reached <= c["processed"] <= c["improved"] + 1
    assert delta_stepping(kron_int, 0, threads=2).cpu_seconds is None


@pytest.mark.parametrize("delta", [2, 3, 128, 129, 2**40, 2**40 + 1])
def test_power_of_two_delta_buckets_by_shift_with_the_same_answers(kron_int, delta):
    # a power-of-two Δ buckets by a shift, any other by a division: both exact, same rounds
    assert _shift_of(delta) == {2: 1, 3: -1, 128: 7, 129: -1, 2**40: 40, 2**40 + 1: -1}[delta]
    want = reference(kron_int, 0)
    for threads in (1, 2):
        res = delta_stepping(kron_int, 0, threads=threads, delta=delta)
        assert_same(res.answer, want, True)


def test_the_parallel_kernel_counts_its_barrier_wait_within_the_solves_thread_time():
    """``barrier_ns``: the threads' summed nanoseconds at the round barriers; at least one
    round each, never more than every thread's whole solve; 0 for the serial kernel."""
    g = assign_weights(kronecker(12, 8, seed=2), "uniform-int:1:255", 2)
    source = int(np.argmax(g.out_degrees()))
    assert delta_stepping(g, source, threads=1, delta=16).counters["barrier_ns"] == 0
    for threads in (2, 3):
        res = delta_stepping(g, source, threads=threads, delta=16)
        assert_same(res.answer, reference(g, source), True)
        assert 0 < res.counters["barrier_ns"] <= threads * res.seconds * 1e9
