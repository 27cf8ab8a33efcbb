"""Cyclic solver: one thread scans every index, advancing the forbidden ones, until a full
pass finds none (the null worklist). Uses the problem's direct ``forbidden``/``advance``.
"""

from numba import njit

from llpbench.llp.counters import ITEMS, ROUNDS, STALE
from llpbench.llp.templates.bind import PROBLEM  # LLP-BIND


@njit(nogil=True, cache=True)
def solve(inst, state, c, buf):
    n = PROBLEM.num_indices(inst, state)
    while True:
        c[ROUNDS] += 1
        changed = False
        for j in range(n):
            c[ITEMS] += 1
            if PROBLEM.forbidden(inst, state, j):
                PROBLEM.advance(inst, state, j, buf, c)
                changed = True
            else:
                c[STALE] += 1
        if not changed:
            return 0
