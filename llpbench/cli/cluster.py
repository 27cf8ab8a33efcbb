"""`llpbench merge`, and `llpbench run`'s sharded ways (``--shard I/N``, ``--executor``):
parse, delegate to :mod:`llpbench.bench.shards`, :mod:`~llpbench.bench.cluster` and
:mod:`~llpbench.bench.merge`, print what came back."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from llpbench.errors import LlpbenchError, SpecError


def register(app: typer.Typer) -> None:
    app.command("merge")(merge_command)


def merge_command(
    run_dirs: list[Path] = typer.Argument(
        ..., help="Shard run folders, or folders holding them (a results folder).",
        show_default=False,
    ),
    out: Path = typer.Option(..., "--out", help="The merged run folder to create."),
    allow_incomplete: bool = typer.Option(
        False, "--allow-incomplete",
        help="Merge even with shards missing or unfinished; the run is marked incomplete.",
    ),
) -> None:
    """Merge the run folders of a sharded sweep into one run folder."""
    from llpbench.bench.merge import merge_runs

    result = merge_runs(run_dirs, out, allow_incomplete=allow_incomplete)
    _report_merge(result, Console())


def _report_merge(result, console: Console) -> None:
    table = Table(title=f"Shards of plan {result.shards[0].shard['plan_hash'][:8]}")
    for name in ("shard", "host", "rows", "expected", "seconds", "status"):
        table.add_column(name, justify="right" if name in ("rows", "expected", "seconds")
                         else "left")
    for s in result.shards:
        info = s.summary()
        table.add_row(f"{s.index}/{result.count}", str(info["hostname"]), str(info["rows"]),
                      str(info["rows_expected"]), f"{info['seconds']:.1f}", str(info["status"]))
    console.print(table)
    console.print(f"merged {result.rows} rows of {len(result.shards)} shard(s) -> "
                  f"{result.run_dir / 'runs.csv'}")
    if not result.complete:
        console.print(f"[yellow]incomplete:[/yellow] {result.gaps()} (meta.json says so)")


def run_sharded(sweep, options) -> None:
    """``llpbench run --shard I/N`` here, or every shard as a job of ``--executor``;
    ``options`` (a :class:`~llpbench.bench.options.RunOptions`) travels whole to each."""
    from llpbench.bench.shards import Shard, make_plan, parse_shard, parse_shard_list
    from llpbench.cli.output import print_summary, raise_on_failures, run_and_report

    if options.shard:
        if options.submits_jobs:
            raise SpecError("--shard runs one shard here; --executor, --shards and "
                            "--only-shards submit jobs: give one or the other")
        index, count = parse_shard(options.shard)
        run_and_report(sweep, options, shard=Shard(make_plan(sweep, count), index))
        return
    from llpbench.bench.cluster import (
        cluster_options,
        cluster_table,
        resubmit_hint,
        run_with_executor,
    )

    cluster = cluster_options(
        cluster_table(options.config), executor=options.executor, shards=options.shards,
        partition=options.partition, time_min=options.time_min,
        array_parallelism=options.array_parallelism,
    )
    if options.only_shards:
        cluster = replace(cluster, only=tuple(parse_shard_list(options.only_shards,
                                                               cluster.shards)))
    console = Console()
    run = run_with_executor(sweep, cluster, options, console=console)
    assert run.merged is not None
    _report_merge(run.merged, console)
    print_summary(run.merged.run_dir, console)
    if run.failed or not run.merged.complete:
        raise LlpbenchError(
            f"{len(run.failed)} shard job(s) failed, {run.merged.run_dir} is incomplete: "
            f"{resubmit_hint(run)}"
        )
    raise_on_failures(run.failures, console)
