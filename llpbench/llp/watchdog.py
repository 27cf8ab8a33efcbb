"""The watchdog of every LLP solve: a solver that loses work, or never ends, fails instead of
hanging.

The worklist solver ends when ``PENDING`` (items pushed and not yet processed) reaches zero.
A worklist or problem that drops a push leaves ``PENDING`` above zero for ever, and every
worker idles, waiting for work that no longer exists. Nothing a correct solve does looks like
that for long: an idle worker hands its credit back before it counts itself idle, so with
every worker idle ``PENDING`` counts exactly the items sitting in the worklist, and an idle
worker polls the worklist every few microseconds (50 µs naps at most). So when every worker
has been idle with ``PENDING`` not zero, and none has woken up, for
:data:`LOST_WORK_SECONDS`, the work is lost: :class:`LostWork` says so and the supervisor
(:func:`llpbench.llp.launch.run_threads`) stops the workers. The workers pay one atomic
add each time they start or stop idling, nothing per item.

A solve that never ends while busy (an ``advance`` that does not advance, a livelock) is
stopped by the scanning solvers' round bound (:attr:`llpbench.llp.contract.Instance.max_rounds`)
or by a time limit: ``timeout=`` of :func:`llpbench.llp.runtime.solve_llp`, or
``$LLPBENCH_SOLVE_TIMEOUT`` seconds (the test suite sets it). Ctrl-C stops any solve within
a poll (:data:`llpbench.llp.launch.POLL_SECONDS`).
"""

from __future__ import annotations

import os

import numpy as np

from llpbench.errors import SpecError
from llpbench.llp import sync

#: How long every worker must sit idle with work pending before the work counts as lost
#: (``$LLPBENCH_LOST_WORK_SECONDS`` overrides it: the fault tests wait less).
LOST_WORK_SECONDS = 2.0
LOST_WORK_ENV = "LLPBENCH_LOST_WORK_SECONDS"
#: Seconds a solve may run before it is stopped (unset or empty: no limit).
TIMEOUT_ENV = "LLPBENCH_SOLVE_TIMEOUT"


class LostWork:
    """A :class:`~llpbench.llp.launch.Supervision` watch: the reason to stop a worklist solve
    whose every worker idles while items are pending, or None.

    Called with the seconds since the start; reads the control block's ``PENDING``,
    ``IDLERS`` and ``WAKES`` words, which the workers update atomically.
    """

    def __init__(self, ctl: np.ndarray, threads: int, bound: float | None = None):
        self.ctl = ctl
        self.threads = threads
        self.bound = _seconds(LOST_WORK_ENV, LOST_WORK_SECONDS) if bound is None else bound
        self.since: float | None = None  # when every worker was first seen idle
        self.wakes = -1

    def __call__(self, elapsed: float) -> str | None:
        pending = int(self.ctl[sync.PENDING])
        idlers = int(self.ctl[sync.IDLERS])
        wakes = int(self.ctl[sync.WAKES])
        if pending == 0 or idlers < self.threads:
            self.since = None
            return None
        if self.since is None or wakes != self.wakes:  # a worker woke up: a new streak
            self.since, self.wakes = elapsed, wakes
            return None
        idle = elapsed - self.since
        if idle < self.bound:
            return None
        every = "the only worker" if self.threads == 1 else f"all {self.threads} workers"
        if pending < 0:  # more items finished than were pushed: one was handed out twice
            return f"work counted twice: {-pending} items more finished than pushed, {every} idle"
        return f"work lost: {pending} items pending, {every} idle for {idle:.1f} s"


def solve_timeout(given: float | None = None) -> float | None:
    """The time limit of a solve: ``given``, else ``$LLPBENCH_SOLVE_TIMEOUT``, else none.

    Raises
    ------
    SpecError
        If the variable is set to something that is not a positive number of seconds.
    """
    if given is not None:
        if not given > 0:
            raise SpecError(f"a solve's time limit must be positive seconds, got {given}")
        return float(given)
    return _seconds(TIMEOUT_ENV, None)


def _seconds(env: str, default: float | None) -> float | None:
    """Positive seconds from ``$env``, or ``default`` when it is unset or empty."""
    text = os.environ.get(env, "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise SpecError(f"{env}={text!r}: expected a positive number of seconds")
    return seconds
