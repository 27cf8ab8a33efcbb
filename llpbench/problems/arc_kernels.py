"""Kernel pieces that the graph problems (SSSP, BFS, job scheduling, transitive closure)
share, written once and inlined (``inline="always"``) so that each problem's compiled
kernel is the same as when the lines stood in it.
"""

from __future__ import annotations

from numba import njit

from llpbench.llp.atomics import atomic_load, atomic_min
from llpbench.llp.counters import ADVANCES, RETRIES


@njit(nogil=True, cache=True, inline="always")
def report_arcs(indptr, indices, j, out):
    """Write the heads of j's arcs (CSR ``indptr``/``indices``) into ``out``; their count."""
    k = 0
    for e in range(indptr[j], indptr[j + 1]):
        out[k] = indices[e]
        k += 1
    return k


@njit(nogil=True, cache=True, inline="always")
def lower_counted(state, j, value, ctr):
    """Atomically lower ``state[j]`` to ``value``, counting an advance if this call lowered
    it and a retry if another thread got there first."""
    if value < atomic_min(state, j, value):
        ctr[ADVANCES] += 1
    else:
        ctr[RETRIES] += 1


@njit(nogil=True, cache=True, inline="always")
def relax(state, v, cand, out, k, ctr):
    """Lower ``state[v]`` to ``cand`` when that is lower (reporting v at ``out[k]`` if this
    call lowered it); the new count of ``out``. The plain load first skips the atomic on the
    common no-improvement path."""
    if cand < atomic_load(state, v):
        if cand < atomic_min(state, v, cand):
            out[k] = v
            k += 1
            ctr[ADVANCES] += 1
        else:
            ctr[RETRIES] += 1
    return k
