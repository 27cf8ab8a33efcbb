"""Transitive closure by strongly connected components, the closure problem's baseline: the
condensation of the graph, then one pass of bitset unions over it in reverse topological
order (Purdom, "A transitive closure algorithm", BIT 1970; Nuutila, "Efficient transitive
closure computation in large digraphs", 1995, who keeps one set per component).

Every vertex of a strongly connected component reaches the same vertices, so the closure is
one bitset row per component. Tarjan's algorithm (iterative: no recursion limit) numbers the
components so that every arc between two components leads to a smaller number: taking the
components in increasing number visits each after everything it reaches. A component's row
is then the union, over its arcs to other components D, of D's row and the arc's head, plus
its own members if it lies on a cycle (more than one vertex, or a self-loop: the CSR keeps
no loops, ``Graph.loops`` lists them). A component ORs each successor's row once (a stamp
per component), so the pass costs one word loop per arc of the condensation, against one
per arc of the graph for a BFS from every vertex; the giant component of a random graph is
one row instead of thousands. Finally each member's row is copied from its component's.

One thread: both passes are sequential (the components' order is a chain of dependencies
only where the condensation is deep, but this keeps the baseline simple and exact); the
answer matrix is allocated and written before the clock starts, as the LLP solvers'
initial state is.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, typeof

from llpbench.baselines import BaselineResult

NAME = "scc-bitset"


@njit(nogil=True, cache=True)
def tarjan_components(indptr, indices):
    """(component of each vertex, number of components), numbered so that every arc between
    two components leads to a smaller number (iterative Tarjan)."""
    n = indptr.shape[0] - 1
    order = np.full(n, -1, dtype=np.int64)  # discovery index
    low = np.zeros(n, dtype=np.int64)
    comp = np.full(n, -1, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    call_v = np.empty(n, dtype=np.int64)
    call_e = np.empty(n, dtype=np.int64)
    counter = 0
    top = 0
    ncomp = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        depth = 0
        call_v[0], call_e[0] = root, indptr[root]
        order[root] = low[root] = counter
        counter += 1
        stack[top] = root
        top += 1
        while depth >= 0:
            v, e = call_v[depth], call_e[depth]
            if e < indptr[v + 1]:
                call_e[depth] = e + 1
                w = indices[e]
                if order[w] < 0:
                    order[w] = low[w] = counter
                    counter += 1
                    stack[top] = w
                    top += 1
                    depth += 1
                    call_v[depth], call_e[depth] = w, indptr[w]
                elif comp[w] < 0:  # on the stack
                    low[v] = min(low[v], order[w])
                continue
            if low[v] == order[v]:  # v roots a component: pop it
                while True:
                    top -= 1
                    w = stack[top]
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
            depth -= 1
            if depth >= 0:
                u = call_v[depth]
                low[u] = min(low[u], low[v])
    return comp, ncomp


@njit(nogil=True, cache=True)
def _closure_rows(indptr, indices, loops, comp, ncomp, rows):
    """Fill ``rows`` (n x words, zero) with the closure, component by component."""
    n = indptr.shape[0] - 1
    first = np.zeros(ncomp + 1, dtype=np.int64)  # members of each component, grouped
    for v in range(n):
        first[comp[v] + 1] += 1
    for c in range(ncomp):
        first[c + 1] += first[c]
    members = np.empty(n, dtype=np.int64)
    fill = first[:ncomp].copy()
    for v in range(n):
        members[fill[comp[v]]] = v
        fill[comp[v]] += 1
    looped = np.zeros(ncomp, dtype=np.bool_)
    for i in range(loops.shape[0]):
        looped[comp[loops[i]]] = True
    stamp = np.full(ncomp, -1, dtype=np.int64)
    for c in range(ncomp):
        row = rows[members[first[c]]]  # the component's row lives in its first member's
        if first[c + 1] - first[c] > 1 or looped[c]:
            for p in range(first[c], first[c + 1]):
                m = members[p]
                row[m >> 6] |= np.int64(1) << (m & 63)
        for p in range(first[c], first[c + 1]):
            u = members[p]
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                d = comp[v]
                row[v >> 6] |= np.int64(1) << (v & 63)  # v == u: a loop left in the CSR
                if d == c:
                    continue
                if stamp[d] != c:
                    stamp[d] = c
                    other = rows[members[first[d]]]
                    for w in range(row.shape[0]):
                        row[w] |= other[w]
        for p in range(first[c] + 1, first[c + 1]):
            rows[members[p]][:] = row


def scc_closure(graph, threads: int = 1) -> BaselineResult:
    """The closure of ``graph`` as ``(n, words)`` uint64 bitset rows (bit v of row j: j
    reaches v by one or more arcs), by SCC condensation and one bitset pass (one thread;
    ``threads`` is recorded, not used)."""
    n = graph.n
    words = (n + 63) // 64
    rows = np.full((n, words), 0, dtype=np.int64)  # written: no page faults in the timing
    loops = np.ascontiguousarray(graph.loops, dtype=np.int64)
    t0 = time.perf_counter()
    tarjan_components.compile((typeof(graph.indptr), typeof(graph.indices)))
    comp, ncomp = tarjan_components(graph.indptr[:1], graph.indices[:0])  # warm the types
    _closure_rows.compile(
        tuple(typeof(a) for a in (graph.indptr, graph.indices, loops, comp, ncomp, rows))
    )
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    comp, ncomp = tarjan_components(graph.indptr, graph.indices)
    _closure_rows(graph.indptr, graph.indices, loops, comp, ncomp, rows)
    seconds = time.perf_counter() - t0
    return BaselineResult(
        answer=rows.view(np.uint64),
        seconds=seconds,
        compile_seconds=compile_s,
        name=NAME,
        params={"threads": 1, "components": int(ncomp)},
    )
