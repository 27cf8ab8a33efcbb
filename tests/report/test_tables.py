"""The report's store and tables on a synthetic run whose times come from a known formula."""

from __future__ import annotations

import math
import os
import re

import pandas as pd
import pytest

from llpbench.bench.schema import COLUMNS
from llpbench.errors import FormatError
from llpbench.graphs.registry import load_graph
from llpbench.report import tables
from llpbench.report.store import (
    NoResultsError,
    exclusion_note,
    load_runs,
    resolve_run,
    timed_rows,
)
from tests.report import (
    BASELINE,
    DELTA,
    FAILED_CELL,
    FAILED_ROWS,
    GRAPHS,
    LLP_CONFIGS,
    SM_BASELINE,
    SM_INSTANCE,
    SM_LLP,
    THREADS,
    counters,
    expected_median,
    reached,
    write_run,
)

# --------------------------------------------------------------------------- store


def test_resolve_run_follows_latest_symlink(tmp_path):
    run = write_run(tmp_path, latest="symlink")
    assert (tmp_path / "latest").is_symlink()
    assert resolve_run(tmp_path).resolve() == run.resolve()
    assert resolve_run(tmp_path / "latest").resolve() == run.resolve()


def test_resolve_run_follows_latest_text_file(tmp_path):
    run = write_run(tmp_path, latest="file")
    assert (tmp_path / "latest").is_file() and not (tmp_path / "latest").is_symlink()
    assert resolve_run(tmp_path) == run
    assert resolve_run(str(tmp_path / "latest")) == run


def test_resolve_run_takes_a_run_folder_as_is(tmp_path):
    run = write_run(tmp_path, latest=None)
    assert resolve_run(run) == run


def test_resolve_run_default_is_latest_of_the_results_dir(tmp_path, monkeypatch):
    write_run(tmp_path, "old-run")
    newest = write_run(tmp_path, "new-run")
    monkeypatch.setenv("LLPBENCH_RESULTS_DIR", str(tmp_path))
    assert resolve_run(None).resolve() == newest.resolve()


@pytest.mark.parametrize("make", ["missing", "empty-dir", "dangling-link", "empty-file"])
def test_resolve_run_without_results_names_the_place_and_the_fix(tmp_path, make):
    where = tmp_path / "results"
    if make != "missing":
        where.mkdir()
    if make == "dangling-link":
        os.symlink("gone-run", where / "latest")
    if make == "empty-file":
        (where / "latest").write_text("")
    found = f"^no results in {re.escape(str(where))} \\(.+\\): run `llpbench run` first$"
    with pytest.raises(NoResultsError, match=found) as info:
        resolve_run(where)
    message = str(info.value)
    assert "\n" not in message


def test_load_runs_keeps_every_row_typed(run_dir, runs):
    raw = pd.read_csv(run_dir / "runs.csv")
    assert len(runs) == len(raw)
    assert list(runs.columns) == list(COLUMNS)
    assert runs["threads"].dtype == "int64"
    assert runs["verified"].eq(False).sum() == FAILED_ROWS
    assert runs["verified"].isna().sum() == len(runs[runs["problem"] == "stable-marriage"])


def test_load_runs_names_every_missing_column(run_dir):
    raw = pd.read_csv(run_dir / "runs.csv").drop(columns=["seconds", "config"])
    raw.to_csv(run_dir / "runs.csv", index=False)
    missing = re.escape(f"{run_dir / 'runs.csv'}:1: missing column(s) config, seconds")
    with pytest.raises(FormatError, match=f"^{missing}$"):
        load_runs(run_dir)


def test_runs_stored_before_the_variant_column_read_it_as_empty(run_dir, runs):
    raw = pd.read_csv(run_dir / "runs.csv").drop(columns=["variant"])
    raw.to_csv(run_dir / "runs.csv", index=False)
    old = load_runs(run_dir)
    assert list(old.columns) == list(COLUMNS) and set(old["variant"]) == {""}
    assert len(tables.problems_table(old)) == len(tables.problems_table(runs))


def test_load_runs_names_file_line_and_column_of_a_bad_number(run_dir):
    raw = pd.read_csv(run_dir / "runs.csv", dtype=str, keep_default_na=False)
    raw.loc[4, "seconds"] = "fast"
    raw.to_csv(run_dir / "runs.csv", index=False)
    with pytest.raises(FormatError, match=r"runs\.csv:6: column 'seconds'.*'fast'"):
        load_runs(run_dir)


