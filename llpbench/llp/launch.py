"""Compiling a kernel apart and launching it on OS threads: what every timed solve does.

The LLP solvers (:mod:`llpbench.llp.runtime`), the Δ-stepping and parallel-scan baselines
and the problems' own baselines all time a kernel the same way: compile it (or load it from
numba's disk cache) for the exact argument types first, timed apart, then time only the
run. Multi-threaded kernels run on real OS threads (Python threads calling ``nogil``
kernels, any number whatever the core count) released together by a start flag, so thread
start-up is not timed either. Before this module the baselines imported the runtime's
private helpers and re-wrote the compile-then-time block.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import typeof

from llpbench.llp import placement, sync

__all__ = [
    "Launch", "Stopped", "Supervision", "compile_kernel", "launch_workers", "run_threads",
    "timed_call",
]


def compile_kernel(dispatcher: Any, args: Sequence[Any]) -> tuple[float, int]:
    """Compile (or load from cache) ``dispatcher`` for ``args``; return (seconds, cache hits).

    A numba cache index that cannot be unpickled (written by other code under the same
    name: its signatures name a type this code does not define) is a cache miss: it is
    removed and the kernel compiled afresh, instead of failing every solve that uses it.
    """
    sig = tuple(typeof(a) for a in args)
    hits_before = sum(dispatcher.stats.cache_hits.values())
    t0 = time.perf_counter()
    try:
        dispatcher.compile(sig)
    except Exception:
        if not _drop_unreadable_index(dispatcher):
            raise
        dispatcher.compile(sig)
    seconds = time.perf_counter() - t0
    return seconds, sum(dispatcher.stats.cache_hits.values()) - hits_before


def _drop_unreadable_index(dispatcher: Any) -> bool:
    """Remove ``dispatcher``'s numba cache index if reading it fails; True if it did."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is None or not hasattr(cache_file, "_load_index"):
        return False
    try:
        cache_file._load_index()
    except Exception:
        Path(cache_file._index_path).unlink(missing_ok=True)
        return True
    return False


@dataclass
class Supervision:
    """How :func:`run_threads` watches a launch it may have to stop.

    ``abort`` is the ``ctl`` slot the workers poll (None: they cannot be stopped early, as
    in the baselines; an interrupt then returns at once and leaves them to finish).
    ``watch(elapsed)`` is called every :data:`POLL_SECONDS` while workers run and returns
    the reason to stop them, or None; ``timeout`` stops them after that many seconds.
    """

    abort: int | None = None
    watch: Callable[[float], str | None] | None = None
    timeout: float | None = None


@dataclass
class Launch:
    """What a launch returned: the wall time and each worker's return value, in order;
    ``stamped``: whether the time ends at the workers' own stamps (see ``run_threads``)."""

    seconds: float
    codes: list[Any]
    stamped: bool = False


