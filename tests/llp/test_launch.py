"""llpbench.llp.launch: compile apart, then run on OS threads released together."""

from __future__ import annotations

import numpy as np
from numba import njit, typeof

from llpbench.llp import sync
from llpbench.llp.atomics import atomic_fetch_add
from llpbench.llp.launch import launch_workers, timed_call


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
        assert seconds >= 0 and compile_s >= 0
        assert len(_count_worker.signatures) == 1  # compiled once, for the run's types


def test_timed_call_compiles_for_the_arguments_then_calls():
    a = np.arange(10, dtype=np.int64)
    result, seconds, compile_s = timed_call(_sum, a)
    assert result == 45 and seconds >= 0 and compile_s >= 0
    assert _sum.signatures == [(typeof(a),)]
