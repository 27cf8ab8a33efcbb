"""Transitive closure (reachability) of a directed graph as an LLP problem over the DAG of its
strongly connected components (Garg, "Predicate detection to solve combinatorial
optimization problems", SPAA 2020: a least fixed point reached by advancing forbidden
indices; LLP-FW, Ribeiro Alves and Garg, 2026; the condensation: Purdom 1970, Nuutila 1995).

Formulation
    The components are found first (:func:`llpbench.baselines.condensation.condense`:
    Tarjan, canonical numbers, the distinct arcs between components; O(n + m), timed and
    kept in ``meta["condense_seconds"]``, and as the floor ``condensation``). Every vertex
    of a component reaches the same vertices, so the lattice is one reachability set
    ``R(c)`` per component, over components: a row of ``W = ceil(ncomp / 64)`` int64 words
    (``ncomp * W`` in all), starting with c's own bit where c lies on a cycle (more than one
    vertex, or a self-loop) and empty elsewhere; a state advances by setting bits. ``c`` is
    forbidden when some arc ``c -> d`` of the DAG has ``R(d) ∪ {d} ⊄ R(c)``; the least state
    with no forbidden component is the closure (vertex j reaches v, by one or more arcs,
    exactly when bit ``label(v)`` of ``R(label(j))`` is set).

Two statements of the same predicate
    *Direct* (``forbidden``/``advance``, the scanning solvers): pull from c's successors,
    ORing each word with a CAS loop, and report c's predecessors, whose predicate reads
    ``R(c)``.
    *Released* (``work``, the worklist solvers): on a DAG a component's set is final once
    its successors' are, so an item is a component whose successors have all *settled*:
    ``work`` ORs their rows (and bits) into ``R(c)`` once, plain word loops the compiler
    vectorises (c is its row's only writer then), and takes one off the count of unsettled
    successors of each predecessor (an atomic decrement, whose fence publishes the row); the
    decrement that reaches zero reports that predecessor. The seed is the sinks. Every DAG
    arc is one word loop, the cost of the SCC + bitset baseline's pass, and the DAG's width
    (its antichains) is the parallelism. Nothing is stale; the priority is constant (the
    released form pops each component once whatever the order, and the most recent push
    reads rows still in cache).

Cost (counters per index = per component): ``items`` 1, ``advances`` 1, ``stale`` 0 for
the released form; the word loops: ``words`` per DAG arc (``meta["dag_arcs"]``). State:
``ncomp * W`` words plus a count per component: 52 MB for cit-HepPh's 20,364 components,
where a dense vertex bitset of 10^5 vertices is 1.25 GB. :func:`instance` refuses, in one
line and before the rows are allocated, a graph whose rows (state, answer and reference: three
copies) do not fit the memory bound (:func:`llpbench.graphs.limits.memory_bound`).

Answer: the canonical labels and the rows, packed in one uint64 array
(:func:`~llpbench.baselines.condensation.pack_closure`); :func:`vertex_rows` expands a small
one to the dense ``(n, ceil(n / 64))`` vertex bitset. Reference (its own code): scipy's
``connected_components(connection="strong")`` on the graph as the verifier reads it, the
same canonical numbering, then the sets as Python integers in Kahn order over the
condensation (memory: each integer as long as its highest bit). Baselines: SCC condensation
and one bitset pass (:mod:`llpbench.baselines.scc_closure`, one thread: ``scc-bitset``, and
``scipy-scc-bitset``, the in-process peer for the components).

Instances (``VARIANTS``): ``uniform``: ``uniform_random(size, 1.5, seed, directed=True)``
(mean out-degree 1.5; at 10^5 vertices a giant component of a third of them and 66k
components); ``kron``: a directed Kronecker graph (Graph500 initiator 0.57/0.19/0.19,
edge factor 4; ``size`` a power of two), hubs and a giant component; registry graphs
(cit-HepPh) are taken as they are.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.baselines.condensation import (
    Condensation,
    condense,
    pack_closure,
    unpack_closure,
)
from llpbench.errors import SpecError
from llpbench.graphs.graph import Graph
from llpbench.graphs.independent import checks_reading, dispute_of
from llpbench.llp.atomics import atomic_cas, atomic_fetch_add, atomic_load
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES, RETRIES

NAME = "transitive-closure"
INPUT = "size"
AVG_DEGREE = 1.5
KRON_EDGE_FACTOR = 4
VARIANTS = ("uniform", "kron")
COPIES = 3  # rows held at once: the state, the answer, the reference


class Dag(NamedTuple):
    """The instance as the kernels see it: the condensation's arcs both ways, and where in
    the state the counts of unsettled successors start."""

    succ_ptr: np.ndarray
    succ: np.ndarray
    pred_ptr: np.ndarray
    pred: np.ndarray
    ncomp: np.int64
    words: np.int64
    counts: np.int64


# --- kernels -------------------------------------------------------------------------------
# R(c) is state[c * words : (c + 1) * words]; component d is bit d & 63 of word d >> 6.


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return inst.ncomp


@njit(nogil=True, cache=True, inline="always")
def _or_word(state, idx, bits, ctr):
    """Atomically OR ``bits`` into ``state[idx]``; True if this call set a new bit."""
    while True:
        old = atomic_load(state, idx)
        new = old | bits
        if new == old:
            return False
        if atomic_cas(state, idx, old, new):
            return True
        ctr[RETRIES] += 1


@njit(nogil=True, cache=True, inline="always")
def _with_self(state, words, d, w):
    """Word ``w`` of ``R(d) ∪ {d}``."""
    bits = atomic_load(state, d * words + w)
    if (d >> 6) == w:
        bits |= np.int64(1) << (d & 63)
    return bits


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    words = inst.words
    base = j * words
    for e in range(inst.succ_ptr[j], inst.succ_ptr[j + 1]):
        d = inst.succ[e]
        for w in range(words):
            if _with_self(state, words, d, w) & ~atomic_load(state, base + w):
                return True
    return False


@njit(nogil=True, cache=True)
def _report_preds(inst, j, out):
    k = 0
    for e in range(inst.pred_ptr[j], inst.pred_ptr[j + 1]):
        out[k] = inst.pred[e]
        k += 1
    return k


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    words = inst.words
    base = j * words
    changed = False
    for w in range(words):
        acc = np.int64(0)
        for e in range(inst.succ_ptr[j], inst.succ_ptr[j + 1]):
            acc |= _with_self(state, words, inst.succ[e], w)
        if acc & ~atomic_load(state, base + w):
            changed |= _or_word(state, base + w, acc, ctr)
    if changed:
        ctr[ADVANCES] += 1
    return _report_preds(inst, j, out)


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    """j's successors have settled: OR their rows into R(j) once, release predecessors."""
    words = inst.words
    row = state[j * words : (j + 1) * words]
    for e in range(inst.succ_ptr[j], inst.succ_ptr[j + 1]):
        d = inst.succ[e]
        other = state[d * words : (d + 1) * words]
        for w in range(words):
            row[w] |= other[w]
        row[d >> 6] |= np.int64(1) << (d & 63)
    ctr[ADVANCES] += 1
    k = 0
    for e in range(inst.pred_ptr[j], inst.pred_ptr[j + 1]):
        p = inst.pred[e]
        if atomic_fetch_add(state, inst.counts + p, -1) == 1:
            out[k] = p
            k += 1
    return k


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    """Constant: each component is popped once, whatever the order (see the module)."""
    return np.int64(0)


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    """Never: a component is pushed once, when its last successor settles."""
    return False


