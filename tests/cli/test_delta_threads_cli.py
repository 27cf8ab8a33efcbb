"""A sweep's rows use the family's Δ for their own thread count, and record it: Δ-stepping's
best Δ moves with the threads, so one Δ tuned at one thread would handicap it elsewhere."""

from __future__ import annotations

import csv
import json
import shutil

import pytest

from llpbench.baselines.delta import family as dfam
from tests.cli.conftest import REPO
from tests.problems.test_tuned import seed_entry

# these tests tune Δ or seed the entries they read: they start from an empty cache
pytestmark = pytest.mark.empty_cache


def _seed_cache(cache, rule, deltas: dict[int, int], levels: dict[int, int]) -> None:
    """Cache entries for the kronecker family at each thread count (as tune-delta writes):
    Δ-stepping's Δ and the level worklists' width."""
    from llpbench.problems.sssp import LEVELS

    for threads, delta in deltas.items():
        seed_entry(cache / dfam.CACHE_NAME, rule, "kronecker", "kron-2e16", threads, delta)
        seed_entry(cache / dfam.CACHE_NAME, rule, "kronecker", "kron-2e16", threads,
                   levels[threads], LEVELS)


def test_rows_use_and_record_the_delta_of_their_thread_count(cli, tmp_path):
    configs = tmp_path / "configs"
    shutil.copytree(REPO / "configs", configs)
    toml = configs / "delta.toml"
    toml.write_text(toml.read_text().replace('threads = "sweep"', "threads = [1, 2]"))
    rule = dfam.load_rule(toml)
    assert rule.threads == (1, 2)
    _seed_cache(cli.cache, rule, {1: 4, 2: 32}, {1: 64, 2: 512})
    out = tmp_path / "res"
    proc = cli("run", "--graph", "tiny-kron", "--worklist", "bucketed,obim,ptcf",
               "--threads", "1,2,4", "--reps", "1", "--out", str(out), "--no-progress",
               LLPBENCH_CONFIG_DIR=str(configs))
    assert proc.returncode == 0, proc.stderr
    assert "tuning" not in proc.stdout  # every Δ came from the cache
    with open(out / "latest" / "runs.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    want = {"1": "4", "2": "32", "4": "32"}  # 4 threads: the largest tuned count <= 4
    width = {"1": "64", "2": "512", "4": "512"}  # the level worklists' own, tuned apart
    base = [r for r in rows if r["kind"] == "baseline"]
    levels = [r for r in rows if r["worklist"] in ("bucketed", "obim")]
    assert {r["threads"] for r in base} == {r["threads"] for r in levels} == set(want)
    for r in base:
        assert float(r["delta"]) == float(want[r["threads"]]), r
    for r in levels:
        assert float(r["bucket_width"]) == float(width[r["threads"]]) and r["delta"] == "", r
    assert {r["verified"] for r in rows if r["kind"] != "floor"} == {"True"}
    deltas = json.loads((out / "latest" / "meta.json").read_text())["deltas"]
    assert deltas["tiny-kron@2"]["delta"] == 32 and deltas["tiny-kron@4"]["tuned_threads"] == 2
    assert deltas["tiny-kron@2"]["level_delta"] == 512


def test_tune_delta_levels_tunes_the_level_worklists_width_and_caches_it_apart(cli, tmp_path):
    """`tune-delta --levels`: the same rule timing LLP over the level worklist, its grid
    printed, its entry cached beside (never over) Δ-stepping's."""
    path = tmp_path / "g.wel"
    path.write_text("".join(f"{i} {(i * 7 + 3) % 40} {1 + (i * 13) % 50}\n" for i in range(40))
                    + "".join(f"{i} {(i + 1) % 40} {1 + (i * 5) % 30}\n" for i in range(40)))
    proc = cli("tune-delta", "-g", str(path), "--threads", "1", "--levels")
    assert proc.returncode == 0, proc.stderr
    assert "tuning the level worklists (LLP over obim)" in proc.stdout
    assert "level worklists' width per family and thread count" in proc.stdout
    entries = json.loads((cli.cache / dfam.CACHE_NAME).read_text())["families"]
    (name,) = entries
    assert name.endswith("@1/level-worklists")
    assert entries[name]["solver"] == "level-worklists"
    chosen = entries[name]["delta"]
    assert f"Δ = {chosen:g}" in proc.stdout
    proc = cli("tune-delta", "-g", str(path), "--threads", "1")
    assert proc.returncode == 0, proc.stderr
    entries = json.loads((cli.cache / dfam.CACHE_NAME).read_text())["families"]
    assert set(entries) == {name, name.removesuffix("/level-worklists")}


def test_an_llp_only_sweep_tunes_the_level_width_alone(cli, tmp_path):
    """Rows of level worklists need their width, not Δ-stepping's Δ: a sweep without a
    baseline tunes (and caches) only the level worklists' entry; `solve` likewise."""
    path = tmp_path / "g.wel"
    path.write_text("".join(f"{i} {(i * 7 + 3) % 30} {1 + (i * 13) % 50}\n" for i in range(30)))
    proc = cli("run", "-g", str(path), "--directed", "--worklist", "obim", "--no-baseline",
               "--threads", "1", "--reps", "1", "--no-progress", "--out", str(tmp_path / "r"))
    assert proc.returncode == 0, proc.stderr
    entries = json.loads((cli.cache / dfam.CACHE_NAME).read_text())["families"]
    assert [name.split("@")[1] for name in entries] == ["1/level-worklists"]
    with open(tmp_path / "r" / "latest" / "runs.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["worklist"] == "obim"]
    (name,) = entries
    # integer weights: the width in priority units is the tuned width in weight units
    assert rows and {float(r["bucket_width"]) for r in rows} == {float(entries[name]["delta"])}
    assert {r["delta"] for r in rows} == {""}  # no Δ-stepping ran
    solved = cli("solve", "-g", str(path), "--directed", "--worklist", "bucketed")
    assert solved.returncode == 0, solved.stderr
    assert len(json.loads((cli.cache / dfam.CACHE_NAME).read_text())["families"]) == 1
