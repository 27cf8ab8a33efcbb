"""Source vertices of a graph, drawn once with a fixed seed.

Every solver and thread count of a sweep, the Δ tuning rule and the benchmark scripts solve
from the same sources of a graph: the draw is a function of the graph and the seed alone,
as GAP's ``SourcePicker`` makes it.
"""

from __future__ import annotations

import zlib

import numpy as np

from llpbench.errors import SpecError
from llpbench.graphs.graph import Graph

__all__ = ["DEFAULT_SEED", "default_source", "pick_sources"]

#: The seed `llpbench run` draws its sources with unless ``--seed`` says otherwise; `solve`
#: without ``--source`` starts from the first of them, so both start where the other does.
DEFAULT_SEED = 42


def pick_sources(graph: Graph, count: int, seed: int) -> list[int]:
    """``count`` source vertices with at least one out-arc, drawn with a fixed seed.

    The draw depends only on the graph's name and size and the seed, so every solver and
    thread count (and every rerun) gets the same sources.

    Parameters
    ----------
    graph : Graph
    count : int
        How many sources; more than the vertices with an out-arc is refused.
    seed : int

    Returns
    -------
    list of int
        ``[0]`` when no vertex has an out-arc.

    Raises
    ------
    SpecError
        On an empty graph, or when ``count`` exceeds the vertices with an out-arc.
    """
    if graph.n == 0:
        where = graph.provenance.get("source") or graph.name
        raise SpecError(f"{where}: the graph has no vertices (nothing to solve)")
    candidates = np.flatnonzero(graph.out_degrees() > 0)
    if candidates.size == 0:
        return [0]
    if count > candidates.size:
        raise SpecError(
            f"sources must be at most {candidates.size:,} on {graph.name} (its vertices with an "
            f"out-arc, of {graph.n:,}), got {count}: more would repeat sources"
        )
    rng = np.random.default_rng([seed, zlib.crc32(graph.name.encode()), graph.n])
    return [int(v) for v in rng.choice(candidates, size=count, replace=False)]


def default_source(graph: Graph) -> int:
    """The internal vertex a solve starts from when no source is given: the first of the
    graph's fixed-seed sources (``pick_sources(graph, 1, DEFAULT_SEED)``), the one `run`
    times first. Never an isolated vertex when any vertex has an out-arc (vertex 0 of a
    Kronecker graph often is one)."""
    return pick_sources(graph, 1, DEFAULT_SEED)[0]
