"""`llpbench run` and `llpbench reproduce`: parse flags, build the sweep, delegate."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from llpbench import paths
from llpbench.cli.lists import split_ints, split_list
from llpbench.cli.options import CACHE_DIR, OUT, PROGRESS, RESUME
from llpbench.cli.output import run_and_report
from llpbench.cli.reading import (
    COMPACT,
    DIRECTED,
    INDEX_BASE,
    MAX_MEMORY,
    WEIGHTS,
    read_options,
)
from llpbench.errors import SpecError

ORDER = typer.Option(
    "interleaved", "--order",
    help="interleaved: repetitions alternate across the configurations of one instance and "
    "thread count (A B A B), against slow drift; grouped: each configuration's back to back.",
)
GAP_BIN = typer.Option(
    None, "--gap-bin",
    help="GAP build folder (sssp, converter) for --baseline gap [$LLPBENCH_GAP_BIN].",
)
PIN = typer.Option(
    False, "--pin/--no-pin",
    help="Pin each worker thread to one CPU of the affinity set (recorded in meta.json).",
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


def run_command(
    graph: list[str] = typer.Option(
        None, "--graph", "-g", help="Graph names or paths: a,b or repeat the flag."
    ),
    problem: str = typer.Option("sssp", "--problem", "-p", help="Problem to solve."),
    size: list[str] = typer.Option(
        None, "--size", help="Instance sizes, generated problems: 64,128 or repeat."
    ),
    solver: list[str] = typer.Option(None, "--solver", help="LLP solvers: a,b or repeat."),
    worklist: list[str] = typer.Option(
        None, "--worklist", help="Worklists: ptwb,swb or repeat the flag."
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
    delta: float = typer.Option(None, "--delta", help="Δ for Δ-stepping (default: tuned)."),
    config: str = typer.Option(None, "--config", help="A TOML sweep (configs/*.toml)."),
    out: Path | None = OUT,
    verify: bool = typer.Option(True, "--verify/--no-verify", help="Check every answer."),
    resume: bool = RESUME,
    cache_dir: Path | None = CACHE_DIR,
    progress: bool = PROGRESS,
    directed: bool = DIRECTED,
    index_base: str = INDEX_BASE,
    weights: str = WEIGHTS,
    compact: bool = COMPACT,
    max_memory: str = MAX_MEMORY,
    shard: str = typer.Option(None, "--shard", help="Run only shard I of N: I/N, from 1."),
    executor: str = typer.Option(None, "--executor", help="Run shards as jobs: local, slurm."),
    shards: int = typer.Option(None, "--shards", help="Number of shards (jobs), --executor."),
    only_shards: str = typer.Option(None, "--only-shards", help="Submit only these: 2,3."),
    partition: str = typer.Option(None, "--partition", help="SLURM partition."),
    time_min: int = typer.Option(None, "--time", help="Job time limit, minutes [1440]."),
    array_parallelism: int = typer.Option(None, "--array-parallelism", help="Jobs at once."),
    order: str = ORDER,
    pin: bool = PIN,
    gap_bin: Path = GAP_BIN,
) -> None:
    """Run a benchmark sweep: every configuration x thread count x source, verified.

    ``--resume`` alone continues the latest run's own sweep; with flags, they must give
    that same sweep (the first field that differs is named otherwise).
    """
    from llpbench.bench.options import RunOptions
    from llpbench.bench.spec import (
        Sweep,
        check_value,
        configs_from_flags,
        make_study,
        with_baselines,
        with_overrides,
        with_variant,
    )

    options = RunOptions(
        out=out, resume=resume, cache_dir=cache_dir, progress=progress, order=order, pin=pin,
        shard=shard, executor=executor, shards=shards, only_shards=only_shards,
        partition=partition, time_min=time_min, array_parallelism=array_parallelism,
        config=find_config(config) if config else None,
    )
    thread_counts = tuple(_threads(threads)) if threads else None  # bad spec: fail first
    for flag, value in (("--reps", reps), ("--sources", sources), ("--seed", seed),
                        ("--delta", delta)):
        if value is not None:  # None: not given (0 is a value, and refused)
            check_value(flag, value)
    use_gap_bin(gap_bin)
    reading = read_options(directed, index_base, weights, compact, max_memory)
    read_fields = {
        "directed": reading.directed,
        "index_base": reading.index_base if reading.index_base != "auto" else None,
        "weights": reading.weights,
        "compact": reading.compact or None,
    }
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
            **read_fields,
        )
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
            directed=reading.directed,
            index_base=reading.index_base,
            weights=reading.weights,
            compact=reading.compact,
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


def reproduce_command(
    config: str = typer.Option("smoke", "--config", help="A sweep config [configs/smoke.toml]."),
    out: Path | None = OUT,
    resume: bool = RESUME,
    cache_dir: Path | None = CACHE_DIR,
    progress: bool = PROGRESS,
    order: str = ORDER,
    pin: bool = PIN,
    gap_bin: Path = GAP_BIN,
) -> None:
    """Run a whole evaluation from a config and write every table, figure and report.html."""
    from llpbench.bench.options import RunOptions
    from llpbench.bench.spec import load_sweep
    from llpbench.report import write_all_reports
    from llpbench.report.html import write_report

    options = RunOptions(out=out, resume=resume, cache_dir=cache_dir, progress=progress,
                         order=order, pin=pin)
    use_gap_bin(gap_bin)
    sweep = load_sweep(find_config(config))
    run_dir = run_and_report(sweep, options)
    console = Console()
    for path in [*write_all_reports(run_dir), write_report(run_dir)]:
        console.print(f"wrote {path}", soft_wrap=True)  # a path stays one line
