"""`llpbench compare` on real runs: the same sweep twice, and a run with one configuration
really slowed down (a test-only sleep inside its timed region)."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from llpbench.llp.runtime import SLOW_WORKLIST_ENV
from tests.conftest import seed_tuned_delta

REPO = Path(__file__).resolve().parents[2]
#: One graph, two worklists, one thread: 6 timed rows per cell, enough for Mann-Whitney to
#: reach p < 0.05 (its smallest two-sided p-value with 6 against 6 is 0.002).
SWEEP = ["--graph", "tiny-kron", "--worklist", "ptwb,swb", "--no-baseline", "--threads", "1",
         "--sources", "2", "--reps", "3", "--no-progress"]
SLOW = "swb:0.02"  # 20 ms more per swb solve; a tiny-kron solve takes tens of microseconds
# (up to a few milliseconds while the suite's other worker shares the cores)


def llpbench(*args, env, **kw):
    return subprocess.run(
        [sys.executable, "-m", "llpbench", *args], capture_output=True, text=True, cwd=REPO,
        env=env, **kw,
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory, tuned_delta_cache):
    """Run A (plain), run B (the same sweep, swb slowed), in one results folder."""
    root = tmp_path_factory.mktemp("compare")
    seed_tuned_delta(root / "data", tuned_delta_cache)
    env = dict(os.environ, LLPBENCH_DATA_DIR=str(root / "data"), COLUMNS="200")
    env.pop(SLOW_WORKLIST_ENV, None)
    results = root / "results"
    a = llpbench("run", *SWEEP, "--out", str(results), env=env)
    assert a.returncode == 0, a.stderr
    run_a = (results / "latest").resolve()
    b = llpbench("run", *SWEEP, "--out", str(results), env={**env, SLOW_WORKLIST_ENV: SLOW})
    assert b.returncode == 0, b.stderr
    run_b = (results / "latest").resolve()
    assert run_a != run_b
    return {"env": env, "results": results, "a": run_a, "b": run_b}


def _table(path: Path) -> dict[str, dict]:
    with open(path, newline="") as fh:
        return {row["config"]: row for row in csv.DictReader(fh)}


def test_slowed_configuration_is_significantly_slower_and_fails_the_gate(runs):
    proc = llpbench("compare", str(runs["a"]), "--results", str(runs["results"]),
                    "--fail-if-slower", "5%", env=runs["env"])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    assert "significantly slower than 5% allows" in err[0] and "worklist/swb" in err[0]
    table = _table(runs["b"] / "tables" / f"compare-{runs['a'].name}.csv")
    swb = table["worklist/swb"]
    assert swb["verdict"] == "slower"
    assert float(swb["ratio_ci_low"]) > 1.0 and float(swb["p_value"]) < 0.05
    assert float(swb["ratio"]) > 5  # 20 ms on a solve of a few milliseconds at most
    assert "slower" in proc.stdout and "Traceback" not in proc.stderr
    meta = json.loads((runs["b"] / "meta.json").read_text())
    assert meta["test_settings"] == {SLOW_WORKLIST_ENV: {"swb": 0.02}}


def test_a_large_enough_allowance_passes_the_gate(runs):
    proc = llpbench("compare", str(runs["a"]), str(runs["b"]), "--fail-if-slower", "100000%",
                    env=runs["env"])
    assert proc.returncode == 0, proc.stderr
    assert "no cell significantly slower by more than" in proc.stdout


def test_same_rows_compared_are_not_significant_in_any_cell(runs, tmp_path):
    # "Itself-like" data: run A's rows again, each cell's repetitions in reverse order. The
    # distributions are identical, so no cell may differ, whatever the machine's noise.
    twin = tmp_path / "twin"
    shutil.copytree(runs["a"], twin)
    with open(runs["a"] / "runs.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    with open(twin / "runs.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(reversed(rows))
    proc = llpbench("compare", str(runs["a"]), str(twin), "--fail-if-slower", "0%",
                    env=runs["env"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    table = _table(next((twin / "tables").glob("compare-*.csv")))
    assert set(table) == {"worklist/ptwb", "worklist/swb"}
    for row in table.values():
        assert row["verdict"] == "not significant"
        assert float(row["ratio_ci_low"]) <= 1.0 <= float(row["ratio_ci_high"])


def test_two_plain_runs_of_one_sweep_get_verdicts_that_follow_their_intervals(runs):
    # Two independent runs: the machine may really have changed between them, so the test
    # asserts the rule (significant only if the interval excludes 1 and p < 0.05), not luck.
    env = runs["env"]
    again = llpbench("run", *SWEEP, "--out", str(runs["results"]), env=env)
    assert again.returncode == 0, again.stderr
    run_c = (runs["results"] / "latest").resolve()
    proc = llpbench("compare", str(runs["a"]), str(run_c), env=env)
    assert proc.returncode == 0, proc.stderr
    table = _table(run_c / "tables" / f"compare-{runs['a'].name}.csv")
    assert set(table) == {"worklist/ptwb", "worklist/swb"}
    for row in table.values():
        low, high, p = (float(row[k]) for k in ("ratio_ci_low", "ratio_ci_high", "p_value"))
        excluded = not low <= 1.0 <= high
        if row["verdict"] == "not significant":
            assert not (excluded and p < 0.05)
        else:
            assert excluded and p < 0.05
            assert row["verdict"] == ("slower" if low > 1 else "faster")
        assert int(row["rows_a"]) == int(row["rows_b"]) == 6


def test_machines_that_differ_are_printed_side_by_side(runs, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(runs["a"], other)
    meta = json.loads((other / "meta.json").read_text())
    meta["machine"]["cpu_model"] = "Some Other CPU"
    (other / "meta.json").write_text(json.dumps(meta))
    proc = llpbench("compare", str(runs["a"]), str(other), env=runs["env"])
    assert proc.returncode == 0, proc.stderr
    assert "different machines" in proc.stdout and "Some Other CPU" in proc.stdout
    same = llpbench("compare", str(runs["a"]), str(runs["a"]), env=runs["env"])
    assert "different machines" not in same.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["no-such-run"], "no results"),
        (["A", "--fail-if-slower", "lots"], "--fail-if-slower"),
    ],
)
def test_bad_input_is_one_line_and_non_zero(runs, args, message):
    args = [str(runs["a"]) if a == "A" else a for a in args]
    proc = llpbench("compare", *args, "--results", str(runs["results"]), env=runs["env"])
    assert proc.returncode not in (0, 1)
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_runs_without_a_cell_in_common_are_a_one_line_error(runs, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(runs["a"], other)
    with open(runs["a"] / "runs.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        row["graph"] = "tiny-mesh"
    with open(other / "runs.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    proc = llpbench("compare", str(runs["a"]), str(other), env=runs["env"])
    assert proc.returncode not in (0, 1)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: nothing to compare")
    assert "only in run A" in lines[0]


def test_a_run_id_names_a_run_of_the_results_folder(runs):
    proc = llpbench("compare", runs["a"].name, runs["b"].name, "--results",
                    str(runs["results"]), env=runs["env"])
    assert proc.returncode == 0, proc.stderr
    assert runs["a"].name in proc.stdout and runs["b"].name in proc.stdout
