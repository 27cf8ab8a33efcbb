"""Single-source shortest paths as an LLP problem (LLP-FW, Ribeiro Alves and Garg, 2026;
Garg, "Predicate detection to solve combinatorial optimization problems", SPAA 2020).

Formulation
    State: tentative distances ``d``, starting at 0 for the source and infinity elsewhere;
    a state advances by *lowering* distances. ``j`` is forbidden when some in-arc (u, j)
    has ``d(u) + w(u, j) < d(j)``: j cannot keep its value in any solution reachable from
    here. Advancing j lowers ``d(j)`` with an atomic min (lock-free: any thread may advance
    any index) and reports j's out-neighbours, whose predicate mentions ``d(j)``. Priority:
    the tentative distance.

Two statements of the same predicate
    *Direct* (``forbidden``/``advance``, used by the scanning solvers): scan j's in-arcs.
    *Incremental* (``work``, used by the worklist solvers): when u advances, the only terms
    that can have become true are ``d(u) + w(u, v) < d(v)`` for u's out-neighbours v, so
    the item "u advanced" relaxes exactly those, advancing each v it makes non-forbidden
    and reporting it. Scanning in-arcs on every pop costs 7-19 pops per reached vertex on
    Kronecker graphs; the incremental form needs about 2 (``table overhead``, ``items/v``); the
    ``items`` and ``advances`` counters show the difference.

Weights: int64 (exact; unreachable = INT64 max) or non-negative float64 (atomic min on
the bit pattern; unreachable = inf). Reference: scipy's Dijkstra.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.baselines.delta.family import GridSolver
from llpbench.graphs.graph import Graph
from llpbench.graphs.independent import checks_reading, dispute_of
from llpbench.llp.atomics import atomic_load, atomic_min
from llpbench.llp.atomics import prefetch as hint
from llpbench.llp.contract import Instance
from llpbench.llp.counters import ADVANCES, RETRIES
from llpbench.problems.tuned import LEVELS as FOR_LEVELS

NAME = "sssp"
INPUT = "graph"
USES_WEIGHTS = True  # a graph with negative file weights is refused (check_input)
INT_INF = np.iinfo(np.int64).max
FLOAT_PRIORITY_SCALE = float(2**20)  # float distances become int64 priorities at 2^-20 resolution



class Arrays(NamedTuple):
    """What the kernels read (:attr:`Instance.arrays`), by name: numba compiles a named
    tuple's fields to the same loads as a plain tuple's items."""

    indptr: np.ndarray  # CSR offsets of the out-arcs
    heads: np.ndarray  # out-arc heads (int32 halves of the packed arcs when they fit)
    weights: np.ndarray  # out-arc weights, beside ``heads``
    rev_indptr: np.ndarray  # CSR offsets of the in-arcs
    rev_tails: np.ndarray  # in-arc tails
    rev_weights: np.ndarray  # in-arc weights
    priority_scale: np.int64 | np.float64  # distance x this = priority (int64)
    unreached: np.int64 | np.float64  # the distance of an unreached vertex


# --- kernels -------------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return state.shape[0]


@njit(nogil=True, cache=True)
def _best_in(inst, state, j):
    """min over in-arcs (u, j) of d(u) + w(u, j), skipping unreached u."""
    rptr, rsrc, rw, inf = inst.rev_indptr, inst.rev_tails, inst.rev_weights, inst.unreached
    best = atomic_load(state, j)
    for e in range(rptr[j], rptr[j + 1]):
        du = atomic_load(state, rsrc[e])
        if du != inf:
            cand = du + rw[e]
            if cand < best:
                best = cand
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
    # Keep this small: LLVM inlines it into the worklist worker. A version holding a second
    # (plain-store, one-thread) path was not inlined, and the call, with nine arrays, paid
    # numba's reference counts on every item: 1.1-1.6x slower (docs/gap-comparison.md).
    indptr, indices, weights = inst.indptr, inst.heads, inst.weights
    uj = np.uint64(j)  # unsigned indices: no negative-index wraparound test in the loop
    dj = atomic_load(state, uj)
    k = 0
    for e in range(indptr[uj], indptr[uj + np.uint64(1)]):
        ue = np.uint64(e)
        v = np.uint64(indices[ue])
        cand = dj + weights[ue]
        if cand < atomic_load(state, v):
            if cand < atomic_min(state, v, cand):
                out[k] = v
                k += 1
                ctr[ADVANCES] += 1
            else:
                ctr[RETRIES] += 1
    return k


@njit(nogil=True, cache=True)
def prefetch(inst, state, j):
    """Start fetching j's CSR offset and distance, which ``stale`` and ``work`` read first."""
    uj = np.uint64(j)
    hint(inst.indptr, uj)
    hint(state, uj)


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return np.int64(atomic_load(state, j) * inst.priority_scale)


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    return priority(inst, state, j) < key


