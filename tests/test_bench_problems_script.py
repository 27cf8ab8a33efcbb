"""scripts/bench_problems.py runs end to end (a smoke run): it verifies every answer it times
and prints one row per problem, instance and thread count."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_bench_problems_prints_and_writes_a_verified_row_per_case(tmp_path):
    out = tmp_path / "medians.csv"
    proc = subprocess.run(
        [sys.executable, "scripts/bench_problems.py", "--quick", "--reps", "1",
         "--problems", "knapsack,job-scheduling", "--threads", "1,2", "--csv", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "wrong" not in proc.stdout
    rows = list(csv.DictReader(out.open()))
    cases = {(r["problem"], r["instance"], r["threads"]) for r in rows}
    assert cases == {
        (p, i, t)
        for p, i in [("knapsack", "n=60"), ("job-scheduling", "n=5000"),
                     ("job-scheduling", "n=5000 layered")]
        for t in ("1", "2")
    }
    assert all(float(r["speedup"]) > 0 and r["baseline"] for r in rows)
    assert "LLP takes" in proc.stdout
