"""Parallel worklist solver: T threads pop possibly-forbidden indices and ensure them.

Each worker pops ``(key, j)`` from its side of the worklist, skips it if a newer push made
it stale, otherwise runs the problem's ``work`` (``ensure``: advance j if forbidden, or for
an incrementally stated predicate, advance the dependents j's change made forbidden) and
pushes every index the advance reported.

Termination: ``PENDING`` over-approximates the items pushed and not yet fully processed:
it equals the true count plus every worker's private *credit*. A worker about to push k new
items for the one it finished needs k - 1 more; it takes them from its credit, and when the
credit is short it first adds a whole chunk to ``PENDING`` (before any push, so ``PENDING``
never falls below the true count). A finished item with no new ones turns its count into
credit. An idle worker hands its credit back, then exits only if ``PENDING`` is zero, which
happens only when no item exists anywhere and no worker holds credit. One shared atomic per
``CREDIT_CHUNK`` items instead of one per item keeps the counter's cache line from bouncing
between cores. Idle workers back off: spin, then yield, then sleep.

Seed (the instance's ``seed_policy``, :mod:`llpbench.llp.contract`): dealt round-robin over
the threads' sides before the start, or, ``"in-order"``, left in its array and taken one item
at a time through a shared counter by a worker whose worklist came up empty
(:func:`take_seed`): items start in the seed's order, each on the first free thread, and
what their work reports is popped before the next seed item (a worker that found its side
empty and has pushed nothing since takes the next seed item without popping first: an
empty pop of the bucketed worklist scans its 1024 buckets). The seed counts as pending
either way, so the termination count above is unchanged.

Watchdog (:mod:`llpbench.llp.watchdog`): a worker counts itself in ``IDLERS`` when it starts
idling (after handing its credit back) and out again, with a ``WAKES`` tick, when it finds
work: one atomic add per change, none per item. The supervisor reads them to tell lost work
from a slow solve. A worker returns ``ABORTED`` when the supervisor sets ``ABORT``: an idle
one at once, a busy one within ``ABORT_EVERY`` items.
"""

from numba import njit

from llpbench.llp.atomics import atomic_fetch_add, atomic_load
from llpbench.llp.contract import SEED_IN_ORDER
from llpbench.llp.counters import FUSED, ITEMS, PUSHES, STALE
from llpbench.llp.rawmem import fetch_add, load_relaxed, peek, poke
from llpbench.llp.sync import (
    ABORT,
    ABORTED,
    DONE,
    IDLERS,
    PENDING,
    SEED_ADDR,
    SEED_COUNT,
    SEED_NEXT,
    WAKES,
    backoff,
    finish,
    now_ns,
    start_barrier,
)
from llpbench.llp.templates.bind import PROBLEM, WORKLIST  # LLP-BIND

CREDIT_CHUNK = 64
# The item this many places ahead in the batch is prefetched (the problem's ``prefetch``)
# while one is worked. Same-process A/B on SSSP at one thread, 2026-12-05: 0.94-0.97x the
# time on kron-2e16 (bucketed, obim), 0.90x on graph500-s18-ef16, no change on the road
# network, whose items are mostly fused (the fused run is not prefetched: that measured
# 1.02-1.06x, its items were just written and are in cache). Fetching the first arcs too
# (a second, nearer stage) measured 1.05x slower on the road network.
PREFETCH_AHEAD = 8
# A busy worker looks at the supervisor's ABORT word once per this many items (a power of 2).
ABORT_EVERY = 1024


@njit(nogil=True, cache=True)
def seed(wl, inst, state, items, nthreads, ctl, c, policy):
    """Hand out the initial work by the instance's seed policy (a code of
    :data:`llpbench.llp.contract.SEED_POLICIES`): deal it round-robin over the threads'
    sides of the worklist, or (``SEED_IN_ORDER``) push nothing and leave ``items`` to
    :func:`take_seed`, which the workers call in turn. Either way every item is pending.

    Returns the nanoseconds it took, timed here: the call from Python resolves its argument
    types first, and for a problem module other than the first one a process used that took
    140 µs where the seeding itself took a few (2026-12-07, SSSP from a copy of its module).
    """
    t0 = now_ns()
    if policy == SEED_IN_ORDER:
        ctl[SEED_ADDR] = items.ctypes.data  # ``items`` outlives the solve (its SolveRun)
        ctl[SEED_COUNT] = items.shape[0]
        ctl[SEED_NEXT] = 0
    else:
        ca = c.ctypes.data
        for i in range(items.shape[0]):
            j = items[i]
            WORKLIST.push(wl, i % nthreads, PROBLEM.priority(inst, state, j), j, ca)
    c[PUSHES] += items.shape[0]
    atomic_fetch_add(ctl, PENDING, items.shape[0])
    return now_ns() - t0