class Stopped(Exception):
    """The supervisor stopped the workers (watchdog or time limit); ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: How often the supervisor looks at the workers: a watchdog's resolution, and how soon
#: Ctrl-C reaches a solve.
POLL_SECONDS = 0.05
#: How long stopped workers get to return before the supervisor gives up on them.
GRACE_SECONDS = 5.0
THREAD_NAME = "llpbench-worker"


def run_threads(
    target: Callable[..., Any],
    per_thread_args: Sequence[tuple],
    ctl: np.ndarray,
    ready: int = sync.READY,
    go: int = sync.GO,
    supervision: Supervision | None = None,
    end: int | None = None,
) -> Launch:
    """Start one OS thread per args tuple, release them together, return the wall time.

    Workers count themselves in ``ctl[ready]`` and wait for ``ctl[go]`` (the LLP solvers'
    start barrier; Δ-stepping passes its own slots). Even a lone worker runs on a thread of
    its own: the calling thread stays in Python, so that it can watch the solve and take
    Ctrl-C (compiled code on the main thread would hold both off until it returned). The
    clock stops at the last worker's own return, not when the caller notices it: with
    ``end``, where every worker stamped it in compiled code (:func:`llpbench.llp.sync.stamp_end`
    on the words ``end`` and ``end + 1`` of ``ctl``), else when each thread was back in Python
    (which, with many threads on few cores, includes their wait for the GIL).

    Raises
    ------
    Stopped
        If ``supervision``'s watchdog or time limit stopped the workers.
    KeyboardInterrupt
        On Ctrl-C, after telling the workers to stop.
    """
    sup = supervision or Supervision()
    count = len(per_thread_args)
    errors: list[BaseException] = []
    codes: list[Any] = [None] * count
    ends = [0.0] * count
    finished = threading.Event()
    left = [count]
    lock = threading.Lock()

    def body(worker, *args):
        try:
            placement.pin_current_thread(worker)  # before the barrier: never timed
            codes[worker] = target(*args)
        except BaseException as exc:  # surfaced in the caller
            errors.append(exc)
            ctl[go] = 1
        finally:
            ends[worker] = time.perf_counter()
            with lock:
                left[0] -= 1
                if left[0] == 0:
                    finished.set()

    threads = [
        threading.Thread(target=body, args=(t, *a), daemon=True, name=f"{THREAD_NAME}-{t}")
        for t, a in enumerate(per_thread_args)
    ]
    if end is not None:
        ctl[end] = ctl[end + 1] = 0
    for t in threads:
        t.start()
    while ctl[ready] < count and not errors and not finished.is_set():
        time.sleep(0.0002)
    t0_ns = time.clock_gettime_ns(sync.CLOCK)  # the clock the workers stamp on
    t0 = time.perf_counter()
    ctl[go] = 1
    try:
        reason = _supervise(finished, t0, sup)
    except KeyboardInterrupt:
        _stop(threads, ctl, sup)
        raise
    if reason is not None:
        _stop(threads, ctl, sup)
        raise Stopped(reason)
    if errors:
        raise errors[0]
    if end is not None and ctl[end + 1] == count:
        return Launch((int(ctl[end]) - t0_ns) * 1e-9, codes, stamped=True)
    return Launch(max(ends) - t0, codes)


def _supervise(finished: threading.Event, t0: float, sup: Supervision) -> str | None:
    """Wait for the workers; the reason to stop them, or None once they all returned."""
    while not finished.wait(POLL_SECONDS):
        elapsed = time.perf_counter() - t0
        if sup.timeout is not None and elapsed >= sup.timeout:
            return f"time limit: still running after {elapsed:.1f} s (limit {sup.timeout:g} s)"
        if sup.watch is not None and (reason := sup.watch(elapsed)) is not None:
            return reason
    return None


def _stop(threads: list[threading.Thread], ctl: np.ndarray, sup: Supervision) -> None:
    """Tell the workers to return and wait for them (not forever: a worker stuck where it
    never polls the flag is left behind, a daemon thread)."""
    if sup.abort is None:
        return
    ctl[sup.abort] = 1
    deadline = time.perf_counter() + GRACE_SECONDS
    for t in threads:
        t.join(max(0.0, deadline - time.perf_counter()))


def timed_call(kernel: Any, *args: Any) -> tuple[Any, float, float]:
    """Compile ``kernel`` for ``args`` (timed apart), then call it once on this thread.

    Returns ``(result, seconds, compile_seconds)``.
    """
    compile_s, _ = compile_kernel(kernel, args)
    t0 = time.perf_counter()
    result = kernel(*args)
    return result, time.perf_counter() - t0, compile_s


def launch_workers(
    worker: Any,
    threads: int,
    common: Sequence[Any],
    ctl: np.ndarray,
    ready: int = sync.READY,
    go: int = sync.GO,
    end: int | None = sync.END,
) -> tuple[float, float]:
    """Run ``worker(t, threads, *common)`` for ``t`` in ``0..threads`` on OS threads.

    The worker is compiled first (timed apart) and the threads released together through
    ``ctl[ready]``/``ctl[go]``; a worker stamps its end at ``ctl[end]`` (see
    :func:`run_threads`; None: it does not). Returns ``(seconds, compile_seconds)``.
    """
    nthreads = np.int64(threads)
    compile_s, _ = compile_kernel(worker, (np.int64(0), nthreads, *common))
    per_thread = [(np.int64(t), nthreads, *common) for t in range(threads)]
    return run_threads(worker, per_thread, ctl, ready, go, end=end).seconds, compile_s
