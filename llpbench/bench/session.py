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
from llpbench.bench.layout import META
from llpbench.bench.machine import finish_machine_info, machine_info
from llpbench.bench.options import RunOptions
from llpbench.bench.plan import plan_hash
from llpbench.bench.runner import Runner, RunSummary, group_cells
from llpbench.bench.schema import SCHEMA_VERSION
from llpbench.bench.shards import Shard
from llpbench.bench.spec import Sweep
from llpbench.bench.store import (
    DISK_FULL_ENV,
    RunStore,
    StoreWriteError,
    disk_full_after,
    resolve_latest,
)
from llpbench.errors import LlpbenchError, SpecError
from llpbench.graphs.limits import peak_rss_bytes
from llpbench.llp import placement
from llpbench.llp.runtime import SLOW_WORKLIST_ENV, slow_worklists
from llpbench.phases import shown_by
from llpbench.problems.tuned import TunedParams


@dataclass
class Session:
    store: RunStore
    summary: RunSummary
    seconds: float


def run_sweep(
    sweep: Sweep,
    options: RunOptions | None = None,
    *,
    shard: Shard | None = None,
    console: Console | None = None,
) -> Session:
    """Run every missing solve of ``sweep`` into a run folder under ``options.out``.

    An interruption (Ctrl-C, an error) leaves every finished row on disk and the metadata
    marked ``interrupted``; a failed write (a full disk) keeps the rows before it and marks
    it ``failed``; a new run that ends before its first row leaves no folder behind.
    ``options.resume`` continues the latest run, whose recorded sweep must be ``sweep``.
    With ``shard``, only that shard's cells run, into the shard's own folder under ``out``
    (``resume`` continues it, or starts it if it does not exist yet). ``options.order`` and
    ``options.pin`` (and whether pinning could be applied) are recorded in ``meta.json``.
    One session writes a run at a time: it holds the run's lock until it returns.

    Raises
    ------
    SpecError
        With ``resume``, if ``sweep`` differs from the run's (the first differing field named).
    RunBusyError
        If another session is writing the run.
    StoreWriteError
        If a row or the metadata cannot be written (the file and the rows kept named).
    """
    options = options or RunOptions()
    console = console or Console(stderr=True)
    slowed = slow_worklists()  # a malformed test setting fails before anything is written
    disk_full_after()  # so does this one
    root = paths.results_dir(options.out)
    if shard is not None:
        store = _shard_store(root, shard, options.resume)
    else:
        store = RunStore.resume(root) if options.resume else RunStore.create(root)
    with store:
        try:
            meta = _begin(store, sweep, options, shard, slowed, console)
        except BaseException:
            store.discard()
            raise
        return _execute(store, meta, sweep, options, shard, console)


def recorded_sweep(out: str | Path | None = None) -> Sweep:
    """The sweep of the latest run under ``out``: what a bare ``run --resume`` continues.

    Raises
    ------
    LlpbenchError
        If there is no run to resume, or it records no sweep this version can read.
    """
    root = paths.results_dir(out)
    run_dir = resolve_latest(root)
    if run_dir is None:
        raise LlpbenchError(f"nothing to resume: no run in {root} (run without --resume)")
    meta = RunStore(run_dir).read_meta()
    _refuse_merged(run_dir, meta)
    if not isinstance(meta.get("sweep"), dict):
        raise LlpbenchError(f"{run_dir / META} records no sweep: give the run's sweep "
                            "(its flags or --config) with --resume")
    try:
        return Sweep.from_dict(meta["sweep"])
    except SpecError as exc:
        raise LlpbenchError(f"{run_dir / META}: {exc}; give the run's flags with --resume") \
            from None


def _refuse_merged(run_dir: Path, meta: dict) -> None:
    if meta.get("merged_from"):
        raise LlpbenchError(
            f"{run_dir} was merged from shards: resume the shards "
            "(--shard I/N --resume) and merge them again"
        )


