"""Breadth-first search levels as an LLP problem: SSSP with unit weights, in its own kernels
so that no weight array is read (LLP-FW, Ribeiro Alves and Garg, 2026).

Formulation
    State: levels ``L``, 0 at the source and infinity elsewhere, advancing by lowering.
    ``j`` is forbidden when some in-neighbour u has ``L(u) + 1 < L(j)``; advancing lowers
    ``L(j)`` with an atomic min and reports j's out-neighbours. Incremental form (worklist
    solvers): "u advanced" relaxes u's out-neighbours. Priority: the level.

Reference: the levels of scipy's ``breadth_first_order`` (from its predecessor tree).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.graphs.graph import Graph
from llpbench.graphs.independent import checks_reading
from llpbench.llp.atomics import atomic_load, atomic_min
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES, RETRIES

NAME = "bfs"
INPUT = "graph"
INF = np.iinfo(np.int64).max



class Arrays(NamedTuple):
    """What the kernels read (:attr:`Instance.arrays`), by name (see ``sssp.Arrays``)."""

    indptr: np.ndarray  # CSR offsets of the out-arcs
    heads: np.ndarray  # out-arc heads
    rev_indptr: np.ndarray  # CSR offsets of the in-arcs
    rev_tails: np.ndarray  # in-arc tails


# --- kernels -------------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return state.shape[0]


@njit(nogil=True, cache=True)
def _best_in(inst, state, j):
    rptr, rsrc = inst.rev_indptr, inst.rev_tails
    best = atomic_load(state, j)
    for e in range(rptr[j], rptr[j + 1]):
        lu = atomic_load(state, rsrc[e])
        if lu != INF and lu + 1 < best:
            best = lu + 1
    return best


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    return _best_in(inst, state, j) < atomic_load(state, j)


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    indptr, indices = inst.indptr, inst.heads
    best = _best_in(inst, state, j)
    if best < atomic_min(state, j, best):
        ctr[ADVANCES] += 1
    else:
        ctr[RETRIES] += 1
    k = 0
    for e in range(indptr[j], indptr[j + 1]):
        out[k] = indices[e]
        k += 1
    return k


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    indptr, indices = inst.indptr, inst.heads
    nxt = atomic_load(state, j) + 1
    k = 0
    for e in range(indptr[j], indptr[j + 1]):
        v = indices[e]
        if nxt < atomic_load(state, v):
            if nxt < atomic_min(state, v, nxt):
                out[k] = v
                k += 1
                ctr[ADVANCES] += 1
            else:
                ctr[RETRIES] += 1
    return k


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return atomic_load(state, j)


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    return atomic_load(state, j) < key


# --- instances, answers, reference ---------------------------------------------------------


def instance(graph: Graph, source: int = 0) -> Instance:
    """The BFS instance of ``graph`` from ``source`` (weights are ignored)."""
    if not 0 <= source < graph.n:
        raise ValueError(f"source {source} is not a vertex of {graph.name} (0..{graph.n - 1})")
    rptr, rsrc, _ = graph.reverse
    n = graph.n

    def init_state() -> np.ndarray:
        levels = np.full(n, INF, dtype=np.int64)
        levels[source] = 0
        return levels

    return Instance(
        problem=__name__,
        arrays=Arrays(graph.indptr, graph.indices, rptr, rsrc),
        n=n,
        max_out=int(graph.out_degrees().max(initial=0)),
        init_state=init_state,
        init_work=np.array([source], dtype=np.int64),
        bucket_width=1,
        meta={"source": source, "graph": graph, "integer": True},
        max_rounds=n + 1,  # a shortest path has at most n - 1 arcs
    )


def make(graph: Graph | None, size: int | None, seed: int, source: int) -> Instance:
    """Runner entry point: the instance of ``graph`` from ``source``."""
    if graph is None:
        raise ValueError("bfs needs a graph")
    return instance(graph, source)


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """Levels as float64, ``inf`` for unreachable vertices."""
    levels = state.astype(np.float64)
    levels[state == INF] = np.inf
    return levels


@checks_reading
def reference(inst: Instance) -> np.ndarray:
    """Levels from scipy's ``breadth_first_order`` predecessor tree, on the graph as the
    verifier reads it (:func:`~llpbench.graphs.independent.reference_structure`)."""
    from scipy.sparse.csgraph import breadth_first_order

    from llpbench.graphs.independent import reference_structure

    graph, source = inst.meta["graph"], inst.meta["source"]
    mat = reference_structure(graph)
    if not 0 <= inst.meta["source"] < mat.shape[0]:  # the verifier's graph is smaller
        return np.full(mat.shape[0], np.inf)
    order, pred = breadth_first_order(mat, source, directed=True)
    levels = np.full(mat.shape[0], np.inf)
    levels[source] = 0
    for v in order[1:]:  # BFS order: a predecessor's level is always known first
        levels[v] = levels[pred[v]] + 1
    return levels


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if the levels agree exactly, else a one-line reason."""
    from llpbench.problems.sssp import verify as verify_distances

    return verify_distances(result, expected)


def baseline(inst: Instance, threads: int = 1, delta: float | None = None) -> BaselineResult:
    """Level-synchronous parallel BFS: Δ-stepping with unit weights and Δ = 1."""
    from llpbench.baselines.delta.stepping import delta_stepping

    graph = inst.meta["graph"]
    unit = graph.with_weights(np.ones(graph.m, dtype=np.int64), "unit")
    result = delta_stepping(unit, inst.meta["source"], threads=threads, delta=1)
    result.name = "level-synchronous-bfs"
    return result


#: The baselines by name, the default first (the peers that solve BFS follow them).
BASELINES = {"level-synchronous-bfs": baseline}
