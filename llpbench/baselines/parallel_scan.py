"""Parallel prefix sums, the reduction problem's baseline: the two-pass blocked scan
(reduce, then scan; Blelloch, "Prefix sums and their applications", 1990, section 1.4; the
schedule of most library scans on multicore CPUs, e.g. TBB's ``parallel_scan``).

The input is cut into one contiguous block per thread. Pass 1: every thread sums its block.
One barrier. Pass 2: every thread adds up the sums of the blocks before its own (T numbers)
and writes its block's inclusive prefix sums from that offset. The work is two reads and one
write of the array against one read and one write for a sequential scan, in depth
``2n / T + T``; with one thread the first pass is skipped (a plain scan). The threads are
the LLP runtime's (real OS threads, released together by its launcher), so the two sides of
a comparison run on the same thread counts.

:func:`parallel_copy` is the reduction's floor: one read and one write of the array, split
the same way, with no arithmetic, so its time is what the memory system charges for the
traffic every scan makes.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.llp import sync
from llpbench.llp.launch import launch_workers

NAME = "parallel-scan"


def touched_output(n: int) -> tuple[np.ndarray, float]:
    """A written int64 array of ``n`` zeros for a scan's output, and the seconds that took.

    Every scan's time includes it, as an LLP solve's includes allocating and filling its
    state (``extra["setup_seconds"]``, which for the reduction is its output): at 10^8 values
    that is 0.15 s of a 0.27 s one-thread scan, and timing it on one side only made the LLP
    look 2.2x slower where the kernels run at the same speed (2026-12-08)."""
    t0 = time.perf_counter()
    out = np.full(n, 0, dtype=np.int64)
    return out, time.perf_counter() - t0


@njit(nogil=True, cache=True)
def _scan_worker(tid, nthreads, a, out, sums, ctl):
    """Thread ``tid``'s part of both passes (``sums``: one padded slot per thread)."""
    n = a.shape[0]
    lo, hi = n * tid // nthreads, n * (tid + 1) // nthreads
    seg, dst = a[lo:hi], out[lo:hi]
    sync.start_barrier(ctl)
    offset = np.int64(0)
    if nthreads > 1:
        sums[tid * sync.PAD] = seg.sum()
        sync.barrier(ctl, nthreads)  # a full fence: every block's sum is visible after it
        for t in range(tid):
            offset += sums[t * sync.PAD]
    for p in range(seg.shape[0]):  # from 0: no negative-index check, the loop stays tight
        offset += seg[p]
        dst[p] = offset
    return sync.finish(ctl, 0)


def parallel_prefix_sums(values: np.ndarray, threads: int = 1) -> BaselineResult:
    """Inclusive prefix sums of ``values`` then their total (the reduction problem's answer
    form), by the two-pass scan on ``threads`` OS threads.

    ``seconds`` runs from the release of the threads to the last one's return, plus the
    allocation and fill of the output array (``params["setup_seconds"]``, as an LLP solve's
    time includes its state's: :func:`touched_output`); compilation (or loading it from
    numba's cache) is timed apart.
    """
    a = np.ascontiguousarray(values, dtype=np.int64)
    out, setup = touched_output(a.shape[0])
    sums = np.zeros(max(1, threads) * sync.PAD, dtype=np.int64)
    ctl = sync.new_control()
    seconds, compile_s = launch_workers(_scan_worker, threads, (a, out, sums, ctl), ctl)
    total = out[-1] if out.shape[0] else np.int64(0)
    return BaselineResult(
        answer=np.append(out, total),
        seconds=seconds + setup,
        compile_seconds=compile_s,
        name=NAME,
        params={"threads": threads, "setup_seconds": setup},
    )


@njit(nogil=True, cache=True)
def _copy_worker(tid, nthreads, a, out, ctl):
    """Thread ``tid`` copies its contiguous share of ``a`` into ``out``."""
    n = a.shape[0]
    lo, hi = n * tid // nthreads, n * (tid + 1) // nthreads
    sync.start_barrier(ctl)
    out[lo:hi] = a[lo:hi]
    return sync.finish(ctl, 0)


def parallel_copy(values: np.ndarray, threads: int = 1) -> BaselineResult:
    """Copy ``values`` into a fresh (written) array on ``threads`` OS threads, timed like
    :func:`parallel_prefix_sums`, its allocation included; ``answer`` is empty (a floor
    solves nothing)."""
    a = np.ascontiguousarray(values, dtype=np.int64)
    out, setup = touched_output(a.shape[0])
    ctl = sync.new_control()
    seconds, compile_s = launch_workers(_copy_worker, threads, (a, out, ctl), ctl)
    return BaselineResult(
        answer=np.empty(0), seconds=seconds + setup, compile_seconds=compile_s, name="copy",
        params={"threads": threads, "setup_seconds": setup},
    )
