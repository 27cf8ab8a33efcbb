"""Spin locks, backoff and barriers for compiled workers, built on :mod:`llpbench.llp.atomics`.

Workers are OS threads that may outnumber the cores many times over (32 threads on 2 cores
in the paper's sweeps). A worker that spins while another holds the work steals that
worker's core, so every wait here spins briefly and then calls ``sched_yield``.

Control arrays are int64 with one slot per cache line (``PAD`` apart). Worklist locks are
words at raw addresses (see :mod:`llpbench.llp.rawmem` for why).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from llpbench.llp.atomics import (
    atomic_fetch_add,
    atomic_load,
    atomic_max,
    atomic_store,
    clock_gettime,
    cpu_sleep_us,
    cpu_yield,
)
from llpbench.llp.counters import IDLE
from llpbench.llp.rawmem import cas, load_relaxed, store_release

PAD = 8  # int64 slots per cache line
SPINS_BEFORE_YIELD = 16
YIELDS_BEFORE_SLEEP = 256
SLEEP_US = 50  # the first sleep; each further one doubles, up to SLEEP_MAX_US
SLEEP_MAX_US = 800

# Control-block slots (multiplied by PAD).
READY = 0 * PAD  # workers that reached the start barrier
GO = 1 * PAD  # set by the launcher once all workers are ready
PENDING = 2 * PAD  # items pushed and not yet fully processed (termination detection)
BARRIER_COUNT = 3 * PAD
BARRIER_GEN = 4 * PAD
FLAG0 = 5 * PAD  # three rotating "something changed this round" flags
ABORT = 8 * PAD  # set by the supervisor (llpbench.llp.launch): every worker returns ABORTED
IDLERS = 9 * PAD  # workers now idle (the worklist solver's watchdog reads it)
WAKES = 10 * PAD  # times a worker left idleness (the watchdog's proof that nothing moved)
# An "in-order" seed (llpbench.llp.contract.SEED_POLICIES): the address and length of the
# seed array, written before the workers start, and the shared counter of items handed out.
SEED_ADDR = 11 * PAD
SEED_COUNT = SEED_ADDR + 1  # same line as the address: both are read-only during the solve
SEED_NEXT = 12 * PAD
# Where the workers stamp their own end (see stamp_end): the latest, and how many stamped.
END = 13 * PAD
CONTROL_SLOTS = 14 * PAD
CLOCK = time.CLOCK_MONOTONIC

# What a worker returns: it finished, it was told to stop, or the solve broke a bound.
DONE = 0
ABORTED = -1
ROUND_BOUND = -2
LOST_WORK = -3


def new_control() -> np.ndarray:
    return np.zeros(CONTROL_SLOTS, dtype=np.int64)


@njit(nogil=True, cache=True, inline="always")
def sleep_length(idle):
    """Microseconds a worker in its ``idle``-th round of waiting sleeps (from round
    ``YIELDS_BEFORE_SLEEP`` on): ``SLEEP_US``, doubled each round up to ``SLEEP_MAX_US``."""
    return min(SLEEP_MAX_US, SLEEP_US << min(idle - YIELDS_BEFORE_SLEEP, 16))


@njit(nogil=True, cache=True, inline="always")
def backoff(idle, ctr):
    """One round of waiting: spin briefly, then yield the core, then sleep, 50 µs at first
    and twice as long each round up to 800 µs (so that 32 idle threads on 2 cores leave the
    cores to the ones holding work: 30 threads waking every 50 µs, each to look for work and
    sleep again, are 600,000 wake-ups a second, a core's worth of scheduling)."""
    ctr[IDLE] += 1
    if idle >= YIELDS_BEFORE_SLEEP:
        cpu_sleep_us(sleep_length(idle))
    elif idle >= SPINS_BEFORE_YIELD:
        cpu_yield()
    return idle + 1


@njit(nogil=True, cache=True, inline="always")
def lock_acquire(locks, i):
    """Test-and-test-and-set spin lock on word ``i`` at address ``locks``; yields while held.

    Returns the failed attempts (the caller's ``contention`` count). It takes no counter
    array: an array handed into an inlined function with a loop keeps numba's reference
    count updates (two atomic operations) on every call, 4-6 ns a lock on this machine.
    """
    spins = 0
    while True:
        if load_relaxed(locks, i) == 0 and cas(locks, i, 0, 1):
            return spins
        spins += 1
        if spins >= SPINS_BEFORE_YIELD:
            cpu_yield()


@njit(nogil=True, cache=True, inline="always")
def lock_try(locks, i):
    """Whether the lock on word ``i`` at address ``locks`` was taken within
    ``SPINS_BEFORE_YIELD`` polls, never yielding.

    For a thief: a running holder releases a worklist lock within a few polls, but a
    held lock may belong to a thread the OS has preempted (with 16 threads a core, for a
    whole time slice), so a thief moves on to the next victim rather than wait for it."""
    for _ in range(SPINS_BEFORE_YIELD):
        if load_relaxed(locks, i) == 0 and cas(locks, i, 0, 1):
            return True
    return False


@njit(nogil=True, cache=True, inline="always")
def lock_release(locks, i):
    store_release(locks, i, 0)


@njit(nogil=True, cache=True)
def now_ns():
    """Nanoseconds of ``CLOCK`` (Python's ``time.clock_gettime_ns(CLOCK)``), read in
    compiled code."""
    ts = np.empty(2, dtype=np.int64)
    clock_gettime(CLOCK, ts.ctypes.data)
    return ts[0] * 1_000_000_000 + ts[1]


@njit(nogil=True, cache=True)
def stamp_end(ctl, slot):
    """A worker's end, stamped in compiled code as it returns: word ``slot`` of ``ctl`` keeps
    the latest (nanoseconds of ``CLOCK``), word ``slot + 1`` counts the stamps.

    The launcher (:func:`llpbench.llp.launch.run_threads`) stops the clock there, not when
    each thread is back in Python: a thread needs the GIL to read a Python clock, and 32
    threads on 2 cores queue for it, 1.1 ms after a solve that took 0.3 ms (a kernel that
    did nothing after its start barrier, 2026-12-07), where GAP's clock, in C++, reads none.
    """
    atomic_max(ctl, slot, now_ns())
    atomic_fetch_add(ctl, slot + 1, 1)


@njit(nogil=True, cache=True, inline="always")
def finish(ctl, code):
    """``code``, after stamping this worker's end in the control block (:func:`stamp_end`)."""
    stamp_end(ctl, END)
    return code


@njit(nogil=True, cache=True)
def start_barrier(ctl):
    """Report ready, then wait for the launcher's GO (so timing starts with all ready)."""
    atomic_fetch_add(ctl, READY, 1)
    while atomic_load(ctl, GO) == 0:
        cpu_yield()


@njit(nogil=True, cache=True)
def barrier_at(ctl, nthreads, count, gen, spins):
    """Generation-counting barrier for ``nthreads`` workers on the words ``count`` and
    ``gen`` of ``ctl``: a waiter polls ``spins`` times, then yields on every poll (with
    more workers than cores, a spinning waiter holds the core the last arrival needs)."""
    g = atomic_load(ctl, gen)
    if atomic_fetch_add(ctl, count, 1) == nthreads - 1:
        atomic_store(ctl, count, 0)
        atomic_fetch_add(ctl, gen, 1)
        return
    polls = 0
    while atomic_load(ctl, gen) == g:
        polls += 1
        if polls > spins:
            cpu_yield()


@njit(nogil=True, cache=True)
def barrier(ctl, nthreads):
    """:func:`barrier_at` on the control block's own words; waiters yield at once."""
    barrier_at(ctl, nthreads, BARRIER_COUNT, BARRIER_GEN, 0)
