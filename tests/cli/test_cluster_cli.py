"""Sharded sweeps through the real entry point: `--shard I/N`, `--executor local` (submitit
starting real processes), `llpbench merge`, kill and resume, and the plain sbatch template."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from llpbench.bench.schema import CELL_KEY
from tests.conftest import seed_tuned_delta

REPO = Path(__file__).resolve().parents[2]
# 2 graphs x 2 sources x (2 worklists + the baseline) x 2 thread counts = 24 cells
SWEEP = ["--graph", "tiny-kron", "--graph", "tiny-mesh", "--threads", "1,2",
         "--worklist", "swb", "--worklist", "ptwb", "--sources", "2", "--reps", "2"]
# + the one-pass floor (floor/arc-sweep) at one thread: 2 graphs x 2 sources = 4 cells
FLOOR_CELLS = 4
CELLS = 24 + FLOOR_CELLS


def llpbench(*args, env, **kw):
    return subprocess.run(
        [sys.executable, "-m", "llpbench", *args], capture_output=True, text=True,
        cwd=REPO, env=env, **kw,
    )


def rows(run_dir: Path) -> list[dict]:
    with open(run_dir / "runs.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def keys(table: list[dict]) -> list[tuple]:
    return [tuple(r[c] for c in (*CELL_KEY, "rep")) for r in table]


def meta(run_dir: Path) -> dict:
    return json.loads((run_dir / "meta.json").read_text())


def one_error_line(proc, text: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], proc.stderr


def shard_dirs(root: Path) -> list[Path]:
    return sorted(root.glob("shard-*-of-*"))


@pytest.fixture(scope="module")
def env(tmp_path_factory, tuned_delta_cache):
    data = seed_tuned_delta(tmp_path_factory.mktemp("data"), tuned_delta_cache)
    return dict(os.environ, LLPBENCH_DATA_DIR=str(data),
                PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.fixture(scope="module")
def whole_and_sharded(tmp_path_factory, env):
    """The sweep run whole, and as 3 shards through submitit's local executor."""
    base = tmp_path_factory.mktemp("runs")
    whole = llpbench("run", *SWEEP, "--out", str(base / "whole"), "--no-progress", env=env)
    assert whole.returncode == 0, whole.stderr
    sharded = llpbench("run", *SWEEP, "--executor", "local", "--shards", "3",
                       "--out", str(base / "sharded"), "--no-progress", env=env)
    assert sharded.returncode == 0, sharded.stderr + sharded.stdout
    return base / "whole" / "latest", base / "sharded", sharded.stdout


def test_three_shards_through_the_local_executor_give_the_whole_runs_cells_once(
    whole_and_sharded, env
):
    whole, root, stdout = whole_and_sharded
    merged = root / "latest"
    got, expected = keys(rows(merged)), keys(rows(whole))
    assert len(expected) == CELLS * 2
    assert len(got) == len(set(got)) == len(expected)
    assert set(got) == set(expected)
    assert {r["verified"] for r in rows(merged) if r["kind"] != "floor"} == {"True"}
    for graph in ("tiny-kron", "tiny-mesh"):  # one Δ per family and thread count, as in a
        for t in ("1", "2"):  # whole run
            deltas = {r["delta"] for r in rows(merged) if r["graph"] == graph and
                      r["kind"] == "baseline" and r["threads"] == t}
            assert len(deltas) == 1, (graph, t, deltas)
    info = meta(merged)
    assert info["complete"] is True and info["status"] == "finished"
    assert info["missing_shards"] == [] and info["incomplete_shards"] == []
    assert sorted(info["machines"]) == ["1", "2", "3"]
    assert all("cpu_model" in m for m in info["machines"].values())
    assert [s["shard"] for s in info["merged_from"]] == [1, 2, 3]
    # each shard is a normal run folder tagged with its place in the plan
    shards = shard_dirs(root)
    assert len(shards) == 3
    hashes = {meta(s)["shard"]["plan_hash"] for s in shards}
    assert hashes == {info["plan"]["plan_hash"]}
    assert all(meta(s)["status"] == "finished" for s in shards)
    assert sum(len(rows(s)) for s in shards) == len(got)
    assert all(rows(s) for s in shards)  # no idle shard
    assert "3 done, 0 failed" in stdout or "Shards of plan" in stdout
    table = llpbench("table", "speedup", "--results", str(root), env=env)
    assert table.returncode == 0, table.stderr
    assert "tiny-kron" in table.stdout and "tiny-mesh" in table.stdout
    assert "INCOMPLETE" not in table.stdout


