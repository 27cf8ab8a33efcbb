"""Per-thread run counters: what explains a solver's time.

Each worker owns one padded row of an int64 matrix (no sharing, no atomics: cheap enough
to leave on). Problems and worklists increment the slots below through the row they are
handed; the runtime sums the rows after a run.
"""

from __future__ import annotations

import numpy as np

ITEMS = 0  # items popped from the worklist (or indices examined by a scanning solver)
ADVANCES = 1  # successful advances: state[j] raised (for SSSP: a distance lowered)
STALE = 2  # popped items that were no longer forbidden (wasted pops)
RETRIES = 3  # atomic updates that lost a race (CAS failures, atomic mins that changed nothing)
STEALS = 4  # successful steals from another thread's worklist
PUSHES = 5  # items pushed to the worklist
CONTENTION = 6  # spins/yields waiting for a worklist lock held by another thread
IDLE = 7  # backoff rounds with no work found
ROUNDS = 8  # passes (cyclic) or rounds (all-indices-parallel)
FUSED = 9  # reported indices a worker kept in its own run (bucket fusion) instead of pushing

NAMES = (
    "items", "advances", "stale", "retries", "steals", "pushes", "contention", "idle", "rounds",
    "fused",
)
#: A spare slot, in no total: the test-only lossy worklist counts its pushes there
#: (:mod:`llpbench.llp.faults`).
FAULT = 15
ROW = 16  # 128 bytes a row, so that two threads never write the same cache line


def new_counters(threads: int) -> np.ndarray:
    """A zeroed ``(threads, ROW)`` counter matrix."""
    return np.zeros((threads, ROW), dtype=np.int64)


def summarize(counters: np.ndarray) -> dict[str, int]:
    """Sum the per-thread rows into one named total per counter."""
    totals = counters.sum(axis=0)
    return {name: int(totals[i]) for i, name in enumerate(NAMES)}
