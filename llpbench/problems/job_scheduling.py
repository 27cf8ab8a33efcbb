"""Job scheduling with prerequisites (earliest start times) as an LLP problem (Garg,
"Predicate detection to solve combinatorial optimization problems", SPAA 2020; LLP-FW,
Ribeiro Alves and Garg, 2026).

Formulation
    Jobs are the vertices of a DAG, an arc (i, j) meaning i must finish before j starts; job
    i takes ``duration[i]`` >= 1. State: start times ``s``, starting at 0 and advancing up.
    j is forbidden when some prerequisite i has ``s(i) + duration(i) > s(j)``; advancing j
    raises ``s(j)`` to the max of those terms and reports j's successors. The least state
    with nothing forbidden is the earliest schedule: s(j) is the longest duration-weighted
    path into j. Priority: the start time.

State word
    Each job's word packs its start and, below it, its count of *unsettled* prerequisites
    (``s << COUNT_BITS | count``), the count starting at the in-degree (auxiliary data in
    the state, as stable marriage keeps its proposals there). Raising ``s`` and lowering the
    count is then one CAS on one word.

Two statements of the same predicate
    *Direct* (``forbidden``/``advance``, the scanning solvers): scan j's prerequisites and
    raise ``s(j)`` (the count is left alone).
    *Released* (``work``, the worklist solvers): an item is a job whose prerequisites have
    all settled, so its start is final. ``work`` pushes its finish to each successor v with
    one CAS that raises ``s(v)`` and decrements v's count; the CAS that takes a count to zero
    has made v's start final and reports v. Every job is pushed at most once and every arc
    costs one CAS: Kahn's algorithm with the longest-path relaxation, run by the runtime's
    threads in whatever order the worklist picks (PTWB: by start time, a list schedule).
    While a job releases exactly one successor, the same call goes on with it (a chain needs
    no push and pop). The seed is the jobs with successors and no prerequisite.

Cost (counters per job): the released form pops at most one item per job (fewer where
chains run inline), advances ``s`` at most once per arc and retries only on CAS races; the
baseline does the same relaxations with plain loads and stores, so what remains is one
locked CAS per arc and the worklist's push and pop per released job. At 10^7 jobs (80 MB
of state words, far beyond the cache) the time is the cache misses of each job's own lines
(its offsets, duration and arcs) and of its successors' words: ``prefetch`` fetches a
job's word, duration and first arcs while the job ``PREFETCH_AHEAD`` places before it in
a batch is worked (the level worklists hand out batches), and ``work`` fetches a released
job's offsets and duration as it releases it. Same-process A/B at 10^7, one thread, best
worklist, medians of 3 (2026-12-07, 2-core VM): 1.50x -> 1.22x Kahn's time (sparse),
1.21x -> 0.82x (layered). Tried and dropped: fetching every successor's word before the
CAS loop (1.15-1.2x slower), no inline chains (1.31x against 1.25x), bucket widths 32 to
2^20 (no change). A Kahn loop over the packed word with the same job prefetch puts the
locked CAS at about 17% of the time against plain stores (1.94 against 1.66 s), and the
packed word is itself a gain (one line per arc where Kahn's start and count are two).
The scanning solvers, and the state-driven form this replaced (raise successors with an
atomic max on every change), advance a job once per longer path that reaches it before its
longest one: about 5.6 times per job on ``sparse`` DAGs (1e6 jobs) and about 190 on
``layered`` ones (1e5 jobs), where about 2% of every layer has no prerequisite and starts a
low wave that all later layers see first.

Instances (``VARIANTS``, the first is the default): ``generate(size, seed)`` draws a DAG with
:func:`llpbench.graphs.generators.random_dag`, mean out-degree ``AVG_DEGREE`` (``sparse``:
arcs along a random order, like the registry's DAG family; ``layered``: ``round(sqrt(n))``
layers, arcs between consecutive layers). ``make`` also takes any acyclic Graph (e.g. the
registry's DAG family), whose arc weights are ignored. Durations: seeded uniform integers
1..100. Reference: level-synchronous Kahn in numpy. Baseline: Kahn's algorithm with the
longest-path relaxation fused into its queue pass (numba, one thread), from the same
in-degrees the LLP state starts with.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError
from llpbench.graphs.generators import random_dag
from llpbench.graphs.graph import Graph
from llpbench.graphs.independent import checks_reading, dispute_of
from llpbench.llp.atomics import atomic_cas, atomic_load
from llpbench.llp.atomics import prefetch as fetch_ahead
from llpbench.llp.contract import Instance
from llpbench.llp.counters import ADVANCES, RETRIES
from llpbench.llp.launch import timed_call

NAME = "job-scheduling"
INPUT = "size"
VARIANTS = ("sparse", "layered")
AVG_DEGREE = 4.0
MAX_DURATION = 100
COUNT_BITS = 24  # low bits of a state word: unsettled prerequisites (in-degree < 2**24)
COUNT_MASK = (1 << COUNT_BITS) - 1
MAX_TOTAL_DURATION = (1 << (63 - COUNT_BITS)) - 1  # every start fits above the count

# --- kernels -------------------------------------------------------------------------------
# inst = (indptr, indices, rev_indptr, rev_sources, durations); state[j] = s(j) << COUNT_BITS
# | unsettled prerequisites of j. Arrays are used on paths every call takes, never last in a
# branch: numba cannot prune the atomic incref/decref pair of an array whose last use is
# conditional, and it would cost more than the work (see knapsack.py).


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return state.shape[0]


@njit(nogil=True, cache=True, inline="always")
def _start(state, j):
    return atomic_load(state, j) >> COUNT_BITS


@njit(nogil=True, cache=True, inline="always")
def _raise(state, j, start, settle, ctr):
    """One CAS: raise s(j) to ``start`` (if below) and take ``settle`` (0 or 1) off j's count.
    Returns the count before."""
    while True:
        old = atomic_load(state, j)
        new = max(old & ~COUNT_MASK, start << COUNT_BITS) | ((old & COUNT_MASK) - settle)
        if new == old or atomic_cas(state, j, old, new):
            ctr[ADVANCES] += (new >> COUNT_BITS) > (old >> COUNT_BITS)
            return old & COUNT_MASK
        ctr[RETRIES] += 1


@njit(nogil=True, cache=True, inline="always")
def _earliest(rev_indptr, rev_sources, duration, state, j):
    """max(s(j), max over prerequisites i of s(i) + duration(i))."""
    best = _start(state, j)
    for e in range(rev_indptr[j], rev_indptr[j + 1]):
        i = rev_sources[e]
        best = max(best, _start(state, i) + duration[i])
    return best


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    return _earliest(inst[2], inst[3], inst[4], state, j) > _start(state, j)


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    best = _earliest(inst[2], inst[3], inst[4], state, j)
    _raise(state, j, best, 0, ctr)
    indptr, indices = inst[0], inst[1]
    k = 0
    for e in range(indptr[j], indptr[j + 1]):
        out[k] = indices[e]
        k += 1
    return k


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    """Job j's start is final: push its finish to its successors, report those it settled
    (going on in this call while exactly one is)."""
    indptr, indices, dur = inst[0], inst[1], inst[4]
    k = 1
    out[0] = j
    while k == 1:
        j = out[0]
        finish = _start(state, j) + dur[j]
        k = 0
        for e in range(indptr[j], indptr[j + 1]):
            v = indices[e]
            if _raise(state, v, finish, 1, ctr) == 1:  # j was v's last unsettled prerequisite
                fetch_ahead(indptr, v)  # v's offsets and duration: v is worked next (a
                fetch_ahead(dur, v)  # chain) or soon; its state word was just written
                out[k] = v
                k += 1
    return k


@njit(nogil=True, cache=True)
def prefetch(inst, state, j):
    """Job j is worked soon: fetch its state word, its duration and the first of its arcs
    (its CSR offset is read here: one load that may miss, so that the arcs' line, which
    depends on it, is on its way too)."""
    fetch_ahead(inst[1], inst[0][j])
    fetch_ahead(inst[4], j)
    fetch_ahead(state, j)


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return _start(state, j)


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    """Never: a settled job is pushed once, by the call that settled it."""
    return False


# --- instances -----------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def _kahn(indptr, indices, pending, duration, start):
    """Kahn's algorithm: the order in which jobs leave the queue (shorter than n if the graph
    has a cycle), counting ``pending`` down. With ``duration`` (n entries; empty: order only)
    each job's finish is pushed into ``start`` of its successors as it leaves the queue, so
    ``start`` ends as the earliest starts: the longest-path pass fused into the same sweep."""
    n = indptr.shape[0] - 1
    relax = duration.shape[0] == n
    order = np.empty(n, dtype=np.int64)
    tail = 0
    for v in range(n):
        if pending[v] == 0:
            order[tail] = v
            tail += 1
    head = 0
    while head < tail:
        u = order[head]
        head += 1
        finish = start[u] + duration[u] if relax else 0
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if relax and finish > start[v]:
                start[v] = finish
            pending[v] -= 1
            if pending[v] == 0:
                order[tail] = v
                tail += 1
    return order[:tail]


@njit(nogil=True, cache=True)
def topological_order(indptr, indices):
    """Kahn's order of the vertices; shorter than n if the graph has a cycle."""
    indeg = np.zeros(indptr.shape[0] - 1, dtype=np.int64)
    for e in range(indices.shape[0]):
        indeg[indices[e]] += 1
    none = np.empty(0, dtype=np.int64)
    return _kahn(indptr, indices, indeg, none, none)


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
    outdeg, indeg = graph.out_degrees(), np.diff(rptr).astype(np.int64)
    if n and (indeg.max() > COUNT_MASK or int(duration.sum()) > MAX_TOTAL_DURATION):
        raise SpecError(
            f"job-scheduling: {graph.name}: a job has over {COUNT_MASK} prerequisites or the "
            f"durations sum past {MAX_TOTAL_DURATION}; the state word cannot hold them"
        )
    indeg.setflags(write=False)

    def init_state() -> np.ndarray:
        return indeg.copy()  # s = 0, count = in-degree

    return Instance(
        problem=__name__,
        arrays=(graph.indptr, graph.indices, rptr, rsrc, duration),
        n=n,
        max_out=int(outdeg.max(initial=0)),
        init_state=init_state,
        init_work=np.flatnonzero((outdeg > 0) & (indeg == 0)).astype(np.int64),
        bucket_width=max(1, int(np.median(duration))) if n else 1,
        meta={"graph": graph, "integer": True, "in_degrees": indeg},
        max_rounds=n + 1,  # a path of the DAG has at most n - 1 arcs
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
    return state >> COUNT_BITS


@checks_reading
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
def longest_path_starts(indptr, indices, duration, in_degrees):
    """Earliest starts by Kahn's algorithm, each job's finish pushed to its successors as it
    leaves the queue (one pass over the arcs; ``in_degrees`` is copied, not changed)."""
    start = np.zeros(indptr.shape[0] - 1, dtype=np.int64)
    _kahn(indptr, indices, in_degrees.copy(), duration, start)
    return start


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if every start time agrees exactly, else a one-line reason."""
    if disputed := dispute_of(expected):  # the verifier read the file otherwise
        return disputed
    if result.shape != expected.shape:
        return f"answer has {result.shape[0]} jobs, expected {expected.shape[0]}"
    bad = np.flatnonzero(result != expected)
    if bad.size:
        j = int(bad[0])
        return f"{bad.size} jobs differ, first {j}: start {result[j]}, expected {expected[j]}"
    return None


def baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """Kahn's algorithm with the longest-path pass fused in (``threads`` is ignored), from the
    instance's in-degrees (as the LLP state is); compilation timed apart."""
    args = (inst.arrays[0], inst.arrays[1], inst.arrays[4], inst.meta["in_degrees"])
    start, seconds, compile_s = timed_call(longest_path_starts, *args)
    return BaselineResult(start, seconds, compile_s, "kahn-longest-path", {"threads": 1})


#: The baselines by name, the default first.
BASELINES = {"kahn-longest-path": baseline}


def instance_bytes(size: int, variant: str | None = None) -> int:
    """A lower bound of the instance's peak bytes, checked before it is allocated
    (:func:`llpbench.problems.check_input`): the DAG of ``size`` jobs and about
    ``AVG_DEGREE`` arcs each, as a read graph is estimated."""
    from llpbench.graphs.limits import graph_bytes

    return graph_bytes(size, int(AVG_DEGREE * size))
