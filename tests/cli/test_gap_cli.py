"""GAP as a sweep baseline through the real entry point: `llpbench run --baseline gap` and
`llpbench table speedup --against gap`.

CI has no GAP build, so the whole path (export, GAP's converter, one GAP process per solve,
parsing, the checks, the Δ tuning and its cache, the rows, the table) runs against the
stand-in build of :mod:`tests.baselines.gap_fake`, which computes real distances and prints
GAP's format, with trial times that are a known function of Δ and threads. A missing build
is tested as it is.
"""

from __future__ import annotations

import csv
import statistics
from pathlib import Path

import numpy as np
from scipy.sparse.csgraph import dijkstra

from llpbench.baselines.gap_baseline import WARM_TRIALS
from llpbench.baselines.gap_delta import load_gap_rule
from llpbench.graphs.formats import write_graph
from llpbench.graphs.generators import kronecker
from llpbench.graphs.registry import load_graph
from llpbench.graphs.sources import pick_sources
from llpbench.graphs.weights import assign_weights
from tests.baselines.gap_fake import BEST, trial_time, write_fake_gap
from tests.cli.conftest import assert_one_line_error

GRID = [1, 2, 4, 8, 16, 32, 64, 128]  # median weight 8 x 2^-7 .. 2^4, at least 1


