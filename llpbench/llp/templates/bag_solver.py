"""Bag solver: one thread, a worklist of possibly-forbidden indices fed by ``advance``.

The sequential LLP algorithm with a work bag: pop, skip if stale, ensure, push what the
advance reported, until the bag is empty. No termination protocol is needed with one thread.
"""

from numba import njit

from llpbench.llp.counters import ITEMS, PUSHES, STALE
from llpbench.llp.templates.bind import PROBLEM, WORKLIST  # LLP-BIND


@njit(nogil=True, cache=True)
def solve(inst, state, wl, items, c, buf):
    ca = c.ctypes.data  # the worklist counts into the row by address (see rawmem)
    for i in range(items.shape[0]):
        WORKLIST.push(wl, 0, PROBLEM.priority(inst, state, items[i]), items[i], ca)
    c[PUSHES] += items.shape[0]
    while True:
        found, key, j = WORKLIST.pop(wl, 0, ca)
        if not found:
            return 0
        c[ITEMS] += 1
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
