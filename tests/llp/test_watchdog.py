"""Fail, never hang: a solver that loses work, never settles, or is interrupted stops with a
clear error, and leaves no worker thread behind (llpbench.llp.watchdog)."""

from __future__ import annotations

import os
import re
import signal
import threading

import numpy as np
import pytest

from llpbench.errors import SolveFailedError, SpecError
from llpbench.graphs.generators import kronecker
from llpbench.graphs.weights import assign_weights
from llpbench.llp.faults import DROP_PUSH_ENV, drop_every
from llpbench.llp.launch import THREAD_NAME
from llpbench.llp.runtime import solve_llp
from llpbench.llp.watchdog import LOST_WORK_ENV, TIMEOUT_ENV, LostWork, solve_timeout
from llpbench.llp.worklists import WORKLISTS
from llpbench.problems import sssp
from tests.llp import livelock_problem

pytestmark = pytest.mark.timeout(120)  # each test ends in seconds; this only backs it up


def _workers_alive() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(THREAD_NAME)]


@pytest.fixture(scope="module")
def kron():
    """Thousands of pushes per thread at 8 threads: enough for one in 200 to be dropped."""
    graph = assign_weights(kronecker(12, 8, seed=5), "uniform-int:1:255", 5)
    return sssp.instance(graph, int(np.argmax(graph.out_degrees())))


@pytest.fixture
def lossy(monkeypatch):
    monkeypatch.setenv(DROP_PUSH_ENV, "*:200")
    monkeypatch.setenv(LOST_WORK_ENV, "0.5")


@pytest.mark.parametrize("threads", [1, 2, 8])
@pytest.mark.parametrize("worklist", sorted(WORKLISTS))
def test_a_worklist_that_drops_a_push_fails_the_solve_and_stops_every_worker(
    kron, lossy, worklist, threads
):
    with pytest.raises(SolveFailedError, match=(
        rf"^sssp worklist/{worklist} x{threads}: work lost: \d+ items pending, "
        rf"(the only worker|all {threads} workers) idle for \d+\.\d s \(\d+ items popped"
    )) as failed:
        solve_llp(kron, "worklist", worklist, threads)
    counts = re.search(r"\((\d+) items popped, (\d+) pushed", str(failed.value))
    assert int(counts[1]) < int(counts[2])  # the message's counts show the loss
    assert _workers_alive() == []


@pytest.mark.parametrize("worklist", sorted(WORKLISTS))
def test_the_bag_solver_notices_a_dropped_push_when_its_bag_empties(kron, lossy, worklist):
    with pytest.raises(SolveFailedError, match=(
        rf"^sssp bag/{worklist} x1: work lost: the worklist emptied with [1-9]\d* of \d+ "
        "pushed items never popped"
    )):
        solve_llp(kron, "bag", worklist, 1)


def test_without_the_switch_the_same_solves_are_exact(kron):
    expected = sssp.reference(kron)
    for worklist in sorted(WORKLISTS):
        result = solve_llp(kron, "worklist", worklist, 8)
        assert sssp.verify(sssp.answer(kron, result.state), expected) is None
        assert result.counters["items"] == result.counters["pushes"]


@pytest.mark.parametrize("config", [("cyclic", None, 1), ("all-indices", None, 1),
                                    ("all-indices", None, 3)])
def test_a_scanning_solver_stops_at_the_round_bound_its_lattice_implies(config):
    inst = livelock_problem.instance(max_rounds=5)
    with pytest.raises(SolveFailedError, match=(
        rf"^livelock_problem {config[0]} x{config[2]}: no fixed point after 5 rounds, the "
        "most its lattice allows"
    )):
        solve_llp(inst, *config)
    assert _workers_alive() == []