def test_order_and_pin_reach_every_shard_job_of_the_executor(env, tmp_path):
    out = tmp_path / "res"
    proc = llpbench("run", "--graph", "tiny-dag", "--graph", "tiny-kron", "--threads", "1,2",
                    "--worklist", "ptwb", "--worklist", "swb", "--no-baseline", "--reps", "2",
                    "--executor", "local", "--shards", "2", "--pin", "--order", "grouped",
                    "--out", str(out), "--no-progress", env=env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    shards = shard_dirs(out)
    assert len(shards) == 2
    for shard in shards:
        info = meta(shard)
        assert info["order"] == "grouped", shard
        assert info["pinning"]["requested"] is True, shard
        written = [(r["graph"], r["source"], r["threads"], r["worklist"]) for r in rows(shard)]
        runs = [w for i, w in enumerate(written) if i == 0 or written[i - 1] != w]
        assert len(runs) == len(set(runs)), written  # each cell's reps back to back


def test_a_merged_run_is_not_resumed_as_if_it_were_one_machines(whole_and_sharded, env):
    _, root, _ = whole_and_sharded
    before = len(rows(root / "latest"))
    proc = llpbench("run", *SWEEP, "--resume", "--out", str(root), "--no-progress", env=env)
    one_error_line(proc, "merged from shards")
    assert len(rows(root / "latest")) == before


def test_merging_shards_of_two_plans_fails_with_one_line_and_writes_nothing(
    whole_and_sharded, env, tmp_path
):
    _, root, _ = whole_and_sharded
    other = llpbench("run", *SWEEP, "--reps", "1", "--shard", "1/3", "--out", str(tmp_path),
                     "--no-progress", env=env)
    assert other.returncode == 0, other.stderr
    mine = shard_dirs(root)
    out = tmp_path / "merged"
    before = sorted(tmp_path.iterdir())
    proc = llpbench("merge", str(mine[1]), str(mine[2]), *map(str, shard_dirs(tmp_path)),
                    "--out", str(out), env=env)
    one_error_line(proc, "shards of different plans")
    assert not out.exists()
    assert sorted(tmp_path.iterdir()) == before  # no temporary folder left either


def test_merging_a_shard_twice_fails_and_writes_nothing(whole_and_sharded, env, tmp_path):
    _, root, _ = whole_and_sharded
    first = shard_dirs(root)[0]
    copy = tmp_path / "copy-of-shard-1"
    shutil.copytree(first, copy)
    out = tmp_path / "merged"
    proc = llpbench("merge", *map(str, shard_dirs(root)), str(copy), "--out", str(out),
                    env=env)
    one_error_line(proc, "given twice")
    assert not out.exists()
    proc = llpbench("merge", str(first), str(first), "--out", str(out), env=env)
    one_error_line(proc, "given twice")


def test_a_missing_shard_is_refused_or_merged_marked_incomplete(
    whole_and_sharded, env, tmp_path
):
    _, root, _ = whole_and_sharded
    some = [str(p) for p in shard_dirs(root) if "shard-2-" not in p.name]
    out = tmp_path / "merged"
    proc = llpbench("merge", *some, "--out", str(out), env=env)
    one_error_line(proc, "shard(s) 2/3 missing")
    assert not out.exists()
    proc = llpbench("merge", *some, "--out", str(out), "--allow-incomplete", env=env)
    assert proc.returncode == 0, proc.stderr
    info = meta(out)
    assert info["complete"] is False and info["status"] == "incomplete"
    assert info["missing_shards"] == [2]
    table = llpbench("table", "speedup", "--results", str(out), env=env)
    assert "INCOMPLETE" in table.stdout and "2/3" in table.stdout


def test_merge_refuses_shards_whose_graphs_differ(whole_and_sharded, env, tmp_path):
    _, root, _ = whole_and_sharded
    copies = []
    for src in shard_dirs(root):
        copies.append(tmp_path / src.name)
        shutil.copytree(src, copies[-1])
    on = {c: {r["graph"] for r in rows(c)} for c in copies}
    shared = sorted(g for g in set().union(*on.values()) if sum(g in v for v in on.values()) > 1)
    assert shared, "the cut puts no graph on two shards; the test needs one"
    graph = shared[0]
    victim = next(c for c in copies if graph in on[c])
    table = rows(victim)
    with open(victim / "runs.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows({**r, "n": "999"} if r["graph"] == graph else r for r in table)
    proc = llpbench("merge", *map(str, copies), "--out", str(tmp_path / "m"), env=env)
    one_error_line(proc, f"graph {graph} differs between shards")


def _kill_after_rows(args, out: Path, env, count: int) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "llpbench", *args], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.time() + 120
    while time.time() < end:
        found = next(iter(out.glob("shard-*/runs.csv")), None) if out.exists() else None
        if found is not None and found.read_text().count("\n") > count:
            break
        if proc.poll() is not None:
            pytest.fail(f"the shard ended before it could be killed: {proc.stderr.read()}")
        time.sleep(0.005)
    else:
        pytest.fail("no rows appeared")
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)


