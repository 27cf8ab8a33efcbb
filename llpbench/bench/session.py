"""A benchmarking session: create (or resume) a run, record its metadata, execute its cells
under a progress bar, and close the metadata, whatever way the session ends."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from llpbench import paths
from llpbench.baselines.delta.chooser import DeltaChooser
from llpbench.bench.machine import finish_machine_info, machine_info
from llpbench.bench.runner import Runner, RunSummary, group_cells
from llpbench.bench.shards import Shard
from llpbench.bench.spec import Sweep
from llpbench.bench.store import RunStore
from llpbench.errors import LlpbenchError
from llpbench.llp import placement
from llpbench.llp.runtime import SLOW_WORKLIST_ENV, slow_worklists


@dataclass
class Session:
    store: RunStore
    summary: RunSummary
    seconds: float


def run_sweep(
    sweep: Sweep,
    *,
    out: str | Path | None = None,
    resume: bool = False,
    cache_dir: str | Path | None = None,
    console: Console | None = None,
    progress: bool = True,
    shard: Shard | None = None,
    order: str = "interleaved",
    pin: bool = False,
) -> Session:
    """Run every missing solve of ``sweep`` into a run folder under ``out``.

    An interruption (Ctrl-C, an error, a full disk) leaves every finished row on disk and
    the metadata marked ``interrupted``; ``resume=True`` continues the latest run. With
    ``shard``, only that shard's cells run, into the shard's own folder under ``out``
    (``resume=True`` continues it, or starts it if it does not exist yet).
    ``order`` is ``interleaved`` or ``grouped`` (see :mod:`llpbench.bench.runner`); ``pin``
    pins each worker thread to one CPU (see :mod:`llpbench.llp.placement`). Both, and
    whether pinning could be applied, are recorded in ``meta.json``.
    """
    console = console or Console(stderr=True)
    slowed = slow_worklists()  # a malformed test setting fails before anything is written
    group_cells([], order)  # so does an unknown order
    root = paths.results_dir(out)
    if shard is not None:
        store = _shard_store(root, shard, resume)
    else:
        store = RunStore.resume(root) if resume else RunStore.create(root)
    meta = store.read_meta() if resume else {}
    if meta.get("merged_from"):
        raise LlpbenchError(
            f"{store.run_dir} was merged from shards: resume the shards "
            "(--shard I/N --resume) and merge them again"
        )
    meta.setdefault("run_id", store.run_dir.name)
    meta.setdefault("started", _now())
    meta.setdefault("sessions", []).append({"command": sys.argv, "started": _now()})
    meta.update(
        command=" ".join(sys.argv),
        sweep=sweep.to_dict(),
        seeds={s.problem: s.seed for s in sweep.studies},
        machine=machine_info(paths.repo_root()),
        order=order,
        pinning={"requested": pin},
        status="running",
    )
    if shard is not None:
        meta["shard"] = shard.record()
    if slowed:
        meta["test_settings"] = {SLOW_WORKLIST_ENV: slowed}
        console.print(f"[yellow]warning:[/yellow] {SLOW_WORKLIST_ENV} is set: solves over "
                      f"{', '.join(f'{k} +{v:g} s' for k, v in slowed.items())} (test only)")
    store.write_meta(meta)
    deltas = DeltaChooser(Path(cache_dir) if cache_dir else None, console=console)
    runner = Runner(sweep, store, cache_dir=Path(cache_dir) if cache_dir else None,
                    delta_for=deltas, only=shard.cells if shard is not None else None)
    summary = RunSummary()
    t0 = time.perf_counter()
    status = "interrupted"
    with placement.pinning(pin):
        try:
            _run(sweep, runner, deltas, store, summary, console, progress, order)
            status = "finished"
        finally:
            meta["pinning"] = placement.report()
            meta["machine"] = finish_machine_info(meta["machine"])
            meta["status"] = status
            meta["finished"] = _now()
            meta["deltas"] = deltas.used
            meta["sessions"][-1].update(finished=_now(), status=status,
                                        rows=summary.rows_written,
                                        seconds=round(time.perf_counter() - t0, 3))
            store.write_meta(meta)
    return Session(store, summary, time.perf_counter() - t0)


def _run(sweep, runner, deltas, store, summary, console, progress, order) -> None:
    """Every pending solve, group by group, under a progress bar."""
    todo = runner.pending()
    total = sum(len(reps) for _, reps in todo)
    summary.rows_skipped = store.count_rows()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        disable=not progress,
        transient=False,
    ) as bar:
        task = bar.add_task("sweep", total=total)

        def advance(cell) -> None:
            summary.rows_written += 1
            bar.update(task, advance=1, description=cell.label)

        for group in group_cells(todo, order):
            bar.update(task, description=group[0][0].label)
            summary.failures += runner.run_group(group, advance)
        bar.update(task, description="done")


def _shard_store(root: Path, shard: Shard, resume: bool) -> RunStore:
    """The shard's run folder: ``root/shard-I-of-N-<plan>``, created, or continued with
    ``resume`` (a folder left by another plan under that name is refused)."""
    run_dir = root / shard.folder_name
    if not run_dir.exists():
        return RunStore.create(root, shard.folder_name, latest=False)
    if not resume:
        raise LlpbenchError(
            f"{run_dir} exists: add --resume to continue shard {shard.label}, "
            "or give another --out"
        )
    store = RunStore.open(run_dir)
    recorded = store.read_meta().get("shard") or {}
    if recorded.get("plan_hash") not in (None, shard.plan.plan_hash):
        raise LlpbenchError(f"{run_dir} holds a shard of another plan: give another --out")
    return store


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
