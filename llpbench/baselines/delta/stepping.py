"""Δ-stepping single-source shortest paths: the tuned baseline of the LLP-FW evaluation.

Meyer and Sanders, "Δ-stepping: a parallelizable shortest path algorithm", J. Algorithms 49
(2003), in the shape of the GAP Benchmark Suite's ``sssp.cc`` (Beamer, Asanović and Patterson,
arXiv:1508.03619): vertices sit in buckets of width Δ by tentative distance; the lowest
non-empty bucket is processed by relaxing every out-arc of its vertices, and a vertex whose
distance drops is put into the bucket of its new distance.

Two kernels, each its own module, sharing the bins of :mod:`.bins`:

* **one thread** (:func:`.serial._solve_serial`): plain loads and stores, no atomics, no barriers,
  GAP's bins without its threads: a vertex is appended to the bucket of each new distance
  (append-only chunk lists, nothing unlinked), the current bucket is worked through until no
  entry arrives in it, and an entry whose vertex was already relaxed at its present distance
  is skipped. (An earlier version kept each vertex in exactly one bucket with intrusive
  doubly linked lists; the unlinking cost ~3x GAP's time per vertex on road networks.)
* **T threads** (:func:`.parallel._worker`), GAP's algorithm: a shared frontier holds the current
  bucket; threads claim chunks of it dynamically, relax with an atomic min and put improved
  vertices into *thread-local* bins; each thread keeps processing its own copy of the current
  bucket while it stays small (GAP's *bucket fusion*, which saves barriers on long thin
  buckets); then a min-reduction picks the next bucket, every thread appends its local bin for
  it to the shared frontier (mostly deduplicated with a per-vertex stamp) and a barrier starts the
  next round. Waiting threads yield the core (``sched_yield``), so T may exceed the cores.

Both kernels prefetch: while a vertex of a bin is processed, the CSR offsets and the distance
of the vertex ``PF_FAR`` entries ahead and the first arcs of the one ``PF_NEAR`` ahead are
requested (:func:`llpbench.llp.atomics.prefetch`), so the cache misses of several vertices
overlap instead of following one another (GAP's kernel has no prefetch; same-process A/B,
2026-12-05: 0.78x the time on the road network at one thread, 0.80-0.85x at two, 0.91x on
Kronecker and Graph500 graphs at one thread).

Buckets live in a ring of ``W`` slots (a power of two at least ``max_weight / Δ + 2``, so
that every relaxation from the current bucket lands inside the ring); when Δ is so small that
the ring would be too large, arcs landing beyond it go to a *far pile* that is pulled into the
ring when the ring's buckets run out. Local bins are linked lists of fixed-size chunks in a
per-thread pool that grows by doubling.

Weights int64 (exact) or non-negative float64 (bucket ``floor(d / Δ)``); answers are float64
distances with ``inf`` for unreachable vertices, like :func:`llpbench.problems.sssp.answer`.
"""

from __future__ import annotations

import math
import os
import time

import numpy as np

from llpbench.baselines import BaselineResult
from llpbench.baselines.delta.bins import (
    _PAD,
    BARRIER_SPINS,
    BOUND_ITEMS,
    CHUNK,
    COUNTER_NAMES,
    INIT_CHUNKS,
    INT_INF,
    MAX_RING_PARALLEL,
    MAX_RING_SERIAL,
    NO_BIN,
    ROW,
    SH_BIN,
    SH_END,
    SH_GO,
    SH_READY,
    SH_SIZE,
    SH_SLOTS,
    SH_SPINS,
)
from llpbench.baselines.delta.parallel import _worker
from llpbench.baselines.delta.serial import _solve_serial
from llpbench.graphs.graph import Graph
from llpbench.llp.launch import compile_kernel, launch_workers

__all__ = [
    "delta_stepping", "default_delta", "resolve_delta", "distance_type", "MAX_THREADS", "NAME",
    # the bins' sizes and counters, for tests and tools that inspect them
    "BOUND_ITEMS", "CHUNK", "INIT_CHUNKS", "COUNTER_NAMES",
]

NAME = "delta-stepping"
MAX_THREADS = 256
MAX_INT_DELTA = 2**62  # larger integer Δ values act alike (one bucket) and are clamped
#: The modules whose code a Δ-stepping timing depends on (the tuned-Δ cache key digests them).
KERNEL_MODULES = tuple(f"llpbench.baselines.delta.{m}" for m in ("bins", "serial", "parallel"))


# --------------------------------------------------------------------------- Python side