@njit(nogil=True, cache=True, inline="always")
def take_seed(inst, state, cw, seeds, count, dst):
    """The next item of an in-order seed (``count`` items at address ``seeds``; the shared
    counter is word ``SEED_NEXT`` at address ``cw``, the control block's): one atomic
    fetch-add, the pair ``(priority, item)`` written at address ``dst`` (the worker's
    batch); returns 1, or 0 when the seed is used up (or was dealt: ``count`` 0)."""
    if count == 0 or load_relaxed(cw, SEED_NEXT) >= count:
        return 0
    i = fetch_add(cw, SEED_NEXT, 1)
    if i >= count:
        return 0
    j = peek(seeds, i)
    poke(dst, 0, PROBLEM.priority(inst, state, j))
    poke(dst, 1, j)
    return 1


@njit(nogil=True, cache=True, inline="always")
def refill(inst, state, wl, tid, ca, ba, most, cw, seeds, count, quiet):
    """Up to ``most`` pairs into the batch at address ``ba``: ``(got, quiet)``. An in-order
    seed's next item comes after what work reported (popped first), but a worker that is
    ``quiet`` (found its worklist empty and has pushed nothing since) takes it without a
    pop; ``quiet`` is then whether the pop came up empty."""
    got = take_seed(inst, state, cw, seeds, count, ba) if quiet else 0
    if got == 0:
        got = WORKLIST.pop_batch(wl, tid, ca, ba, most)
        quiet = got == 0
        if quiet:
            got = take_seed(inst, state, cw, seeds, count, ba)
    return got, quiet


@njit(nogil=True, cache=True)
def worker(tid, inst, state, wl, ctl, c, buf, run, batch):
    """One thread's loop; returns when the whole solve has terminated.

    ``c``, ``buf``, ``run`` and ``batch`` are this thread's own counter row, output buffer,
    fused run (``2 * WORKLIST.FUSE`` words) and batch (two words a pair the worklist hands
    out at once): separate arrays, so that their reference counts are never shared with
    another thread.
    """
    start_barrier(ctl)
    ca = c.ctypes.data  # the worklist counts into the row by address (see rawmem)
    ba = batch.ctypes.data  # ... and hands out its pairs into the batch by address
    cw = ctl.ctypes.data  # an in-order seed's counter, by address (take_seed)
    seeds = ctl[SEED_ADDR]
    seed_count = ctl[SEED_COUNT]  # 0: the seed was dealt into the worklist
    most = batch.shape[0] // 2  # pairs taken from the worklist at once
    idle = 0
    credit = 0
    quiet = False  # found the worklist empty, and pushed nothing since (see refill)
    head = 0  # the fused run: a FIFO of (key, item) pairs at run[2 * (i & mask)]
    tail = 0
    mask = WORKLIST.FUSE - 1
    taken = 0  # the batch: pairs taken from the worklist, processed after the run
    got = 0
    run_key = 0  # the key of the last pair taken from the worklist
    while True:
        if head < tail:
            p = 2 * (head & mask)
            key = run[p]
            j = run[p + 1]
            head += 1
        elif taken < got:
            if taken + PREFETCH_AHEAD < got:
                PROBLEM.prefetch(inst, state, peek(ba, 2 * (taken + PREFETCH_AHEAD) + 1))
            key = peek(ba, 2 * taken)
            j = peek(ba, 2 * taken + 1)
            taken += 1
            run_key = key
        else:
            got, quiet = refill(inst, state, wl, tid, ca, ba, most, cw, seeds, seed_count, quiet)
            taken = 0
            if got > 0:
                if idle > 0:  # idle no more
                    atomic_fetch_add(ctl, IDLERS, -1)
                    atomic_fetch_add(ctl, WAKES, 1)
                    idle = 0
                continue
            if credit > 0:
                atomic_fetch_add(ctl, PENDING, -credit)
                credit = 0
            if atomic_load(ctl, PENDING) == 0:
                return finish(ctl, DONE)
            if idle == 0:
                atomic_fetch_add(ctl, IDLERS, 1)
            if atomic_load(ctl, ABORT) != 0:
                return ABORTED
            idle = backoff(idle, c)
            continue
        c[ITEMS] += 1
        if (c[ITEMS] & (ABORT_EVERY - 1)) == 0 and atomic_load(ctl, ABORT) != 0:
            return ABORTED
        k = -1
        if not PROBLEM.stale(inst, state, j, key):
            k = PROBLEM.work(inst, state, j, buf, c)
        if k < 0:
            c[STALE] += 1
        if k <= 0:
            credit += 1
            continue
        if k - 1 > credit:
            grant = k - 1 - credit + CREDIT_CHUNK
            atomic_fetch_add(ctl, PENDING, grant)
            credit += grant
        credit -= k - 1
        for i in range(k):
            v = buf[i]
            pv = PROBLEM.priority(inst, state, v)
            if tail - head <= mask and WORKLIST.fuses(wl, run_key, pv):
                p = 2 * (tail & mask)
                run[p] = pv
                run[p + 1] = v
                tail += 1
                c[FUSED] += 1
            else:
                WORKLIST.push(wl, tid, pv, v, ca)
                quiet = False
        c[PUSHES] += k
