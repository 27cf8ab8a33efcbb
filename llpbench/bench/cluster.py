"""Running a sweep's shards as jobs of an existing engine, submitit, then merging them.

``--executor slurm`` submits one SLURM job array through ``submitit.AutoExecutor``: one job per
shard, ``--exclusive`` so that no two benchmark jobs share a node (a neighbour's threads would
be in the timings), partition, time limit and array parallelism from the command line or the
sweep config's ``[cluster]`` table. ``--executor local`` runs the very same code path with
submitit's local executor: the jobs are real processes on this machine, started, watched and
collected the same way (they all run at once, so their times share this machine's cores:
the local executor exercises the path, a cluster gives the figures).

Each job runs :func:`run_shard_job`, which is exactly ``llpbench run ... --shard I/N --resume``:
its rows go to the shard's own run folder in the results folder, so a job that fails or is
killed keeps what it finished, and resubmitting that shard alone (``--only-shards I
--resume``, or ``llpbench run ... --shard I/N --resume`` anywhere) continues it. While the jobs
run, a progress bar counts jobs done and failed; then every shard folder present is merged
(:mod:`llpbench.bench.merge`) into one new run folder, marked incomplete if a shard is missing.
No scheduling happens here: submitit and SLURM decide what runs where and when.
"""

from __future__ import annotations

import time
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from llpbench import paths
from llpbench.bench.layout import new_run_id
from llpbench.bench.merge import MergeResult, merge_runs
from llpbench.bench.options import RunOptions
from llpbench.bench.shards import Shard, ShardPlan, make_plan
from llpbench.bench.spec import Sweep
from llpbench.errors import LlpbenchError, SpecError

EXECUTORS = ("local", "slurm")
DEFAULT_TIME_MIN = 24 * 60  # a job's time limit unless told: a day
_TABLE_KEYS = {"executor", "shards", "partition", "time", "array_parallelism", "slurm"}


@dataclass(frozen=True)
class ClusterOptions:
    """How to run a sweep's shards as jobs.

    ``time_min`` is each job's time limit in minutes; ``array_parallelism`` caps how many
    jobs of the array run at once (SLURM's ``%N``); ``slurm`` holds further ``sbatch`` options
    (``account``, ``qos``, ``constraint``, ...) by submitit's names; ``only`` submits just those
    shards (1-based), the others being already done or running.
    """

    executor: str
    shards: int
    partition: str | None = None
    time_min: int = DEFAULT_TIME_MIN
    array_parallelism: int | None = None
    slurm: dict[str, Any] = field(default_factory=dict)
    only: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.executor not in EXECUTORS:
            raise SpecError(f"unknown executor {self.executor!r}; known: {', '.join(EXECUTORS)}")
        for name in ("shards", "time_min", "array_parallelism"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise SpecError(f"{name.replace('_', '-')} must be an integer >= 1, got {value!r}")


def cluster_table(config: Path | None) -> dict[str, Any]:
    """The ``[cluster]`` table of a sweep config (``{}`` without one), its keys checked."""
    if config is None:
        return {}
    try:
        table = tomllib.loads(Path(config).read_text()).get("cluster", {})
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SpecError(f"{config}: cannot read its [cluster] table: {exc}") from None
    if not isinstance(table, dict) or (unknown := sorted(set(table) - _TABLE_KEYS)):
        raise SpecError(f"{config}: [cluster] has unknown keys {unknown}; known: "
                        f"{', '.join(sorted(_TABLE_KEYS))}")
    return table


def cluster_options(table: dict[str, Any], **flags: Any) -> ClusterOptions:
    """Options from the ``[cluster]`` table, each overridden by a flag given (not None)."""
    merged = {
        "executor": table.get("executor"),
        "shards": table.get("shards"),
        "partition": table.get("partition"),
        "time_min": table.get("time", DEFAULT_TIME_MIN),
        "array_parallelism": table.get("array_parallelism"),
        "slurm": dict(table.get("slurm") or {}),
    }
    merged.update({k: v for k, v in flags.items() if v is not None})
    if not merged["executor"]:
        raise SpecError("no executor: give --executor local|slurm (or executor in [cluster])")
    if merged["shards"] is None:
        raise SpecError("--executor needs the number of shards: --shards N "
                        "(or shards in the config's [cluster] table)")
    return ClusterOptions(**merged)


def require_submitit():
    """The submitit module, or one line saying how to install it."""
    try:
        import submitit
    except ImportError:
        raise LlpbenchError(
            "--executor needs submitit, which is not installed: pip install 'llpbench[cluster]'"
        ) from None
    return submitit


def make_executor(options: ClusterOptions, folder: Path):
    """A ``submitit.AutoExecutor`` for ``options`` (nothing is submitted yet)."""
    submitit = require_submitit()
    try:
        executor = submitit.AutoExecutor(folder=folder, cluster=options.executor)
    except RuntimeError as exc:  # e.g. no `srun` here: not a SLURM machine
        raise LlpbenchError(f"--executor {options.executor}: {exc}") from None
    params: dict[str, Any] = {
        "name": "llpbench",
        "timeout_min": options.time_min,
        "slurm_exclusive": True,  # no other job on a benchmark's node
        # Run in the batch step, which holds every CPU of the exclusive node; an srun step
        # would get --cpus-per-task (1 by default) and might be bound to that one core.
        "slurm_use_srun": False,
        "slurm_partition": options.partition,
        "slurm_array_parallelism": options.array_parallelism,
    }
    params.update({f"slurm_{k}": v for k, v in options.slurm.items()})
    try:
        executor.update_parameters(**params)
    except (NameError, AssertionError, TypeError, ValueError) as exc:
        raise SpecError(f"[cluster] options: {str(exc).splitlines()[0]}") from None
    return executor


def run_shard_job(sweep: Sweep, plan: ShardPlan, index: int, options: RunOptions) -> dict[str, Any]:
    """What one job runs: shard ``index`` of ``plan``, continued if it was started before,
    with the run's options (order, pin, cache, results folder) as given on the command line."""
    from llpbench.bench.session import run_sweep

    session = run_sweep(sweep, options.for_shard_job(), shard=Shard(plan, index))
    s = session.summary
    return {
        "index": index,
        "run_dir": str(session.store.run_dir),
        "rows_written": s.rows_written,
        "rows_skipped": s.rows_skipped,
        "seconds": session.seconds,
        "failures": s.failures,
    }


@dataclass
class ClusterRun:
    """What a run through an executor left: each shard's job result or failure, the merge."""

    plan: ShardPlan
    submitted: list[int]
    results: dict[int, dict[str, Any]] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)  # shard -> last line of its error
    logs: dict[int, str] = field(default_factory=dict)  # shard -> its job's stderr file
    merged: MergeResult | None = None

    @property
    def failures(self) -> list[str]:
        return [line for r in self.results.values() for line in r["failures"]]