def test_the_bound_is_met_exactly_by_a_path_that_needs_every_round():
    """SSSP's bound is Bellman-Ford's n + 1 rounds: a path whose arcs run against the scan
    order (j + 1 -> j, from n - 1) settles one vertex a round, and still ends within it."""
    from llpbench.graphs.graph import Graph

    n = 40
    graph = Graph.from_edges(n, np.arange(1, n), np.arange(n - 1), np.ones(n - 1))
    inst = sssp.instance(graph, n - 1)
    assert inst.max_rounds == n + 1
    for solver, threads in (("cyclic", 1), ("all-indices", 2)):
        result = solve_llp(inst, solver, None, threads)
        rounds = result.counters["rounds"] // threads  # each worker counts every round
        assert n - 1 <= rounds <= inst.max_rounds
        assert sssp.answer(inst, result.state).tolist() == list(range(n - 1, -1, -1))


@pytest.mark.parametrize("config", [("worklist", "ptwb", 1), ("worklist", "swb", 4),
                                    ("bag", "ptcf", 1), ("cyclic", None, 1),
                                    ("all-indices", None, 2)])
def test_a_busy_livelock_is_stopped_by_the_time_limit(config):
    inst = livelock_problem.instance()
    solver, worklist, threads = config
    name = f"{solver}/{worklist}" if worklist else solver
    with pytest.raises(SolveFailedError, match=(
        rf"^livelock_problem {name} x{threads}: time limit: still running after \d+\.\d s "
        r"\(limit 0\.3 s\)"
    )):
        solve_llp(inst, *config, timeout=0.3)
    assert _workers_alive() == []


def test_ctrl_c_stops_a_one_thread_solve_within_a_poll():
    """The lone worker runs on a thread of its own, so the main thread takes the signal."""
    inst = livelock_problem.instance()
    # Python's own Ctrl-C handler, whatever an earlier test (or a library) left installed
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt, match=r"^$"):  # the bare signal, no message
            solve_llp(inst, "worklist", "ptwb", 1, timeout=30)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, before)
    assert _workers_alive() == []


def test_lost_work_needs_every_worker_idle_and_no_wake_up_for_the_whole_bound():
    from llpbench.llp import sync

    ctl = sync.new_control()
    watch = LostWork(ctl, threads=2, bound=1.0)
    ctl[sync.PENDING] = 3
    ctl[sync.IDLERS] = 1  # one worker still busy: not lost
    assert watch(0.0) is None and watch(5.0) is None
    ctl[sync.IDLERS] = 2
    assert watch(5.0) is None  # the streak starts here
    ctl[sync.WAKES] = 1  # a worker woke up and went idle again: a new streak
    assert watch(5.9) is None and watch(6.8) is None
    assert watch(7.0) == "work lost: 3 items pending, all 2 workers idle for 1.1 s"
    ctl[sync.PENDING] = 0  # the work was done after all
    assert watch(9.0) is None


@pytest.mark.parametrize("text", ["x", "0", "-2"])
def test_a_bad_time_limit_setting_is_one_clear_error(monkeypatch, text):
    monkeypatch.setenv(TIMEOUT_ENV, text)
    with pytest.raises(SpecError, match=rf"^{TIMEOUT_ENV}='{text}': expected a positive"):
        solve_timeout()
    with pytest.raises(SpecError, match="must be positive seconds, got 0"):
        solve_timeout(0)


@pytest.mark.parametrize("text", ["ptwb", "ptwb:0", "nope:3", "ptwb:x"])
def test_a_bad_drop_push_setting_is_one_clear_error(monkeypatch, text):
    monkeypatch.setenv(DROP_PUSH_ENV, text)
    with pytest.raises(SpecError, match=rf"^{DROP_PUSH_ENV}='{text}': expected WORKLIST:EVERY"):
        drop_every("ptwb")


def test_the_drop_switch_names_one_worklist_or_all(monkeypatch):
    monkeypatch.setenv(DROP_PUSH_ENV, "swb:7")
    assert (drop_every("swb"), drop_every("ptwb"), drop_every(None)) == (7, 0, 0)
    monkeypatch.setenv(DROP_PUSH_ENV, "*:3,swb:7")
    assert (drop_every("swb"), drop_every("ptwb")) == (7, 3)
