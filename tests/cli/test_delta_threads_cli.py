"""A sweep's rows use the family's Δ for their own thread count, and record it: Δ-stepping's
best Δ moves with the threads, so one Δ tuned at one thread would handicap it elsewhere."""

from __future__ import annotations

import csv
import json
import shutil

from llpbench.baselines.delta import family as dfam
from tests.cli.conftest import REPO


def _seed_cache(cache, rule, deltas: dict[int, int]) -> None:
    """Cache entries for the kronecker family at each thread count (as tune-delta writes)."""
    for threads, delta in deltas.items():
        point = dfam.GridPoint(delta, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3)
        dfam.write_cache(cache / dfam.CACHE_NAME, dfam.FamilyDelta(
            family="kronecker", reference="kron-2e16", delta=delta, tied=[delta], prior=8.0,
            grid=[point], sources=[0], key=dfam.cache_key(rule, "kron-2e16", threads),
            threads=threads))


def test_rows_use_and_record_the_delta_of_their_thread_count(cli, tmp_path):
    configs = tmp_path / "configs"
    shutil.copytree(REPO / "configs", configs)
    toml = configs / "delta.toml"
    toml.write_text(toml.read_text().replace('threads = "sweep"', "threads = [1, 2]"))
    rule = dfam.load_rule(toml)
    assert rule.threads == (1, 2)
    _seed_cache(cli.cache, rule, {1: 4, 2: 32})
    out = tmp_path / "res"
    proc = cli("run", "--graph", "tiny-kron", "--worklist", "bucketed,obim,ptcf",
               "--threads", "1,2,4", "--reps", "1", "--out", str(out), "--no-progress",
               LLPBENCH_CONFIG_DIR=str(configs))
    assert proc.returncode == 0, proc.stderr
    assert "tuning" not in proc.stdout  # every Δ came from the cache
    with open(out / "latest" / "runs.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    want = {"1": "4", "2": "32", "4": "32"}  # 4 threads: the largest tuned count <= 4
    timed = [r for r in rows if r["kind"] == "baseline" or r["worklist"] in ("bucketed", "obim")]
    assert {r["threads"] for r in timed} == set(want)
    for r in timed:
        assert float(r["delta"]) == float(want[r["threads"]]), r
    assert {r["verified"] for r in rows if r["kind"] != "floor"} == {"True"}
    deltas = json.loads((out / "latest" / "meta.json").read_text())["deltas"]
    assert deltas["tiny-kron@2"]["delta"] == 32 and deltas["tiny-kron@4"]["tuned_threads"] == 2
