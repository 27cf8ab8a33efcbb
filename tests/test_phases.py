"""The set-up work outside the timed solves is named as it runs (llpbench.phases), so that
the sweep's bar and `llpbench solve`'s spinner can say what a long wait is."""

from __future__ import annotations

import pytest

from llpbench import api
from llpbench.graphs.registry import load_graph
from llpbench.phases import phase, shown_by


def test_nested_phases_show_the_innermost_then_the_outer_again():
    seen = []
    with shown_by(seen.append):
        with phase("outer"):
            with phase("inner"):
                pass
    assert seen == ["outer", "inner", "outer", None]


def test_a_phase_that_raises_still_ends_and_no_listener_outlives_its_block():
    seen = []
    with shown_by(seen.append), pytest.raises(ValueError, match="boom"), phase("work"):
        raise ValueError("boom")
    with phase("unheard"):
        pass
    assert seen == ["work", None]


def test_reading_solving_and_checking_a_file_are_named_in_order(tmp_path):
    path = tmp_path / "g.gr"
    path.write_text("p sp 3 3\na 1 2 4\na 2 3 1\na 1 3 9\n")
    seen = []
    with shown_by(seen.append):
        graph = load_graph(str(path), cache_dir=tmp_path / "cache")
        sol = api.solve(graph, source=1, solver="cyclic", cache_dir=tmp_path / "cache")
    assert sol.verified
    started = [s for s in seen if s is not None]
    assert started == ["g: reading the graph", "g: building the instance",
                       "g: compiling and solving", "g: the reference answer"]
    assert seen[-1] is None
