"""The solve clocks cover what GAP's Trial Time covers (issue 32): the per-solve arrays'
allocation is timed, reported apart, and part of ``seconds``."""

from __future__ import annotations

import pytest

from llpbench.baselines.delta.stepping import delta_stepping
from llpbench.graphs.registry import load_graph
from llpbench.llp.runtime import solve_llp
from llpbench.problems import sssp


@pytest.mark.parametrize("threads", [1, 2])
def test_delta_stepping_times_its_arrays_allocation(threads):
    g = load_graph("tiny-mesh", cache_dir=None)
    r = delta_stepping(g, 0, threads=threads, delta=64)
    setup = r.params["setup_seconds"]
    assert 0 < setup <= r.seconds


def test_llp_solve_times_its_state_and_worklist_allocation():
    g = load_graph("tiny-mesh", cache_dir=None)
    r = solve_llp(sssp.instance(g, 0), "worklist", "obim", 2)
    assert 0 < r.extra["setup_seconds"] <= r.seconds
