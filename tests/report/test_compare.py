"""`compare` on synthetic runs whose differences are known by construction."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from llpbench.errors import SpecError
from llpbench.report import compare as C
from llpbench.report.stats import NOT_SIGNIFICANT, SLOWER
from llpbench.report.store import load_runs
from tests.report import write_run


def _scaled_copy(run_dir, results, run_id, factor, config="worklist/swb", graph="g-beta"):
    """A copy of ``run_dir`` as run ``run_id`` with one configuration's times multiplied."""
    other = write_run(results, run_id, failed=False, latest=None)
    raw = pd.read_csv(run_dir / "runs.csv", dtype=str, keep_default_na=False)
    hit = (raw["config"] == config) & (raw["graph"] == graph)
    raw.loc[hit, "seconds"] = [repr(float(s) * factor) for s in raw.loc[hit, "seconds"]]
    raw.to_csv(other / "runs.csv", index=False)
    return other


@pytest.fixture
def run_a(tmp_path):
    return write_run(tmp_path / "results", "20260101-000000-a", failed=False)


def test_a_run_against_itself_is_not_significant_anywhere(run_a):
    runs = load_runs(run_a)
    table = C.compare_runs(runs, runs)
    assert len(table) == runs.groupby(C.CELL).ngroups
    assert (table["verdict"] == NOT_SIGNIFICANT).all()
    assert (table["ratio"] == 1.0).all()
    assert ((table["ratio_ci_low"] <= 1) & (1 <= table["ratio_ci_high"])).all()
    assert C.regressions(table, 0.0).empty


def test_a_slowed_configuration_is_flagged_and_nothing_else(run_a, tmp_path):
    run_b = _scaled_copy(run_a, tmp_path / "results", "20260102-000000-b", 1.5)
    table = C.compare_runs(load_runs(run_a), load_runs(run_b))
    slowed = (table["config"] == "worklist/swb") & (table["graph"] == "g-beta")
    assert (table.loc[slowed, "verdict"] == SLOWER).all()
    assert table.loc[slowed, "ratio"].round(9).eq(1.5).all()
    assert (table.loc[slowed, "ratio_ci_low"] > 1).all()
    assert (table.loc[~slowed, "verdict"] == NOT_SIGNIFICANT).all()
    assert set(C.regressions(table, 0.05).index) == set(table.index[slowed])
    assert C.regressions(table, 0.60).empty  # 1.5x is within a 60% allowance
    message = C.regression_message(C.regressions(table, 0.05), 0.05)
    assert message.startswith(f"{slowed.sum()} cell(s) significantly slower than 5% allows")
    assert "worklist/swb on g-beta" in message


def test_cells_only_one_run_holds_are_named(run_a, tmp_path):
    runs = load_runs(run_a)
    fewer = runs[runs["problem"] == "sssp"]
    table = C.compare_runs(runs, fewer)
    assert "stable-marriage" not in set(table["problem"])
    assert any("only in run A" in n for n in table.attrs["notes"])


def test_rows_of_sources_one_run_lacks_are_left_out(run_a):
    runs = load_runs(run_a)
    b = runs[runs["source"] == 0]
    table = C.compare_runs(runs, b)
    sssp = table[table["problem"] == "sssp"]
    assert (sssp["rows_a"] == sssp["rows_b"]).all()  # both sides on source 0 only


@pytest.mark.parametrize("text, value", [("5%", 0.05), ("5", 0.05), ("0.5%", 0.005),
                                         ("0%", 0.0)])
def test_threshold_is_a_percentage(text, value):
    assert C.parse_threshold(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["-5%", "five", "5%%", ""])
def test_bad_threshold_is_a_spec_error(text):
    with pytest.raises(SpecError, match="--fail-if-slower"):
        C.parse_threshold(text)


def test_machines_are_set_side_by_side_only_where_they_differ():
    a = {"machine": {"cpu_model": "AMD EPYC", "logical_cores": 2, "memory": {"total_bytes": 8},
                     "load_average": {"start": [0.1, 0, 0], "end": [0.2, 0, 0]}}}
    assert C.machine_differences(a, json.loads(json.dumps(a))).empty
    b = json.loads(json.dumps(a))
    b["machine"].update(cpu_model="Intel Xeon", logical_cores=64)
    diff = C.machine_differences(a, b)
    fields = list(diff["field"])
    assert fields[:2] == ["cpu_model", "logical_cores"]
    assert "memory.total_bytes" not in fields
    assert {"load_average.start", "load_average.end"} <= set(fields)
    row = diff.set_index("field").loc["cpu_model"]
    assert (row["run_a"], row["run_b"]) == ("AMD EPYC", "Intel Xeon")


def test_a_field_one_record_lacks_shows_as_unavailable():
    diff = C.machine_differences({"machine": {"cpu_model": "x"}}, {"machine": {}})
    assert diff.set_index("field").loc["cpu_model", "run_b"] == "unavailable"


def test_thread_pools_listed_in_another_order_are_the_same_machine():
    pools = [{"library": "openblas", "version": "0.3.30", "num_threads": 2},
             {"library": "openblas", "version": "0.3.31", "num_threads": 2}]
    a = {"machine": {"blas": pools}}
    b = {"machine": {"blas": pools[::-1]}}
    assert C.machine_differences(a, b).empty


def test_thresholds_are_written_back_as_given():
    assert C.percent(C.parse_threshold("5%")) == "5%"
    assert C.percent(C.parse_threshold("0.5%")) == "0.5%"


def test_smallest_p_is_the_exact_tests_all_apart_case():
    from llpbench.report.stats import mann_whitney_p, rows_for_alpha, smallest_p

    assert smallest_p(3, 3) == pytest.approx(0.1)  # what `--reps 3` on one source can reach
    assert smallest_p(3, 3) == pytest.approx(mann_whitney_p([1, 2, 3], [4, 5, 6]))
    assert smallest_p(4, 4) == pytest.approx(mann_whitney_p([1, 2, 3, 4], [5, 6, 7, 8]))
    assert smallest_p(4, 4) < 0.05 <= smallest_p(3, 4)
    assert rows_for_alpha() == 4


def test_too_few_rows_to_reach_significance_are_said_with_the_reps_that_would(run_a, tmp_path):
    runs = load_runs(run_a)
    one_source = runs[(runs["source"] == 0) & (runs["rep"] < 3)]  # 3 rows a side per cell
    table = C.compare_runs(one_source, one_source * 1)
    note = next(n for n in table.attrs["notes"] if "too few rows" in n)
    assert note.startswith(f"{len(table)} of {len(table)} cells")
    assert "smallest possible p is 0.1" in note and "--reps 4" in note
    sssp = runs[runs["problem"] == "sssp"]  # two sources x 3 reps: 6 rows a side reach it
    assert not any("too few rows" in n for n in C.compare_runs(sssp, sssp).attrs["notes"])
    mixed = C.compare_runs(runs, runs)  # stable marriage has one instance, 3 rows a side
    sm = int((mixed["problem"] == "stable-marriage").sum())
    assert any(n.startswith(f"{sm} of {len(mixed)} cells have too few rows")
               for n in mixed.attrs["notes"])
