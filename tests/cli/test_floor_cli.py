"""The floor beside every SSSP table: a sweep with a baseline times `floor/arc-sweep` at one
thread, and `table speedup` puts it beside both sides (the "x floor" columns)."""

from __future__ import annotations

import csv

import pandas as pd
import pytest


def test_sweep_times_the_floor_and_the_speedup_table_divides_by_it(cli, tmp_path):
    out = tmp_path / "res"
    proc = cli("run", "--graph", "tiny-kron", "--worklist", "ptcf,obim", "--threads", "1,2",
               "--reps", "2", "--out", str(out), "--no-progress")
    assert proc.returncode == 0, proc.stderr
    with open(out / "latest" / "runs.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    floor = [r for r in rows if r["kind"] == "floor"]
    assert {(r["solver"], r["config"], r["threads"], r["verified"]) for r in floor} == {
        ("floor/arc-sweep", "arc-sweep", "1", "")}
    assert len(floor) == 2  # one source x two repetitions
    assert {r["verified"] for r in rows if r["kind"] != "floor"} == {"True"}
    obim = [r for r in rows if r["worklist"] == "obim"]
    assert {r["bucket_width"] for r in obim} != {""} and {r["delta"] for r in obim} == {""}

    proc = cli("table", "speedup", "--results", str(out / "latest"))
    assert proc.returncode == 0, proc.stderr
    assert "floor" in proc.stdout and "delta-stepping" in proc.stdout
    table = pd.read_csv(out / "latest" / "tables" / "speedup.csv")
    floor_s = pd.Series([float(r["seconds"]) for r in floor]).median()
    row = table.iloc[0]
    assert row["floor_s"] == pytest.approx(floor_s)
    assert row["llp_x_floor"] == pytest.approx(row["llp_median_s"] / floor_s)
    assert row["baseline_x_floor"] == pytest.approx(row["baseline_median_s"] / floor_s)
    assert row["baseline"] == "delta-stepping"
