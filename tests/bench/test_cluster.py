"""The submitit side of a sharded sweep: options from flags and the config's [cluster] table,
and what is submitted to SLURM (which cannot run here: stand-in `srun` and `sbatch` commands
record the submission instead)."""

from __future__ import annotations

import os
import re

import pytest

from llpbench.bench.cluster import (
    DEFAULT_TIME_MIN,
    ClusterOptions,
    cluster_options,
    cluster_table,
    make_executor,
    run_shard_job,
)
from llpbench.bench.options import RunOptions
from llpbench.bench.spec import load_sweep
from llpbench.errors import LlpbenchError, SpecError

CONFIG = """
[sweep]
threads = "1"
[[study]]
problem = "sssp"
graphs = ["tiny-dag"]

[cluster]
executor = "slurm"
shards = 4
partition = "bench"
time = 30
array_parallelism = 2
slurm = { account = "lab", constraint = "epyc" }
"""


def test_cluster_table_gives_options_and_flags_win(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(CONFIG)
    assert len(load_sweep(path).studies) == 1  # the sweep reader ignores [cluster]
    table = cluster_table(path)
    opts = cluster_options(table)
    assert opts == ClusterOptions("slurm", 4, "bench", 30, 2, {"account": "lab",
                                                                "constraint": "epyc"})
    opts = cluster_options(table, executor="local", shards=3, partition="debug", time_min=5)
    assert (opts.executor, opts.shards, opts.partition, opts.time_min) == ("local", 3, "debug", 5)
    assert cluster_options({}, executor="local", shards=2).time_min == DEFAULT_TIME_MIN


def test_cluster_table_rejects_unknown_keys(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(CONFIG.replace("partition =", "partitoin ="))
    with pytest.raises(SpecError, match="unknown keys \\['partitoin'\\]"):
        cluster_table(path)


@pytest.fixture
def fake_slurm(tmp_path, monkeypatch):
    """`srun` (submitit looks for it) and an `sbatch` that logs each call and answers
    like SLURM."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "srun").write_text("#!/bin/sh\nexit 0\n")
    log = tmp_path / "sbatch.log"
    (bin_dir / "sbatch").write_text(
        f'#!/bin/sh\necho "$@" >> {log}\necho "Submitted batch job 4242"\n'
    )
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return log


def test_slurm_gets_one_exclusive_job_array_with_the_options(tmp_path, fake_slurm):
    options = ClusterOptions("slurm", 3, partition="bench", time_min=90, array_parallelism=2,
                             slurm={"account": "lab"})
    folder = tmp_path / "jobs"
    executor = make_executor(options, folder)
    jobs = executor.map_array(run_shard_job, [None] * 3, [None] * 3, [1, 2, 3],
                              [RunOptions(order="grouped", pin=True)] * 3)
    assert [j.job_id for j in jobs] == ["4242_0", "4242_1", "4242_2"]
    assert len(fake_slurm.read_text().splitlines()) == 1  # one sbatch call: one array
    (script,) = folder.glob("4242_submission.sh")
    directives = set(re.findall(r"^#SBATCH (\S+)$", script.read_text(), re.M))
    assert {"--array=0-2%2", "--exclusive", "--partition=bench", "--time=90",
            "--account=lab"} <= directives
    assert "srun" not in script.read_text().split("# command", 1)[1]  # all CPUs of the node


def test_bad_slurm_option_is_one_line(tmp_path, fake_slurm):
    with pytest.raises(SpecError, match="Unknown argument 'acount'"):
        make_executor(ClusterOptions("slurm", 2, slurm={"acount": "lab"}), tmp_path)


def test_slurm_executor_off_a_cluster_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no srun anywhere
    with pytest.raises(LlpbenchError, match="--executor slurm: .*srun"):
        make_executor(ClusterOptions("slurm", 2), tmp_path)


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("shards", 0, "shards must be an integer >= 1, got 0"),
        ("time_min", -1, "time-min must be an integer >= 1, got -1"),
        ("array_parallelism", 0, "array-parallelism must be an integer >= 1, got 0"),
        ("executor", "pbs", "unknown executor 'pbs'; known: local, slurm"),
    ],
)
def test_bad_cluster_options_are_refused(field, value, message):
    args = {"executor": "local", "shards": 2, field: value}
    with pytest.raises(SpecError, match=f"^{re.escape(message)}$"):
        ClusterOptions(**args)
