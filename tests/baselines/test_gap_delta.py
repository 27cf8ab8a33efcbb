"""GAP's Δ rule and its ``[gap]`` settings; the sweep path is in tests/cli/test_gap_cli.py."""

from __future__ import annotations

import pytest

from llpbench.baselines.gap_delta import GapDeltaRule, best_delta, load_gap_rule
from llpbench.errors import SpecError


def test_best_delta_is_the_fastest_and_the_smaller_on_a_tie():
    assert best_delta([(8, 2.0), (1, 3.0), (2048, 1.5), (64, 1.7)]) == 2048
    assert best_delta([(16, 1.0), (4, 1.0), (8, 2.0)]) == 4
    assert best_delta(list(reversed([(16, 1.0), (4, 1.0), (8, 2.0)]))) == 4  # order-free
    with pytest.raises(ValueError, match="best_delta needs at least one grid point"):
        best_delta([])


def test_the_gap_rule_comes_from_delta_toml_and_bad_values_are_refused(tmp_path):
    shipped = load_gap_rule()
    assert shipped.sources >= 1 and shipped.rounds >= 1 and shipped.trials >= 1
    path = tmp_path / "delta.toml"
    path.write_text("[rule]\nk_min = 0\n[gap]\nsources = 3\nrounds = 2\n")
    assert load_gap_rule(path) == GapDeltaRule(sources=3, rounds=2, trials=4)  # the default
    assert load_gap_rule(path).digest() != GapDeltaRule().digest()
    path.write_text("[rule]\n")
    assert load_gap_rule(path) == GapDeltaRule()
    for bad, message in (("sources = 0", "positive integers"), ("trials = true", "positive"),
                         ("speed = 1", "unknown key 'speed'")):
        path.write_text(f"[gap]\n{bad}\n")
        with pytest.raises(SpecError, match=message):
            load_gap_rule(path)
