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
from llpbench.bench.deltas import DeltaChooser
from llpbench.bench.machine import machine_info
from llpbench.bench.runner import Runner, RunSummary
from llpbench.bench.spec import Sweep
from llpbench.bench.store import RunStore


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
) -> Session:
    """Run every missing solve of ``sweep`` into a run folder under ``out``.

    An interruption (Ctrl-C, an error, a full disk) leaves every finished row on disk and
    the metadata marked ``interrupted``; ``resume=True`` continues the latest run.
    """
    console = console or Console(stderr=True)
    root = paths.results_dir(out)
    store = RunStore.resume(root) if resume else RunStore.create(root)
    meta = store.read_meta() if resume else {}
    meta.setdefault("run_id", store.run_dir.name)
    meta.setdefault("started", _now())
    meta.setdefault("sessions", []).append({"command": sys.argv, "started": _now()})
    meta.update(
        command=" ".join(sys.argv),
        sweep=sweep.to_dict(),
        seeds={s.problem: s.seed for s in sweep.studies},
        machine=machine_info(paths.repo_root()),
        status="running",
    )
    store.write_meta(meta)
    deltas = DeltaChooser(Path(cache_dir) if cache_dir else None, console=console)
    runner = Runner(sweep, store, cache_dir=Path(cache_dir) if cache_dir else None,
                    delta_for=deltas)
    summary = RunSummary()
    t0 = time.perf_counter()
    status = "interrupted"
    try:
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

            def advance() -> None:
                summary.rows_written += 1
                bar.advance(task)

            for cell, reps in todo:
                bar.update(task, description=cell.label)
                summary.failures += runner.run_cell(cell, reps, advance)
            bar.update(task, description="done")
        status = "finished"
    finally:
        meta["status"] = status
        meta["finished"] = _now()
        meta["deltas"] = deltas.used
        meta["sessions"][-1].update(finished=_now(), status=status,
                                    rows=summary.rows_written)
        store.write_meta(meta)
    return Session(store, summary, time.perf_counter() - t0)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