def test_rows_that_failed_verification_are_excluded_and_counted(runs):
    timed = timed_rows(runs)
    assert len(timed) == len(runs) - FAILED_ROWS
    assert not timed["verified"].eq(False).any()
    note = exclusion_note(runs)
    assert note.startswith(f"{FAILED_ROWS} of {len(runs)} rows excluded")
    graph, config, threads = FAILED_CELL
    assert graph in note and config in note


# --------------------------------------------------------------------------- tables


def test_cell_stats_are_median_min_max_over_reps_and_sources(runs):
    cells = tables.cell_stats(runs)
    cell = cells[(cells["graph"] == "g-beta") & (cells["config"] == "worklist/swb")]
    cell = cell[cell["threads"] == 2].iloc[0]
    assert cell["median_s"] == pytest.approx(expected_median("g-beta", "worklist/swb", 2))
    assert cell["rows"] == 6


def test_speedup_table_compares_fastest_llp_with_baseline_at_most_threads(runs):
    table = tables.speedup_table(runs)
    top = max(THREADS)
    assert list(table["graph"]) == list(GRAPHS)
    for _, row in table.iterrows():
        g = row["graph"]
        best = min(LLP_CONFIGS, key=lambda c: expected_median(g, c, top))
        speedup = expected_median(g, BASELINE, top) / expected_median(g, best, top)
        assert row["threads"] == top and row["baseline_threads"] == top
        assert row["best_llp"] == best
        assert row["llp_median_s"] == pytest.approx(expected_median(g, best, top))
        assert row["speedup"] == pytest.approx(speedup)
        assert row["delta"] == DELTA[g]


def test_failed_rows_do_not_change_the_speedup_table(tmp_path):
    with_failed = load_runs(write_run(tmp_path / "a", failed=True))
    clean = load_runs(write_run(tmp_path / "b", failed=False))
    a, b = tables.speedup_table(with_failed), tables.speedup_table(clean)
    pd.testing.assert_frame_equal(a, b, check_like=False)
    assert any(f"{FAILED_ROWS} failed verification" in n for n in a.attrs["notes"])
    assert not any("failed verification" in n for n in b.attrs["notes"])


def test_speedup_table_is_empty_with_a_reason_without_baseline_rows(tmp_path):
    runs = load_runs(write_run(tmp_path, baseline=False, failed=False))
    table = tables.speedup_table(runs)
    assert table.empty
    assert any("no timed baseline rows" in n for n in table.attrs["notes"])


def test_overhead_table_ratio_and_counters_per_reached_vertex(runs):
    table = tables.overhead_table(runs)
    sssp = table[table["problem"] == "sssp"]
    assert len(sssp) == len(GRAPHS) * len(LLP_CONFIGS)
    for _, row in sssp.iterrows():
        g, c = row["graph"], row["config"]
        ratio = expected_median(g, c, 1) / expected_median(g, BASELINE, 1)
        assert row["ratio"] == pytest.approx(ratio)
        items = [counters(g, c, 1, rep)["items"] / reached(g) for rep in range(3)]
        assert row["items_per_reached"] == pytest.approx(sorted(items)[1])
        advances = counters(g, c, 1, 0)["advances"] / reached(g)
        assert row["advances_per_reached"] == pytest.approx(advances)
    sm = table[table["problem"] == "stable-marriage"].iloc[0]
    assert sm["ratio"] == pytest.approx(SM_LLP[1] / SM_BASELINE)
    assert math.isnan(sm["items_per_reached"])


def test_problems_table_uses_the_sequential_baseline_where_it_only_ran_on_one_thread(runs):
    table = tables.problems_table(runs)
    assert list(table["problem"]) == ["stable-marriage"] * len(SM_LLP)
    assert list(table["threads"]) == sorted(SM_LLP)  # one row per LLP thread count
    for _, row in table.iterrows():
        assert row["instance"] == SM_INSTANCE and row["baseline_threads"] == 1
        assert row["speedup"] == pytest.approx(SM_BASELINE / SM_LLP[row["threads"]])
    assert "delta" not in table.columns


