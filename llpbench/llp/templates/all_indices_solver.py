"""All-indices-parallel solver: T threads scan static partitions of all indices in rounds,
advancing the forbidden ones, until a round in which no thread found any.

A round ends at a barrier; "something changed in round r" lives in one of three rotating
flags: set during round r, read after barrier r, and cleared (for round r + 2) by thread 0
after barrier r, when every thread has finished reading the flag of round r - 1.
"""

from numba import njit

from llpbench.llp.atomics import atomic_load, atomic_store
from llpbench.llp.counters import ITEMS, ROUNDS, STALE
from llpbench.llp.sync import FLAG0, PAD, barrier, start_barrier
from llpbench.llp.templates.bind import PROBLEM  # LLP-BIND


@njit(nogil=True, cache=True)
def worker(tid, nthreads, inst, state, ctl, c, buf):
    n = PROBLEM.num_indices(inst, state)
    lo = n * tid // nthreads
    hi = n * (tid + 1) // nthreads
    start_barrier(ctl)
    r = 0
    while True:
        c[ROUNDS] += 1
        changed = False
        for j in range(lo, hi):
            c[ITEMS] += 1
            if PROBLEM.forbidden(inst, state, j):
                PROBLEM.advance(inst, state, j, buf, c)
                changed = True
            else:
                c[STALE] += 1
        flag = FLAG0 + (r % 3) * PAD
        if changed:
            atomic_store(ctl, flag, 1)
        barrier(ctl, nthreads)
        again = atomic_load(ctl, flag) != 0
        if tid == 0:
            atomic_store(ctl, FLAG0 + ((r + 2) % 3) * PAD, 0)
        if not again:
            return 0
        r += 1
