"""`llpbench run` and `llpbench reproduce`: parse flags, build the sweep, delegate."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import typer
from rich.console import Console

from llpbench import paths
from llpbench.bench.options import RunOptions
from llpbench.cli.flag_groups import takes
from llpbench.cli.lists import split_ints, split_list
from llpbench.cli.options import RUNNING
from llpbench.cli.output import run_and_report
from llpbench.cli.reading import READING
from llpbench.errors import SpecError
from llpbench.graphs.format_table import files_help
from llpbench.graphs.read_options import ReadOptions
from llpbench.llp.solvers import solver_names
from llpbench.llp.worklists import worklist_names
from llpbench.problems import problem_names

GAP_BIN = typer.Option(
    None, "--gap-bin",
    help="GAP build folder (sssp, converter) for --baseline gap [$LLPBENCH_GAP_BIN].",
)
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


@takes(running=RUNNING, reading=READING)
def run_command(
    graph: list[str] = typer.Option(
        None, "--graph", "-g",
        help=f"Graph names or paths ({files_help()}): a,b or repeat the flag.",
    ),
    problem: str = typer.Option("sssp", "--problem", "-p", help=f"{problem_names()}."),
    size: list[str] = typer.Option(
        None, "--size", help="Instance sizes, generated problems: 64,128 or repeat."
    ),
    solver: list[str] = typer.Option(None, "--solver", help=f"{solver_names()}: a,b or repeat."),
    worklist: list[str] = typer.Option(
        None, "--worklist", help=f"{worklist_names()}: ptwb,swb or repeat the flag."
    ),
    baseline: list[str] = typer.Option(
        None, "--baseline", help="Baselines by name (a,b or repeat): another of the problem's "
        "own, or a peer (networkit, graphblas) [the problem's default]."
    ),
    no_baseline: bool = typer.Option(False, "--no-baseline", help="Time no baseline."),
    variant: str = typer.Option(
        None, "--variant", help="Instance family (stable-marriage identical, job-scheduling "
        "layered, reduction signed) [the problem's first]."
    ),
    threads: list[str] = typer.Option(
        None, "--threads", "-t", help="1..32 (doubling), 1-4, 1,2,3 or repeat [1]."
    ),
    sources: int = typer.Option(None, "--sources", help="Fixed-seed sources (instances) [1]."),
    reps: int = typer.Option(None, "--reps", help="Timed repetitions per cell [3]."),
    seed: int = typer.Option(None, "--seed", help="Seed of sources and instances [42]."),
    delta: float = typer.Option(None, "--delta", help="Δ in weight units, for Δ-stepping "
                              "and the level worklists' width (default: tuned)."),
    config: str = typer.Option(None, "--config", help="A TOML sweep (configs/*.toml)."),
    verify: bool = typer.Option(True, "--verify/--no-verify", help="Check every answer."),
    gap_bin: Path = GAP_BIN,
    *,
    running: RunOptions,
    reading: ReadOptions,
) -> None:
    """Run a benchmark sweep: every configuration x thread count x source, verified.

    ``--resume`` alone continues the latest run's own sweep; with flags, they must give
    that same sweep (the first field that differs is named otherwise).
    """
    from llpbench.bench.spec import (
        Sweep,
        check_value,
        configs_from_flags,
        make_study,
        with_baselines,
        with_overrides,
        with_reading,
        with_variant,
    )

    options = replace(running, config=find_config(config) if config else None)
    thread_counts = tuple(_threads(threads)) if threads else None  # bad spec: fail first
    for flag, value in (("--reps", reps), ("--sources", sources), ("--seed", seed),
                        ("--delta", delta)):
        if value is not None:  # None: not given (0 is a value, and refused)
            check_value(flag, value)
    use_gap_bin(gap_bin)
    graph, solver, worklist = split_list(graph), split_list(solver), split_list(worklist)
    sizes = split_ints(size, "--size")
    base = _base_sweep(options, graph or sizes)
    if base is not None:
        sweep = with_overrides(
            base,
            threads=thread_counts,
            reps=reps,
            sources=sources,
            seed=seed,
            delta=delta,
        )
        sweep = with_reading(sweep, reading)
        sweep = with_variant(with_baselines(sweep, baseline, keep=not no_baseline), variant)
        if not verify:
            sweep = Sweep(sweep.studies, verify=False, name=sweep.name)
    else:
        if not graph and not sizes:
            raise SpecError("nothing to run: give --graph NAME (or --size N, or --config FILE)")
        study = make_study(
            problem=problem,
            graphs=graph,
            sizes=sizes,
            configs=configs_from_flags(solver, worklist, not no_baseline, split_list(baseline)),
            threads=list(thread_counts or (1,)),
            sources=1 if sources is None else sources,
            reps=3 if reps is None else reps,
            seed=42 if seed is None else seed,
            delta=delta,
            read=reading,
            variant=variant,
        )
        sweep = Sweep((study,), verify=verify)
    if options.sharded:
        from llpbench.cli.cluster import run_sharded

        run_sharded(sweep, options)
        return
    run_and_report(sweep, options)


def _base_sweep(options, inputs_named: bool):
    """The sweep that flags modify: the ``--config`` file's, or, for ``--resume`` naming no
    graph or size, the latest run's own; None when the flags alone make the sweep."""
    from llpbench.bench.spec import load_sweep

    if options.config is not None:
        return load_sweep(options.config)
    if options.resume and not inputs_named and not options.sharded:
        from llpbench.bench.session import recorded_sweep

        return recorded_sweep(options.out)
    return None


def use_gap_bin(gap_bin: Path | None) -> None:
    """``--gap-bin``: name the GAP build for this process and the shard jobs it starts (they
    inherit the environment), where ``baseline/gap`` looks for it."""
    if gap_bin is not None:
        import os

        from llpbench.baselines.gap_baseline import GAP_BIN_ENV

        os.environ[GAP_BIN_ENV] = str(gap_bin.expanduser().resolve())


def _threads(spec: list[str]) -> list[int]:
    from llpbench.bench.spec import parse_threads

    return parse_threads(",".join(spec))


@takes(running=RUNNING.subset("out", "resume", "cache_dir", "progress", "order", "pin"))
def reproduce_command(
    config: str = typer.Option("smoke", "--config", help="A sweep config [configs/smoke.toml]."),
    gap_bin: Path = GAP_BIN,
    *,
    running: RunOptions,
) -> None:
    """Run a whole evaluation from a config and write every table, figure and report.html."""
    from llpbench.bench.spec import load_sweep
    from llpbench.report import write_all_reports
    from llpbench.report.html import write_report

    options = running
    use_gap_bin(gap_bin)
    sweep = load_sweep(find_config(config))
    run_dir = run_and_report(sweep, options)
    console = Console()
    for path in [*write_all_reports(run_dir), write_report(run_dir)]:
        console.print(f"wrote {path}", soft_wrap=True)  # a path stays one line