def _begin(store: RunStore, sweep: Sweep, options: RunOptions, shard: Shard | None,
           slowed: dict, console: Console) -> dict:
    """Check a resumed run's sweep against ``sweep``, then record this session in meta.json."""
    meta = store.read_meta()
    _refuse_merged(store.run_dir, meta)
    if shard is None and isinstance(meta.get("sweep"), dict):
        try:
            differs = Sweep.from_dict(meta["sweep"]).difference(sweep)
        except SpecError:
            differs = "the recorded sweep is unreadable by this version"
        if differs:
            raise SpecError(f"--resume: {differs}; start a new run (without --resume) "
                            "or another --out")
    meta.setdefault("run_id", store.run_dir.name)
    meta.setdefault("started", _now())
    meta.setdefault("sessions", []).append({"command": sys.argv, "started": _now()})
    meta.update(
        command=" ".join(sys.argv),
        sweep=sweep.to_dict(),
        plan_hash=plan_hash(sweep),
        seeds={s.problem: s.seed for s in sweep.studies},
        machine=machine_info(paths.repo_root()),
        order=options.order,
        pinning={"requested": options.pin},
        status="running",
        schema=SCHEMA_VERSION,  # runs.csv's columns (llpbench.bench.schema)
    )
    if shard is not None:
        meta["shard"] = shard.record()
    settings = {k: v for k, v in ((SLOW_WORKLIST_ENV, slowed),
                                  (DISK_FULL_ENV, disk_full_after())) if v not in (None, {})}
    if settings:
        meta["test_settings"] = settings
    if slowed:
        console.print(f"[yellow]warning:[/yellow] {SLOW_WORKLIST_ENV} is set: solves over "
                      f"{', '.join(f'{k} +{v:g} s' for k, v in slowed.items())} (test only)")
    store.write_meta(meta)
    return meta


def _execute(store: RunStore, meta: dict, sweep: Sweep, options: RunOptions,
             shard: Shard | None, console: Console) -> Session:
    """Run the pending solves; close the metadata whatever way that ends."""
    cache_dir = Path(options.cache_dir) if options.cache_dir else None
    deltas = TunedParams(cache_dir, say=console.print)
    runner = Runner(sweep, store, cache_dir=cache_dir, tuned=deltas,
                    only=shard.cells if shard is not None else None)
    summary = RunSummary()
    t0 = time.perf_counter()
    status = "interrupted"
    with placement.pinning(options.pin):
        try:
            _run(sweep, runner, deltas, store, summary, console, options.progress,
                 options.order)
            status = "finished"
        except Exception:
            status = "failed"
            raise
        finally:
            if store.created and store.rows == 0 and status != "finished":
                store.discard()  # nothing measured: leave nothing behind
            else:
                meta["pinning"] = placement.report()
                meta["machine"] = finish_machine_info(meta["machine"])
                meta["status"] = status
                meta["finished"] = _now()
                meta["deltas"] = deltas.used
                meta["sessions"][-1].update(finished=_now(), status=status,
                                            rows=summary.rows_written,
                                            seconds=round(time.perf_counter() - t0, 3),
                                            peak_rss_bytes=peak_rss_bytes())
                _close_meta(store, meta)
    return Session(store, summary, time.perf_counter() - t0)


def _close_meta(store: RunStore, meta: dict) -> None:
    """Write the session's end; a finished session whose end cannot be written failed."""
    if meta["status"] != "finished":
        store.save_meta_best_effort(meta)  # an error is already on its way out
        return
    try:
        store.write_meta(meta)
    except StoreWriteError:
        meta["status"] = "failed"
        store.save_meta_best_effort(meta)
        raise


def _run(sweep, runner, deltas, store, summary, console, progress, order) -> None:
    """Every pending solve, group by group, under a progress bar whose text names the cell,
    or the set-up phase running for it (reading the graph, the reference answer, ...:
    :mod:`llpbench.phases`) with the elapsed time ticking."""
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
        label = ["sweep"]  # the cell running; a set-up phase is shown over it while it runs

        def advance(cell) -> None:
            summary.rows_written += 1
            label[0] = cell.label
            bar.update(task, advance=1, description=cell.label)

        def show(phase_label: str | None) -> None:
            bar.update(task, description=phase_label or label[0])

        with shown_by(show):
            for group in group_cells(todo, order):
                label[0] = group[0][0].label
                bar.update(task, description=label[0])
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
    recorded = RunStore(run_dir).read_meta().get("shard") or {}
    if recorded.get("plan_hash") not in (None, shard.plan.plan_hash):
        raise LlpbenchError(f"{run_dir} holds a shard of another plan: give another --out")
    return RunStore.open(run_dir)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
