"""Source vertices of a graph, drawn once with a fixed seed.

Every solver and thread count of a sweep, the Δ tuning rule and the benchmark scripts solve
from the same sources of a graph: the draw is a function of the graph and the seed alone,
as GAP's ``SourcePicker`` makes it.
"""

from __future__ import annotations

import zlib

import numpy as np

from llpbench.graphs.graph import Graph

__all__ = ["pick_sources"]


def pick_sources(graph: Graph, count: int, seed: int) -> list[int]:
    """``count`` source vertices with at least one out-arc, drawn with a fixed seed.

    The draw depends only on the graph's name and size and the seed, so every solver and
    thread count (and every rerun) gets the same sources.

    Parameters
    ----------
    graph : Graph
    count : int
        How many sources (drawn with replacement when fewer vertices have out-arcs).
    seed : int

    Returns
    -------
    list of int
        ``[0]`` when no vertex has an out-arc.
    """
    candidates = np.flatnonzero(graph.out_degrees() > 0)
    if candidates.size == 0:
        return [0]
    rng = np.random.default_rng([seed, zlib.crc32(graph.name.encode()), graph.n])
    replace = candidates.size < count
    return [int(v) for v in rng.choice(candidates, size=count, replace=replace)]