def test_a_killed_shard_resumed_then_merged_is_complete(env, tmp_path):
    sweep = [*SWEEP[:-1], "8"]  # 8 reps: long enough to be killed halfway
    sweep[sweep.index("1,2")] = "1"  # 12 cells and the 4 of the floor
    out = tmp_path / "res"
    _kill_after_rows(["run", *sweep, "--shard", "2/3", "--out", str(out), "--no-progress"],
                     out, env, 5)
    (killed,) = shard_dirs(out)
    kept = len(rows(killed))
    expected = meta(killed)["shard"]["rows_expected"]
    assert 5 <= kept < expected
    assert meta(killed)["status"] == "running"  # SIGKILL: no chance to say more
    again = llpbench("run", *sweep, "--shard", "2/3", "--out", str(out), "--no-progress",
                     env=env)
    one_error_line(again, "add --resume")
    again = llpbench("run", *sweep, "--shard", "2/3", "--resume", "--out", str(out),
                     "--no-progress", env=env)
    assert again.returncode == 0, again.stderr
    assert len(rows(killed)) == expected
    # the other two shards as jobs of the local executor; it merges all three
    rest = llpbench("run", *sweep, "--executor", "local", "--shards", "3", "--only-shards",
                    "1,3", "--resume", "--out", str(out), "--no-progress", env=env)
    assert rest.returncode == 0, rest.stderr + rest.stdout
    merged = out / "latest"
    info = meta(merged)
    assert info["complete"] is True
    got = keys(rows(merged))
    assert len(got) == len(set(got)) == (12 + FLOOR_CELLS) * 8
    assert {r["verified"] for r in rows(merged) if r["kind"] != "floor"} == {"True"}
    assert len(info["merged_from"][1]["hostname"] or "x") > 0
    assert [s["rows"] for s in info["merged_from"]] == [
        meta(s)["shard"]["rows_expected"] for s in shard_dirs(out)
    ]


