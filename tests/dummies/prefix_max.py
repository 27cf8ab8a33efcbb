"""Running maximum as an LLP problem: the smallest ``G`` with ``G[j] >= a[j]`` and
``G[j] >= G[j - 1]``, a chain lattice. A dummy problem for the extension-point test: the
whole contract in a few lines, so that registering it in ``PROBLEMS`` is all it takes.

Formulation
    State: ``G``, starting at ``a`` and only rising. ``j`` is forbidden when
    ``G[j - 1] > G[j]``; advancing raises ``G[j]`` to ``G[j - 1]`` with an atomic max and
    reports ``j + 1``.

Reference: ``np.maximum.accumulate``. Baseline: the same, timed.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.llp.atomics import atomic_load, atomic_max
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES, RETRIES

NAME = "prefix-max"
INPUT = "size"


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return state.shape[0]


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    return j > 0 and atomic_load(state, j - 1) > atomic_load(state, j)


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    want = atomic_load(state, j - 1)
    if atomic_max(state, j, want) < want:
        ctr[ADVANCES] += 1
    else:
        ctr[RETRIES] += 1
    if j + 1 < state.shape[0]:
        out[0] = j + 1
        return 1
    return 0


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    if not forbidden(inst, state, j):
        return -1
    return advance(inst, state, j, out, ctr)


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return j


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    return False


def make(graph, size: int | None, seed: int, source: int | None) -> Instance:
    """``size`` random values in 0..999 drawn from ``seed``."""
    values = np.random.default_rng(seed).integers(0, 1000, int(size or 0)).astype(np.int64)
    n = values.shape[0]
    return Instance(
        problem=__name__,
        arrays=(values,),
        n=n,
        max_out=1,
        init_state=values.copy,
        init_work=np.arange(n, dtype=np.int64),
        meta={"values": values},
        max_rounds=n + 1,
    )


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    return state.copy()


def reference(inst: Instance) -> np.ndarray:
    return np.maximum.accumulate(inst.meta["values"])


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    bad = np.flatnonzero(result != expected)
    return None if bad.size == 0 else f"{bad.size} entries differ, first at {int(bad[0])}"


def baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    t0 = time.perf_counter()
    out = np.maximum.accumulate(inst.meta["values"])
    return BaselineResult(answer=out, seconds=time.perf_counter() - t0, compile_seconds=0.0,
                          name="accumulate")


BASELINES = {"accumulate": baseline}
