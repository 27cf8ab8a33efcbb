"""The one-pass floor: it reads every arc once (its sum is the formula's), and it is timed."""

from __future__ import annotations

import numpy as np
import pytest

from llpbench.baselines.arc_sweep import _sweep, arc_sweep, compact_arcs
from llpbench.graphs.generators import kronecker
from llpbench.graphs.weights import assign_weights
from llpbench.problems import sssp


def _formula(graph, dist) -> float:
    src = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    return float(np.minimum(dist[graph.indices], dist[src] + graph.weights).sum())


@pytest.mark.parametrize("weights", ["uniform-int:1:255", "uniform-float:0:1"])
def test_sweep_reads_every_arc_once(weights):
    graph = assign_weights(kronecker(9, 8, seed=3), weights, 3)
    rng = np.random.default_rng(1)
    heads, wts = compact_arcs(graph)
    assert wts.dtype == (np.int32 if weights.startswith("uniform-int") else np.float64)
    dist = rng.integers(0, 1000, graph.n).astype(wts.dtype)
    assert _sweep(graph.indptr, heads, wts, dist) == pytest.approx(_formula(graph, dist))


def test_arc_sweep_times_passes_and_solves_nothing():
    graph = assign_weights(kronecker(10, 8, seed=2), "uniform-int:1:255", 2)
    result = arc_sweep(graph, repeats=3)
    assert len(result.params["passes"]) == 3
    assert result.seconds == min(result.params["passes"]) > 0
    assert result.answer.size == 0 and result.name == "arc-sweep"
    assert sssp.FLOORS["arc-sweep"](sssp.instance(graph, 0)).seconds > 0
