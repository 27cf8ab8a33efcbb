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


@njit(nogil=True)
def _stamping_worker(t, ctl, stamps):
    sync.start_barrier(ctl)
    for _ in range(50):  # 50 x 1 ms
        cpu_sleep_us(1000)
    if stamps:
        sync.stamp_end(ctl, sync.END)
    return t


@pytest.mark.parametrize("all_stamp", [True, False])
def test_the_clock_stops_at_the_workers_own_stamps_when_every_worker_stamped(all_stamp):
    """With ``end``, the time ends at the latest stamp when all workers stamped (compiled
    code, no GIL); when one did not, at the threads' return to Python, as without."""
    ctl = sync.new_control()
    ctl[sync.END] = 123  # stale words from an earlier launch are reset
    args = [(np.int64(t), ctl, all_stamp or t != 1) for t in range(3)]
    _stamping_worker(np.int64(0), np.ones(sync.CONTROL_SLOTS, dtype=np.int64), False)
    done = run_threads(_stamping_worker, args, ctl, end=sync.END)
    assert done.stamped is all_stamp and done.codes == [0, 1, 2]
    assert ctl[sync.END + 1] == (3 if all_stamp else 2)
    assert 0.05 <= done.seconds < 5.0  # 50 sleeps of at least 1 ms, on the same clock as t0


def test_every_llp_solver_ends_its_clock_at_the_workers_stamps():
    from llpbench.graphs.registry import load_graph
    from llpbench.llp.runtime import solve_llp
    from llpbench.llp.solvers import SOLVERS
    from llpbench.llp.worklists import WORKLISTS
    from llpbench.problems import sssp

    inst = sssp.instance(load_graph("kron-2e8"), 0)
    configs = [("worklist", w, t) for w in sorted(WORKLISTS) for t in (1, 3)]
    configs += [("all-indices", None, 3), ("cyclic", None, 1), ("bag", None, 1)]
    assert {c[0] for c in configs} == set(SOLVERS)
    for solver, worklist, threads in configs:
        run = solve_llp(inst, solver=solver, worklist=worklist, threads=threads)
        assert run.extra["stamped_end"], (solver, worklist, threads)


def test_the_parallel_scan_and_copy_workers_stamp_their_end():
    from llpbench.baselines import parallel_scan

    a = np.arange(1000, dtype=np.int64)
    out = np.zeros_like(a)
    sums = np.zeros(3 * sync.PAD, dtype=np.int64)
    for worker, common in ((parallel_scan._scan_worker, (a, out, sums)),
                           (parallel_scan._copy_worker, (a, out))):
        ctl = sync.new_control()
        per_thread = [(np.int64(t), np.int64(3), *common, ctl) for t in range(3)]
        assert run_threads(worker, per_thread, ctl, end=sync.END).stamped
