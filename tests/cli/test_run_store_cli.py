"""The run store through the real entry point: one writer, one sweep per run, torn rows,
failed writes, and no run folder (nor `latest`) for a run that never wrote a row."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from llpbench.bench.schema import CELL_KEY
from llpbench.bench.store import DISK_FULL_ENV
from tests.cli.conftest import assert_one_line_error
from tests.conftest import seed_tuned_delta

REPO = Path(__file__).resolve().parents[2]
# 1 graph x 2 sources x (1 worklist + the baseline) x 2 thread counts = 8 cells, and the
# one-pass floor at one thread (2 sources): 10 cells, 3 reps each
SWEEP = ["--graph", "tiny-kron", "--threads", "1,2", "--worklist", "ptwb", "--sources", "2",
         "--reps", "3"]
ROWS = (8 + 2) * 3


def llpbench(*args, env, **kw):
    return subprocess.run([sys.executable, "-m", "llpbench", *args], capture_output=True,
                          text=True, cwd=REPO, env=env, **kw)


def rows(run_dir: Path) -> list[dict]:
    with open(run_dir / "runs.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def keys(run_dir: Path) -> list[tuple]:
    return [tuple(r[c] for c in (*CELL_KEY, "rep")) for r in rows(run_dir)]


def meta(run_dir: Path) -> dict:
    return json.loads((run_dir / "meta.json").read_text())


@pytest.fixture(scope="module")
def env(tmp_path_factory, tuned_delta_cache):
    data = seed_tuned_delta(tmp_path_factory.mktemp("data"), tuned_delta_cache)
    return {**{k: v for k, v in os.environ.items() if not k.startswith("LLPBENCH_")},
            "LLPBENCH_DATA_DIR": str(data), "NO_COLOR": "1", "COLUMNS": "200"}


@pytest.fixture(scope="module")
def whole(tmp_path_factory, env) -> Path:
    """The sweep run once without interruption: the rows every other run must end with."""
    out = tmp_path_factory.mktemp("whole")
    proc = llpbench("run", *SWEEP, "--out", str(out), "--no-progress", env=env)
    assert proc.returncode == 0, proc.stderr
    assert len(rows(out / "latest")) == ROWS
    return out / "latest"


def cut_copy(whole: Path, out: Path, keep: int, extra: bytes = b"") -> Path:
    """A copy of ``whole``'s run under ``out`` with only its first ``keep`` rows (and
    ``extra`` bytes after them), as a run stopped there leaves it."""
    run_dir = out / "run-1"
    run_dir.mkdir(parents=True)
    lines = (whole / "runs.csv").read_bytes().splitlines(keepends=True)
    (run_dir / "runs.csv").write_bytes(b"".join(lines[: keep + 1]) + extra)
    info = meta(whole)
    info["status"] = "interrupted"
    (run_dir / "meta.json").write_text(json.dumps(info))
    os.symlink(run_dir.name, out / "latest")
    return run_dir


def test_two_concurrent_resumes_the_second_refused_rows_as_an_uninterrupted_run(
    whole, env, tmp_path
):
    run_dir = cut_copy(whole, tmp_path, 4)
    slow = {**env, "LLPBENCH_TEST_SLOW_WORKLIST": "ptwb:0.5"}
    first = subprocess.Popen(  # `run --resume` alone: the run's own sweep
        [sys.executable, "-m", "llpbench", "run", "--resume", "--out", str(tmp_path),
         "--no-progress"], cwd=REPO, env=slow, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    lock = run_dir / "writer.lock"
    end = time.time() + 120
    while not (lock.exists() and f'"pid": {first.pid}' in lock.read_text()):
        assert first.poll() is None, first.stderr.read()
        assert time.time() < end, "the first resume never took the lock"
        time.sleep(0.01)
    second = llpbench("run", *SWEEP, "--resume", "--out", str(tmp_path), "--no-progress",
                      env=env)
    assert first.poll() is None, "the first resume ended before the second was tried"
    assert_one_line_error(second, str(run_dir), f"pid {first.pid} on ", "is being written")
    _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    got = keys(run_dir)
    assert len(got) == len(set(got)) == ROWS
    assert set(got) == set(keys(whole))
    info = meta(run_dir)
    assert info["status"] == "finished"
    assert [s["status"] for s in info["sessions"]] == ["finished"] * len(info["sessions"])
    assert info["sessions"][-1]["rows"] == ROWS - 4
    assert info["plan_hash"] == meta(whole)["plan_hash"]


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--threads", "1,2,4"], "error: --resume: threads differs (run: 1,2; now: 1,2,4)"),
        (["--reps", "5"], "error: --resume: reps differs (run: 3; now: 5)"),
        ([*SWEEP, "--no-baseline"],
         "error: --resume: configs differs (run: worklist/ptwb,baseline; now: worklist/ptwb)"),
    ],
)
def test_resume_with_a_changed_sweep_is_refused_naming_the_field(
    whole, env, tmp_path, flags, message
):
    run_dir = cut_copy(whole, tmp_path, 4)
    before = (run_dir / "runs.csv").read_bytes(), (run_dir / "meta.json").read_bytes()
    proc = llpbench("run", "--resume", *flags, "--out", str(tmp_path), "--no-progress",
                    env=env)
    line = assert_one_line_error(proc)
    assert line.startswith(message), line
    assert ((run_dir / "runs.csv").read_bytes(), (run_dir / "meta.json").read_bytes()) == before


def test_a_torn_row_is_named_by_tables_and_redone_by_resume(whole, env, tmp_path):
    full = (whole / "runs.csv").read_bytes().splitlines(keepends=True)
    run_dir = cut_copy(whole, tmp_path, 10, extra=full[11][:40])  # row 11 cut mid-way
    table = llpbench("table", "speedup", "--results", str(tmp_path), env=env)
    assert table.returncode == 0, table.stderr
    warning = [line for line in table.stderr.splitlines() if line.startswith("warning:")]
    assert warning == [line for line in table.stderr.splitlines() if line.strip()]
    assert len(warning) == 1 and f"{run_dir / 'runs.csv'}:12: last row torn" in warning[0]
    assert "tiny-kron" in table.stdout
    again = llpbench("run", "--resume", "--out", str(tmp_path), "--no-progress", env=env)
    assert again.returncode == 0, again.stderr
    got = keys(run_dir)
    assert len(got) == len(set(got)) == ROWS and set(got) == set(keys(whole))
    table = llpbench("table", "speedup", "--results", str(tmp_path), env=env)
    assert table.returncode == 0 and "warning" not in table.stderr, table.stderr


def test_a_full_disk_names_the_file_keeps_every_earlier_row_and_marks_the_run_failed(
    whole, env, tmp_path
):
    proc = llpbench("run", *SWEEP, "--out", str(tmp_path), "--no-progress",
                    env={**env, DISK_FULL_ENV: "7"})
    run_dir = tmp_path / "latest"
    line = assert_one_line_error(proc)
    assert line == (f"error: {run_dir.resolve() / 'runs.csv'}: No space left on device; "
                    "7 rows kept, resume with --resume")
    assert keys(run_dir) == keys(whole)[:7]  # whole rows only: the torn one was cut back
    assert (run_dir / "runs.csv").read_bytes().endswith(b"\n")
    info = meta(run_dir)
    assert info["status"] == "failed" and info["sessions"][-1]["rows"] == 7
    assert info["test_settings"] == {DISK_FULL_ENV: 7}
    again = llpbench("run", "--resume", "--out", str(tmp_path), "--no-progress", env=env)
    assert again.returncode == 0, again.stderr
    assert sorted(keys(run_dir)) == sorted(keys(whole))


def test_a_run_that_fails_before_its_first_row_leaves_no_folder_and_latest_unchanged(
    whole, env, tmp_path
):
    proc = llpbench("run", "--graph", "tiny-kron", "--threads", "1", "--worklist", "ptwb",
                    "--no-baseline", "--reps", "1", "--out", str(tmp_path), "--no-progress",
                    env=env)
    assert proc.returncode == 0, proc.stderr
    before = sorted(p.name for p in tmp_path.iterdir())
    latest = os.readlink(tmp_path / "latest")
    for args in (["--graph", "no-such-graph"], ["--graph", "tiny-kron", "--delta", "-1"],
                 ["--graph", "tiny-kron", f"--worklist={'x' * 3}"]):
        proc = llpbench("run", *args, "--out", str(tmp_path), "--no-progress", env=env)
        assert_one_line_error(proc)
        assert sorted(p.name for p in tmp_path.iterdir()) == before, args
        assert os.readlink(tmp_path / "latest") == latest
