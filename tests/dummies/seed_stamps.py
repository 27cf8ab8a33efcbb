"""A dummy problem that records the order in which its indices are worked, for the seed
policy tests (:data:`llpbench.llp.contract.SEED_POLICIES`).

Formulation
    State: ``n`` stamps and a counter word at ``n``, all 0. Index j is forbidden while its
    stamp is 0; advancing it takes the next number from the counter (atomic add) and claims
    the stamp with a CAS (one winner), reporting nothing. ``stamp - 1`` is then the position
    at which j was worked. Priority: ``j`` (a priority worklist would work them in index
    order); ``init_work`` is any permutation, so an in-order seed shows up as stamps that
    follow it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.llp.atomics import atomic_cas, atomic_fetch_add, atomic_load
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES, RETRIES

NAME = "seed-stamps"
INPUT = "size"


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return state.shape[0] - 1


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    return atomic_load(state, j) == 0


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    stamp = atomic_fetch_add(state, state.shape[0] - 1, 1) + 1
    if atomic_cas(state, j, 0, stamp):
        ctr[ADVANCES] += 1
    else:
        ctr[RETRIES] += 1
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


def instance(order: np.ndarray, seed_policy: str = "deal") -> Instance:
    """The indices ``0..len(order)``, seeded in the order ``order`` (a permutation)."""
    order = np.ascontiguousarray(order, dtype=np.int64)
    n = order.shape[0]
    return Instance(
        problem=__name__,
        arrays=(np.zeros(1, dtype=np.int64),),
        n=n,
        max_out=1,
        init_state=lambda: np.zeros(n + 1, dtype=np.int64),
        init_work=order,
        max_rounds=2,
        seed_policy=seed_policy,
    )


def make(graph, size: int | None, seed: int, source: int | None) -> Instance:
    """``size`` indices seeded in a random order drawn from ``seed``."""
    return instance(np.random.default_rng(seed).permutation(int(size or 0)))


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """Whether each index was worked (1) or not (0)."""
    return (state[: inst.n] > 0).astype(np.int64)


def reference(inst: Instance) -> np.ndarray:
    return np.ones(inst.n, dtype=np.int64)


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    bad = np.flatnonzero(result != expected)
    return None if bad.size == 0 else f"{bad.size} indices never worked, first {int(bad[0])}"


def baseline(inst: Instance, threads: int = 1):
    raise NotImplementedError("seed-stamps is a test dummy: it has no baseline")


BASELINES = {"none": baseline}
