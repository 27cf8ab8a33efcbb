"""graph_stats: exact sizes, degrees and weights, and a seeded lower-bound diameter estimate."""

from __future__ import annotations

import numpy as np
import scipy.sparse.csgraph as csgraph
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.graphs.graph import Graph
from llpbench.graphs.stats import graph_stats, provenance_summary


def path_graph(n: int, *, directed: bool = False) -> Graph:
    src = np.arange(n - 1)
    return Graph.from_edges(
        n,
        src,
        src + 1,
        np.arange(1, n),
        directed=directed,
        symmetrize=not directed,
        name="path",
        family="test",
    )


def test_path_graph_sizes_degrees_weights_and_diameter():
    s = graph_stats(path_graph(5), bfs_samples=5)
    assert (s["n"], s["m"], s["undirected_edges"], s["directed"]) == (5, 8, 4, False)
    assert (s["degree_min"], s["degree_max"], s["degree_mean"]) == (1, 2, 1.6)
    assert (s["weight_min"], s["weight_max"], s["weight_median"]) == (1, 4, 2.5)
    assert s["weight_dtype"] == "int8"  # the narrowest signed type holding 1..4
    assert s["diameter_estimate"] == 4  # all five sources: the two ends have eccentricity 4
    assert (s["components"], s["largest_component"], s["isolated"]) == (1, 5, 0)
    assert (s["name"], s["family"]) == ("path", "test")


def test_directed_graph_counts_no_undirected_edges_and_follows_arc_directions():
    s = graph_stats(path_graph(4, directed=True), bfs_samples=3)
    assert s["directed"] and s["undirected_edges"] is None
    assert s["m"] == 3 and s["degree_min"] == 0 and s["isolated"] == 0
    assert s["diameter_estimate"] == 3  # the three sources with out-arcs include vertex 0


def test_isolated_vertices_are_those_without_any_arc_and_never_bfs_sources():
    g = Graph.from_edges(6, np.array([0, 1]), np.array([1, 2]), directed=True)
    s = graph_stats(g, bfs_samples=10)
    assert s["isolated"] == 3 and s["components"] == 4 and s["largest_component"] == 3
    assert sorted(s["bfs_sources"]) == [0, 1]


def test_float_weights_and_self_loops_are_reported():
    g = Graph.from_edges(
        2, np.array([0, 0]), np.array([0, 1]), np.array([0.5, 1.5]), drop_self_loops=False
    )
    s = graph_stats(g)
    assert s["weight_dtype"] == "float64" and s["weight_min"] == 0.5 and s["self_loops"] == 1


def test_graph_without_arcs_or_vertices_has_no_weight_statistics():
    empty = Graph(np.zeros(4, np.int64), np.zeros(0, np.int32), np.zeros(0, np.int64))
    s = graph_stats(empty)
    assert s["m"] == 0 and s["weight_min"] is None and s["diameter_estimate"] == 0
    assert s["isolated"] == 3
    none = Graph(np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.int64))
    assert graph_stats(none)["diameter_estimate"] is None


def test_same_seed_same_sources_and_zero_samples_skip_the_estimate():
    g = path_graph(50)
    assert graph_stats(g, seed=3)["bfs_sources"] == graph_stats(g, seed=3)["bfs_sources"]
    assert graph_stats(g, seed=3)["bfs_sources"] != graph_stats(g, seed=4)["bfs_sources"]
    assert graph_stats(g, bfs_samples=0)["diameter_estimate"] == 0


def test_mesh_diameter_estimate_is_between_half_and_all_of_the_true_diameter():
    from llpbench.graphs.generators import mesh

    s = graph_stats(mesh(16, 16))
    assert 15 <= s["diameter_estimate"] <= 30
    assert (s["degree_min"], s["degree_max"], s["undirected_edges"]) == (2, 4, 480)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 30),
    arcs=st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=80),
    directed=st.booleans(),
    seed=st.integers(0, 10),
)
def test_diameter_estimate_is_the_largest_eccentricity_of_its_sources(n, arcs, directed, seed):
    pairs = np.array([(u % n, v % n) for u, v in arcs], dtype=np.int64).reshape(-1, 2)
    g = Graph.from_edges(n, pairs[:, 0], pairs[:, 1], directed=directed, symmetrize=not directed)
    s = graph_stats(g, seed=seed, bfs_samples=3)
    hops = csgraph.shortest_path(g.to_scipy(), directed=directed, unweighted=True)
    finite = np.where(np.isinf(hops), -1, hops)
    ecc = [int(finite[v].max()) for v in s["bfs_sources"]]
    assert s["diameter_estimate"] == max(ecc, default=0)
    assert s["diameter_estimate"] <= int(finite.max())
    assert s["n"] == n and s["m"] == g.m


def test_provenance_summary_is_one_short_line():
    text = provenance_summary(
        {
            "generator": "mesh",
            "rows": 4,
            "spec_key": "abc",
            "x": None,
            "nested": {"a": 1},
            "long": "y" * 500,
        }
    )
    assert "\n" not in text and len(text) <= 160
    assert text.startswith("generator=mesh; rows=4; nested=a=1")
    assert "spec_key" not in text


def test_self_loops_counts_the_looped_vertices_the_reading_reports(tmp_path):
    from llpbench.graphs.formats import read_graph
    from llpbench.graphs.reading import reading_facts

    path = tmp_path / "loops.txt"  # vertex 1 looped twice, vertex 2 once: 3 lines, 2 vertices
    path.write_text("0 1\n1 1\n1 2\n2 2\n1 1\n2 0\n")
    graph = read_graph(path, directed=True)
    assert graph_stats(graph)["self_loops"] == 2
    assert reading_facts(graph)["reading: self-loops"].startswith("3 lines on 2 vertices")