def run_with_executor(
    sweep: Sweep,
    options: ClusterOptions,
    run_options: RunOptions,
    *,
    console: Console | None = None,
    poll_s: float = 1.0,
) -> ClusterRun:
    """Submit the shards as one job array, wait for them, merge every shard folder present.

    Each job gets ``run_options`` whole (see :meth:`RunOptions.for_shard_job`).

    Raises
    ------
    LlpbenchError
        Before submitting anything: shard folders of this plan already exist and ``resume``
        is false; submitit is missing; bad options. After: no shard folder to merge.
    """
    console = console or Console(stderr=True)
    plan = make_plan(sweep, options.shards)
    root = paths.results_dir(run_options.out)
    chosen = list(options.only or range(1, plan.count + 1))
    for i in chosen:
        plan.check_index(i)
    there = [i for i in chosen if (root / plan.folder_name(i)).exists()]
    if there and not run_options.resume:
        raise LlpbenchError(
            f"{root / plan.folder_name(there[0])} exists: add --resume to continue this "
            "sweep's shards, or give another --out"
        )
    root.mkdir(parents=True, exist_ok=True)
    executor = make_executor(options, root / ".submitit" / plan.plan_hash[:8])
    n = len(chosen)
    job_options = replace(run_options, out=root)
    jobs = executor.map_array(run_shard_job, [sweep] * n, [plan] * n, chosen, [job_options] * n)
    run = ClusterRun(plan, chosen)
    console.print(
        f"submitted {n} shard job(s) of plan {plan.plan_hash[:8]} to {options.executor}: "
        f"job array {jobs[0].job_id.split('_')[0] if jobs else '-'}"
    )
    try:
        _wait(jobs, chosen, run, console, run_options.progress, poll_s)
    except KeyboardInterrupt:
        if options.executor == "local":
            for job in jobs:
                job.cancel(check=False)
        else:
            console.print(f"the jobs keep running; merge later: llpbench merge "
                          f"{root}/shard-*-of-{plan.count}-{plan.plan_hash[:8]} --out DIR")
        raise
    # A failed job's folder may be what made it fail: it stays out of the merge (its rows
    # are kept for --resume); shards not submitted this time are merged as they are.
    present = [root / plan.folder_name(i) for i in range(1, plan.count + 1)
               if i not in run.failed]
    present = [p for p in present if p.is_dir()]
    if not present:
        raise LlpbenchError(f"every shard job failed before writing anything; shard "
                            f"{min(run.failed)}: {run.failed[min(run.failed)]}")
    run.merged = merge_runs(present, root / new_run_id(), allow_incomplete=True)
    return run


def _wait(jobs, chosen: list[int], run: ClusterRun, console: Console, progress: bool,
          poll_s: float) -> None:
    """Poll the jobs until all are done, counting them on a progress bar."""
    pending = dict(zip(chosen, jobs, strict=True))
    with Progress(
        TextColumn("[bold]shard jobs"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[state]}"), TimeElapsedColumn(),
        console=console, disable=not progress, transient=False,
    ) as bar:
        task = bar.add_task("jobs", total=len(jobs), state="")
        while pending:
            for index, job in list(pending.items()):
                if not job.done():
                    continue
                del pending[index]
                try:
                    run.results[index] = job.result()
                except Exception as exc:  # the job's own error, sent back by submitit
                    run.failed[index] = _last_line(exc)
                    run.logs[index] = str(job.paths.stderr)
                    console.print(f"[red]shard {index}/{run.plan.count} failed:[/red] "
                                  f"{run.failed[index]} (log: {run.logs[index]})")
                bar.advance(task)
            bar.update(task, state=f"{len(run.results)} done, {len(run.failed)} failed, "
                       f"{len(pending)} queued or running")
            if pending:
                time.sleep(poll_s)


def _last_line(exc: BaseException) -> str:
    """The job's own error line: submitit wraps the job's traceback between dashed rules."""
    text = str(exc)
    parts = text.split("-" * 22)
    if len(parts) >= 3:
        text = parts[1]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


def resubmit_hint(run: ClusterRun) -> str:
    """How to run the shards that are missing or unfinished again, alone."""
    merged = run.merged
    todo = sorted(set(run.failed) | set(merged.missing if merged else [])
                  | set(merged.incomplete if merged else []))
    return f"rerun the same command with --resume --only-shards {','.join(map(str, todo))}"

