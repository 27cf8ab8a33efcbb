"""`llpbench run` and `llpbench reproduce`: parse flags, build the sweep, delegate."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from llpbench import paths
from llpbench.cli.reading import DIRECTED, INDEX_BASE, WEIGHTS, read_options
from llpbench.errors import SpecError, VerificationError


def register(app: typer.Typer) -> None:
    app.command("run")(run_command)
    app.command("reproduce")(reproduce_command)


def find_config(name: str | Path) -> Path:
    """A config file by path, or by name in the configs folder (``paper``, ``smoke.toml``)."""
    path = Path(name)
    if path.is_file():
        return path
    for candidate in (paths.config_dir() / path.name, paths.config_dir() / f"{path.name}.toml"):
        if candidate.is_file():
            return candidate
    raise SpecError(f"no such config file: {name} (looked in . and {paths.config_dir()})")


def run_command(
    graph: list[str] = typer.Option(None, "--graph", "-g", help="Graph name or path (repeat)."),
    problem: str = typer.Option("sssp", "--problem", "-p", help="Problem to solve."),
    size: list[int] = typer.Option(None, "--size", help="Instance size, generated problems."),
    solver: list[str] = typer.Option(None, "--solver", help="LLP solver (repeat)."),
    worklist: list[str] = typer.Option(None, "--worklist", help="Worklist (repeat)."),
    baseline: list[str] = typer.Option(
        None, "--baseline", help="Baseline by name (repeat): another of the problem's own, or a "
        "peer (networkit, graphblas) [the problem's default]."
    ),
    no_baseline: bool = typer.Option(False, "--no-baseline", help="Time no baseline."),
    variant: str = typer.Option(
        None, "--variant", help="Instance family (stable-marriage identical, job-scheduling "
        "layered, reduction signed) [the problem's first]."
    ),
    threads: str = typer.Option(None, "--threads", "-t", help="1..32, 1-4 or 1,2,3 [1]."),
    sources: int = typer.Option(None, "--sources", help="Fixed-seed sources (instances) [1]."),
    reps: int = typer.Option(None, "--reps", help="Timed repetitions per cell [3]."),
    seed: int = typer.Option(None, "--seed", help="Seed of sources and instances [42]."),
    delta: float = typer.Option(None, "--delta", help="Δ for Δ-stepping (default: tuned)."),
    config: str = typer.Option(None, "--config", help="A TOML sweep (configs/*.toml)."),
    out: Path = typer.Option(None, "--out", help="Results folder [results/]."),
    verify: bool = typer.Option(True, "--verify/--no-verify", help="Check every answer."),
    resume: bool = typer.Option(False, "--resume", help="Continue the latest run."),
    cache_dir: Path = typer.Option(None, "--cache-dir", help="Dataset cache folder."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
    directed: bool = DIRECTED,
    index_base: str = INDEX_BASE,
    weights: str = WEIGHTS,
) -> None:
    """Run a benchmark sweep: every configuration x thread count x source, verified."""
    from llpbench.bench.spec import (
        Sweep,
        configs_from_flags,
        load_sweep,
        make_study,
        with_baselines,
        with_overrides,
        with_variant,
    )

    thread_counts = tuple(_threads(threads)) if threads else None  # bad spec: fail first
    reading = read_options(directed, index_base, weights)
    read_fields = {
        "directed": reading.directed,
        "index_base": reading.index_base if reading.index_base != "auto" else None,
        "weights": reading.weights,
    }
    if config:
        sweep = load_sweep(find_config(config))
        sweep = with_overrides(
            sweep,
            threads=thread_counts,
            reps=reps,
            sources=sources,
            seed=seed,
            delta=delta,
            **read_fields,
        )
        sweep = with_variant(with_baselines(sweep, baseline, keep=not no_baseline), variant)
        if not verify:
            sweep = Sweep(sweep.studies, verify=False, name=sweep.name)
    else:
        if not graph and not size:
            raise SpecError("nothing to run: give --graph NAME (or --size N, or --config FILE)")
        study = make_study(
            problem=problem,
            graphs=graph or [],
            sizes=size or [],
            configs=configs_from_flags(solver, worklist, not no_baseline, baseline),
            threads=list(thread_counts or (1,)),
            sources=sources or 1,
            reps=reps or 3,
            seed=42 if seed is None else seed,
            delta=delta,
            directed=reading.directed,
            index_base=reading.index_base,
            weights=reading.weights,
            variant=variant,
        )
        sweep = Sweep((study,), verify=verify)
    _execute(sweep, out=out, resume=resume, cache_dir=cache_dir, progress=progress)


def _threads(spec: str) -> list[int]:
    from llpbench.bench.spec import parse_threads

    return parse_threads(spec)


def _execute(sweep, *, out, resume, cache_dir, progress) -> Path:
    from llpbench.bench.session import run_sweep

    console = Console()
    session = run_sweep(
        sweep, out=out, resume=resume, cache_dir=cache_dir, progress=progress
    )
    s = session.summary
    console.print(
        f"{s.rows_written} solves timed in {session.seconds:.1f} s "
        f"({s.rows_skipped} rows were already stored) -> {session.store.runs_path}"
    )
    _print_summary(session.store.run_dir, console)
    if s.failures:
        for line in s.failures[:10]:
            console.print(f"[red]verification failed:[/red] {line}")
        raise VerificationError(f"{len(s.failures)} solve(s) failed verification")
    return session.store.run_dir


def _print_summary(run_dir: Path, console: Console) -> None:
    """Per graph: best LLP configuration, the baseline, the speedup (Table 2's shape)."""
    from llpbench.report.store import load_runs
    from llpbench.report.tables import problems_table, speedup_table, to_rich

    runs = load_runs(run_dir)
    for build, title in (
        (speedup_table, "Summary: fastest LLP configuration vs tuned Δ-stepping"),
        (problems_table, "Summary: fastest LLP configuration vs each problem's baseline"),
    ):
        table = build(runs)
        if len(table):
            console.print(to_rich(table, title))


def reproduce_command(
    config: str = typer.Option("smoke", "--config", help="A sweep config [configs/smoke.toml]."),
    out: Path = typer.Option(None, "--out", help="Results folder [results/]."),
    resume: bool = typer.Option(False, "--resume", help="Continue the latest run."),
    cache_dir: Path = typer.Option(None, "--cache-dir", help="Dataset cache folder."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
) -> None:
    """Run a whole evaluation from a config and write every table and figure."""
    from llpbench.bench.spec import load_sweep
    from llpbench.report import write_all_reports

    sweep = load_sweep(find_config(config))
    run_dir = _execute(sweep, out=out, resume=resume, cache_dir=cache_dir, progress=progress)
    console = Console()
    for path in write_all_reports(run_dir):
        console.print(f"wrote {path}")
