"""All-indices-parallel solver: T threads scan static partitions of all indices in rounds,
advancing the forbidden ones, until a round in which no thread found any.

A round ends at a barrier; "something changed in round r" lives in one of three rotating
flags: set during round r, read after barrier r, and cleared (for round r + 2) by thread 0
after barrier r, when every thread has finished reading the flag of round r - 1.

Stopping: a worker that sees the supervisor's ``ABORT`` at the end of its share raises the
round's flag to ``STOP`` (an atomic max over "changed"), so that after the barrier every
worker reads the same verdict and all return ``ABORTED`` together (one returning alone
would leave the others in the barrier). Every worker counts the same rounds, so all stop at
``max_rounds`` together too (:attr:`llpbench.llp.contract.Instance.max_rounds`).
"""

from numba import njit

from llpbench.llp.atomics import atomic_load, atomic_max, atomic_store
from llpbench.llp.counters import ITEMS, ROUNDS, STALE
from llpbench.llp.sync import (
    ABORT,
    ABORTED,
    DONE,
    FLAG0,
    PAD,
    ROUND_BOUND,
    barrier,
    finish,
    start_barrier,
)
from llpbench.llp.templates.bind import PROBLEM  # LLP-BIND

CHANGED = 1
STOP = 2


@njit(nogil=True, cache=True)
def worker(tid, nthreads, inst, state, ctl, c, buf, max_rounds):
    n = PROBLEM.num_indices(inst, state)
    lo = n * tid // nthreads
    hi = n * (tid + 1) // nthreads
    start_barrier(ctl)
    r = 0
    while True:
        if 0 <= max_rounds <= r:
            return ROUND_BOUND
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
            atomic_max(ctl, flag, CHANGED)
        if atomic_load(ctl, ABORT) != 0:
            atomic_max(ctl, flag, STOP)
        barrier(ctl, nthreads)
        verdict = atomic_load(ctl, flag)
        if tid == 0:
            atomic_store(ctl, FLAG0 + ((r + 2) % 3) * PAD, 0)
        if verdict == STOP:
            return ABORTED
        if verdict == 0:
            return finish(ctl, DONE)
        r += 1
