"""Cyclic solver: one thread scans every index, advancing the forbidden ones, until a full
pass finds none (the null worklist). Uses the problem's direct ``forbidden``/``advance``.

It stops with ``ROUND_BOUND`` after ``max_rounds`` passes (the bound the problem's lattice
implies, :attr:`llpbench.llp.contract.Instance.max_rounds`; negative: none): a correct
problem never needs more, so one that does has an ``advance`` that does not advance. It
returns ``ABORTED`` within ``ABORT_EVERY`` indices of the supervisor's ``ABORT``.
"""

from numba import njit

from llpbench.llp.atomics import atomic_load
from llpbench.llp.counters import ITEMS, ROUNDS, STALE
from llpbench.llp.sync import ABORT, ABORTED, DONE, ROUND_BOUND, finish, start_barrier
from llpbench.llp.templates.bind import PROBLEM  # LLP-BIND

ABORT_EVERY = 4096  # indices between two looks at ABORT (a power of 2)


@njit(nogil=True, cache=True)
def solve(inst, state, c, buf, ctl, max_rounds):
    start_barrier(ctl)
    n = PROBLEM.num_indices(inst, state)
    rounds = 0
    while True:
        if 0 <= max_rounds <= rounds:
            return ROUND_BOUND
        rounds += 1
        c[ROUNDS] += 1
        changed = False
        for j in range(n):
            c[ITEMS] += 1
            if (j & (ABORT_EVERY - 1)) == 0 and atomic_load(ctl, ABORT) != 0:
                return ABORTED
            if PROBLEM.forbidden(inst, state, j):
                PROBLEM.advance(inst, state, j, buf, c)
                changed = True
            else:
                c[STALE] += 1
        if not changed:
            return finish(ctl, DONE)
