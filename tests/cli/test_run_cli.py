"""`llpbench run` through its real entry point: rows, metadata, kill-and-resume, bad input."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from llpbench.bench.schema import CELL_KEY, COLUMNS
from tests.conftest import seed_tuned_delta

REPO = Path(__file__).resolve().parents[2]
SWEEP = ["--graph", "tiny-kron", "--graph", "tiny-mesh", "--threads", "1..4",
         "--worklist", "swb", "--worklist", "ptwb", "--no-baseline", "--sources", "2"]


def llpbench(*args, env=None, **kw):
    return subprocess.run(
        [sys.executable, "-m", "llpbench", *args], capture_output=True, text=True,
        cwd=REPO, env=env, **kw,
    )


@pytest.fixture
def env(tmp_path, tuned_delta_cache):
    e = dict(os.environ, LLPBENCH_DATA_DIR=str(seed_tuned_delta(tmp_path / "data",
                                                                tuned_delta_cache)))
    return e


def rows(run_dir: Path) -> list[dict]:
    with open(run_dir / "runs.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def test_run_writes_verified_rows_and_metadata(tmp_path, env):
    out = tmp_path / "res"
    proc = llpbench("run", *SWEEP, "--reps", "2", "--out", str(out), "--no-progress", env=env)
    assert proc.returncode == 0, proc.stderr
    run_dir = out / "latest"
    table = rows(run_dir)
    # 2 graphs x 2 sources x 2 worklists x 3 thread counts x 2 reps
    assert len(table) == 2 * 2 * 2 * 3 * 2
    assert list(table[0]) == list(COLUMNS)
    assert {r["verified"] for r in table} == {"True"}
    assert {r["threads"] for r in table} == {"1", "2", "4"}
    assert all(float(r["seconds"]) > 0 for r in table)
    sources = {(r["graph"], r["source"]) for r in table}
    assert len(sources) == 4  # the same 2 fixed sources per graph for every config
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["status"] == "finished"
    for key in ("command", "sweep", "seeds", "machine", "run_id"):
        assert key in meta
    for key in ("cpu_model", "cores", "git_commit", "versions", "numba"):
        assert key in meta["machine"]
    machine = meta["machine"]
    for key in ("logical_cores", "physical_cores", "affinity", "frequency", "governor",
                "memory", "blas"):
        assert machine[key] not in (None, ""), key  # a value, or "unavailable"
    assert machine["affinity"] == sorted(os.sched_getaffinity(0))
    assert all(len(machine["load_average"][k]) == 3 for k in ("start", "end"))
    assert meta["order"] == "interleaved"
    assert meta["pinning"]["requested"] is False


def _wait_for_rows(path: Path, count: int, proc, timeout: float = 120.0) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if path.exists() and path.read_text().count("\n") > count:
            return
        if proc.poll() is not None:
            pytest.fail(f"sweep ended before it could be interrupted: {proc.stderr.read()}")
        time.sleep(0.005)
    pytest.fail("no rows appeared")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_sweep_resumes_to_the_same_rows_without_duplicates(tmp_path, env, sig):
    reps = ["--reps", "12"]
    full = tmp_path / "full"
    assert llpbench("run", *SWEEP, *reps, "--out", str(full), "--no-progress",
                    env=env).returncode == 0
    expected = len(rows(full / "latest"))

    out = tmp_path / "cut"
    proc = subprocess.Popen(
        [sys.executable, "-m", "llpbench", "run", *SWEEP, *reps, "--out", str(out),
         "--no-progress"], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
        # A shell that starts jobs in the background ignores SIGINT, and children inherit
        # that: give the sweep the default disposition, as a terminal's Ctrl-C would find it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    runs = next(iter(out.glob("*/runs.csv")), None) if out.exists() else None
    while runs is None:
        time.sleep(0.005)
        runs = next(iter(out.glob("*/runs.csv")), None) if out.exists() else None
        assert proc.poll() is None, proc.stderr.read()
    _wait_for_rows(runs, 5, proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0
    if sig == signal.SIGINT:
        assert "interrupted" in err and "Traceback" not in err
        meta = json.loads((runs.parent / "meta.json").read_text())
        assert meta["status"] == "interrupted"
    kept = len(rows(runs.parent))
    assert 5 <= kept < expected

    again = llpbench("run", *SWEEP, *reps, "--out", str(out), "--resume", "--no-progress",
                     env=env)
    assert again.returncode == 0, again.stderr
    final = rows(runs.parent)
    assert len(final) == expected
    keys = [tuple(r[c] for c in (*CELL_KEY, "rep")) for r in final]
    assert len(set(keys)) == len(keys)


def _config_order(run_dir: Path) -> list[tuple[str, str, str]]:
    """(graph, source, threads) and worklist of each row, in the order they were written."""
    return [(r["graph"] + "@" + r["source"], r["threads"], r["worklist"]) for r in rows(run_dir)]


@pytest.mark.parametrize("order", ["interleaved", "grouped"])
def test_order_interleaves_repetitions_across_configurations_or_groups_them(tmp_path, env,
                                                                            order):
    out = tmp_path / order
    proc = llpbench("run", "--graph", "tiny-kron", "--worklist", "ptwb,swb,ptcf", "--threads",
                    "1,2", "--no-baseline", "--reps", "3", "--order", order, "--out", str(out),
                    "--no-progress", env=env)
    assert proc.returncode == 0, proc.stderr
    written = _config_order(out / "latest")
    assert len(written) == 3 * 2 * 3
    for threads in ("1", "2"):
        seq = [wl for _, t, wl in written if t == threads]
        if order == "interleaved":
            assert seq == ["ptwb", "swb", "ptcf"] * 3  # A B C A B C A B C
        else:
            assert seq == ["ptwb"] * 3 + ["swb"] * 3 + ["ptcf"] * 3
    assert json.loads((out / "latest" / "meta.json").read_text())["order"] == order


def test_pin_is_applied_and_recorded(tmp_path, env):
    out = tmp_path / "pinned"
    proc = llpbench("run", "--graph", "tiny-kron", "--worklist", "ptwb", "--threads", "1,2",
                    "--reps", "1", "--pin", "--out", str(out), "--no-progress", env=env)
    assert proc.returncode == 0, proc.stderr
    assert {r["verified"] for r in rows(out / "latest") if r["kind"] != "floor"} == {"True"}
    pinning = json.loads((out / "latest" / "meta.json").read_text())["pinning"]
    assert pinning["requested"] and pinning["applied"], pinning
    assert pinning["cpus"] == sorted(os.sched_getaffinity(0))
    assert pinning["workers_pinned"] >= 2


def test_comma_lists_and_repeated_flags_mean_the_same(tmp_path, env):
    out = tmp_path / "lists"
    proc = llpbench("run", "--graph", "tiny-kron,tiny-mesh", "--worklist", "ptwb,swb",
                    "--worklist", "ptcf", "--threads", "1", "--threads", "2", "--no-baseline",
                    "--reps", "1", "--out", str(out), "--no-progress", env=env)
    assert proc.returncode == 0, proc.stderr
    table = rows(out / "latest")
    assert {r["graph"] for r in table} == {"tiny-kron", "tiny-mesh"}
    assert {r["worklist"] for r in table} == {"ptwb", "swb", "ptcf"}
    assert {r["threads"] for r in table} == {"1", "2"}
    assert len(table) == 2 * 3 * 2


def test_run_ends_with_the_count_of_unstable_cells(tmp_path, env):
    proc = llpbench("run", "--graph", "tiny-kron", "--worklist", "ptwb", "--no-baseline",
                    "--reps", "3", "--out", str(tmp_path / "r"), "--no-progress", env=env)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"; \d+ of 1 cells unstable\)", proc.stdout), proc.stdout


def test_peers_and_variants_are_timed_verified_and_recorded(tmp_path, env):
    out = tmp_path / "res"
    proc = llpbench(
        "run", "--graph", "tiny-kron", "--worklist", "ptcf", "--baseline", "networkit",
        "--baseline", "graphblas", "--threads", "1..2", "--reps", "1", "--out", str(out),
        "--no-progress", env=env,
    )
    assert proc.returncode == 0, proc.stderr
    table = rows(out / "latest")
    floor = [r for r in table if r["kind"] == "floor"]  # SSSP's one-pass floor, beside them
    assert {(r["solver"], r["threads"], r["verified"]) for r in floor} == {
        ("floor/arc-sweep", "1", "")}
    table = [r for r in table if r["kind"] != "floor"]
    assert {r["verified"] for r in table} == {"True"}
    assert {r["solver"] for r in table} == {"worklist", "baseline/networkit", "baseline/graphblas"}
    assert {r["config"] for r in table if r["kind"] == "baseline"} == {
        "networkit-dijkstra", "graphblas-bellman-ford",
    }
    proc = llpbench(
        "run", "--problem", "job-scheduling", "--size", "300", "--variant", "layered",
        "--worklist", "ptcf", "--reps", "1", "--out", str(out), "--no-progress", env=env,
    )
    assert proc.returncode == 0, proc.stderr
    table = rows(out / "latest")
    assert {(r["variant"], r["verified"]) for r in table} == {("layered", "True")}
    assert {r["config"] for r in table} == {"worklist/ptcf", "kahn-longest-path"}


def test_a_missing_peer_is_one_error_line_naming_the_extra(tmp_path, env):
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "networkit.py").write_text("raise ImportError('no module named networkit')\n")
    env = dict(env, PYTHONPATH=str(shadow))
    proc = llpbench(
        "run", "--graph", "tiny-kron", "--baseline", "networkit", "--out", str(tmp_path / "r"),
        "--no-progress", env=env,
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: baseline 'networkit' needs")
    assert "pip install 'llpbench[peers]'" in lines[0]
    assert not (tmp_path / "r").exists() or not list((tmp_path / "r").glob("*/runs.csv"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--graph", "tiny-kron", "--baseline", "nope"], "unknown sssp baseline 'nope'"),
        (["--size", "10", "--problem", "knapsack", "--variant", "x"], "has no variants"),
        (["--graph", "tiny-kron", "--threads", "1..x"], "bad thread spec"),
        (["--graph", "tiny-kron", "--threads", "0"], "bad thread spec"),
        (["--graph", "no-such-graph"], "unknown graph"),
        (["--graph", "tiny-kron", "--worklist", "fifo"], "unknown worklist"),
        (["--graph", "tiny-kron", "--problem", "tsp"], "unknown problem"),
        (["--threads", "2"], "nothing to run"),
        (["--config", "no-such-config.toml"], "no such config"),
        (["--graph", "tiny-kron", "--resume"], "nothing to resume"),
        (["--graph", "tiny-kron", "--order", "random"], "unknown order"),
        (["--size", "8,x", "--problem", "knapsack"], "--size"),
    ],
)
def test_bad_input_is_one_line_and_non_zero(tmp_path, env, args, message):
    proc = llpbench("run", *args, "--out", str(tmp_path / "r"), "--no-progress", env=env)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
