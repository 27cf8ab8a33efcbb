"""The spatial generators against brute force: every grid edge and highway, every pair of
points closer than the radius (scipy's pairwise distances, not the generator's cell grid)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import pdist, squareform

from llpbench.errors import SpecError
from llpbench.graphs import spatial
from llpbench.graphs.generators import _key
from llpbench.graphs.registry import load_graph


def _edges(g) -> set[tuple[int, int]]:
    rows = np.repeat(np.arange(g.n), np.diff(g.indptr))
    return {(int(a), int(b)) for a, b in zip(rows, g.indices, strict=True)}


def test_highway_grid_is_the_grid_plus_its_highways_symmetric():
    rows, cols, hw = 7, 5, 6
    g = spatial.highway_grid(rows, cols, highways=hw, seed=3)
    assert (g.n, g.directed, g.family) == (rows * cols, False, "road")
    arcs = _edges(g)
    grid = {(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)}
    grid |= {(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)}
    assert all((a, b) in arcs and (b, a) in arcs for a, b in grid)
    extra = {(a, b) for a, b in arcs if a < b} - grid
    assert 0 < len(extra) <= hw  # self-loops and highways on grid edges fold away
    assert all((b, a) in arcs for a, b in arcs)
    assert g.provenance["highways"] == hw


def test_highway_grid_defaults_and_seeds():
    g = spatial.highway_grid(30)
    assert g.n == 900 and g.provenance["highways"] == 9
    a, b = spatial.highway_grid(30, seed=1), spatial.highway_grid(30, seed=2)
    assert not np.array_equal(a.indices, b.indices)
    assert np.array_equal(a.indices, spatial.highway_grid(30, seed=1).indices)


@pytest.mark.parametrize("scale,deg,seed", [(9, 10.0, 0), (8, 4.0, 5), (0, 10.0, 0)])
def test_random_geometric_matches_brute_force(scale, deg, seed):
    g = spatial.random_geometric(scale, deg, seed)
    n = 1 << scale
    xy = spatial._points(n, _key(seed, "geometric"))
    r = np.sqrt(deg / (np.pi * n))
    near = squareform(pdist(xy)) < r if n > 1 else np.zeros((1, 1), bool)
    np.fill_diagonal(near, False)
    # the generator numbers points by cell of side ~r, row by row; map brute force onto it
    side = max(1, min(int(1 / r), 1 << 15))
    cell = np.minimum((xy[:, 1] * side).astype(int), side - 1) * side + np.minimum(
        (xy[:, 0] * side).astype(int), side - 1)
    rank = np.empty(n, int)
    rank[np.argsort(cell, kind="stable")] = np.arange(n)
    want = {(int(rank[a]), int(rank[b])) for a, b in zip(*np.nonzero(near), strict=True)}
    assert _edges(g) == want
    assert g.n == n and not g.directed and g.family == "geometric"


def test_random_geometric_mean_degree_is_near_the_asked_one():
    g = spatial.random_geometric(14, 10.0)
    assert 9.0 < g.m / g.n < 10.5  # points near the border lose some of their disc


def test_bad_parameters_are_spec_errors():
    with pytest.raises(SpecError, match="rows"):
        spatial.highway_grid(0)
    with pytest.raises(SpecError, match="highways"):
        spatial.highway_grid(4, highways=-1)
    with pytest.raises(SpecError, match="avg_degree"):
        spatial.random_geometric(4, -1.0)


def test_registry_names_build_these_families():
    g = load_graph("grid-hw-20", cache_dir=None)
    assert g.n == 400 and g.weights.min() >= 100 and g.weights.max() <= 2000
    assert load_graph("rgg-2e10", cache_dir=None).family == "geometric"
