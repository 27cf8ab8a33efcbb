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


def test_the_reductions_scans_and_floor_time_their_output_array_as_the_llp_its_state():
    """Each reduction baseline, peer and the copy floor allocates and fills its output inside
    its time (``setup_seconds``), as an LLP solve does its state (the reduction's state is
    its output): both sides of the ratio pay the same first touch."""
    import numpy as np

    from llpbench.baselines.parallel_scan import parallel_copy, parallel_prefix_sums
    from llpbench.llp.runtime import solve_llp
    from llpbench.problems import reduction

    inst = reduction.generate(300_000, 3)
    runs = [parallel_prefix_sums(inst.meta["values"], 2), parallel_copy(inst.meta["values"], 2),
            reduction.numpy_cumsum(inst), reduction.numba_cumsum(inst)]
    for run in runs:
        assert 0 < run.params["setup_seconds"] < run.seconds, run.name
    expected = reduction.reference(inst)
    for run in runs[:1] + runs[2:]:
        assert np.array_equal(run.answer, expected), run.name
    llp = solve_llp(inst, worklist="ptcf", threads=2)
    assert 0 < llp.extra["setup_seconds"] < llp.seconds
