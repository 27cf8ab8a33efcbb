"""scripts/bench_problems.py runs end to end (a smoke run): it takes its cases from the
problems sweep, verifies every answer it times and prints one row per problem, instance and
thread count, the floors beside them and a line per target."""

from __future__ import annotations

import csv
import math
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "scripts/bench_problems.py", *args],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )


def test_bench_problems_prints_and_writes_a_verified_row_per_case(tmp_path):
    out = tmp_path / "medians.csv"
    proc = _run("--quick", "--reps", "1", "--problems", "knapsack,job-scheduling,reduction",
                "--threads", "1,2", "--csv", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "wrong" not in proc.stdout
    rows = list(csv.DictReader(out.open()))
    cases = {(r["problem"], r["instance"], r["threads"]) for r in rows}
    assert cases == {
        (p, i, t)
        for p, i in [("knapsack", "n=60"), ("job-scheduling", "n=5000"),
                     ("job-scheduling", "n=5000 layered"), ("reduction", "n=20000"),
                     ("reduction", "n=20000 signed")]
        for t in ("1", "2")
    }
    assert all(float(r["speedup"]) > 0 and r["baseline"] for r in rows)
    floors = {r["problem"]: float(r["floor_ms"] or "nan") for r in rows}
    assert floors["reduction"] > 0 and math.isnan(floors["job-scheduling"])  # copy floor only
    assert "LLP takes" in proc.stdout
    assert "target reduction n=20000 x2: LLP / floor" in proc.stdout
    assert "target job-scheduling n=5000 x1: LLP / baseline" in proc.stdout


def test_bench_problems_takes_the_studies_of_the_config_it_is_given(tmp_path):
    config = tmp_path / "one.toml"
    config.write_text('[sweep]\nthreads = "1"\n\n[[study]]\nproblem = "reduction"\n'
                      'sizes = [5000]\nconfigs = ["worklist/swb", "baseline"]\n')
    out = tmp_path / "medians.csv"
    proc = _run("--config", str(config), "--reps", "1", "--threads", "1", "--csv", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open()))
    assert [(r["problem"], r["instance"], r["best_llp"]) for r in rows] == [
        ("reduction", "n=5000", "worklist/swb")
    ]


def test_bench_problems_refuses_a_bad_config_in_one_line(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text('[[study]]\nproblem = "no-such-problem"\nsizes = [10]\n')
    proc = _run("--config", str(config), "--quick")
    assert proc.returncode != 0
    assert proc.stderr.strip().startswith("error:") and len(proc.stderr.strip().splitlines()) == 1
