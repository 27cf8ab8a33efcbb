"""Job scheduling with prerequisites (earliest start times) as an LLP problem (Garg,
"Predicate detection to solve combinatorial optimization problems", SPAA 2020; LLP-FW,
Ribeiro Alves and Garg, 2026).

Formulation
    Jobs are the vertices of a DAG, an arc (i, j) meaning i must finish before j starts; job
    i takes ``duration[i]`` >= 1. State: start times ``s``, starting at 0 and advancing up.
    j is forbidden when some prerequisite i has ``s(i) + duration(i) > s(j)``; advancing j
    raises ``s(j)`` to the max of those terms with an atomic max and reports j's successors.
    The least state with nothing forbidden is the earliest schedule: s(j) is the longest
    duration-weighted path into j. Priority: the start time.

Two statements of the same predicate (as for SSSP)
    *Direct* (``forbidden``/``advance``): scan j's prerequisites. *Incremental* (``work``):
    when i advanced, only the terms ``s(i) + duration(i) > s(j)`` of its successors j can
    have become true, so the item "i advanced" raises those with an atomic max and reports
    the ones it raised. The worklist seed is the jobs with successors and no
    prerequisite: every other job has one, so it is raised (durations are >= 1) and its
    item pushed at least once.

Cost: a job is advanced once per longer path that reaches it before its longest one, which
no state-based priority prevents (only a topological order would: the baseline's). On
``sparse`` DAGs that is about 5.6 advances per job (1e6 jobs); on ``layered`` ones, where
about 2% of every layer has no prerequisite and starts a low wave that all later layers see
first, about 190 per job (1e5 jobs, 316 layers): the adversarial case.

Instances (``VARIANTS``, the first is the default): ``generate(size, seed)`` draws a DAG with
:func:`llpbench.graphs.generators.random_dag`, mean out-degree ``AVG_DEGREE`` (``sparse``:
arcs along a random order, like the registry's DAG family; ``layered``: ``round(sqrt(n))``
layers, arcs between consecutive layers). ``make`` also takes any acyclic Graph (e.g. the
registry's DAG family), whose arc weights are ignored. Durations: seeded uniform integers
1..100. Reference: level-synchronous Kahn in numpy. Baseline: Kahn's topological order then
one longest-path pass over it (numba, one thread).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, typeof

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError
from llpbench.graphs.generators import random_dag
from llpbench.graphs.graph import Graph
from llpbench.llp.atomics import atomic_load, atomic_max
from llpbench.llp.contract import Instance
from llpbench.llp.counters import ADVANCES, RETRIES

NAME = "job-scheduling"
INPUT = "size"
VARIANTS = ("sparse", "layered")
AVG_DEGREE = 4.0
MAX_DURATION = 100

# --- kernels -------------------------------------------------------------------------------
# inst = (indptr, indices, rev_indptr, rev_sources, durations). Arrays are used on paths every
# call takes, never last in a branch: numba cannot prune the atomic incref/decref pair of an
# array whose last use is conditional, and it would cost more than the work (see knapsack.py).


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return state.shape[0]


@njit(nogil=True, cache=True, inline="always")
def _earliest(rev_indptr, rev_sources, duration, state, j):
    """max(s(j), max over prerequisites i of s(i) + duration(i))."""
    best = atomic_load(state, j)
    for e in range(rev_indptr[j], rev_indptr[j + 1]):
        i = rev_sources[e]
        best = max(best, atomic_load(state, i) + duration[i])
    return best


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    return _earliest(inst[2], inst[3], inst[4], state, j) > atomic_load(state, j)


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    best = _earliest(inst[2], inst[3], inst[4], state, j)
    raised = best > atomic_max(state, j, best)
    ctr[ADVANCES] += raised
    ctr[RETRIES] += not raised
    indptr, indices = inst[0], inst[1]
    k = 0
    for e in range(indptr[j], indptr[j + 1]):
        out[k] = indices[e]
        k += 1
    return k


@njit(nogil=True, cache=True)
def work(inst, state, i, out, ctr):
    indptr, indices, dur = inst[0], inst[1], inst[4]
    finish = atomic_load(state, i) + dur[i]
    k = 0
    for e in range(indptr[i], indptr[i + 1]):
        j = indices[e]
        if finish > atomic_load(state, j):
            if finish > atomic_max(state, j, finish):
                out[k] = j
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
    return atomic_load(state, j) > key


# --- instances -----------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def topological_order(indptr, indices):
    """Kahn's order of the vertices; shorter than n if the graph has a cycle."""
    n = indptr.shape[0] - 1
    indeg = np.zeros(n, dtype=np.int64)
    for e in range(indices.shape[0]):
        indeg[indices[e]] += 1
    order = np.empty(n, dtype=np.int64)
    tail = 0
    for v in range(n):
        if indeg[v] == 0:
            order[tail] = v
            tail += 1
    head = 0
    while head < tail:
        u = order[head]
        head += 1
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            indeg[v] -= 1
            if indeg[v] == 0:
                order[tail] = v
                tail += 1
    return order[:tail]


def durations(n: int, seed: int) -> np.ndarray:
    """Seeded job durations, uniform integers 1..``MAX_DURATION``."""
    return np.random.default_rng([int(seed), 0x10B]).integers(1, MAX_DURATION + 1, n)


