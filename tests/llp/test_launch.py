"""llpbench.llp.launch: compile apart, then run on OS threads released together."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from numba import njit, typeof

from llpbench.llp import sync
from llpbench.llp.atomics import atomic_fetch_add, atomic_load, cpu_sleep_us
from llpbench.llp.launch import (
    THREAD_NAME,
    Stopped,
    Supervision,
    launch_workers,
    run_threads,
    timed_call,
)


@njit(nogil=True)
def _count_worker(t, nthreads, hits, ctl):
    sync.start_barrier(ctl)
    atomic_fetch_add(hits, 0, t + 1)


@njit
def _sum(a):
    return a.sum()


def test_launch_workers_runs_every_worker_with_its_index_once():
    for threads in (1, 3):
        hits = np.zeros(1, dtype=np.int64)
        ctl = sync.new_control()
        seconds, compile_s = launch_workers(_count_worker, threads, (hits, ctl), ctl)
        assert hits[0] == threads * (threads + 1) // 2
        assert seconds > 0 and compile_s > 0
        assert len(_count_worker.signatures) == 1  # compiled once, for the run's types


@njit(nogil=True)
def _sleepy_worker(t, ctl):
    sync.start_barrier(ctl)
    for _ in range(200):  # 200 x 1 ms
        cpu_sleep_us(1000)
    return t * 10


def test_the_clock_stops_at_the_last_worker_and_codes_come_back_in_order():
    """Each worker's return value is reported; a lone worker runs on a thread of its own."""
    ctl = sync.new_control()
    args = [(np.int64(t), ctl) for t in range(3)]
    _sleepy_worker(np.int64(9), np.ones(sync.CONTROL_SLOTS, dtype=np.int64))  # compile
    done = run_threads(_sleepy_worker, args, ctl)
    assert done.codes == [0, 10, 20]
    assert done.seconds >= 0.2  # 200 sleeps of at least 1 ms each, on every worker
    seen = []
    alone = run_threads(lambda: seen.append(threading.current_thread().name) or 7, [()],
                        sync.new_control())  # never reaches the barrier: not waited for
    assert alone.codes == [7] and seen == [f"{THREAD_NAME}-0"]


def test_a_supervisor_stops_workers_that_poll_the_abort_word():
    ctl = sync.new_control()
    args = [(ctl,) for _ in range(2)]
    stopped = r"^time limit: still running after \d+\.\d s \(limit 0\.2 s\)$"
    with pytest.raises(Stopped, match=stopped):
        run_threads(_until_abort, args, ctl,
                    supervision=Supervision(abort=sync.ABORT, timeout=0.2))
    assert ctl[sync.ABORT] == 1
    assert not any(t.name.startswith(THREAD_NAME) for t in threading.enumerate())


@njit(nogil=True)
def _until_abort(ctl):
    sync.start_barrier(ctl)
    while atomic_load(ctl, sync.ABORT) == 0:
        cpu_sleep_us(100)
    return -1


def test_timed_call_compiles_for_the_arguments_then_calls():
    a = np.arange(10, dtype=np.int64)
    result, seconds, compile_s = timed_call(_sum, a)
    assert result == 45 and seconds > 0 and compile_s > 0
    assert _sum.signatures == [(typeof(a),)]