def _usable_cores() -> int:
    """The CPUs this process may run on (its affinity set), else the core count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_delta(graph: Graph) -> int | float:
    """The default Δ: the median arc weight (positive weights only if the median is 0).

    int for integer weights (at least 1), float otherwise (1.0 if no weight is positive).
    """
    w = graph.weights
    med = float(np.median(w)) if w.shape[0] else 0.0
    if med <= 0 and w.shape[0]:
        pos = w[w > 0]
        med = float(np.median(pos)) if pos.shape[0] else 0.0
    if graph.integer_weights:
        return max(1, int(round(med)))
    return med if med > 0 else 1.0


def resolve_delta(graph: Graph, delta: float | None) -> int | float:
    """The Δ actually used: ``delta`` as the weights' type (int >= 1), or the default.

    Raises
    ------
    ValueError
        If ``delta`` is not a positive finite number.
    """
    if delta is None:
        return default_delta(graph)
    d = float(delta)
    if not math.isfinite(d) or d <= 0:
        raise ValueError(f"delta must be a positive finite number, got {delta!r}")
    if graph.integer_weights:
        return min(max(1, int(math.floor(d))), MAX_INT_DELTA)
    return d


def distance_type(graph: Graph) -> tuple[type, int | float]:
    """The kernels' distance dtype and its "unreached" value.

    int32 (GAP's ``WeightT``) when the weights are integers packed as int32
    (:attr:`Graph.packed_arcs`) and no simple path can reach 2**31 - 1 ((n - 1) * max weight
    below it): half the bytes of int64 in the randomly accessed distance array. int64 for
    other integer weights, float64 (inf) for float weights.
    """
    if not graph.integer_weights:
        return np.float64, np.inf
    maxw = int(graph.weights.max()) if graph.m else 0
    if graph.packed_arcs is not None and max(graph.n - 1, 1) * maxw < 2**31 - 1:
        return np.int32, 2**31 - 1
    return np.int64, INT_INF


def _ring_size(graph: Graph, delta: int | float, cap: int) -> int:
    """Ring slots: a power of two >= max_weight / Δ + 2 (then no arc reaches past the ring)."""
    maxw = graph.weights.max() if graph.m else 0
    if graph.integer_weights:
        span = int(maxw) // int(delta) + 2
    else:
        ratio = float(maxw) / float(delta)
        span = int(ratio) + 2 if ratio < cap else cap
    ring = 2
    while ring < span and ring < cap:
        ring *= 2
    return ring


def _shift_of(delta: int) -> int:
    """log2(Δ) when the integer Δ is a power of two (buckets by a shift), else -1."""
    return delta.bit_length() - 1 if delta & (delta - 1) == 0 else -1


def _interleaved(graph: Graph) -> tuple[np.ndarray, np.ndarray, int]:
    """The packed int32 arcs as two *contiguous* arrays read at even positions (step 2):
    ``flat[2e]`` is arc e's head and ``flat[1:][2e]`` its weight. The strided views of
    :attr:`Graph.packed_arcs` are typed ``'A'`` layout by numba, which then reads each
    element's stride from memory and multiplies by it in the innermost loop."""
    heads, weights = graph.packed_arcs
    arcs = heads.base
    if arcs is None or arcs.shape != (graph.m, 2) or not arcs.flags.c_contiguous:
        arcs = np.stack([heads, weights], axis=1)
    flat = arcs.reshape(-1)
    return flat, flat[1:], 2


def delta_stepping(
    graph: Graph, source: int, *, threads: int = 1, delta: float | None = None
) -> BaselineResult:
    """Shortest-path distances from ``source`` by Δ-stepping on ``threads`` OS threads.

    Parameters
    ----------
    graph : Graph
        Non-negative int64 or float64 arc weights.
    source : int
        The source vertex.
    threads : int
        Worker threads, 1 to 256, whatever the number of cores; 1 runs the serial kernel
        (no atomics, no barriers).
    delta : float, optional
        Bucket width; default :func:`default_delta` (the median arc weight). Integer weights
        use ``max(1, floor(delta))``.

    Returns
    -------
    BaselineResult
        ``answer``: float64 distances, ``inf`` where unreachable (exact for int weights);
        ``seconds``: the solve, from the moment all workers are ready, plus the allocation
        and fill of its distances, frontier and stamps (``params["setup_seconds"]``), as
        GAP's Trial Time covers them (compilation, or loading it from numba's cache, is in
        ``compile_seconds``; starting the threads is not timed, as GAP's OpenMP threads are
        pooled); ``params``: ``{"delta": Δ used, "threads": T, "setup_seconds": s}``;
        ``counters``: buckets (rounds), processed
        (vertices whose arcs were relaxed), relaxations (arcs examined), improved (distances
        lowered), stale (bucket entries skipped), fused (processed by bucket fusion), far
        (far-pile moves), lost_races (atomic mins beaten by another thread), chunks (local
        bin chunks held by the threads, summed), ring (bucket ring slots).

    Raises
    ------
    ValueError
        If ``source`` is not a vertex, ``threads`` is out of range or ``delta`` is not positive.

    Examples
    --------
    >>> import numpy as np
    >>> g = Graph.from_edges(3, np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([1, 1, 5]))
    >>> delta_stepping(g, 0).answer.tolist()
    [0.0, 1.0, 2.0]
    """
    source, threads = _checked(graph, source, threads)
    delta = resolve_delta(graph, delta)
    t_setup = time.perf_counter()
    indptr, indices, weights, step, dist, inf = _kernel_arrays(graph, source)
    setup = time.perf_counter() - t_setup
    ctr = np.zeros((threads, ROW), dtype=np.int64)
    # Δ as the kernels take it: the weights' type, and its shift when a power of two
    delta_arg = np.int64(delta) if graph.integer_weights else np.float64(delta)
    shift = np.int64(_shift_of(delta) if graph.integer_weights else -1)
    csr = (indptr, indices, weights, np.int64(step), dist)
    maxdeg = np.int64(graph.out_degrees().max(initial=0))
    if threads == 1:
        ring = _ring_size(graph, delta, MAX_RING_SERIAL)
        seconds, compile_s, cpu_seconds = _run_serial(
            (*csr, np.int64(source), delta_arg, shift, np.int64(ring), maxdeg, ctr)
        )
    else:
        ring = _ring_size(graph, delta, MAX_RING_PARALLEL)
        seconds, compile_s, frontier_s = _run_parallel(
            csr, source, delta_arg, shift, ring, maxdeg, threads, ctr, indices.dtype
        )
        setup += frontier_s
        cpu_seconds = None
    seconds += setup  # GAP's Trial Time allocates and fills its arrays too (see _kernel_arrays)
    answer = dist.astype(np.float64)
    if graph.integer_weights:
        answer[dist == inf] = np.inf
    totals = ctr.sum(axis=0)
    counters = {name: int(totals[i]) for i, name in enumerate(COUNTER_NAMES)}
    counters["ring"] = int(ring)
    return BaselineResult(
        answer=answer,
        seconds=seconds,
        compile_seconds=compile_s,
        name=NAME,
        params={"delta": delta, "threads": threads, "setup_seconds": setup},
        counters=counters,
        cpu_seconds=cpu_seconds,
    )


def _checked(graph: Graph, source: int, threads: int) -> tuple[int, int]:
    """``source`` and ``threads`` as ints, or the ValueError that names the bad one."""
    n = graph.n
    if isinstance(source, bool) or not 0 <= int(source) < n:
        raise ValueError(f"source {source} is not a vertex of {graph.name} (0..{n - 1})")
    if not 1 <= int(threads) <= MAX_THREADS:
        raise ValueError(f"threads must be between 1 and {MAX_THREADS}, got {threads}")
    return int(source), int(threads)


def _kernel_arrays(graph: Graph, source: int) -> tuple:
    """The arcs as the kernels read them (``step`` apart) and the distances, the source's 0:
    ``(indptr, heads, weights, step, dist, unreached)``.

    Its time is part of the solve's ``seconds``, as GAP's Trial Time covers ``DeltaStep``'s
    allocation and fill of its distance array and the allocation of its frontier (issue 32:
    the clocks cover the same work). The packed arcs are the graph's, built once and kept on
    it (GAP's graph, too, is built before its trials)."""
    indptr, indices, weights = graph.indptr, graph.indices, graph.weights
    step = 1
    dtype, inf = distance_type(graph)
    if graph.integer_weights and dtype == np.int32:
        indices, weights, step = _interleaved(graph)
    dist = np.full(graph.n, inf, dtype=dtype)
    dist[source] = 0
    return indptr, indices, weights, step, dist, inf


def _run_serial(args: tuple) -> tuple[float, float, float]:
    """The one-thread kernel on the calling thread: (seconds, compile seconds, CPU seconds)."""
    compile_s, _ = compile_kernel(_solve_serial, args)
    c0, t0 = time.thread_time(), time.perf_counter()
    _solve_serial(*args)
    seconds = time.perf_counter() - t0
    return seconds, compile_s, time.thread_time() - c0


def _run_parallel(
    csr: tuple, source: int, delta, shift, ring: int, maxdeg, threads: int, ctr: np.ndarray,
    vertex_dtype: np.dtype,
) -> tuple[float, float]:
    """The T-thread kernel on ``threads`` launched workers: (seconds, compile seconds,
    seconds allocating the frontier, stamps and shared words, which the caller adds to the
    solve's time)."""
    t0 = time.perf_counter()
    n = csr[4].shape[0]
    frontier = np.empty(max(1, n), dtype=vertex_dtype)
    frontier[0] = source
    mark = np.zeros(max(1, n), dtype=np.int32)  # round stamps
    sh = np.zeros(SH_SLOTS, dtype=np.int64)
    sh[SH_SPINS] = BARRIER_SPINS if threads <= _usable_cores() else 0
    sh[SH_BIN] = 0  # the source's bucket: its distance is 0
    sh[SH_BIN + _PAD] = int(NO_BIN)
    sh[SH_SIZE] = 1
    common = (*csr, delta, shift, np.int64(ring), maxdeg, frontier, mark, sh, ctr)
    setup = time.perf_counter() - t0
    return (*launch_workers(_worker, threads, common, sh, SH_READY, SH_GO, SH_END), setup)
