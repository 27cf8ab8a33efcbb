"""Options that several commands declare, defined once so that they read and behave the same
everywhere (the graph-file flags are in :mod:`llpbench.cli.reading`).

A single shared option is a typer parameter default (:data:`CACHE_DIR`); the flags that say
how to run a sweep are one group, :data:`RUNNING`, that ``run`` and ``reproduce`` take whole
as ``running: RunOptions`` (:func:`llpbench.cli.flag_groups.takes`).
"""

from __future__ import annotations

from pathlib import Path

import typer

from llpbench.bench.options import RunOptions
from llpbench.cli.flag_groups import Flag, FlagGroup

CACHE_DIR = typer.Option(
    None,
    "--cache-dir",
    envvar="LLPBENCH_DATA_DIR",
    help="Datasets cache folder [$LLPBENCH_DATA_DIR, else a source checkout's datasets/, "
    "else the user's cache folder: ~/.cache/llpbench/datasets on Linux].",
    show_default=False,
)

# The run options of `llpbench run` and `llpbench reproduce` (fields of RunOptions).
OUT = typer.Option(
    None, "--out", show_default=False,
    help="Results folder [$LLPBENCH_RESULTS_DIR, else ./results].",
)
RESUME = typer.Option(False, "--resume", help="Continue the latest run.")
PROGRESS = typer.Option(True, "--progress/--no-progress", help="Progress bar.")
ORDER = typer.Option(
    "interleaved", "--order",
    help="interleaved: repetitions alternate across the configurations of one instance and "
    "thread count (A B A B), against slow drift; grouped: each configuration's back to back.",
)
PIN = typer.Option(
    False, "--pin/--no-pin",
    help="Pin each worker thread to one CPU of the affinity set (recorded in meta.json).",
)

#: How a sweep is run, stored and submitted: every field of RunOptions but ``config``.
RUNNING = FlagGroup(
    flags=(
        Flag("out", Path | None, OUT),
        Flag("resume", bool, RESUME),
        Flag("cache_dir", Path | None, CACHE_DIR),
        Flag("progress", bool, PROGRESS),
        Flag("order", str, ORDER),
        Flag("pin", bool, PIN),
        Flag("shard", str | None,
             typer.Option(None, "--shard", help="Run only shard I of N: I/N, from 1.")),
        Flag("executor", str | None,
             typer.Option(None, "--executor", help="Run shards as jobs: local, slurm.")),
        Flag("shards", int | None,
             typer.Option(None, "--shards", help="Number of shards (jobs), --executor.")),
        Flag("only_shards", str | None,
             typer.Option(None, "--only-shards", help="Submit only these: 2,3.")),
        Flag("partition", str | None, typer.Option(None, "--partition", help="SLURM partition.")),
        Flag("time_min", int | None,
             typer.Option(None, "--time", help="Job time limit, minutes [1440].")),
        Flag("array_parallelism", int | None,
             typer.Option(None, "--array-parallelism", help="Jobs at once.")),
    ),
    build=RunOptions,
)