# --- instances, answers, reference ---------------------------------------------------------


def instance(graph: Graph, source: int = 0, level_delta: float | None = None) -> Instance:
    """The SSSP instance of ``graph`` from ``source``.

    Integer weights that fit use the Δ-stepping kernel's compact form (arcs as interleaved
    int32 head/weight pairs, int32 distances: see
    :func:`llpbench.baselines.delta.stepping.distance_type`). ``level_delta`` (weight units)
    sets the level worklists' :attr:`~Instance.bucket_width` (priority units; the width tuned
    for the graph's family, as Galois tunes its OBIM shift); default the median arc weight.

    Raises
    ------
    ValueError
        If ``source`` is not a vertex of ``graph``.
    """
    from llpbench.baselines.delta.stepping import distance_type

    if not 0 <= source < graph.n:
        raise ValueError(f"source {source} is not a vertex of {graph.name} (0..{graph.n - 1})")
    rptr, rsrc, rw = graph.reverse
    heads, wts = graph.indices, graph.weights
    if graph.integer_weights:
        dtype, inf = distance_type(graph)
        scale, inf = np.int64(1), np.int64(inf)
        if dtype == np.int32:
            heads, wts = graph.packed_arcs
    else:
        dtype, scale, inf = np.float64, np.float64(FLOAT_PRIORITY_SCALE), np.float64(np.inf)
    arrays = Arrays(graph.indptr, heads, wts, rptr, rsrc, rw, scale, inf)
    n = graph.n

    def init_state() -> np.ndarray:
        d = np.full(n, inf, dtype=dtype)
        d[source] = 0
        return d

    return Instance(
        problem=__name__,
        arrays=arrays,
        n=n,
        max_out=int(graph.out_degrees().max(initial=0)),
        init_state=init_state,
        init_work=np.array([source], dtype=np.int64),
        bucket_width=bucket_width(graph, scale, level_delta),
        meta={"source": source, "graph": graph, "integer": graph.integer_weights},
        max_rounds=n + 1,  # Bellman-Ford: a shortest path has at most n - 1 arcs
    )


def make(
    graph: Graph | None, size: int | None, seed: int, source: int, params: dict | None = None
) -> Instance:
    """Runner entry point: the instance of ``graph`` from ``source``; ``params``
    (looked up through :data:`TUNED`) set the level worklists' bucket width."""
    if graph is None:
        raise ValueError("sssp needs a graph")
    return apply_params(instance(graph, source), params or {})


def bucket_width(graph: Graph, scale, level_delta: float | None = None) -> int:
    """The level worklists' width in priority units (weight x ``scale``): ``level_delta``
    (weight units), else the median weight."""
    if level_delta is not None:
        return max(1, int(float(level_delta) * float(scale)))
    if graph.m == 0:
        return 1
    return max(1, int(graph.weight_median * float(scale)))


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """Distances as float64, ``inf`` for unreachable vertices (exact for integer weights)."""
    d = state.astype(np.float64)
    if state.dtype.kind == "i":
        d[state == inst.arrays.unreached] = np.inf
    return d


@checks_reading
def reference(inst: Instance) -> np.ndarray:
    """scipy's Dijkstra from the source, on the graph as the verifier reads it.

    The matrix comes from :func:`~llpbench.graphs.independent.reference_matrix`: the source
    file re-read by a separate reader (parallel arcs merged by minimum), so a misread file
    cannot make a wrong answer look right.
    """
    from scipy.sparse.csgraph import dijkstra

    from llpbench.graphs.independent import reference_matrix

    mat = reference_matrix(inst.meta["graph"])
    if not 0 <= inst.meta["source"] < mat.shape[0]:  # the verifier's graph is smaller
        return np.full(mat.shape[0], np.inf)
    return dijkstra(mat, directed=True, indices=inst.meta["source"])


