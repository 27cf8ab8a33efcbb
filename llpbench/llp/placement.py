"""Where worker threads run: optional pinning of each worker to one CPU.

Unpinned, the OS may move a worker between cores mid-solve, and two workers may share a core
while another idles; both add noise that has nothing to do with the solver. Pinned, worker
``t`` of a solve runs only on CPU ``cpus[t % len(cpus)]``, where ``cpus`` is the process's
affinity set at the time (so ``taskset`` and cgroup limits are respected, and a 32-thread
point on 2 CPUs puts 16 workers on each, round-robin).

Linux's ``sched_setaffinity`` with pid 0 acts on the calling *thread*, which is what makes
per-worker pinning possible from Python: each worker pins itself before it reaches the start
barrier, so pinning is never inside the timed region. Where the OS has no affinity call
(macOS) or refuses it (a restricted container), nothing is pinned and :func:`report` says so
with the reason; a run records that report in its ``meta.json``.

Pinning is a process-wide setting (:func:`pinning`), not a solver argument, because it is a
property of the measurement, like the machine itself: every solve of a sweep runs the same way.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Any

_lock = threading.Lock()
_state: dict[str, Any] = {"enabled": False, "cpus": None, "pinned": 0, "failed": 0, "why": None}


def supported() -> bool:
    return hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity")


@contextlib.contextmanager
def pinning(enabled: bool = True) -> Iterator[None]:
    """Within the block, every worker launched by the runtime pins itself to one CPU.

    The CPU list is the process's affinity set on entry; the counters of :func:`report`
    start from zero.
    """
    previous = dict(_state)
    cpus = sorted(os.sched_getaffinity(0)) if enabled and supported() else None
    _state.update(enabled=enabled, cpus=cpus, pinned=0, failed=0,
                  why=None if not enabled or supported() else "the OS has no sched_setaffinity")
    try:
        yield
    finally:
        _state.clear()
        _state.update(previous)


def enabled() -> bool:
    return bool(_state["enabled"])


def cpu_for(worker: int) -> int | None:
    """The CPU worker ``worker`` is pinned to, or None when pinning is off or unsupported."""
    cpus = _state["cpus"]
    if not _state["enabled"] or not cpus:
        return None
    return cpus[worker % len(cpus)]


def pin_current_thread(worker: int) -> bool:
    """Pin the calling thread to worker ``worker``'s CPU; True if it is now pinned there."""
    cpu = cpu_for(worker)
    if cpu is None:
        return False
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as exc:
        with _lock:
            _state["failed"] += 1
            _state["why"] = f"sched_setaffinity refused: {exc.strerror or exc}"
        return False
    with _lock:
        _state["pinned"] += 1
    return True


@contextlib.contextmanager
def pinned_here(worker: int = 0) -> Iterator[None]:
    """Pin the calling thread for the block, then give it back its previous CPU set.

    For a one-worker solve, which runs in the caller's own thread.
    """
    if cpu_for(worker) is None:
        yield
        return
    before = os.sched_getaffinity(0)
    pin_current_thread(worker)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, before)


def report() -> dict[str, Any]:
    """What happened: whether pinning was asked for, applied, on which CPUs, and why not."""
    requested = bool(_state["enabled"])
    applied = requested and _state["pinned"] > 0 and _state["failed"] == 0
    why = _state["why"]
    if requested and not applied and why is None:
        why = "no worker was launched"
    return {
        "requested": requested,
        "applied": applied,
        "cpus": list(_state["cpus"] or []),
        "workers_pinned": int(_state["pinned"]),
        "workers_not_pinned": int(_state["failed"]),
        "reason": why if requested and not applied else None,
        "rule": "worker t on cpus[t % len(cpus)]" if requested else None,
    }


def core_count() -> int:
    """How many threads this process can run at once, each on a core of its own.

    The physical cores (``psutil.cpu_count(logical=False)``; the logical CPUs where psutil
    cannot tell), capped by the CPUs the process may run on (its affinity set, what
    ``taskset`` or a container left it). Above this many threads, workers time-share cores:
    a time measured there is not a parallel speedup, and the report says so.
    """
    import psutil

    cores = psutil.cpu_count(logical=False) or psutil.cpu_count(logical=True) or 1
    allowed = sorted(os.sched_getaffinity(0)) if supported() else None
    return min(cores, len(allowed)) if allowed else cores
