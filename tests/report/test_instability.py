"""Instability warnings: which cells' repetitions disagree, and why, in every timing table."""

from __future__ import annotations

import pandas as pd

from llpbench.report import tables
from llpbench.report.instability import instability_note, instability_table, instance_reasons
from llpbench.report.store import load_runs


def _reps(*seconds: float) -> pd.DataFrame:
    return pd.DataFrame({"rep": range(len(seconds)), "seconds": seconds})


def test_steady_repetitions_give_no_reason():
    assert instance_reasons(_reps(1.00, 1.02, 0.99, 1.01, 1.00)) == []


def test_one_long_repetition_is_a_range_warning():
    reasons = instance_reasons(_reps(1.0, 1.01, 0.99, 3.0, 1.0))
    assert any(r.startswith("max/min 3.0") for r in reasons)


def test_widely_spread_repetitions_are_a_spread_warning():
    reasons = instance_reasons(_reps(1.0, 1.3, 0.8, 1.2, 0.9))
    assert any("MAD" in r and "% of median" in r for r in reasons)


def test_a_slow_first_repetition_is_named_as_such():
    reasons = instance_reasons(_reps(1.6, 1.0, 1.01, 0.99, 1.0))
    assert any(r.startswith("first repetition 1.6") for r in reasons)
    # the same value later in the series is not a first-repetition outlier
    assert not any("first" in r for r in instance_reasons(_reps(1.0, 1.6, 1.01, 0.99, 1.0)))


def _make_unstable(run_dir, graph="g-alpha", config="worklist/ptwb", threads=4):
    """Triple one repetition of one instance of one cell."""
    raw = pd.read_csv(run_dir / "runs.csv", dtype=str, keep_default_na=False)
    hit = (raw["graph"] == graph) & (raw["config"] == config) & (raw["threads"] == str(threads))
    hit &= (raw["source"] == "0") & (raw["rep"] == "2")
    assert hit.sum() == 1
    raw.loc[hit, "seconds"] = repr(3 * float(raw.loc[hit, "seconds"].iloc[0]))
    raw.to_csv(run_dir / "runs.csv", index=False)


def test_synthetic_run_is_stable_and_its_tables_carry_no_warning(run_dir):
    runs = load_runs(run_dir)
    table = instability_table(runs)
    assert table.empty and table.attrs["cells"] > 0
    assert instability_note(runs) is None
    notes = " ".join(tables.speedup_table(runs).attrs["notes"])
    assert "unstable" not in notes


def test_an_unstable_cell_is_flagged_and_named_in_the_tables_that_use_it(run_dir):
    _make_unstable(run_dir)
    runs = load_runs(run_dir)
    table = instability_table(runs)
    assert len(table) == 1
    row = table.iloc[0]
    assert (row["graph"], row["config"], row["threads"]) == ("g-alpha", "worklist/ptwb", 4)
    assert "source 0" in row["reasons"] and "max/min" in row["reasons"]
    speedup = tables.speedup_table(runs)
    used = speedup[speedup["graph"] == "g-alpha"].iloc[0]
    assert (used["best_llp"], used["threads"]) == ("worklist/ptwb", 4)  # the table uses it
    assert any("unstable" in n and "g-alpha" in n for n in speedup.attrs["notes"])
    # the overhead table (1 thread) does not use that cell: no warning there
    assert not any("unstable" in n for n in tables.overhead_table(runs).attrs["notes"])