def _rows(run_dir: Path) -> list[dict]:
    with open(run_dir / "runs.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def _graph_file(tmp_path: Path) -> Path:
    path = tmp_path / "k.gr"
    write_graph(assign_weights(kronecker(9, 8, seed=3), "uniform-int:1:15", 7), path)
    return path


def test_a_missing_gap_build_is_one_line_saying_how_to_build_it(cli, tmp_path):
    for extra in ([], ["--gap-bin", str(tmp_path / "nowhere")]):
        proc = cli("run", "--graph", "tiny-kron", "--baseline", "gap", *extra,
                   "--out", str(tmp_path / "r"), "--no-progress")
        assert_one_line_error(proc, "baseline 'gap'", "git clone https://github.com/sbeamer/"
                              "gapbs && make -C gapbs sssp converter", "--gap-bin")
        assert not list((tmp_path / "r").glob("*/runs.csv"))  # refused before any solve


def test_gap_rows_are_its_own_trial_times_at_its_best_delta_checked_and_tabled(cli, tmp_path):
    gap = write_fake_gap(tmp_path / "gapbs")
    log = tmp_path / "gap.log"
    graph_path = _graph_file(tmp_path)
    out = tmp_path / "res"
    args = ["run", "--graph", str(graph_path), "--threads", "1,2", "--worklist", "ptwb",
            "--baseline", "gap,delta-stepping", "--reps", "2", "--out", str(out),
            "--no-progress"]
    proc = cli(*args, LLPBENCH_GAP_BIN=str(gap), FAKE_GAP_LOG=str(log))
    assert proc.returncode == 0, proc.stderr
    assert "tuning GAP's Δ" in proc.stderr
    rows = _rows(out / "latest")
    mine = [r for r in rows if r["solver"] == "baseline/gap"]
    assert len(mine) == 2 * 2  # two thread counts x two repetitions, one source
    graph = load_graph(str(graph_path))
    source = int(mine[0]["source"])
    reached = int(np.isfinite(dijkstra(graph.to_scipy(), indices=source)).sum())
    for r in mine:
        t = int(r["threads"])
        assert r["config"] == "gap" and r["kind"] == "baseline"
        assert float(r["delta"]) == BEST[t]  # GAP's fastest on the grid at this thread count
        assert float(r["seconds"]) == trial_time(BEST[t], t)  # its warm trial, as printed
        assert r["verified"] == "True" and int(r["reached"]) == reached
    ours: dict[str, set[str]] = {}
    for r in rows:
        if r["solver"] == "baseline/delta-stepping":
            ours.setdefault(r["threads"], set()).add(r["delta"])
    assert set(ours) == {"1", "2"}
    assert all(len(d) == 1 for d in ours.values())  # ours: its family Δ at each thread count

    runs = [line.split() for line in log.read_text().splitlines()]
    tuning = [a for a in runs if a[a.index("-n") + 1] == str(load_gap_rule().trials)]
    sources = pick_sources(graph, 2, 42)
    assert len(tuning) == 2 * len(GRID) * len(sources)  # per thread count: grid x sources
    assert sorted({int(a[a.index("-d") + 1]) for a in tuning}) == GRID
    verified = [a for a in runs if "-v" in a]
    assert len(verified) == 2  # GAP's own -v once per thread count (source and Δ)

    # the table against GAP: LLP vs GAP's rows, with their interval
    proc = cli("table", "speedup", "--results", str(out / "latest"), "--against", "gap")
    assert proc.returncode == 0, proc.stderr
    assert "GAP at its best Δ" in " ".join(proc.stdout.split())
    with open(out / "latest" / "tables" / "speedup-vs-gap.csv", newline="") as fh:
        (row,) = list(csv.DictReader(fh))
    llp = [float(r["seconds"]) for r in rows if r["solver"] == "worklist" and r["threads"] == "2"]
    assert row["baseline"] == "gap" and row["threads"] == "2" and float(row["delta"]) == BEST[2]
    want = trial_time(BEST[2], 2) / statistics.median(llp)
    assert abs(float(row["speedup"]) - want) <= 1e-9 * want
    assert float(row["speedup_ci_low"]) <= float(row["speedup"]) <= float(row["speedup_ci_high"])
    proc = cli("table", "speedup", "--results", str(out / "latest"))
    assert proc.returncode == 0, proc.stderr
    with open(out / "latest" / "tables" / "speedup.csv", newline="") as fh:
        assert [r["baseline"] for r in csv.DictReader(fh)] == ["delta-stepping"]

    # a second sweep reads GAP's Δ from the cache: no tuning run, the same Δ
    log.write_text("")
    proc = cli(*args, LLPBENCH_GAP_BIN=str(gap), FAKE_GAP_LOG=str(log))
    assert proc.returncode == 0, proc.stderr
    assert "tuning GAP's Δ" not in proc.stderr
    sweep_n = str(WARM_TRIALS + 1)  # the warm-up trials, then the row's
    assert sweep_n != str(load_gap_rule().trials)  # or the tuning runs above were miscounted
    assert all(a.split()[a.split().index("-n") + 1] == sweep_n
               for a in log.read_text().splitlines())
    again = [r for r in _rows(out / "latest") if r["solver"] == "baseline/gap"]
    assert {(r["threads"], r["delta"]) for r in again} == {(r["threads"], r["delta"])
                                                           for r in mine}


def test_gap_reaching_other_vertices_fails_verification_and_a_given_delta_is_used(cli,
                                                                                tmp_path):
    gap = write_fake_gap(tmp_path / "gapbs")
    out = tmp_path / "res"
    proc = cli("run", "--graph", str(_graph_file(tmp_path)), "--worklist", "ptwb",
               "--baseline", "gap", "--delta", "32", "--reps", "1", "--out", str(out),
               "--no-progress", "--gap-bin", str(gap), FAKE_GAP_REACH_OFFSET="1")
    assert proc.returncode == 3, proc.stderr
    assert "verification failed" in proc.stdout and "reached" in proc.stdout
    (row,) = [r for r in _rows(out / "latest") if r["solver"] == "baseline/gap"]
    assert row["verified"] == "False" and float(row["delta"]) == 32
    assert float(row["seconds"]) == trial_time(32, 1)
    assert not (tmp_path / "cache" / "gap-deltas.json").exists()  # a given Δ tunes nothing


def test_gap_failing_its_own_verification_is_one_error_line(cli, tmp_path):
    gap = write_fake_gap(tmp_path / "gapbs")
    proc = cli("run", "--graph", str(_graph_file(tmp_path)), "--worklist", "ptwb",
               "--baseline", "gap", "--delta", "4", "--reps", "1", "--out",
               str(tmp_path / "r"), "--no-progress", "--gap-bin", str(gap),
               FAKE_GAP_VERDICT="FAIL")
    assert_one_line_error(proc, "GAP's own verification (-v) failed")
