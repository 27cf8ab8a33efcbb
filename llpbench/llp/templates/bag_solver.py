"""Bag solver: one thread, a worklist of possibly-forbidden indices fed by ``advance``.

The sequential LLP algorithm with a work bag: pop, skip if stale, ensure, push what the
advance reported, until the bag is empty. No termination protocol is needed with one thread,
but an empty bag is checked: every item pushed must have been popped, else the worklist
lost work and the solve returns ``LOST_WORK`` (its answer would be wrong). It returns
``ABORTED`` within ``ABORT_EVERY`` items of the supervisor's ``ABORT``.
"""

from numba import njit

from llpbench.llp.atomics import atomic_load
from llpbench.llp.counters import ITEMS, PUSHES, STALE
from llpbench.llp.sync import ABORT, ABORTED, DONE, LOST_WORK, finish, start_barrier
from llpbench.llp.templates.bind import PROBLEM, WORKLIST  # LLP-BIND

ABORT_EVERY = 1024  # items between two looks at ABORT (a power of 2)


@njit(nogil=True, cache=True)
def solve(inst, state, wl, items, c, buf, ctl):
    start_barrier(ctl)
    ca = c.ctypes.data  # the worklist counts into the row by address (see rawmem)
    for i in range(items.shape[0]):
        WORKLIST.push(wl, 0, PROBLEM.priority(inst, state, items[i]), items[i], ca)
    c[PUSHES] += items.shape[0]
    while True:
        found, key, j = WORKLIST.pop(wl, 0, ca)
        if not found:
            return finish(ctl, DONE if c[ITEMS] == c[PUSHES] else LOST_WORK)
        c[ITEMS] += 1
        if (c[ITEMS] & (ABORT_EVERY - 1)) == 0 and atomic_load(ctl, ABORT) != 0:
            return ABORTED
        k = -1
        if not PROBLEM.stale(inst, state, j, key):
            k = PROBLEM.work(inst, state, j, buf, c)
        if k < 0:
            c[STALE] += 1
        for i in range(k):
            v = buf[i]
            WORKLIST.push(wl, 0, PROBLEM.priority(inst, state, v), v, ca)
        if k > 0:
            c[PUSHES] += k
