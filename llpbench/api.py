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
from llpbench.llp.worklists import orders_by_level
from llpbench.phases import phase
from llpbench.problems import build_instance, problem_module
from llpbench.problems.tuned import TunedParams, level_names

if TYPE_CHECKING:
    from llpbench.graphs.registry import ReadOptions


@dataclass
class Solution:
    """One verified (or not) LLP solve.

    ``answer`` is in the problem's answer form (SSSP: float64 distances, ``inf`` for
    unreachable; exact for integer weights), indexed by *internal* vertex 0..n-1; for graph
    problems ``file_ids[i]`` is the file's id of entry ``i`` (``file_ids[i] == i + 1`` for a
    DIMACS, Matrix Market or KONECT file) and ``source`` is the file's id of the source
    (``source_vertex`` its internal one; ``source_chosen`` says why when none was given).
    ``verified`` is True when it matched the independent reference, False when it did not
    (``mismatch`` says how), None when verification was skipped.
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
    file_ids: np.ndarray | None = None
    source: int | None = None
    source_vertex: int | None = None
    source_chosen: str | None = None


def solve(
    graph: Graph | str | os.PathLike[str] | None = None,
    *,
    problem: str = "sssp",
    source: int | None = None,
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
    source : int, optional
        Source vertex of graph problems, **in the file's ids**: a graph read from a 1-based
        file (DIMACS, Matrix Market, KONECT) takes ``source=1`` for its first vertex, a
        graph whose label ids were renumbered takes the label (``Graph.ids`` converts; a
        generated graph's ids are 0..n-1). None: the first of the graph's fixed-seed
        sources, as ``llpbench run`` picks them (never an isolated vertex 0).
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
    if orders_by_level(check_config(solver, worklist, threads)) and isinstance(graph, Graph):
        # a level worklist's bucket width: the tuned Δ at this thread count, as `run` uses
        # (only what the level worklists use: an LLP solve never tunes a baseline's Δ)
        given |= TunedParams(cache_dir, say=say)(
            module, graph, given, threads=threads, names=level_names(module)
        )
    internal, chosen = 0, None
    if isinstance(graph, Graph) and module.INPUT == "graph":
        internal, chosen = resolve_source(graph, source)
    label = graph.name if isinstance(graph, Graph) else problem
    with phase(f"{label}: building the instance"):
        inst = build_instance(
            module, graph=graph, size=size, seed=seed, source=internal, params=given
        )
    with phase(f"{label}: compiling and solving"):
        result = solve_llp(inst, solver, worklist, threads)
    answer = module.answer(inst, result.state)
    verified = mismatch = None
    if verify:
        with phase(f"{label}: the reference answer"):
            expected = module.reference(inst)
        mismatch = module.verify(answer, expected)
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
        bucket_width=inst.bucket_width if orders_by_level(result.worklist) else None,
        **_ids_of(graph if module.INPUT == "graph" else None, answer, internal, chosen),
    )


def resolve_source(graph: Graph, source: int | None) -> tuple[int, str | None]:
    """The internal source vertex of the file's id ``source``, and why it was chosen when
    ``source`` is None (the first fixed-seed source: :func:`~llpbench.graphs.sources.
    default_source`).

    Raises
    ------
    llpbench.errors.SpecError
        ``source`` is not an id of the graph's file, naming the ids it has.
    """
    from llpbench.graphs.sources import DEFAULT_SEED, default_source

    where = graph.provenance.get("source") or graph.name
    if source is not None:
        return graph.ids.to_internal(source, graph.n, where=where), None
    internal = default_source(graph)
    return internal, (f"no --source given: file vertex {graph.ids.to_file(internal)}, the "
                      f"first of the graph's fixed-seed sources (seed {DEFAULT_SEED}), "
                      "the one `llpbench run` times first")


def _ids_of(graph: Graph | None, answer, internal: int, chosen: str | None) -> dict[str, Any]:
    """The id fields of a graph problem's :class:`Solution` (none for generated problems)."""
    if not isinstance(graph, Graph):
        return {}
    n = np.asarray(answer).shape[0] if np.ndim(answer) else graph.n
    return {"file_ids": np.asarray(graph.ids.to_file(np.arange(n))),
            "source": graph.ids.to_file(internal), "source_vertex": internal,
            "source_chosen": chosen}



def format_answer(answer: np.ndarray, file_ids: np.ndarray | None = None,
                  header: str = "") -> bytes:
    """The answer as text: with ``file_ids`` (a graph problem), one ``id value`` line per
    vertex in the file's ids, ``unreached`` for a vertex no path reaches (no sentinel number
    to mistake for a distance); otherwise one value per line. Integers are written without a
    decimal point when every value is integral, floats with full precision. ``header``
    lines are written first, each behind ``# ``.
    """
    values = np.asarray(answer)
    head = "".join(f"# {line}\n" for line in header.splitlines())
    if values.ndim != 1:
        values = values.reshape(values.shape[0], -1)
        body = "\n".join(" ".join(str(int(x)) for x in row) for row in values)
        return (head + body + "\n").encode()
    finite = np.isfinite(values) if values.dtype.kind == "f" else np.ones(values.shape, bool)
    kept = values[finite]
    integral = values.dtype.kind in "iub" or bool(np.all(kept == np.floor(kept)))
    lines = []
    for x, ok in zip(values.tolist(), finite.tolist(), strict=True):
        if not ok:
            unreached = file_ids is not None and x > 0
            lines.append("unreached" if unreached else ("inf" if x > 0 else
                                                        ("-inf" if x < 0 else "nan")))
        elif integral:
            lines.append(str(int(x)))
        else:
            lines.append(repr(float(x)))
    if file_ids is not None:
        lines = [f"{v} {text}" for v, text in zip(np.asarray(file_ids).tolist(), lines,
                                                   strict=True)]
    return (head + "\n".join(lines) + "\n").encode()


def write_answer(path: str | os.PathLike[str], answer: np.ndarray,
                 file_ids: np.ndarray | None = None, header: str = "") -> None:
    """Write ``answer`` to ``path`` atomically (never a half-written file); see
    :func:`format_answer` for ``file_ids`` and ``header``."""
    from pathlib import Path

    from llpbench.graphs.formats_text import atomic_open, compress_for

    with atomic_open(Path(path)) as fh:
        fh.write(compress_for(Path(path), format_answer(answer, file_ids, header)))
