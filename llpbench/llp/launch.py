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
from typing import Any

import numpy as np
from numba import typeof

from llpbench.llp import placement, sync

__all__ = ["compile_kernel", "launch_workers", "run_threads", "timed_call"]


def compile_kernel(dispatcher: Any, args: Sequence[Any]) -> tuple[float, int]:
    """Compile (or load from cache) ``dispatcher`` for ``args``; return (seconds, cache hits)."""
    sig = tuple(typeof(a) for a in args)
    hits_before = sum(dispatcher.stats.cache_hits.values())
    t0 = time.perf_counter()
    dispatcher.compile(sig)
    seconds = time.perf_counter() - t0
    return seconds, sum(dispatcher.stats.cache_hits.values()) - hits_before


def run_threads(
    target: Callable[..., Any],
    per_thread_args: Sequence[tuple],
    ctl: np.ndarray,
    ready: int = sync.READY,
    go: int = sync.GO,
) -> float:
    """Start one OS thread per args tuple, release them together, return the wall time.

    Workers count themselves in ``ctl[ready]`` and wait for ``ctl[go]`` (the LLP solvers'
    start barrier; Δ-stepping passes its own slots).
    """
    if len(per_thread_args) == 1:  # one worker: run it here, no thread start or wake-up
        with placement.pinned_here(0):
            ctl[ready] = 1
            ctl[go] = 1
            t0 = time.perf_counter()
            target(*per_thread_args[0])
            return time.perf_counter() - t0
    errors: list[BaseException] = []

    def body(worker, *args):
        try:
            placement.pin_current_thread(worker)  # before the barrier: never timed
            target(*args)
        except BaseException as exc:  # surfaced in the caller
            errors.append(exc)
            ctl[go] = 1

    threads = [
        threading.Thread(target=body, args=(t, *a), daemon=True)
        for t, a in enumerate(per_thread_args)
    ]
    for t in threads:
        t.start()
    while ctl[ready] < len(threads) and not errors:
        time.sleep(0.0002)
    t0 = time.perf_counter()
    ctl[go] = 1
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    if errors:
        raise errors[0]
    return seconds


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
) -> tuple[float, float]:
    """Run ``worker(t, threads, *common)`` for ``t`` in ``0..threads`` on OS threads.

    The worker is compiled first (timed apart) and the threads released together through
    ``ctl[ready]``/``ctl[go]`` (see :func:`run_threads`). Returns ``(seconds,
    compile_seconds)``.
    """
    nthreads = np.int64(threads)
    compile_s, _ = compile_kernel(worker, (np.int64(0), nthreads, *common))
    per_thread = [(np.int64(t), nthreads, *common) for t in range(threads)]
    return run_threads(worker, per_thread, ctl, ready, go), compile_s
