"""Big-graph layout: narrow weights, parallel generators that do not depend on the thread
count, the verifier's O(m) matrix, the O(m) median and the memory-mapped cache."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from llpbench.errors import FormatError, SpecError
from llpbench.graphs.cache import cache_folder, load_cached_graph, save_cached_graph
from llpbench.graphs.generators import kronecker, mesh, random_dag, uniform_random
from llpbench.graphs.graph import Graph, narrow_weights
from llpbench.graphs.independent import min_merged_matrix
from llpbench.graphs.limits import peak_rss_bytes
from llpbench.graphs.road import road_grid
from llpbench.graphs.weights import assign_weights


def _build_all():
    return [
        assign_weights(kronecker(12, 8, 3), "uniform-int:1:255", 1),
        assign_weights(uniform_random(3000, 6, 2), "uniform-float:0.5:9", 2),
        assign_weights(random_dag(2000, 4, 1, layered=True), "uniform-int:1:70000", 3),
        assign_weights(road_grid(40, 50, 5), "uniform-int:1:255", 4),
    ]


def test_generated_graphs_are_the_same_for_any_thread_count():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _build_all()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = _build_all()
    finally:
        numba.set_num_threads(before)
    for a, b in zip(one, many, strict=True):
        assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
        assert a.weights.dtype == b.weights.dtype and np.array_equal(a.weights, b.weights)


def test_weights_take_the_narrowest_signed_type_that_holds_them():
    kron = kronecker(8, 4, 0)
    assert kron.weights.dtype == np.int8 and kron.indices.dtype == np.int32
    assert assign_weights(kron, "uniform-int:1:255", 1).weights.dtype == np.int16
    assert assign_weights(kron, "uniform-int:1:70000", 1).weights.dtype == np.int32
    assert narrow_weights(np.array([0, 2**40])).dtype == np.int64
    assert narrow_weights(np.array([3], dtype=np.uint64)).dtype == np.int8


def _naive_min(n, src, dst, w):
    best = {}
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist(), strict=True):
        best[(u, v)] = min(best.get((u, v), np.inf), x)
    dense = np.full((n, n), np.nan)
    for (u, v), x in best.items():
        dense[u, v] = x
    return dense


def _dense(mat):
    out = np.full(mat.shape, np.nan)
    coo = mat.tocoo()
    out[coo.row, coo.col] = coo.data
    return out


def test_verifier_matrix_keeps_the_lightest_of_parallel_arcs():
    rng = np.random.default_rng(5)
    n, k = 30, 400
    src, dst = rng.integers(0, n, k), rng.integers(0, n, k)
    w = rng.integers(0, 9, k)
    mat = min_merged_matrix(n, src, dst, w)
    assert mat.indices.dtype == np.int32 and mat.data.dtype == np.float64
    np.testing.assert_array_equal(_dense(mat), _naive_min(n, src, dst, w))
    both = min_merged_matrix(n, src, dst, w, both_ways=True, loops=np.array([3]))
    want = _naive_min(n, np.concatenate([src, dst, [3]]), np.concatenate([dst, src, [3]]),
                      np.concatenate([w, w, [0]]))
    np.testing.assert_array_equal(_dense(both), want)


def test_to_scipy_wraps_canonical_rows_and_merges_others():
    g = assign_weights(kronecker(9, 4, 1), "uniform-int:1:255", 2)
    assert np.shares_memory(g.to_scipy().indices, g.indices)
    rough = Graph.from_edges(3, np.array([0, 0, 1]), np.array([1, 1, 2]), np.array([5, 3, 2]),
                             dedup=False)
    assert rough.m == 3 and rough.to_scipy()[0, 1] == 3 and rough.to_scipy().nnz == 2


@pytest.mark.parametrize("m", [1, 2, 5, 64, 1001])
def test_weight_median_is_numpy_median(m):
    rng = np.random.default_rng(m)
    for w in (rng.integers(0, 300, m), rng.integers(0, 2**40, m), rng.random(m)):
        g = Graph.from_edges(m + 1, np.arange(m), np.arange(1, m + 1), w)
        assert g.weight_median == np.median(w)


def test_cache_round_trip_is_memory_mapped(tmp_path):
    g = assign_weights(road_grid(20, 30, 1), "uniform-int:1:255", 1)
    folder = save_cached_graph(g, cache_folder(tmp_path, g.name))
    back = load_cached_graph(folder)
    assert (back.n, back.m, back.name, back.family) == (g.n, g.m, g.name, "road")
    assert np.array_equal(back.indices, g.indices) and np.array_equal(back.weights, g.weights)
    assert isinstance(back.indices.base, np.memmap) and not back.indices.flags.writeable
    (folder / "meta.json").unlink()
    with pytest.raises(FormatError, match="cannot read"):
        load_cached_graph(folder)


def test_road_grid_is_a_mesh_when_every_road_is_kept_unsplit():
    g = road_grid(7, 9, keep=1.0, max_subdivide=0)
    grid = mesh(7, 9)
    assert np.array_equal(g.indptr, grid.indptr) and np.array_equal(g.indices, grid.indices)
    assert road_grid(5, 5, keep=0.0).m == 0
    road = road_grid(200, 200, 0)
    assert 1.8 < road.m / road.n < 2.4  # mostly points along a road, as in asia_osm
    with pytest.raises(SpecError, match="keep must be a probability"):
        road_grid(3, 3, keep=1.5)


def test_peak_rss_is_reported_in_bytes():
    assert peak_rss_bytes() > 1 << 20
