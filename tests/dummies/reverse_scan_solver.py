"""A dummy solver template for the extension-point test: one thread scans the indices from
the last to the first, advancing the forbidden ones, until a pass finds none. Its kernel
takes the cyclic solver's arguments, so its entry reuses ``launch_one_scan``."""

from numba import njit

from llpbench.llp.atomics import atomic_load
from llpbench.llp.counters import ITEMS, ROUNDS, STALE
from llpbench.llp.sync import ABORT, ABORTED, DONE, ROUND_BOUND, start_barrier
from llpbench.llp.templates.bind import PROBLEM  # LLP-BIND

ABORT_EVERY = 4096  # indices between two looks at the supervisor's ABORT (a power of 2)


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
        for j in range(n - 1, -1, -1):
            c[ITEMS] += 1
            if (j & (ABORT_EVERY - 1)) == 0 and atomic_load(ctl, ABORT) != 0:
                return ABORTED
            if PROBLEM.forbidden(inst, state, j):
                PROBLEM.advance(inst, state, j, buf, c)
                changed = True
            else:
                c[STALE] += 1
        if not changed:
            return DONE
