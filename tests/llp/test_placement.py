"""Pinning: each worker thread on its own CPU of the affinity set, the caller left as it was."""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest

from llpbench.llp import placement, sync
from llpbench.llp.launch import run_threads


def _recording_worker(seen: dict, lock: threading.Lock):
    """A plain-Python worker that honours the start barrier and records its CPU set."""

    def worker(t: int, ctl: np.ndarray) -> None:
        with lock:
            seen[t] = os.sched_getaffinity(0)
            ctl[sync.READY] += 1
        while ctl[sync.GO] == 0:
            pass

    return worker


@pytest.mark.parametrize("threads", [2, 5])
def test_pinned_workers_each_run_on_one_cpu_round_robin(threads):
    cpus = sorted(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    seen: dict[int, set[int]] = {}
    ctl = sync.new_control()
    worker = _recording_worker(seen, threading.Lock())
    with placement.pinning(True):
        run_threads(worker, [(t, ctl) for t in range(threads)], ctl)
        report = placement.report()
    assert seen == {t: {cpus[t % len(cpus)]} for t in range(threads)}
    assert os.sched_getaffinity(0) == before  # the caller was not pinned
    assert report["requested"] and report["applied"]
    assert report["workers_pinned"] == threads and report["cpus"] == cpus


def test_unpinned_workers_keep_the_whole_affinity_set():
    seen: dict[int, set[int]] = {}
    ctl = sync.new_control()
    run_threads(_recording_worker(seen, threading.Lock()), [(t, ctl) for t in range(2)], ctl)
    assert all(s == os.sched_getaffinity(0) for s in seen.values())
    assert placement.report()["requested"] is False


def test_a_one_worker_solve_pins_the_caller_only_for_its_duration():
    before = os.sched_getaffinity(0)
    seen: dict[int, set[int]] = {}
    ctl = sync.new_control()
    with placement.pinning(True):
        run_threads(_recording_worker(seen, threading.Lock()), [(0, ctl)], ctl)
    assert seen[0] == {sorted(before)[0]}
    assert os.sched_getaffinity(0) == before


def test_a_refused_pin_is_reported_with_its_reason(monkeypatch):
    def refuse(pid, mask):
        raise PermissionError(1, "Operation not permitted")

    with placement.pinning(True):
        monkeypatch.setattr(os, "sched_setaffinity", refuse)
        assert placement.pin_current_thread(0) is False
        report = placement.report()
    assert report["requested"] and not report["applied"]
    assert "Operation not permitted" in report["reason"]
