"""`llpbench tune-delta`: sweep Δ for the Δ-stepping baseline on one graph and show the grid.

Thin over :func:`llpbench.baselines.delta_tuning.tune_delta`; ``--save FILE`` records the
winner for the graph's family with :func:`~llpbench.baselines.delta_tuning.save_tuned`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from llpbench.cli.lists import split_ints
from llpbench.cli.reading import DIRECTED, INDEX_BASE, WEIGHTS, read_options
from llpbench.errors import SpecError


def register(app: typer.Typer) -> None:
    """Add the ``tune-delta`` command to the ``llpbench`` app."""
    app.command("tune-delta")(tune_delta_command)


def tune_delta_command(
    graph: str = typer.Option(
        ..., "--graph", "-g", help="Registry name, rule name (kron-2e17) or graph file."
    ),
    threads: int = typer.Option(1, "--threads", "-t", min=1, help="Worker threads."),
    reps: int = typer.Option(3, "--reps", "-r", min=1, help="Timed repetitions per Δ."),
    source: list[str] | None = typer.Option(
        None,
        "--source",
        "-s",
        help="Source vertices (1,2 or repeat). Default: the vertex of largest out-degree.",
        show_default=False,
    ),
    save: Path | None = typer.Option(
        None, "--save", help="Record the best Δ for the graph's family in this JSON file."
    ),
    cache_dir: Path | None = typer.Option(
        None,
        "--cache-dir",
        envvar="LLPBENCH_DATA_DIR",
        help="Datasets cache folder (default: $LLPBENCH_DATA_DIR, else <repo>/datasets).",
        show_default=False,
    ),
    directed: bool = DIRECTED,
    index_base: str = INDEX_BASE,
    weights: str = WEIGHTS,
) -> None:
    """Time Δ-stepping over Δ = median weight x 2^-4..2^4 and print the fastest Δ."""
    from llpbench.baselines.delta_stepping import MAX_THREADS
    from llpbench.baselines.delta_tuning import save_tuned, tune_delta
    from llpbench.graphs.registry import load_graph

    source = split_ints(source, "--source")
    if threads > MAX_THREADS:
        raise SpecError(f"--threads must be between 1 and {MAX_THREADS}, got {threads}")
    options = read_options(directed, index_base, weights)
    g = load_graph(graph, cache_dir=cache_dir, progress=True, options=options)
    if g.n == 0:
        raise SpecError(f"{g.name}: the graph has no vertices")
    if source:
        bad = [s for s in source if not 0 <= s < g.n]
        if bad:
            raise SpecError(f"--source {bad[0]} is not a vertex of {g.name} (0..{g.n - 1})")
        sources = list(source)
    else:
        sources = [int(np.argmax(g.out_degrees()))]
    result = tune_delta(g, sources, threads=threads, reps=reps)

    per_solve = len(sources)
    best_s = result.seconds(result.best)
    console = Console(highlight=False, soft_wrap=False)
    console.print(
        f"Δ-stepping on {g.name} (n={g.n:,}, m={g.m:,}), {threads} thread(s), "
        f"source(s) {', '.join(map(str, sources))}; median of {reps} per Δ"
    )
    table = Table()
    table.add_column("delta", justify="right")
    table.add_column("median ms", justify="right")
    table.add_column("ratio to best", justify="right")
    for d, sec in result.grid:
        mark = " *" if d == result.best else ""
        table.add_row(f"{d:g}{mark}", f"{sec / per_solve * 1e3:.3f}", f"{sec / best_s:.2f}")
    console.print(table)
    console.print(f"best delta: {result.best:g} (family {g.family})")
    if save is not None:
        save_tuned(save, g.family, result.best)
        console.print(f"saved delta {result.best:g} for family {g.family!r} to {save}")
