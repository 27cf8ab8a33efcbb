"""Baselines shared by several problems (Δ-stepping and its Δ tuning), and their result type.

A baseline is the hand-tuned classical algorithm a problem's LLP solvers are compared with.
It returns a :class:`BaselineResult` whose ``answer`` is in the problem's answer format, so
the runner verifies it against the reference exactly like an LLP solve.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class BaselineResult:
    """One timed baseline run.

    ``seconds`` excludes compilation, which is reported in ``compile_seconds``; ``params``
    holds what was tuned (e.g. ``{"delta": 64}``), recorded beside the time in results.
    ``cpu_seconds``, when the solve ran on the calling thread alone, is that thread's CPU
    time over the same interval: other processes' load barely moves it, which makes it the
    steadier clock for comparing one-thread runs on a shared machine (Δ tuning uses it).
    An external program that prints no answer (GAP) gives ``answer`` None and ``reached``,
    the number of vertices it reached, which the runner checks against the reference.
    """

    answer: np.ndarray | None
    seconds: float
    compile_seconds: float
    name: str
    params: dict[str, Any] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    cpu_seconds: float | None = None
    reached: int | None = None  # an external program that prints no answer (answer None)