def test_a_failed_job_is_reported_and_its_shard_resubmitted_alone(env, tmp_path):
    sweep = ["--graph", "tiny-dag", "--threads", "1", "--worklist", "ptwb", "--no-baseline",
             "--sources", "3", "--reps", "1"]
    out = tmp_path / "res"
    first = llpbench("run", *sweep, "--shard", "2/3", "--out", str(out), "--no-progress",
                     env=env)
    assert first.returncode == 0, first.stderr
    (shard2,) = shard_dirs(out)
    (shard2 / "runs.csv").write_text("not,the,columns\n")  # this job will fail for real
    proc = llpbench("run", *sweep, "--executor", "local", "--shards", "3", "--resume",
                    "--out", str(out), "--no-progress", env=env)
    one_error_line(proc, "--resume --only-shards 2")
    assert "shard 2/3 failed: error" not in proc.stdout  # the job's own line, not a wrapper
    assert "shard 2/3 failed" in proc.stdout and "columns differ" in proc.stdout
    assert "1 shard job(s) failed" in proc.stderr
    partial = meta(out / "latest")
    assert partial["complete"] is False and partial["missing_shards"] == [2]
    shutil.rmtree(shard2)
    proc = llpbench("run", *sweep, "--executor", "local", "--shards", "3", "--resume",
                    "--only-shards", "2", "--out", str(out), "--no-progress", env=env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert meta(out / "latest")["complete"] is True
    assert len(rows(out / "latest")) == 3


def test_the_sbatch_template_runs_each_shard_then_merges(env, tmp_path):
    """SLURM itself cannot run here: a stand-in `sbatch` runs each array task and then the
    dependent merge job in turn, with the variables SLURM would set."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "sbatch"
    fake.write_text(
        "#!/usr/bin/env bash\n"
        "set -euo pipefail\n"
        "array=''; for a in \"$@\"; do case $a in --array=*) array=${a#--array=};; esac; done\n"
        "script=${!#}; id=$((RANDOM + 100))\n"
        "if [ -n \"$array\" ]; then\n"
        "  for ((t=${array%-*}; t<=${array#*-}; t++)); do\n"
        "    SLURM_ARRAY_TASK_ID=$t bash \"$script\" >> \"$FAKE_LOG\" 2>&1 || true\n"
        "  done\n"
        "else SLURM_JOB_ID=$id bash \"$script\" >> \"$FAKE_LOG\" 2>&1; fi\n"
        "echo $id\n"
    )
    fake.chmod(0o755)
    results = tmp_path / "results"
    run_env = dict(env, PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
                   FAKE_LOG=str(tmp_path / "jobs.log"))
    sweep = ["--graph", "tiny-dag", "--graph", "tiny-uniform", "--threads", "1",
             "--worklist", "ptwb", "--no-baseline", "--sources", "2", "--reps", "1"]
    proc = subprocess.run(["bash", str(REPO / "scripts/slurm/submit.sh"), "3", str(results),
                           *sweep], capture_output=True, text=True, cwd=REPO, env=run_env)
    log = (tmp_path / "jobs.log").read_text() if (tmp_path / "jobs.log").exists() else ""
    assert proc.returncode == 0, proc.stderr + log
    assert len(shard_dirs(results)) == 3
    (merged,) = results.glob("merged-*")
    assert meta(merged)["complete"] is True
    got = keys(rows(merged))
    assert len(got) == len(set(got)) == 2 * 2  # 2 graphs x 2 sources x 1 config, 1 rep
    assert (results / "latest").resolve() == merged.resolve()


def test_missing_submitit_is_one_line_naming_the_extra(env, tmp_path):
    code = ("import sys; sys.modules['submitit'] = None; from llpbench.cli.main import run; "
            "sys.argv = ['llpbench', *sys.argv[1:]]; run()")
    proc = subprocess.run(
        [sys.executable, "-c", code, "run", "--graph", "tiny-dag", "--executor", "local",
         "--shards", "2", "--out", str(tmp_path), "--no-progress"],
        capture_output=True, text=True, cwd=REPO, env=env,
    )
    one_error_line(proc, "pip install 'llpbench[cluster]'")
    assert not list(tmp_path.glob("shard-*"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--shard", "0/3"], "shards count from 1"),
        (["--shard", "4/3"], "I must be 1..N"),
        (["--shard", "1/3", "--executor", "local"], "give one or the other"),
        (["--executor", "local"], "--shards N"),
        (["--executor", "pbs", "--shards", "2"], "unknown executor"),
        (["--executor", "local", "--shards", "2", "--only-shards", "3"], "bad shard list"),
        (["--executor", "local", "--shards", "0"], "shards must be"),
    ],
)
def test_bad_shard_options_are_one_line(env, tmp_path, args, message):
    proc = llpbench("run", "--graph", "tiny-dag", *args, "--out", str(tmp_path),
                    "--no-progress", env=env)
    one_error_line(proc, message)
