"""Spatial graph families that no kernel or Δ rule of llpbench was tuned on.

Both are planar or nearly so, like roads, with a high diameter and a low degree, the case
where Δ-stepping's buckets hold few vertices each and a second thread has little to share:

- :func:`highway_grid`: a ``rows x cols`` 4-neighbour grid plus ``highways`` long edges
  between uniformly random vertex pairs (issue 32's road-like graph: 450 x 450 with 2,000
  highways, weights 100..2,000). The highways are shortcuts across the grid, as motorways
  are across a street network: a few vertices far apart in hops become close in distance,
  so the buckets' fronts are no longer one wave.
- :func:`random_geometric`: ``2**scale`` points uniform in the unit square, joined when
  closer than the radius that gives the asked mean degree (``r = sqrt(d / (pi n))``), as
  DIMACS10's ``rgg_n_2_*`` graphs are. Vertices are numbered in the order of a grid of
  cells of side ``r`` (row by row), so ids have the locality of a real road file, whose
  vertices are numbered along the map.

As in :mod:`.generators` and :mod:`.road`, every choice is a counter-based splitmix64 draw of
an index and the seed, and the kernels give the same graph for any thread count.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from llpbench.errors import SpecError
from llpbench.graphs.csr_parallel import csr_from_arcs
from llpbench.graphs.generators import (
    _LOW32,
    _MAX_SCALE,
    _S32,
    _below,
    _id_arrays,
    _key,
    _need_degree,
    _need_int,
    _unit_graph,
)
from llpbench.graphs.graph import Graph
from llpbench.graphs.road import _ends
from llpbench.graphs.splitmix import GOLDEN as _GOLDEN
from llpbench.graphs.splitmix import mix as _mix

__all__ = ["highway_grid", "random_geometric"]

_UNIT = 1.0 / 4294967296.0  # a 32-bit draw to [0, 1)


@njit(cache=True, parallel=True)
def _fill_grid(src, dst, rows, cols):
    """The grid's edges once each, in :func:`.road._ends`' order (horizontal ones first)."""
    for g in prange(src.shape[0]):
        a, b = _ends(g, rows, cols)
        src[g] = a
        dst[g] = b


@njit(cache=True, parallel=True)
def _fill_highways(src, dst, first, n, key):
    """Edges ``first..``: both endpoints uniform in ``0..n-1`` (a self-loop is dropped)."""
    for h in prange(src.shape[0] - first):
        r = _mix(key ^ (np.uint64(h) * _GOLDEN))
        src[first + h] = _below(r >> _S32, n)
        dst[first + h] = _below(r & _LOW32, n)


def highway_grid(
    rows: int,
    cols: int | None = None,
    highways: int | None = None,
    seed: int = 0,
    *,
    name: str | None = None,
) -> Graph:
    """Undirected ``rows x cols`` grid with ``highways`` random long edges (see the module).

    Parameters
    ----------
    rows : int
        Grid rows, >= 1.
    cols : int, optional
        Grid columns (default ``rows``).
    highways : int, optional
        Extra edges between uniform random vertex pairs (default ``rows * cols // 100``).
    seed : int
        Seed of the highways' endpoints.
    name : str, optional
        Graph name; defaults to ``grid-hw-{rows}x{cols}-h{highways}-seed{seed}``.

    Returns
    -------
    Graph
        Undirected, unit weights, family ``"road"``; ``rows * cols`` vertices, vertex
        ``(r, c)`` has id ``r * cols + c``.

    Examples
    --------
    >>> g = highway_grid(3, highways=0)
    >>> g.n, g.m
    (9, 24)
    """
    rows = _need_int("highway_grid", "rows", rows, 1)
    cols = rows if cols is None else _need_int("highway_grid", "cols", cols, 1)
    n = rows * cols
    if n >= 2**31:
        raise SpecError(f"highway_grid: {n:,} vertices do not fit int32 ids")
    highways = n // 100 if highways is None else _need_int("highway_grid", "highways",
                                                            highways, 0)
    grid = rows * (cols - 1) + (rows - 1) * cols
    arcs = _id_arrays(grid + highways)
    _fill_grid(*arcs, rows, cols)
    _fill_highways(*arcs, grid, n, _key(seed, "highways"))
    indptr, indices = csr_from_arcs(n, arcs, True)
    prov = dict(generator="highway_grid", rows=rows, cols=cols, highways=highways,
                seed=int(seed), edges_generated=grid + highways)
    return _unit_graph(indptr, indices, False,
                       name or f"grid-hw-{rows}x{cols}-h{highways}-seed{seed}", "road", prov)


@njit(cache=True, parallel=True)
def _points(n, key):
    """``n`` points uniform in the unit square, one splitmix draw each (32 bits a coordinate)."""
    xy = np.empty((n, 2), np.float64)
    for i in prange(n):
        r = _mix(key ^ (np.uint64(i) * _GOLDEN))
        xy[i, 0] = np.float64(r >> _S32) * _UNIT
        xy[i, 1] = np.float64(r & _LOW32) * _UNIT
    return xy


@njit(cache=True, parallel=True)
def _near_pairs(xy, cell, start, side, r2, out_src, out_dst, offsets, count_only):
    """Each point ``i``'s partners ``j > i`` closer than ``sqrt(r2)``, found in the 3 x 3
    cells around ``i``'s (``xy`` sorted by cell, point ``i`` in cell ``cell[i]``, cell ``c``
    holding ``start[c]..start[c+1]``): counted into ``offsets[i]`` when ``count_only``, else
    written from ``offsets[i]`` on."""
    n = xy.shape[0]
    for i in prange(n):
        cx, cy = cell[i] % side, cell[i] // side
        k = 0 if count_only else offsets[i]
        for dy in range(-1, 2):
            y = cy + dy
            if y < 0 or y >= side:
                continue
            for dx in range(-1, 2):
                x = cx + dx
                if x < 0 or x >= side:
                    continue
                c = y * side + x
                for j in range(max(start[c], i + 1), start[c + 1]):
                    ex, ey = xy[j, 0] - xy[i, 0], xy[j, 1] - xy[i, 1]
                    if ex * ex + ey * ey < r2:
                        if not count_only:
                            out_src[k] = i
                            out_dst[k] = j
                        k += 1
        if count_only:
            offsets[i] = k


def random_geometric(
    scale: int, avg_degree: float = 10.0, seed: int = 0, *, name: str | None = None
) -> Graph:
    """Undirected random geometric graph on ``2**scale`` points (see the module).

    Parameters
    ----------
    scale : int
        ``2**scale`` vertices, 0..30.
    avg_degree : float
        Expected mean degree away from the square's border (the radius is
        ``sqrt(avg_degree / (pi * n))``); DIMACS10's ``rgg_n_2_k`` use about ``0.95 ln n``.
    seed : int
        Seed of the points.
    name : str, optional
        Graph name; defaults to ``rgg-2e{scale}-d{avg_degree}-seed{seed}``.

    Returns
    -------
    Graph
        Undirected, unit weights, family ``"geometric"``.

    References
    ----------
    Penrose, *Random Geometric Graphs* (2003); Holtgrewe, Sanders and Schulz, "Engineering a
    scalable high quality graph partitioner" (IPDPS 2010), the generator of DIMACS10's rgg.
    """
    scale = _need_int("random_geometric", "scale", scale, 0, _MAX_SCALE)
    deg = _need_degree("random_geometric", avg_degree)
    n = 1 << scale
    radius = math.sqrt(deg / (math.pi * n)) if deg > 0 else 0.0
    side = max(1, min(int(1.0 / radius) if radius > 0 else 1, 1 << 15))
    xy = _points(n, _key(seed, "geometric"))
    # cell (x, y) of side 1/side is cell y * side + x; points sorted by cell, stably
    cell = np.minimum((xy[:, 1] * side).astype(np.int64), side - 1) * side + np.minimum(
        (xy[:, 0] * side).astype(np.int64), side - 1)
    order = np.argsort(cell, kind="stable")
    xy, cell = xy[order], cell[order]
    del order
    start = np.searchsorted(cell, np.arange(side * side + 1))
    counts = np.zeros(n, np.int64)
    empty = np.empty(0, np.int32)
    _near_pairs(xy, cell, start, side, radius * radius, empty, empty, counts, True)
    offsets = np.zeros(n, np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    total = int(counts.sum())
    del counts
    arcs = _id_arrays(total)
    _near_pairs(xy, cell, start, side, radius * radius, arcs[0], arcs[1], offsets, False)
    del xy, cell, start, offsets
    indptr, indices = csr_from_arcs(n, arcs, True)
    prov = dict(generator="random_geometric", scale=scale, avg_degree=deg, seed=int(seed),
                radius=radius, edges_generated=total)
    return _unit_graph(indptr, indices, False,
                       name or f"rgg-2e{scale}-d{avg_degree:g}-seed{seed}", "geometric", prov)
