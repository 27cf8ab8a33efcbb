"""The condensation of a directed graph: its strongly connected components, numbered the one
way every closure answer is written, and the DAG of distinct arcs between them.

Every vertex of a strongly connected component reaches the same vertices, so a transitive
closure is one reachability set per component, over components (Purdom 1970; Nuutila 1995):
for 10^5 vertices that is ncomp^2 bits instead of the 1.25 GB of a dense vertex bitset.
Components are numbered *canonically*, by their smallest vertex (component 0 holds vertex 0,
the next new component met scanning vertices upwards is 1, ...): two programs that find the
same components by different algorithms then write the same answer, bit for bit, so an
answer can be checked by equality. Tarjan's own numbering (every arc between two components
leads to a smaller number, :func:`tarjan_components`) is
the order a sequential pass takes; the canonical one is where it writes.

:func:`condense` builds it in three O(n + m) passes (Tarjan, the canonical relabelling, the
distinct arcs by a stamp per component), all timed: the closure's LLP solves the lattice of
the DAG, and its rows count this work beside the solve (``seconds``).
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit, typeof


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
def canonical_numbers(comp, ncomp):
    """Each component's canonical number: the rank of its smallest vertex (the numbering of
    this module)."""
    canon = np.full(ncomp, -1, dtype=np.int64)
    k = 0
    for v in range(comp.shape[0]):
        if canon[comp[v]] < 0:
            canon[comp[v]] = k
            k += 1
    return canon



class Condensation(NamedTuple):
    """The components of a graph and the DAG between them, in canonical numbering."""

    labels: np.ndarray  # int64[n]: the component of each vertex
    ncomp: int
    cyclic: np.ndarray  # bool[ncomp]: more than one vertex, or a self-loop (reaches itself)
    succ_ptr: np.ndarray  # CSR of the distinct components each component has an arc to
    succ: np.ndarray
    pred_ptr: np.ndarray  # the same arcs reversed
    pred: np.ndarray
    seconds: float  # the three passes, compilation excluded


@njit(nogil=True, cache=True)
def group_members(labels, ncomp):
    """(first, members): the vertices of component c are ``members[first[c]:first[c+1]]``."""
    n = labels.shape[0]
    first = np.zeros(ncomp + 1, dtype=np.int64)
    for v in range(n):
        first[labels[v] + 1] += 1
    for c in range(ncomp):
        first[c + 1] += first[c]
    members = np.empty(n, dtype=np.int64)
    fill = first[:ncomp].copy()
    for v in range(n):
        members[fill[labels[v]]] = v
        fill[labels[v]] += 1
    return first, members


@njit(nogil=True, cache=True)
def _dag(indptr, indices, loops, labels, ncomp):
    """(cyclic, succ_ptr, succ, pred_ptr, pred) of the condensation: distinct arcs only."""
    first, members = group_members(labels, ncomp)
    cyclic = np.zeros(ncomp, dtype=np.bool_)
    for i in range(loops.shape[0]):
        cyclic[labels[loops[i]]] = True
    stamp = np.full(ncomp, -1, dtype=np.int64)
    succ_ptr = np.zeros(ncomp + 1, dtype=np.int64)
    succ = np.empty(indices.shape[0], dtype=np.int64)
    k = 0
    for c in range(ncomp):
        if first[c + 1] - first[c] > 1:
            cyclic[c] = True
        for p in range(first[c], first[c + 1]):
            u = members[p]
            for e in range(indptr[u], indptr[u + 1]):
                d = labels[indices[e]]
                if d == c:
                    cyclic[c] = True  # a loop the CSR kept
                elif stamp[d] != c:
                    stamp[d] = c
                    succ[k] = d
                    k += 1
        succ_ptr[c + 1] = k
    pred_ptr = np.zeros(ncomp + 1, dtype=np.int64)
    for i in range(k):
        pred_ptr[succ[i] + 1] += 1
    for c in range(ncomp):
        pred_ptr[c + 1] += pred_ptr[c]
    pred = np.empty(k, dtype=np.int64)
    fill = pred_ptr[:ncomp].copy()
    for c in range(ncomp):
        for i in range(succ_ptr[c], succ_ptr[c + 1]):
            pred[fill[succ[i]]] = c
            fill[succ[i]] += 1
    return cyclic, succ_ptr, succ[:k].copy(), pred_ptr, pred


def _compile(indptr: np.ndarray, indices: np.ndarray, loops: np.ndarray) -> None:
    """Compile (or load) the three passes for these array types, outside any clock."""
    comp = np.zeros(0, dtype=np.int64)
    tarjan_components.compile((typeof(indptr), typeof(indices)))
    canonical_numbers.compile((typeof(comp), typeof(0)))
    _dag.compile(tuple(typeof(a) for a in (indptr, indices, loops, comp, 0)))


def condense(graph) -> Condensation:
    """The canonical condensation of ``graph`` (arcs as stored; ``Graph.loops`` mark their
    vertices' components cyclic), with the seconds its passes took."""
    loops = np.ascontiguousarray(graph.loops, dtype=np.int64)
    _compile(graph.indptr, graph.indices, loops)
    t0 = time.perf_counter()
    comp, ncomp = tarjan_components(graph.indptr, graph.indices)
    labels = canonical_numbers(comp, ncomp)[comp]
    cyclic, succ_ptr, succ, pred_ptr, pred = _dag(graph.indptr, graph.indices, loops, labels,
                                                   ncomp)
    seconds = time.perf_counter() - t0
    return Condensation(labels, int(ncomp), cyclic, succ_ptr, succ, pred_ptr, pred, seconds)


class CondensedClosure(NamedTuple):
    """A transitive closure by components: vertex j reaches v (by one or more arcs) exactly
    when bit ``labels[v]`` of row ``labels[j]`` is set (bit d & 63 of word d >> 6)."""

    labels: np.ndarray  # int64[n], canonical
    reach: np.ndarray  # uint64[ncomp, words]


HEADER = 3  # n, ncomp, words


def pack_closure(labels: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """One flat uint64 array ``[n, ncomp, words, labels..., reach...]``: the answer form
    the runner and the verifier pass around (one ndarray, as every problem's answer is)."""
    n, (ncomp, words) = labels.shape[0], reach.shape
    out = np.empty(HEADER + n + ncomp * words, dtype=np.uint64)
    out[:HEADER] = (n, ncomp, words)
    out[HEADER : HEADER + n] = labels
    out[HEADER + n :] = reach.reshape(-1).view(np.uint64)
    return out


def unpack_closure(answer: np.ndarray) -> CondensedClosure:
    """The two parts of a :func:`pack_closure` array (views, no copy).

    Raises
    ------
    ValueError
        If the array is not of that form (its header and length disagree).
    """
    flat = np.asarray(answer).view(np.uint64).reshape(-1)
    if flat.shape[0] < HEADER:
        raise ValueError(f"a closure answer has a {HEADER}-word header, got {flat.shape[0]}")
    n, ncomp, words = (int(x) for x in flat[:HEADER])
    if flat.shape[0] != HEADER + n + ncomp * words:
        raise ValueError(f"closure answer of {flat.shape[0]} words, its header says "
                         f"{HEADER + n + ncomp * words}")
    labels = flat[HEADER : HEADER + n].view(np.int64)
    return CondensedClosure(labels, flat[HEADER + n :].reshape(ncomp, words))
