"""Solver configurations every LLP test runs: each solver, each worklist, 1 to 32 threads."""

from __future__ import annotations

from llpbench.llp.worklists import WORKLISTS

THREADS = (1, 2, 3, 8, 32)

ALL_CONFIGS = (
    [("cyclic", None, 1)]
    + [("bag", wl, 1) for wl in WORKLISTS]
    + [("all-indices", None, t) for t in THREADS]
    + [("worklist", wl, t) for wl in WORKLISTS for t in THREADS]
)


def config_id(config) -> str:
    solver, worklist, threads = config
    return f"{solver}-{worklist or 'none'}-{threads}t"
