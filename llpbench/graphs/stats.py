"""Summary statistics of a graph: the columns of `datasets info` and of the paper's Table 1.

Everything is exact except the diameter, which is estimated as the largest eccentricity (in
hops, following arc directions) seen from a few BFS sources drawn with a fixed seed among the
vertices that have out-arcs: a lower bound on the true diameter, the same on every call.
Components and BFS are this module's own numba loops over the CSR, O(n + m) time and O(n)
memory: scipy's csgraph would first copy every arc into a float64 matrix.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from llpbench.graphs.graph import Graph


def graph_stats(graph: Graph, *, seed: int = 0, bfs_samples: int = 4) -> dict[str, Any]:
    """Sizes, degrees, weights, components and an estimated diameter of ``graph``.

    Parameters
    ----------
    graph : Graph
    seed : int
        Seed for drawing the BFS sources of the diameter estimate.
    bfs_samples : int
        Number of BFS runs for the diameter estimate (0 skips it).

    Returns
    -------
    dict
        ``name, family, directed, n, m`` (arcs), ``undirected_edges`` (None when directed),
        ``degree_min, degree_mean, degree_max`` (out-degrees), ``isolated`` (no arc in or
        out), ``self_loops``, ``components`` and ``largest_component`` (weakly connected),
        ``weight_dtype, weight_min, weight_max, weight_median`` (None without arcs),
        ``diameter_estimate``, ``bfs_sources`` and ``provenance`` (a one-line summary).

    Examples
    --------
    >>> g = Graph.from_edges(3, np.array([0, 1]), np.array([1, 2]), np.array([4, 6]))
    >>> s = graph_stats(g)
    >>> s["n"], s["m"], s["diameter_estimate"], s["weight_median"]
    (3, 2, 2, 5.0)
    """
    n, m = graph.n, graph.m
    out_deg = graph.out_degrees()
    in_deg = np.bincount(graph.indices, minlength=n) if graph.directed else out_deg
    touched = (out_deg > 0) | (in_deg > 0)
    weights = graph.weights
    stats: dict[str, Any] = {
        "name": graph.name,
        "family": graph.family,
        "directed": bool(graph.directed),
        "n": n,
        "m": m,
        "undirected_edges": None if graph.directed else m // 2,
        "degree_min": int(out_deg.min()) if n else 0,
        "degree_mean": float(m / n) if n else 0.0,
        "degree_max": int(out_deg.max()) if n else 0,
        "isolated": int(n - np.count_nonzero(touched)),
        # vertices with a self-loop: kept aside in Graph.loops (the reading counts them too)
        "self_loops": int(np.union1d(graph.loops,
                                     _loops_in_rows(graph.indptr, graph.indices)).shape[0]),
        "weight_dtype": str(weights.dtype),
        "weight_min": _scalar(weights.min()) if m else None,
        "weight_max": _scalar(weights.max()) if m else None,
        "weight_median": graph.weight_median if m else None,  # O(m), not a sort
    }
    if graph.provenance.get("negative_weights"):  # placeholders: the file's are not kept
        stats.update(weight_min=None, weight_max=None, weight_median=None)
    stats.update(_components(graph))
    stats.update(_diameter_estimate(graph, out_deg, seed, bfs_samples))
    # how the file was read is stated fact by fact (llpbench.graphs.reading), not squeezed here
    told = {k: v for k, v in graph.provenance.items()
            if k not in ("reading", "warnings", "negative_weights")}  # stated as reading facts
    stats["provenance"] = provenance_summary(told)
    return stats


def _scalar(value: np.generic) -> int | float:
    return value.item()


@njit(cache=True)
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]  # path halving
        x = parent[x]
    return x


@njit(cache=True)
def _weak_components(indptr, indices, undirected):
    """Union-find over every arc: the weakly connected components' count and largest size,
    in O(m) with 8 bytes per vertex (scipy's ``connected_components`` copies the arcs). A
    row's root is found once and followed through its unions; an undirected graph's arcs
    are taken once each (``v > u``: the twin is the same union)."""
    n = indptr.shape[0] - 1
    parent = np.arange(n).astype(np.int32)
    for u in range(n):
        a = _find(parent, u)
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if undirected and v < u:
                continue
            b = _find(parent, v)
            if a < b:
                parent[b] = a
            elif b < a:
                parent[a] = b
                a = b
    size = np.zeros(n, np.int32)
    for u in range(n):
        size[_find(parent, u)] += 1
    count = 0
    for u in range(n):
        count += parent[u] == u
    return count, size.max()


@njit(cache=True)
def _eccentricity(indptr, indices, root):
    """Hops from ``root`` to the farthest vertex it reaches, following arc directions."""
    n = indptr.shape[0] - 1
    level = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int32)
    level[root], queue[0] = 0, root
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for p in range(indptr[u], indptr[u + 1]):
            v = indices[p]
            if level[v] < 0:
                level[v] = level[u] + 1
                queue[tail] = v
                tail += 1
    return level[queue[tail - 1]]


@njit(cache=True)
def _loops_in_rows(indptr, indices):
    """Vertices with an arc to themselves in the CSR (a graph built directly may hold some)."""
    out = []
    for u in range(indptr.shape[0] - 1):
        for p in range(indptr[u], indptr[u + 1]):
            if indices[p] == u:
                out.append(u)
                break
    return np.array(out, dtype=np.int64)


def _components(graph: Graph) -> dict[str, int]:
    if graph.n == 0:
        return {"components": 0, "largest_component": 0}
    count, largest = _weak_components(graph.indptr, graph.indices, not graph.directed)
    return {"components": int(count), "largest_component": int(largest)}


def _diameter_estimate(graph: Graph, out_deg: np.ndarray, seed: int, samples: int) -> dict:
    candidates = np.flatnonzero(out_deg > 0)
    if samples <= 0 or candidates.size == 0:
        return {"diameter_estimate": 0 if graph.n else None, "bfs_sources": []}
    rng = np.random.default_rng(seed)
    sources = rng.choice(candidates, size=min(samples, candidates.size), replace=False)
    best = max(int(_eccentricity(graph.indptr, graph.indices, int(s))) for s in sources)
    return {"diameter_estimate": best, "bfs_sources": [int(s) for s in sources]}


def _short(value: Any) -> Any:
    return f"{value:.6g}" if isinstance(value, float) else value


def provenance_summary(prov: dict[str, Any], limit: int = 160) -> str:
    """A one-line ``key=value; ...`` summary of a graph's provenance (long values shortened)."""
    skip = {"spec_key", "spec_origin", "registry"}
    parts = []
    for key, value in prov.items():
        if key in skip or value is None:
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k}={_short(v)}" for k, v in value.items())
        parts.append(f"{key}={_short(value)}")
    text = "; ".join(parts)
    return text if len(text) <= limit else text[: limit - 3] + "..."
