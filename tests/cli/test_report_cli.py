"""`llpbench table ...` and `llpbench plot ...` through the real entry point, in subprocesses.

Each test runs `python -m llpbench` as a user would, with a private results store
(LLPBENCH_RESULTS_DIR) holding the synthetic run of :mod:`tests.report`, and checks the exit
code, the printed figures, the files written into the run's folder, and that every error is one
line on stderr without a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.cli.conftest import assert_one_line_error
from tests.conftest import seed_tuned_delta
from tests.report import BASELINE, GRAPHS, LLP_CONFIGS, THREADS, expected_median, write_run

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli(tmp_path, tuned_delta_cache):
    """Run `python -m llpbench ARGS` with a private results store and datasets cache (holding
    the session's tuned Δ)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLPBENCH_")}
    env.update(
        LLPBENCH_RESULTS_DIR=str(tmp_path / "results"),
        LLPBENCH_DATA_DIR=str(seed_tuned_delta(tmp_path / "cache", tuned_delta_cache)),
        COLUMNS="250",
        NO_COLOR="1",
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "llpbench", *args],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    run.results = tmp_path / "results"
    return run


def test_missing_results_give_one_line_error_and_nonzero_exit(cli, tmp_path):
    missing = tmp_path / "nowhere"
    proc = cli("table", "speedup", "--results", str(missing))
    assert_one_line_error(proc, str(missing), "llpbench run")


def test_empty_results_store_by_default_gives_one_line_error(cli):
    cli.results.mkdir()
    assert_one_line_error(cli("plot", "scaling"), str(cli.results), "no results")


def test_table_speedup_prints_and_writes_the_newest_run_by_default(cli):
    run_dir = write_run(cli.results, latest="symlink")
    proc = cli("table", "speedup")
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert "Table 2" in flat and "failed verification" in flat
    written = pd.read_csv(run_dir / "tables" / "speedup.csv")
    top = max(THREADS)
    for graph in GRAPHS:
        best = min(LLP_CONFIGS, key=lambda c: expected_median(graph, c, top))
        expected = expected_median(graph, BASELINE, top) / expected_median(graph, best, top)
        row = written[written["graph"] == graph].iloc[0]
        assert row["speedup"] == pytest.approx(expected)
        assert f"{expected:.4g}" in proc.stdout
    assert (run_dir / "tables" / "speedup.md").stat().st_size > 0


def test_latest_as_a_text_file_is_followed(cli):
    run_dir = write_run(cli.results, latest="file")
    proc = cli("table", "overhead", "--results", str(cli.results))
    assert proc.returncode == 0, proc.stderr
    assert (run_dir / "tables" / "overhead.csv").is_file()
    assert str(run_dir / "tables" / "overhead.csv") in proc.stdout


def test_table_problems_and_plots_write_into_the_run_folder(cli):
    run_dir = write_run(cli.results)
    proc = cli("table", "problems", "--results", str(run_dir))
    assert proc.returncode == 0, proc.stderr
    assert "stable-marriage" in proc.stdout
    proc = cli("plot", "worklists", "--results", str(run_dir), "--threads", "2", "-g", "g-beta")
    assert proc.returncode == 0, proc.stderr
    png = run_dir / "figures" / "worklists-sssp-g-beta-t2.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(png) in proc.stdout
    proc = cli("plot", "scaling", "--results", str(run_dir), "--problem", "sssp")
    assert proc.returncode == 0, proc.stderr
    assert (run_dir / "figures" / "scaling-sssp.svg").stat().st_size > 0


def test_plot_worklists_at_a_thread_count_not_run_is_a_one_line_error(cli):
    write_run(cli.results)
    proc = cli("plot", "worklists", "--threads", "3")
    assert_one_line_error(proc, "3 threads", "1, 2, 4")


def test_runs_csv_missing_a_column_is_a_one_line_error_naming_it(cli):
    run_dir = write_run(cli.results)
    raw = pd.read_csv(run_dir / "runs.csv").drop(columns=["verified"])
    raw.to_csv(run_dir / "runs.csv", index=False)
    assert_one_line_error(cli("table", "speedup"), "runs.csv", "verified")


def test_table_datasets_measures_named_registry_graphs(cli):
    run_dir = write_run(cli.results)
    args = ("table", "datasets", "--graph", "tiny-kron", "--graph", "tiny-mesh")
    proc = cli(*args, "--results", str(run_dir))
    assert proc.returncode == 0, proc.stderr
    table = pd.read_csv(run_dir / "tables" / "datasets.csv")
    assert list(table["graph"]) == ["tiny-kron", "tiny-mesh"]
    mesh = table[table["graph"] == "tiny-mesh"].iloc[0]
    assert mesh["vertices"] == 256 and mesh["edges"] == 480  # 16 x 16 grid: 2 * 16 * 15
    assert "tiny-kron" in proc.stdout and "480" in proc.stdout


def test_table_datasets_without_a_run_prints_only(cli):
    proc = cli("table", "datasets", "--graph", "tiny-mesh")
    assert proc.returncode == 0, proc.stderr
    assert "tiny-mesh" in proc.stdout and "not written" in proc.stdout


def test_problem_list_takes_commas_like_repeated_flags(cli):
    run_dir = write_run(cli.results)
    proc = cli("table", "speedup", "--problem", "sssp,stable-marriage")
    assert proc.returncode == 0, proc.stderr
    both = set(pd.read_csv(run_dir / "tables" / "speedup.csv")["problem"])
    proc = cli("table", "speedup", "--problem", "sssp", "--problem", "stable-marriage")
    assert proc.returncode == 0, proc.stderr
    assert set(pd.read_csv(run_dir / "tables" / "speedup.csv")["problem"]) == both
    assert both == {"sssp", "stable-marriage"}


def test_table_instability_lists_unstable_cells_or_says_there_are_none(cli):
    run_dir = write_run(cli.results)
    proc = cli("table", "instability")
    assert proc.returncode == 0, proc.stderr
    assert "no unstable cell" in proc.stdout
    assert not (run_dir / "tables" / "instability.csv").exists()
    raw = pd.read_csv(run_dir / "runs.csv", dtype=str, keep_default_na=False)
    first = (raw["config"] == "worklist/swb") & (raw["threads"] == "2") & (raw["rep"] == "0")
    raw.loc[first, "seconds"] = [repr(2 * float(s)) for s in raw.loc[first, "seconds"]]
    raw.to_csv(run_dir / "runs.csv", index=False)
    proc = cli("table", "instability")
    assert proc.returncode == 0, proc.stderr
    written = pd.read_csv(run_dir / "tables" / "instability.csv")
    assert set(written["config"]) == {"worklist/swb"} and set(written["threads"]) == {2}
    # rep 0 doubled: 2.0 against the others' 1.05 and 1.10 (median 1.075) -> 1.86x
    assert written["reasons"].str.contains("first repetition 1.86x").all()