def test_problems_table_takes_the_sequential_baseline_where_the_parallel_one_is_slower(runs):
    sm = runs[runs["problem"] == "stable-marriage"]
    par = sm[sm["kind"] == "baseline"].copy()
    par["threads"], par["config"] = 2, "parallel-gale-shapley"
    table = tables.problems_table(pd.concat([sm, par.assign(seconds=par["seconds"] * 5)]))
    two = table[table["threads"] == 2].iloc[0]
    assert two["baseline"] == "gale-shapley" and two["baseline_threads"] == 1
    table = tables.problems_table(pd.concat([sm, par.assign(seconds=par["seconds"] / 5)]))
    two = table[table["threads"] == 2].iloc[0]
    assert two["baseline"] == "parallel-gale-shapley" and two["baseline_threads"] == 2
    one = table[table["threads"] == 1].iloc[0]
    assert one["baseline_threads"] == 1  # never a baseline with more threads than the LLP row


def test_problems_table_keeps_variants_apart_and_divides_counters_by_indices(runs):
    sm = runs[runs["problem"] == "stable-marriage"].copy()
    sm["reached"] = 64.0
    sm["items"] = 128.0
    sm["advances"] = 96.0
    sm["stale"] = 32.0
    hard = sm.copy()
    hard["variant"] = "identical"
    hard["seconds"] = hard["seconds"] * 10
    table = tables.problems_table(pd.concat([sm, hard], ignore_index=True))
    assert list(table["variant"]) == [""] * len(SM_LLP) + ["identical"] * len(SM_LLP)
    easy, slow = table.iloc[0], table.iloc[len(SM_LLP)]
    assert slow["llp_median_s"] == pytest.approx(10 * easy["llp_median_s"])
    assert slow["baseline_median_s"] == pytest.approx(10 * easy["baseline_median_s"])
    assert easy["items_per_index"] == 2.0 and easy["advances_per_index"] == 1.5
    assert easy["stale_per_index"] == 0.5


def test_baselines_table_lists_every_baseline_against_the_best_llp_at_its_thread_count(runs):
    sm = runs[runs["problem"] == "stable-marriage"]
    slow = sm[sm["kind"] == "baseline"].copy()
    slow["config"] = "networkit-like"
    slow["seconds"] = slow["seconds"] * 3
    table = tables.baselines_table(pd.concat([sm, slow], ignore_index=True))
    assert list(table["baseline"]) == ["gale-shapley", "networkit-like"]  # fastest first
    assert set(table["threads"]) == {1}  # the baselines ran at one thread only
    for _, row in table.iterrows():
        assert row["llp_median_s"] == pytest.approx(SM_LLP[1])
        assert row["speedup"] == pytest.approx(row["baseline_median_s"] / SM_LLP[1])
    assert table.iloc[1]["baseline_median_s"] == pytest.approx(3 * SM_BASELINE)


def test_write_table_round_trips_csv_and_writes_markdown(runs, run_dir):
    table = tables.speedup_table(runs)
    csv, md = tables.write_table(table, run_dir, "speedup", "Table 2")
    assert csv == run_dir / "tables" / "speedup.csv" and md.suffix == ".md"
    back = pd.read_csv(csv)
    assert list(back.columns) == list(table.columns)
    assert back["speedup"].tolist() == table["speedup"].tolist()  # full precision
    assert back["best_llp"].tolist() == table["best_llp"].tolist()
    text = md.read_text()
    lines = text.splitlines()
    assert lines[0] == "**Table 2**"
    assert lines[2].startswith("| problem | graph | threads |")
    assert "---:" in lines[3]
    assert sum(line.startswith("| sssp |") for line in lines) == len(GRAPHS)
    assert "failed verification" in text
    assert sorted(p.name for p in csv.parent.iterdir()) == ["speedup.csv", "speedup.md"]


def test_to_rich_shows_varying_columns_and_puts_constant_ones_in_the_caption(runs):
    table = tables.speedup_table(runs)
    rich_table = tables.to_rich(table, "Table 2")
    joined = tables.join_intervals(table)  # the interval's two bounds are one column
    varying = [c for c in joined.columns if joined[c].nunique(dropna=False) > 1]
    assert len(rich_table.columns) == len(varying)
    assert "95% CI" in [c.header for c in rich_table.columns]
    assert rich_table.row_count == len(table)
    assert "failed verification" in str(rich_table.caption)
    assert "problem: sssp" in str(rich_table.caption)


