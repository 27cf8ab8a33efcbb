"""The floor under every SSSP time: one sequential pass over every arc, reading ``dist[head]``.

Any SSSP method that looks at each arc at least once (Dijkstra, Δ-stepping, an LLP worklist
with no stale pops) does at least this: for every vertex u, for every arc (u, v, w), read
``dist[v]`` and compare it with ``dist[u] + w``. The sweep does exactly that, once, on one
thread, over the arcs in the compact form the kernels use (GAP's ``WNode``: int32 head and
weight interleaved, int32 distances), and writes nothing: no worklist, no atomics, no second
visit. Its time is what the memory system charges for the arcs and the scattered
``dist[head]`` reads alone, so ``time / floor`` says how much of a solver's time is
scheduling and repeated work rather than the graph itself (the ``x floor`` column of
``llpbench table speedup`` and ``scripts/bench_peer.py``).

The pass is branch-free (a running sum of ``min(dist[v], dist[u] + w)``, returned so that
the compiler cannot drop it), so its time does not depend on the distance values; it uses
the distances of a finished solve where the caller has them, zeros otherwise.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.graphs.graph import Graph
from llpbench.llp import placement

NAME = "arc-sweep"


@njit(nogil=True, cache=True)
def _sweep(indptr, heads, weights, dist):
    """Sum over u and its arcs of ``min(dist[v], dist[u] + w)``: every arc read once."""
    total = np.int64(0)
    for u in range(indptr.shape[0] - 1):
        du = dist[u]
        for e in range(indptr[u], indptr[u + 1]):
            v = heads[e]
            cand = du + weights[e]
            dv = dist[v]
            total += cand if cand < dv else dv
    return total


def compact_arcs(graph: Graph) -> tuple[np.ndarray, np.ndarray]:
    """Heads and weights as the kernels read them: int32 interleaved where they fit."""
    packed = graph.packed_arcs
    if packed is not None:
        return packed
    return graph.indices, graph.weights


def arc_sweep(graph: Graph, dist: np.ndarray | None = None, repeats: int = 1) -> BaselineResult:
    """Time the one-pass arc sweep of ``graph`` on the calling thread (pinned like a solve).

    Parameters
    ----------
    graph : Graph
        Any graph; integer weights that fit int32 are read in the kernels' compact form.
    dist : ndarray, optional
        Distances to read (finite values; e.g. a finished solve's). Default zeros.
    repeats : int
        Timed passes; ``seconds`` is the fastest (the least disturbed on a shared machine).

    Returns
    -------
    BaselineResult
        ``answer`` is empty (the sweep solves nothing); ``seconds`` the fastest pass,
        ``compile_seconds`` the compilation (or cache load), ``params["passes"]`` every pass.
    """
    heads, weights = compact_arcs(graph)
    dtype = np.int32 if heads.dtype == np.int32 else weights.dtype
    d = np.zeros(graph.n, dtype=dtype) if dist is None else np.ascontiguousarray(dist, dtype)
    t0 = time.perf_counter()
    _sweep.compile((_typeof(graph.indptr), _typeof(heads), _typeof(weights), _typeof(d)))
    compile_s = time.perf_counter() - t0
    passes = []
    with placement.pinned_here(0):
        for _ in range(max(1, int(repeats))):
            t0 = time.perf_counter()
            _sweep(graph.indptr, heads, weights, d)
            passes.append(time.perf_counter() - t0)
    return BaselineResult(
        answer=np.empty(0), seconds=min(passes), compile_seconds=compile_s, name=NAME,
        params={"passes": passes},
    )


def _typeof(a):
    from numba import typeof

    return typeof(a)
