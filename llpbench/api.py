"""The small Python API: solve one problem instance with one LLP configuration.

>>> import llpbench
>>> sol = llpbench.solve("tiny-kron", problem="sssp", source=0, threads=2)  # doctest: +SKIP
>>> sol.verified, sol.answer[:3]  # doctest: +SKIP
(True, array([ 0., 91., 37.]))
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from llpbench.graphs.graph import Graph
from llpbench.llp.runtime import check_config, solve_llp
from llpbench.llp.worklists import BY_LEVEL
from llpbench.problems import build_instance, problem_module
from llpbench.problems.tuned import TunedParams, level_names

if TYPE_CHECKING:
    from llpbench.graphs.registry import ReadOptions


@dataclass
class Solution:
    """One verified (or not) LLP solve.

    ``answer`` is in the problem's answer form (SSSP: float64 distances, ``inf`` for
    unreachable; exact for integer weights). ``verified`` is True when it matched the
    independent reference, False when it did not (``mismatch`` says how), None when
    verification was skipped.
    """

    answer: np.ndarray
    seconds: float
    compile_seconds: float
    cache_hits: int
    counters: dict[str, int]
    problem: str
    solver: str
    worklist: str | None
    threads: int
    verified: bool | None
    mismatch: str | None = None
    meta: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    bucket_width: int | None = None


def solve(
    graph: Graph | str | os.PathLike[str] | None = None,
    *,
    problem: str = "sssp",
    source: int = 0,
    size: int | None = None,
    seed: int = 0,
    solver: str = "worklist",
    worklist: str | None = None,
    threads: int = 1,
    verify: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    options: ReadOptions | None = None,
    params: Mapping[str, Any] | None = None,
    say: Callable[[str], None] | None = None,
) -> Solution:
    """Solve one instance with an LLP solver and check it against the reference.

    Parameters
    ----------
    graph : Graph, registry name or file path, optional
        The input graph of graph problems (``sssp``, ``bfs``, ...).
    problem : str
        A name of :data:`llpbench.problems.PROBLEMS`.
    source : int
        Source vertex (graph problems).
    size, seed : int
        Instance size and seed of generated problems (``stable-marriage``, ``knapsack``, ...).
    solver, worklist, threads
        The LLP configuration (see :func:`llpbench.llp.runtime.solve_llp`).
    verify : bool
        Compare with the problem's independent reference answer.
    options : llpbench.graphs.registry.ReadOptions, optional
        How to read a graph *file* (directedness, index base, weights).
    params : dict, optional
        Values for the problem's tuned parameters (SSSP: ``{"delta": ...}``); the bucketed
        worklist looks the others up as ``llpbench run`` does
        (:mod:`llpbench.problems.tuned`: SSSP's Δ is its graph family's, tuned first if the
        datasets cache has none).
    say : callable, optional
        Told one line before a parameter is tuned.

    Returns
    -------
    Solution

    Raises
    ------
    llpbench.errors.LlpbenchError
        Unknown names, bad thread counts, unreadable graphs.
    """
    module = problem_module(problem)
    if isinstance(graph, (str, os.PathLike)):
        from llpbench.graphs.registry import load_graph

        graph = load_graph(graph, cache_dir=cache_dir, options=options)
    given = dict(params or {})
    if check_config(solver, worklist, threads) in BY_LEVEL and isinstance(graph, Graph):
        # a level worklist's bucket width: the tuned Δ at this thread count, as `run` uses
        # (only what the level worklists use: an LLP solve never tunes a baseline's Δ)
        given |= TunedParams(cache_dir, say=say)(
            module, graph, given, threads=threads, names=level_names(module)
        )
    inst = build_instance(
        module, graph=graph, size=size, seed=seed, source=source, params=given
    )
    result = solve_llp(inst, solver, worklist, threads)
    answer = module.answer(inst, result.state)
    verified = mismatch = None
    if verify:
        mismatch = module.verify(answer, module.reference(inst))
        verified = mismatch is None
    return Solution(
        answer=answer,
        seconds=result.seconds,
        compile_seconds=result.compile_seconds,
        cache_hits=result.cache_hits,
        counters=result.counters,
        problem=problem,
        solver=solver,
        worklist=result.worklist,
        threads=threads,
        verified=verified,
        mismatch=mismatch,
        meta={k: v for k, v in inst.meta.items() if k != "graph"},
        params=inst.params,
        bucket_width=inst.bucket_width if result.worklist in BY_LEVEL else None,
    )



def format_answer(answer: np.ndarray) -> bytes:
    """One value per line; integers without a decimal point when every value is integral,
    ``inf`` for unreachable, floats with full precision otherwise."""
    values = np.asarray(answer)
    if values.ndim != 1:
        values = values.reshape(values.shape[0], -1)
        return ("\n".join(" ".join(str(int(x)) for x in row) for row in values) + "\n").encode()
    finite = np.isfinite(values) if values.dtype.kind == "f" else np.ones(values.shape, bool)
    kept = values[finite]
    integral = values.dtype.kind in "iub" or bool(np.all(kept == np.floor(kept)))
    lines = []
    for x, ok in zip(values.tolist(), finite.tolist(), strict=True):
        if not ok:
            lines.append("inf" if x > 0 else ("-inf" if x < 0 else "nan"))
        elif integral:
            lines.append(str(int(x)))
        else:
            lines.append(repr(float(x)))
    return ("\n".join(lines) + "\n").encode()


def write_answer(path: str | os.PathLike[str], answer: np.ndarray) -> None:
    """Write ``answer`` to ``path`` atomically (never a half-written file)."""
    from pathlib import Path

    from llpbench.graphs.formats_text import write_bytes_atomic

    write_bytes_atomic(Path(path), format_answer(answer))
