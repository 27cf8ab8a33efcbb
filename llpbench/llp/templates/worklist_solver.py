"""Parallel worklist solver: T threads pop possibly-forbidden indices and ensure them.

Each worker pops ``(key, j)`` from its side of the worklist, skips it if a newer push made
it stale, otherwise runs the problem's ``work`` (``ensure``: advance j if forbidden, or for
an incrementally stated predicate, advance the dependents j's change made forbidden) and
pushes every index the advance reported.

Termination: ``PENDING`` counts items pushed and not yet fully processed. A worker that
finishes an item which produced k new ones adds k - 1 *before* pushing them (its own item's
count passes to the first child; with k = 1 no atomic is needed at all), and one with no new
items subtracts 1 after. So ``PENDING`` reaches zero only when no item exists anywhere and
no worker holds one; an idle worker that sees zero exits. Idle workers back off and yield.
"""

from numba import njit

from llpbench.llp.atomics import atomic_fetch_add, atomic_load
from llpbench.llp.counters import ITEMS, PUSHES, STALE
from llpbench.llp.sync import PENDING, backoff, start_barrier
from llpbench.llp.templates.bind import PROBLEM, WORKLIST  # LLP-BIND


@njit(nogil=True, cache=True)
def seed(wl, inst, state, items, nthreads, ctl, ctr):
    """Push the initial work, spread round-robin over the threads' sides."""
    for i in range(items.shape[0]):
        j = items[i]
        tid = i % nthreads
        WORKLIST.push(wl, tid, PROBLEM.priority(inst, state, j), j, ctr[tid])
        ctr[tid, PUSHES] += 1
    atomic_fetch_add(ctl, PENDING, items.shape[0])


@njit(nogil=True, cache=True)
def worker(tid, inst, state, wl, ctl, ctr, out):
    """One thread's loop; returns when the whole solve has terminated."""
    c = ctr[tid]
    buf = out[tid]
    start_barrier(ctl)
    idle = 0
    while True:
        found, key, j = WORKLIST.pop(wl, tid, c)
        if not found:
            if atomic_load(ctl, PENDING) == 0:
                return 0
            idle = backoff(idle, c)
            continue
        idle = 0
        c[ITEMS] += 1
        k = -1
        if not PROBLEM.stale(inst, state, j, key):
            k = PROBLEM.work(inst, state, j, buf, c)
        if k < 0:
            c[STALE] += 1
        if k <= 0:
            atomic_fetch_add(ctl, PENDING, -1)
            continue
        if k > 1:
            atomic_fetch_add(ctl, PENDING, k - 1)
        for i in range(k):
            v = buf[i]
            WORKLIST.push(wl, tid, PROBLEM.priority(inst, state, v), v, c)
        c[PUSHES] += k
