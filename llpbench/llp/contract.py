"""The LLP problem contract: what a problem module provides, and the instance it builds.

A problem is a lattice of state vectors ``G[0..n)`` that only ever *advance* (move up the
lattice; for SSSP, distances only go down). A problem module provides, as module-level
``@njit(nogil=True, cache=True)`` functions over ``(inst, state)`` where ``inst`` is the
tuple :attr:`Instance.arrays`:

``num_indices(inst, state) -> int``
    n, the number of indices.
``forbidden(inst, state, j) -> bool``
    j cannot keep its value in any solution above the current state (the direct predicate,
    used by the scanning solvers).
``advance(inst, state, j, out, ctr) -> k``
    Advance ``state[j]`` (atomically: other threads write too) and write into ``out[:k]``
    the indices that may have become forbidden because of it.
``work(inst, state, j, out, ctr) -> k``
    What a worklist solver does with a popped item: ``ensure(j)`` (``forbidden`` then
    ``advance``; return -1 if j was not forbidden), or, for a predicate stated
    incrementally, "j advanced: advance each dependent that j's new value made forbidden"
    (SSSP: relax j's out-arcs with an atomic min), returning the advanced indices.
``priority(inst, state, j) -> int64``
    Smaller first (SSSP: the tentative distance). Constant if the problem has no order.
``stale(inst, state, j, key) -> bool``
    True if an item pushed with priority ``key`` is outdated (a newer push exists).

``ctr`` is the calling thread's counter row (:mod:`llpbench.llp.counters`): problems count
``ADVANCES`` and ``RETRIES`` there. A solver never branches on which problem it runs.

On the Python side a problem module provides:

``NAME``, ``INPUT``
    CLI name; ``"graph"`` (needs a graph and a source) or ``"size"`` (generated from a size
    and a seed; such problems may also accept a graph where it makes sense).
``make(graph, size, seed, source) -> Instance``
    The one constructor the runner calls (unused arguments are None).
``answer(instance, state) -> ndarray``
    The solver state in answer form (e.g. distances with ``inf`` for unreachable).
``reference(instance) -> ndarray``
    The answer by an independent, classical algorithm (scipy, Gale-Shapley, a DP, ...).
``verify(result, expected) -> str | None``
    None when the answers agree, else a one-line reason.
``baseline(instance, threads, **params) -> BaselineResult``
    The hand-tuned classical solution the paper compares LLP with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Instance:
    """One problem instance, ready for any solver.

    Parameters
    ----------
    problem : str
        Dotted name of the problem module whose kernels interpret ``arrays``.
    arrays : tuple
        The instance as the compiled kernels see it (arrays and scalars).
    n : int
        Number of indices of the state vector.
    max_out : int
        Largest number of indices one ``advance``/``work`` call can report (its buffer size).
    init_state : callable
        Returns a fresh initial state (the bottom of the lattice) for each solve.
    init_work : int64 array
        Indices that may be forbidden in the initial state (the worklist solvers' seed).
    bucket_width : int
        Priority range of one bucket for the bucketed worklist (a Δ, in priority units).
    meta : dict
        Anything the answer, reference or report need (source vertex, graph name, ...).
    params : dict
        The tuned parameters it was made with (the problem's ``TUNED``); baselines that take
        one get it from here.
    """

    problem: str
    arrays: tuple
    n: int
    max_out: int
    init_state: Callable[[], np.ndarray]
    init_work: np.ndarray
    bucket_width: int = 1
    meta: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
