"""A road-like synthetic graph: a grid of intersections joined by chains of degree-2 vertices.

Road networks (OpenStreetMap's ``asia_osm``: 12.0 M vertices, 12.7 M edges) are nearly
planar, have a mean degree near 2 (most vertices are points along a road, between two
others) and a diameter in the thousands of hops: the opposite of a Kronecker graph, and the
case where Δ-stepping's bucket width matters most. :func:`road_grid` builds one of any size
without a download: an ``rows x cols`` grid of intersections, each grid edge kept with
probability ``keep`` and split into a chain by ``0..max_subdivide`` extra vertices. With the
defaults (keep 0.6, up to 4 extra) the mean degree is about 2.1, as in ``asia_osm``.

Like :mod:`.generators`, every choice is a counter-based splitmix64 draw of the grid edge's
index and the seed, and the kernels run in parallel with the same result for any thread
count. Intersection ``(r, c)`` is vertex ``r * cols + c``; the chain vertices follow, in grid
edge order.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from llpbench.errors import SpecError
from llpbench.graphs.csr_parallel import csr_from_arcs
from llpbench.graphs.generators import _id_arrays, _key, _need_int, _unit_graph
from llpbench.graphs.graph import Graph
from llpbench.graphs.splitmix import GOLDEN as _GOLDEN
from llpbench.graphs.splitmix import mix as _mix

__all__ = ["road_grid"]

_S32 = np.uint64(32)
_LOW16 = np.uint64(0xFFFF)


@njit(cache=True, inline="always")
def _ends(g, rows, cols):
    """The two intersections of grid edge ``g``: horizontal edges first, then vertical."""
    horizontal = rows * (cols - 1)
    if g < horizontal:
        a = (g // (cols - 1)) * cols + g % (cols - 1)
        return a, a + 1
    v = g - horizontal  # a new name: inlined into a prange loop, g is its index
    a = (v // cols) * cols + v % cols
    return a, a + cols


@njit(cache=True, parallel=True)
def _chain_lengths(count, key, keep, most):
    """Extra vertices on each grid edge, -1 where the edge is dropped."""
    out = np.empty(count, np.int64)
    for g in prange(count):
        h = _mix(key ^ (np.uint64(g) * _GOLDEN))
        if (h >> _S32) < keep:
            out[g] = np.int64((h & _LOW16) % np.uint64(most + 1))
        else:
            out[g] = -1
    return out


@njit(cache=True, parallel=True)
def _fill_chains(src, dst, extra, first_vertex, first_arc, rows, cols):
    """The arcs of every kept grid edge's chain ``a - x0 - x1 - ... - b``."""
    for g in prange(extra.shape[0]):
        s = extra[g]
        if s < 0:
            continue
        a, b = _ends(g, rows, cols)
        e = first_arc[g]
        prev = a
        for i in range(s):
            x = first_vertex[g] + i
            src[e] = prev
            dst[e] = x
            e += 1
            prev = x
        src[e] = prev
        dst[e] = b


def road_grid(
    rows: int,
    cols: int,
    seed: int = 0,
    *,
    keep: float = 0.6,
    max_subdivide: int = 4,
    name: str | None = None,
) -> Graph:
    """Undirected road-like graph: a grid of intersections joined by chains (see the module).

    Parameters
    ----------
    rows, cols : int
        The intersection grid, each >= 1.
    seed : int
        Seed of which grid edges are kept and of each chain's length.
    keep : float
        Probability that a grid edge is a road, in ``[0, 1]``.
    max_subdivide : int
        Most extra vertices on one road (uniform in ``0..max_subdivide``), 0..65535.
    name : str, optional
        Graph name; defaults to ``road-{rows}x{cols}-seed{seed}``.

    Returns
    -------
    Graph
        Undirected, unit weights, family ``"road"``; about ``rows * cols * (1 + keep *
        max_subdivide)`` vertices.

    Examples
    --------
    >>> g = road_grid(2, 2, keep=1.0, max_subdivide=0)
    >>> g.n, g.m
    (4, 8)
    """
    rows = _need_int("road_grid", "rows", rows, 1)
    cols = _need_int("road_grid", "cols", cols, 1)
    most = _need_int("road_grid", "max_subdivide", max_subdivide, 0, 65535)
    if isinstance(keep, bool) or not isinstance(keep, int | float) or not 0 <= keep <= 1:
        raise SpecError(f"road_grid: keep must be a probability in [0, 1], got {keep!r}")
    grid_edges = rows * (cols - 1) + (rows - 1) * cols
    threshold = np.uint64(min(int(float(keep) * 2.0**32), 2**32))
    extra = _chain_lengths(grid_edges, _key(seed, "road"), threshold, most)
    kept = extra >= 0
    first_vertex = rows * cols + np.concatenate([[0], np.cumsum(np.where(kept, extra, 0))[:-1]])
    arcs_per_edge = np.where(kept, extra + 1, 0)
    first_arc = np.concatenate([[0], np.cumsum(arcs_per_edge)[:-1]]) if grid_edges else extra
    n = int(rows * cols + np.where(kept, extra, 0).sum())
    if n >= 2**31:
        raise SpecError(f"road_grid: {n:,} vertices do not fit int32 ids")
    count = int(arcs_per_edge.sum())
    arcs = _id_arrays(count)
    _fill_chains(*arcs, extra, first_vertex, first_arc, rows, cols)
    del extra, first_vertex, first_arc, arcs_per_edge, kept
    indptr, indices = csr_from_arcs(n, arcs, True)
    prov = dict(generator="road_grid", rows=rows, cols=cols, seed=int(seed), keep=float(keep))
    prov.update(max_subdivide=most, edges_generated=count)
    return _unit_graph(indptr, indices, False, name or f"road-{rows}x{cols}-seed{seed}", "road",
                       prov)
