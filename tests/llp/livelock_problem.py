"""A broken LLP problem for the watchdog tests: every index is always forbidden and its
advance never advances (the livelock an off-by-one in a recurrence can make). ``work``
reports the index again, so a worklist solver stays busy for ever; a scanning solver never
sees a quiet round. Only the kernels the solvers call are here: it is not a registered
problem."""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return state.shape[0]


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    return True


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    ctr[ADVANCES] += 1
    return 0


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    ctr[ADVANCES] += 1
    out[0] = j
    return 1


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return 0


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    return False


def instance(n: int = 64, max_rounds: int | None = None) -> Instance:
    """``n`` indices that never settle."""
    return Instance(
        problem=__name__,
        arrays=(np.zeros(1, dtype=np.int64),),
        n=n,
        max_out=1,
        init_state=lambda: np.zeros(n, dtype=np.int64),
        init_work=np.arange(n, dtype=np.int64),
        max_rounds=max_rounds,
    )
