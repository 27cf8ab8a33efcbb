"""Transitive closure by strongly connected components, the closure problem's baseline: the
components of the graph, then one pass of bitset unions over them in reverse topological
order (Purdom, "A transitive closure algorithm", BIT 1970; Nuutila, "Efficient transitive
closure computation in large digraphs", 1995, who keeps one set per component).

Every vertex of a strongly connected component reaches the same vertices, so the closure is
one bitset row per component, over components (the answer form of
:mod:`llpbench.baselines.condensation`, canonical numbers). Tarjan's algorithm (iterative:
no recursion limit) numbers the components so that every arc between two components leads
to a smaller number: taking the components in increasing number visits each after
everything it reaches. A component's row is then the union, over its arcs to other
components D, of D's row and D's bit, plus its own bit if it lies on a cycle (more than one
vertex, or a self-loop: the CSR keeps no loops, ``Graph.loops`` lists them). A component
ORs each successor's row once (a stamp per component), so the pass costs one word loop per
arc of the condensation, against one per arc of the graph for a BFS from every vertex.

``scc-bitset`` times Tarjan, the canonical relabelling and the pass (one thread);
``scipy-scc-bitset`` (the in-process peer for the components) takes them from
``scipy.sparse.csgraph.connected_components`` instead and orders them by Kahn's algorithm
over the condensation before the same pass. The rows are allocated and zeroed between the
components and the pass, off the clock, as the LLP solvers' initial state is.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, typeof

from llpbench.baselines import BaselineResult
from llpbench.baselines.condensation import (
    canonical_numbers,
    group_members,
    pack_closure,
    tarjan_components,
)

NAME = "scc-bitset"


@njit(nogil=True, cache=True)
def _closure_rows(indptr, indices, loops, comp, order, canon, rows):
    """Fill ``rows`` (ncomp x words, zero; row and bit = canonical number) with the closure,
    taking the components (``comp`` numbers) in ``order``, each after all it reaches."""
    ncomp = order.shape[0]
    first, members = group_members(comp, ncomp)
    looped = np.zeros(ncomp, dtype=np.bool_)
    for i in range(loops.shape[0]):
        looped[comp[loops[i]]] = True
    stamp = np.full(ncomp, -1, dtype=np.int64)
    for t in range(ncomp):
        c = order[t]
        me = canon[c]
        row = rows[me]
        if first[c + 1] - first[c] > 1 or looped[c]:
            row[me >> 6] |= np.int64(1) << (me & 63)
        for p in range(first[c], first[c + 1]):
            u = members[p]
            for e in range(indptr[u], indptr[u + 1]):
                d = comp[indices[e]]
                if d == c:
                    row[me >> 6] |= np.int64(1) << (me & 63)  # a loop left in the CSR
                    continue
                if stamp[d] != c:
                    stamp[d] = c
                    other = rows[canon[d]]
                    for w in range(row.shape[0]):
                        row[w] |= other[w]
                    row[canon[d] >> 6] |= np.int64(1) << (canon[d] & 63)


@njit(nogil=True, cache=True)
def kahn_order(indptr, indices, rptr, rsrc, comp, ncomp):
    """The components in an order that visits each after every component it reaches
    (Kahn's algorithm on out-degrees over the condensation; arcs inside a component and
    repeated arcs between two are counted alike on both sides, so they cancel)."""
    n = indptr.shape[0] - 1
    left = np.zeros(ncomp, dtype=np.int64)  # arcs to other components not yet settled
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            if comp[indices[e]] != comp[u]:
                left[comp[u]] += 1
    first, members = group_members(comp, ncomp)
    order = np.empty(ncomp, dtype=np.int64)
    tail = 0
    for c in range(ncomp):
        if left[c] == 0:
            order[tail] = c
            tail += 1
    head = 0
    while head < tail:
        c = order[head]
        head += 1
        for p in range(first[c], first[c + 1]):
            v = members[p]
            for e in range(rptr[v], rptr[v + 1]):
                d = comp[rsrc[e]]
                if d != c:
                    left[d] -= 1
                    if left[d] == 0:
                        order[tail] = d
                        tail += 1
    return order


def _pass(graph, comp, ncomp, order, canon, t_components: float, name: str,
          compile_s: float) -> BaselineResult:
    """The timed pass after the components, the rows' allocation and zeroing included (as
    an LLP solve's time includes its state's, which holds the same rows: on the uniform
    graph of 10^5 vertices that is 94 of the baseline's 198 ms), answer packed."""

    loops = np.ascontiguousarray(graph.loops, dtype=np.int64)
    t0 = time.perf_counter()
    rows = np.full((int(ncomp), (int(ncomp) + 63) // 64), 0, dtype=np.int64)
    t_rows = time.perf_counter() - t0
    args = (graph.indptr, graph.indices, loops, comp, order, canon, rows)
    t0 = time.perf_counter()
    _closure_rows.compile(tuple(typeof(a) for a in args))
    compile_s += time.perf_counter() - t0
    t0 = time.perf_counter()
    _closure_rows(*args)
    seconds = t_components + t_rows + time.perf_counter() - t0
    return BaselineResult(
        answer=pack_closure(canon[comp], rows.view(np.uint64)),
        seconds=seconds,
        compile_seconds=compile_s,
        name=name,
        params={"threads": 1, "components": int(ncomp), "setup_seconds": t_rows},
    )


def scc_closure(graph, threads: int = 1) -> BaselineResult:
    """The closure of ``graph`` in condensed form (:func:`~llpbench.baselines.condensation.
    pack_closure`), by Tarjan's components and one bitset pass (one thread; ``threads`` is
    recorded, not used)."""
    t0 = time.perf_counter()
    tarjan_components.compile((typeof(graph.indptr), typeof(graph.indices)))
    canonical_numbers.compile((typeof(graph.indptr), typeof(0)))
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    comp, ncomp = tarjan_components(graph.indptr, graph.indices)
    canon = canonical_numbers(comp, ncomp)
    t_components = time.perf_counter() - t0
    order = np.arange(ncomp, dtype=np.int64)  # Tarjan's numbering is already the order
    return _pass(graph, comp, ncomp, order, canon, t_components, NAME, compile_s)


def scipy_scc_closure(graph, threads: int = 1) -> BaselineResult:
    """The same pass over the components of ``scipy.sparse.csgraph.connected_components``
    (``connection="strong"``), ordered by :func:`kahn_order`: the in-process SCC peer."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n = graph.n
    mat = csr_matrix((np.ones(graph.indices.shape[0], dtype=np.int8), graph.indices,
                      graph.indptr), shape=(n, n))
    rptr, rsrc, _ = graph.reverse
    t0 = time.perf_counter()
    kahn_order.compile(tuple(typeof(a) for a in (graph.indptr, graph.indices, rptr, rsrc,
                                                 graph.indptr, 0)))
    canonical_numbers.compile((typeof(graph.indptr), typeof(0)))
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    ncomp, labels = connected_components(mat, directed=True, connection="strong")
    comp = labels.astype(np.int64)
    order = kahn_order(graph.indptr, graph.indices, rptr, rsrc, comp, ncomp)
    canon = canonical_numbers(comp, ncomp)
    t_components = time.perf_counter() - t0
    return _pass(graph, comp, ncomp, order, canon, t_components, "scipy-scc-bitset", compile_s)