# --- instances, answers, reference ---------------------------------------------------------


def rows_bytes(ncomp: int) -> int:
    """Bytes of one copy of the closure's rows over ``ncomp`` components."""
    return 8 * ncomp * -(-ncomp // 64)


def _check_fits(graph: Graph, ncomp: int) -> None:
    """Refuse, in one line, a condensation whose rows do not fit the memory bound."""
    from llpbench.graphs.limits import MAX_MEMORY_ENV, human_bytes, memory_bound

    need, (bound, explicit) = COPIES * rows_bytes(ncomp), memory_bound()
    if need > bound:
        source = f"the {MAX_MEMORY_ENV} bound" if explicit else "the memory available"
        raise SpecError(
            f"transitive-closure: {graph.name} has {ncomp:,} strongly connected components; "
            f"their reachability rows (state, answer, reference) need {human_bytes(need)}, "
            f"more than {source} ({human_bytes(bound)})"
        )


def instance(graph: Graph) -> Instance:
    """The transitive-closure instance of ``graph`` (weights ignored; an undirected graph's
    arcs count both ways), over its condensation.

    Raises
    ------
    SpecError
        If the rows over its components do not fit in memory (see the module).
    """
    cond = condense(graph)
    _check_fits(graph, cond.ncomp)
    ncomp = cond.ncomp
    words = (ncomp + 63) // 64
    counts = np.diff(cond.succ_ptr)
    cyclic = np.flatnonzero(cond.cyclic)

    def init_state() -> np.ndarray:
        state = np.full(ncomp * words + ncomp, 0, dtype=np.int64)  # written: no page faults
        rows = state[: ncomp * words].reshape(ncomp, words)
        rows[cyclic, cyclic >> 6] |= (np.uint64(1) << (cyclic.astype(np.uint64)
                                                       & np.uint64(63))).view(np.int64)
        state[ncomp * words :] = counts
        return state

    arrays = Dag(cond.succ_ptr, cond.succ, cond.pred_ptr, cond.pred, np.int64(ncomp),
                 np.int64(words), np.int64(ncomp * words))
    return Instance(
        problem=__name__,
        arrays=arrays,
        n=ncomp,
        max_out=int(np.diff(cond.pred_ptr).max(initial=0)),
        init_state=init_state,
        init_work=np.flatnonzero(counts == 0).astype(np.int64),  # the sinks
        bucket_width=1,
        meta={"graph": graph, "words": words, "components": ncomp,
              "dag_arcs": int(cond.succ.shape[0]), "labels": cond.labels,
              "condense_seconds": cond.seconds},
        max_rounds=ncomp + 1,  # a DAG path visits each component at most once
    )


def _kron(size: int, seed: int) -> Graph:
    from llpbench.graphs.generators import rmat

    scale = int(size).bit_length() - 1
    if size != 1 << scale:
        raise SpecError(f"transitive-closure --variant kron: size must be a power of 2, "
                        f"got {size}")
    return rmat(scale, KRON_EDGE_FACTOR, seed, a=0.57, b=0.19, c=0.19, directed=True,
                name=f"kron-directed-s{scale}-ef{KRON_EDGE_FACTOR}-seed{seed}")


def generate(size: int, seed: int, variant: str = "uniform") -> Instance:
    """A random directed graph on ``size`` vertices of ``variant`` (see the module)."""
    from llpbench.graphs.generators import uniform_random

    if size is None or size < 1:
        raise SpecError(f"transitive-closure: size must be >= 1, got {size}")
    if variant not in VARIANTS:
        raise SpecError(f"transitive-closure: unknown variant {variant!r}; known: {VARIANTS}")
    if variant == "kron":
        return instance(_kron(int(size), seed))
    return instance(uniform_random(int(size), AVG_DEGREE, seed, directed=True))


def make(graph: Graph | None, size: int | None, seed: int, source: int | None,
         variant: str = "uniform") -> Instance:
    """Runner entry point: the closure of ``graph``, or of a generated graph of ``size``."""
    if graph is not None:
        return instance(graph)
    if size is None:
        raise SpecError("transitive-closure needs a size or a graph")
    return generate(int(size), seed, variant)


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """The closure in condensed form (:func:`~llpbench.baselines.condensation.pack_closure`)."""
    ncomp, words = inst.meta["components"], inst.meta["words"]
    return pack_closure(inst.meta["labels"], state[: ncomp * words].reshape(ncomp, words))


def vertex_rows(result: np.ndarray) -> np.ndarray:
    """A condensed answer as the dense ``(n, ceil(n / 64))`` uint64 vertex bitset (bit v of
    row j: j reaches v): for small graphs and tests (n^2 / 8 bytes)."""
    labels, reach = unpack_closure(result)
    n = labels.shape[0]
    bits = np.unpackbits(reach.view(np.uint8), axis=1, bitorder="little")[:, : reach.shape[0]]
    dense = bits[labels][:, labels].astype(bool) if n else np.zeros((0, 0), dtype=bool)
    return _pack_rows(dense, (n + 63) // 64)


def _pack_rows(rows: np.ndarray, words: int) -> np.ndarray:
    """Boolean ``(r, k)`` rows as ``(r, words)`` uint64 bitsets (bit v & 63 of word v >> 6)."""
    padded = np.zeros((rows.shape[0], words * 64), dtype=bool)
    padded[:, : rows.shape[1]] = rows
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64)


def _strong_components(mat) -> tuple[np.ndarray, int]:
    """scipy's strong components, renumbered canonically (by their smallest vertex)."""
    from scipy.sparse.csgraph import connected_components

    ncomp, lab = connected_components(mat, directed=True, connection="strong")
    n = lab.shape[0]
    smallest = np.full(ncomp, n, dtype=np.int64)
    np.minimum.at(smallest, lab, np.arange(n, dtype=np.int64))
    rank = np.empty(ncomp, dtype=np.int64)
    rank[np.argsort(smallest, kind="stable")] = np.arange(ncomp, dtype=np.int64)
    return rank[lab], int(ncomp)


@checks_reading
def reference(inst: Instance) -> np.ndarray:
    """The closure by scipy's strong components and Python-integer sets in Kahn order over
    the condensation, on the graph as the verifier reads it (self-loops included: see
    :func:`~llpbench.graphs.independent.reference_structure`)."""
    from llpbench.graphs.independent import reference_structure

    mat = reference_structure(inst.meta["graph"]).tocoo()
    labels, ncomp = _strong_components(mat.tocsr())
    a, b = labels[mat.row], labels[mat.col]
    cyclic = np.bincount(labels, minlength=ncomp) > 1
    cyclic[a[a == b]] = True
    arcs = np.unique(a[a != b] * np.int64(ncomp) + b[a != b])
    src, dst = (arcs // ncomp).tolist(), (arcs % ncomp).tolist()
    succs: list[list[int]] = [[] for _ in range(ncomp)]
    preds: list[list[int]] = [[] for _ in range(ncomp)]
    for u, v in zip(src, dst, strict=True):
        succs[u].append(v)
        preds[v].append(u)
    left = [len(s) for s in succs]
    ready = [c for c in range(ncomp) if left[c] == 0]
    sets = [0] * ncomp
    while ready:
        c = ready.pop()
        acc = 1 << c if cyclic[c] else 0
        for d in succs[c]:
            acc |= sets[d] | (1 << d)
        sets[c] = acc
        for p in preds[c]:
            left[p] -= 1
            if left[p] == 0:
                ready.append(p)
    words = (ncomp + 63) // 64
    reach = np.zeros((ncomp, words), dtype=np.uint64)
    for c, s in enumerate(sets):
        if s:
            reach[c] = np.frombuffer(s.to_bytes(8 * words, "little"), dtype="<u8")
    return pack_closure(labels, reach)


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if the condensed closures agree exactly (the same components, the same rows),
    else a one-line reason."""
    if disputed := dispute_of(expected):  # the verifier read the file otherwise
        return disputed
    try:
        got = unpack_closure(result)
    except ValueError as err:
        return f"not a condensed closure: {err}"
    want = unpack_closure(expected)
    if got.labels.shape != want.labels.shape:
        return f"closure of {got.labels.shape[0]} vertices, expected {want.labels.shape[0]}"
    bad = np.flatnonzero(got.labels != want.labels)
    if bad.size:
        v = int(bad[0])
        return (f"components differ at {bad.size} vertices, first vertex {v}: component "
                f"{got.labels[v]}, expected {want.labels[v]}")
    if got.reach.shape != want.reach.shape:
        return f"rows of shape {got.reach.shape}, expected {want.reach.shape}"
    bad_rows = np.flatnonzero((got.reach != want.reach).any(axis=1))
    if bad_rows.size:
        c = int(bad_rows[0])
        j = int(np.flatnonzero(want.labels == c)[0])
        count = int(np.bitwise_count(got.reach[c]).sum())
        wanted = int(np.bitwise_count(want.reach[c]).sum())
        return (f"{bad_rows.size} components reach otherwise, first vertex {j} (component "
                f"{c}): reaches {count} components, expected {wanted}")
    return None


# --- baselines and floor -------------------------------------------------------------------


def baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """SCC condensation and one bitset pass (see :mod:`llpbench.baselines.scc_closure`)."""
    from llpbench.baselines.scc_closure import scc_closure

    return scc_closure(inst.meta["graph"], threads)


def scipy_baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """The same pass over scipy's strong components (the in-process SCC peer)."""
    from llpbench.baselines.scc_closure import scipy_scc_closure

    return scipy_scc_closure(inst.meta["graph"], threads)


#: The baselines by name, the default first (``--baseline NAME`` picks another).
BASELINES = {"scc-bitset": baseline, "scipy-scc-bitset": scipy_baseline}


def condensation_floor(inst: Instance) -> BaselineResult:
    """The condensation the LLP rows are solved over, timed again (Tarjan, the canonical
    numbers, the DAG's arcs): what an LLP row adds to its solve for the whole closure."""
    t0 = time.perf_counter()
    cond: Condensation = condense(inst.meta["graph"])
    wall = time.perf_counter() - t0
    return BaselineResult(None, cond.seconds, wall - cond.seconds, "condensation",
                          {"threads": 1, "components": cond.ncomp})


#: The floor timed beside every closure sweep (rows ``floor/condensation``).
FLOORS = {"condensation": condensation_floor}


def instance_bytes(size: int, variant: str | None = None) -> int:
    """A lower bound of the instance's peak bytes, checked before it is allocated
    (:func:`llpbench.problems.check_input`): the generated graph's CSR both ways and the
    condensation's arrays (the rows are checked once the components are known)."""
    return 8 * 8 * size
