"""SSSP's leaf pruning: a vertex whose advance cannot lower anything (no out-arc, or its
only out-arc leads back to the vertex that lowered it) is never pushed, and every distance
stays exact (scipy's Dijkstra, computed apart)."""

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

from llpbench.graphs.graph import Graph
from llpbench.llp.runtime import solve_llp
from llpbench.problems import sssp


@pytest.mark.parametrize("worklist", ["obim", "ptwb", "bucketed", "swb"])
@pytest.mark.parametrize("threads", [1, 3])
def test_leaves_of_an_undirected_star_and_sinks_of_a_directed_graph_are_never_pushed(
    worklist, threads
):
    # undirected: a hub 0 with leaves 1..8, and a path 0-9-10 (9 has degree 2: pushed;
    # 10 is a leaf: not)
    src = np.array([0] * 8 + [0, 9])
    dst = np.array(list(range(1, 9)) + [9, 10])
    w = np.array([3, 1, 4, 1, 5, 9, 2, 6, 2, 7])
    star = Graph.from_edges(11, src, dst, w, directed=False, symmetrize=True)
    run = solve_llp(sssp.instance(star, 0), worklist=worklist, threads=threads)
    assert sssp.answer(sssp.instance(star, 0), run.state).tolist() == [
        0, 3, 1, 4, 1, 5, 9, 2, 6, 2, 9]
    assert run.counters["pushes"] == 2  # the seed (0) and 9; no leaf
    assert run.counters["advances"] == 10  # every leaf's distance was still lowered

    # directed: 0 -> 1 -> 2 (a sink), 0 -> 3 -> 0 (3's only arc leads back to 0: pruned)
    # 0 -> 4 -> 5 -> 4 (4's only arc leads on to 5: pushed; 5's only arc back to 4: pruned)
    d = Graph.from_edges(
        6, np.array([0, 1, 0, 3, 0, 4, 5]), np.array([1, 2, 3, 0, 4, 5, 4]),
        np.array([1, 1, 1, 1, 1, 1, 1]),
    )
    run = solve_llp(sssp.instance(d, 0), worklist=worklist, threads=threads)
    assert sssp.answer(sssp.instance(d, 0), run.state).tolist() == [0, 1, 2, 1, 1, 2]
    assert run.counters["pushes"] == 3  # 0, 1 and 4


def test_pruned_solves_match_dijkstra_on_a_graph_with_many_leaves():
    """A random tree-like graph (many degree-1 vertices) at several thread counts."""
    rng = np.random.default_rng(3)
    n = 3000
    parent = rng.integers(0, np.arange(1, n), size=n - 1)  # a random recursive tree
    src = np.concatenate([parent, rng.integers(0, n, 300)])
    dst = np.concatenate([np.arange(1, n), rng.integers(0, n, 300)])
    w = rng.integers(1, 50, src.shape[0])
    g = Graph.from_edges(n, src, dst, w, directed=False, symmetrize=True)
    from scipy.sparse import csr_matrix

    m = csr_matrix((g.weights.astype(float), g.indices, g.indptr), shape=(n, n))
    expected = dijkstra(m, indices=0)
    deg = np.diff(g.indptr)
    assert (deg == 1).sum() > n // 4  # the case the pruning is for
    for worklist in ("obim", "ptwb", "bucketed"):
        for threads in (1, 2, 4):
            inst = sssp.instance(g, 0)
            run = solve_llp(inst, worklist=worklist, threads=threads)
            got = sssp.answer(inst, run.state)
            assert np.array_equal(got, expected.astype(np.int64)), (worklist, threads)
            assert run.counters["pushes"] < run.counters["advances"]