def instance(graph: Graph, duration: np.ndarray) -> Instance:
    """The instance of the prerequisite DAG ``graph`` with job ``duration`` (>= 1).

    Raises
    ------
    SpecError
        If ``graph`` has a cycle (a self-loop too: a job that is its own prerequisite) or a
        duration is missing or below 1.
    """
    duration = np.ascontiguousarray(duration, dtype=np.int64)
    if duration.shape != (graph.n,) or (graph.n and duration.min() < 1):
        raise SpecError(f"job-scheduling: {graph.name} needs {graph.n} durations >= 1")
    if graph.loops.shape[0]:
        raise SpecError(
            f"job-scheduling: {graph.name}: job {int(graph.loops[0])} is its own prerequisite "
            f"(a self-loop; {graph.loops.shape[0]} such jobs); prerequisites need a DAG"
        )
    if topological_order(graph.indptr, graph.indices).shape[0] != graph.n:
        raise SpecError(f"job-scheduling: {graph.name} has a cycle; prerequisites need a DAG")
    rptr, rsrc, _ = graph.reverse
    n = graph.n
    outdeg = graph.out_degrees()
    return Instance(
        problem=__name__,
        arrays=(graph.indptr, graph.indices, rptr, rsrc, duration),
        n=n,
        max_out=int(outdeg.max(initial=0)),
        init_state=lambda: np.zeros(n, dtype=np.int64),
        init_work=np.flatnonzero((outdeg > 0) & (np.diff(rptr) == 0)).astype(np.int64),
        bucket_width=max(1, int(np.median(duration))) if n else 1,
        meta={"graph": graph, "integer": True},
    )


def generate(size: int, seed: int = 0, variant: str = "sparse") -> Instance:
    """A random DAG of ``size`` jobs (``variant`` in ``VARIANTS``) with seeded durations."""
    if size is None or size < 1:
        raise SpecError(f"job-scheduling needs a size >= 1, got {size}")
    if variant not in VARIANTS:
        raise SpecError(f"job-scheduling: unknown variant {variant!r}; known: {VARIANTS}")
    graph = random_dag(int(size), AVG_DEGREE, seed, layered=variant == "layered")
    return instance(graph, durations(graph.n, seed))


def make(
    graph: Graph | None, size: int | None, seed: int, source=None, variant: str = "sparse"
) -> Instance:
    """Runner entry point: jobs of ``graph`` if given, else ``generate(size, seed, variant)``."""
    if graph is not None:
        return instance(graph, durations(graph.n, seed))
    return generate(size, seed, variant)


# --- answers, reference, baseline ----------------------------------------------------------


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """Earliest start time of each job (int64)."""
    return state.copy()


def reference(inst: Instance) -> np.ndarray:
    """Level-synchronous Kahn in numpy: a level's jobs push their finish times forward.

    The prerequisites are read by the verifier's own path
    (:func:`~llpbench.graphs.independent.reference_structure`), not from the solver's CSR.
    """
    from llpbench.graphs.independent import reference_structure

    mat = reference_structure(inst.meta["graph"])
    n, indptr, dst = mat.shape[0], mat.indptr, mat.indices.astype(np.int64)
    out_degrees = np.diff(indptr)
    src = np.repeat(np.arange(n, dtype=np.int64), out_degrees)
    dur = inst.arrays[4]
    if dur.shape[0] != n:
        return np.zeros(n, dtype=np.int64)  # another graph than the instance's: verify says so
    start = np.zeros(n, dtype=np.int64)
    indeg = np.bincount(dst, minlength=n)
    level = np.flatnonzero(indeg == 0)
    while level.size:
        lo, counts = indptr[level], out_degrees[level]
        firsts = np.repeat(lo - (np.cumsum(counts) - counts), counts)  # the level's arcs
        arcs = np.arange(counts.sum(), dtype=np.int64) + firsts
        np.maximum.at(start, dst[arcs], start[src[arcs]] + dur[src[arcs]])
        heads, counts = np.unique(dst[arcs], return_counts=True)
        indeg[heads] -= counts
        level = heads[indeg[heads] == 0]
    return start


@njit(nogil=True, cache=True)
def longest_path_starts(indptr, indices, duration):
    """Earliest starts by one pass over Kahn's topological order."""
    order = topological_order(indptr, indices)
    start = np.zeros(indptr.shape[0] - 1, dtype=np.int64)
    for u in order:
        finish = start[u] + duration[u]
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if finish > start[v]:
                start[v] = finish
    return start


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if every start time agrees exactly, else a one-line reason."""
    if result.shape != expected.shape:
        return f"answer has {result.shape[0]} jobs, expected {expected.shape[0]}"
    bad = np.flatnonzero(result != expected)
    if bad.size:
        j = int(bad[0])
        return f"{bad.size} jobs differ, first {j}: start {result[j]}, expected {expected[j]}"
    return None


def baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """Topological order + longest-path pass (``threads`` is ignored), compile timed apart."""
    args = (inst.arrays[0], inst.arrays[1], inst.arrays[4])
    t0 = time.perf_counter()
    longest_path_starts.compile(tuple(typeof(a) for a in args))
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    start = longest_path_starts(*args)
    seconds = time.perf_counter() - t0
    return BaselineResult(start, seconds, compile_s, "topological-longest-path", {"threads": 1})