def test_datasets_table_is_measured_from_the_registry_graphs(tmp_path, monkeypatch):
    monkeypatch.setenv("LLPBENCH_DATA_DIR", str(tmp_path / "cache"))
    table = tables.datasets_table(["tiny-kron", "tiny-mesh"])
    assert list(table["graph"]) == ["tiny-kron", "tiny-mesh"]
    for _, row in table.iterrows():
        graph = load_graph(row["graph"])
        assert row["vertices"] == graph.n
        assert row["edges"] == (graph.m if graph.directed else graph.m // 2)
        assert row["edges_are"] == ("arcs" if graph.directed else "undirected edges")
        assert row["avg_degree"] == pytest.approx(graph.m / graph.n)
        assert row["source"] == "generator"
        assert row["weights"].startswith("uniform-int:1:255")
    mesh = table[table["graph"] == "tiny-mesh"].iloc[0]
    assert mesh["edges"] == 2 * 16 * 15  # a 16 x 16 grid


def test_graph_names_skip_generated_instances(runs):
    assert tables.graph_names(runs) == list(GRAPHS)


def test_speedups_carry_an_interval_bounded_by_their_rows(runs):
    table = tables.speedup_table(runs)
    timed = timed_rows(runs)
    for _, row in table.iterrows():
        base = tables.cell_seconds(timed, "sssp", row["graph"], row["baseline"],
                                   row["baseline_threads"])
        llp = tables.cell_seconds(timed, "sssp", row["graph"], row["best_llp"], row["threads"])
        assert row["speedup_ci_low"] <= row["speedup"] <= row["speedup_ci_high"]
        # no resample can go beyond the extreme ratios the rows allow
        assert row["speedup_ci_low"] >= base.min() / llp.max()
        assert row["speedup_ci_high"] <= base.max() / llp.min()
        assert row["speedup_ci_low"] < row["speedup_ci_high"]  # the rows vary: so does it


def test_overhead_and_problem_ratios_carry_intervals(runs):
    overhead = tables.overhead_table(runs)
    assert (overhead["ratio_ci_low"] <= overhead["ratio"]).all()
    assert (overhead["ratio"] <= overhead["ratio_ci_high"]).all()
    problems = tables.problems_table(runs)
    row = problems.iloc[0]
    # every row of the stable-marriage cells is the same number: the interval is a point
    assert row["speedup_ci_low"] == row["speedup"] == row["speedup_ci_high"]


def test_interval_columns_are_one_column_in_markdown(runs):
    text = tables.to_markdown(tables.speedup_table(runs))
    assert "95% CI" in text.splitlines()[0] and "speedup_ci_low" not in text


def test_cell_medians_have_intervals_within_their_range(runs):
    cells = tables.cell_stats(runs, intervals=True)
    assert (cells["min_s"] <= cells["median_ci_low"]).all()
    assert (cells["median_ci_low"] <= cells["median_s"]).all()
    assert (cells["median_s"] <= cells["median_ci_high"]).all()
    assert (cells["median_ci_high"] <= cells["max_s"]).all()


def test_speedup_table_is_against_the_named_baseline_only(runs):
    ours = runs[(runs["problem"] == "sssp") & (runs["kind"] == "baseline")].copy()
    gap = ours.assign(solver="baseline/gap", config="gap", seconds=ours["seconds"] / 4, delta=2)
    both = pd.concat([runs, gap], ignore_index=True)
    default = tables.speedup_table(both)
    pd.testing.assert_frame_equal(default, tables.speedup_table(runs))  # GAP's rows ignored
    vs_gap = tables.speedup_table(both, against="gap")
    assert set(vs_gap["baseline"]) == {"gap"} and set(vs_gap["delta"]) == {2}
    for (_, a), (_, b) in zip(default.iterrows(), vs_gap.iterrows(), strict=True):
        assert b["speedup"] == pytest.approx(a["speedup"] / 4)
        assert b["best_llp"] == a["best_llp"] and b["threads"] == a["threads"]
    assert tables.speedup_table(runs, against="gap").empty  # a run without GAP's rows