def baseline(inst: Instance, threads: int = 1, delta: float | None = None) -> BaselineResult:
    """Tuned Δ-stepping (the paper's baseline) on the same graph and source."""
    from llpbench.baselines.delta.stepping import delta_stepping

    return delta_stepping(inst.meta["graph"], inst.meta["source"], threads=threads, delta=delta)


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if the distances agree (exactly; float weights to 1e-9 relative), else why not."""
    if disputed := dispute_of(expected):  # the verifier read the file otherwise
        return disputed
    if result.shape != expected.shape:
        return f"answer has {result.shape[0]} entries, expected {expected.shape[0]}"
    count, first = 0, -1
    for lo in range(0, expected.shape[0], _VERIFY_CHUNK):  # bounded temporaries at any n
        got, want = result[lo:lo + _VERIFY_CHUNK], expected[lo:lo + _VERIFY_CHUNK]
        unreached = np.isinf(want)
        ok = (np.isinf(got) == unreached) & (
            np.isclose(got, want, rtol=1e-9, atol=0.0) | unreached)
        bad = np.flatnonzero(~ok)
        if bad.size:
            count += bad.size
            first = lo + int(bad[0]) if first < 0 else first
    if count:
        return f"{count} vertices differ, first {first}: got {result[first]}, " \
               f"expected {expected[first]}"
    return None


#: Entries compared at a time by :func:`verify`: ``np.isclose`` over a whole distance array
#: makes several float64 copies of it (12 bytes per arc more than the run's peak on a
#: road graph of 12 M vertices).
_VERIFY_CHUNK = 1 << 20


def _family_delta(graph: Graph, **how) -> tuple[int | float, dict]:
    from llpbench.baselines.delta.chooser import family_delta_for

    return family_delta_for(graph, **how)


#: The level worklist the bucket width is tuned on: OBIM, the one that scales; ``bucketed``
#: orders by the same levels and fuses the same runs, and shares its width.
LEVEL_TUNED_ON = "obim"


def _levels_solve(
    graph: Graph, source: int, threads: int, level_delta
) -> tuple[np.ndarray, float, float]:
    """One LLP solve over the level worklist at width ``level_delta`` (weight units; a point
    of the family rule's grid)."""
    from llpbench.llp.runtime import solve_llp

    inst = instance(graph, source, level_delta=level_delta)
    r = solve_llp(inst, "worklist", LEVEL_TUNED_ON, threads)
    return answer(inst, r.state), r.seconds, r.seconds


def _levels_digest() -> str:
    """The code a tuned level width depends on: the framework (solver template, worklists,
    fusion, atomics) and this problem's kernels."""
    import inspect

    from llpbench.io import sha256_hex
    from llpbench.llp.compile import framework_sources

    kernels = "".join(inspect.getsource(f.py_func) for f in (work, priority, stale, prefetch))
    return sha256_hex(framework_sources(), kernels)[:12]


#: What the family rule times to tune ``level_delta`` (cache entries ``family@T/level-worklists``).
LEVELS = GridSolver(
    "level-worklists", _levels_solve, _levels_digest, "the level worklists' width"
)


def _level_delta(graph: Graph, **how) -> tuple[int | float, dict]:
    from llpbench.baselines.delta.chooser import family_delta_for

    return family_delta_for(graph, solver=LEVELS, **how)


#: Parameters tuned per graph and thread count (:mod:`llpbench.problems.tuned`), each by the
#: family rule of ``configs/delta.toml`` at that thread count: ``delta`` times the Δ-stepping
#: baseline (its Δ on every path), ``level_delta`` the LLP solver over the level worklist (the
#: level worklists' width in weight units, :func:`bucket_width` in priority units: with bucket
#: fusion LLP wants wider levels than Δ-stepping on road networks, 2048 against 64 at one
#: thread). Both are weight units; a given ``delta`` (``--delta``) sets both.
TUNED = {"delta": _family_delta, "level_delta": _level_delta}
TUNED_FOLLOWS = {"level_delta": "delta"}
#: An LLP solve over a level worklist needs only its width: it never tunes Δ-stepping's Δ.
TUNED_FOR = {"level_delta": FOR_LEVELS}


def apply_params(inst: Instance, params: dict) -> Instance:
    """Set ``inst``'s tuned parameters in place: the runner looks them up per thread count
    and applies them to the one instance all thread counts share."""
    inst.params = dict(params)
    level_delta = params.get("level_delta", params.get("delta"))
    if level_delta is not None:
        inst.bucket_width = bucket_width(
            inst.meta["graph"], inst.arrays.priority_scale, level_delta
        )
    return inst


def arc_sweep_floor(inst: Instance) -> BaselineResult:
    """The one-pass arc sweep of the instance's graph (:mod:`llpbench.baselines.arc_sweep`)."""
    from llpbench.baselines.arc_sweep import arc_sweep

    return arc_sweep(inst.meta["graph"])


#: The floors timed beside every SSSP sweep at one thread (rows ``floor/NAME``).
FLOORS = {"arc-sweep": arc_sweep_floor}

#: The baselines by name, the default first (``--baseline NAME`` picks another; the peers of
#: :mod:`llpbench.baselines.peers` that solve SSSP follow them).
BASELINES = {"delta-stepping": baseline}

#: Tables compare LLP with the default baseline (the paper's Table 2: tuned Δ-stepping), not
#: with whichever baseline or peer happened to be fastest; others are named (``--against``).
COMPARED_WITH_DEFAULT = True
