"""scripts/bench_peer.py: its Δ scan finds the grid's global minimum (a walk from a start
point stopped in local minima), its targets read the paired statistic, and it runs end to
end without a GAP build (scipy's Dijkstra as the peer), verifying every solve it times."""

from __future__ import annotations

import csv
import importlib.util
import math
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("bench_peer", REPO / "scripts/bench_peer.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_scan_measures_the_whole_grid_and_finds_the_global_minimum():
    bench = _module()
    calls: list[int] = []

    def cost(d: int) -> float:  # a local minimum at 512, the global one at 4
        calls.append(d)
        return {4: 1.0, 512: 2.0}.get(d, 3.0 + abs(math.log2(d) - 6) * 0.01)

    best, means = bench.scan_delta(cost, 1024)
    assert best == 4
    assert sorted(means) == [1 << k for k in range(11)]
    assert len(calls) == 11 + 3  # the grid, then the three fastest once more
    assert sorted(set(calls[11:])) == sorted([4, 512, 64])


def test_targets_follow_the_paired_ratio():
    bench = _module()
    rows = [dict(graph="g", config=bench.DS, threads=t, ratio=r, x_floor=f)
            for t, r, f in ((1, 0.9, 1.5), (2, 1.2, 1.4))]
    rows += [dict(graph="g", config="worklist/obim", threads=t, ratio=r, x_floor=3.0)
             for t, r in ((1, 1.05), (2, 0.99))]
    got = {r["target"]: r["met"] for r in bench.targets(rows, [1, 2])}
    assert got == {"Δ-stepping 1T <= 1.0": True, "best LLP 1T <= 1.1 (obim)": True,
                   "fastest 1T <= 2x floor (delta-stepping)": True,
                   "Δ-stepping 2T <= 1.0": False, "best LLP 2T <= 1.0 (obim)": True}


def test_runs_without_gap_and_writes_its_tables(tmp_path):
    out = tmp_path / "peer.csv"
    proc = subprocess.run(
        [sys.executable, "scripts/bench_peer.py", "--graphs", "tiny-mesh", "--threads", "1,2",
         "--rounds", "2", "--trials", "1", "--sources", "1", "--worklists", "obim",
         "--csv", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "no GAP build given" in proc.stdout and "WRONG" not in proc.stdout
    rows = list(csv.DictReader(out.open()))
    assert {(r["config"], r["threads"]) for r in rows} == {
        (c, t) for c in ("delta-stepping", "worklist/obim") for t in ("1", "2")}
    assert all(float(r["ratio"]) > 0 and float(r["x_floor"]) > 0 for r in rows)
    scans = list(csv.DictReader(out.with_suffix(".scan.csv").open()))
    assert {r["side"] for r in scans} == {"delta-stepping", "level worklists' width"}
