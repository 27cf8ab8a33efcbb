"""`llpbench tune-delta`: measure each graph family's Δ by the fixed rule and print the grid,
per thread count (Δ-stepping's best Δ moves with the threads, so each count is tuned).

Thin over :mod:`llpbench.baselines.delta.family`: it always re-measures (the cache is what
sweeps read; this command refreshes it unless ``--no-save``), prints every grid point with
its median and interval so that a user sees how flat the curve is, and says whether the Δ
chosen now is the one cached before.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from llpbench.cli.flag_groups import takes
from llpbench.cli.reading import READING
from llpbench.errors import SpecError
from llpbench.graphs.read_options import ReadOptions


def register(app: typer.Typer) -> None:
    """Add the ``tune-delta`` command to the ``llpbench`` app."""
    app.command("tune-delta")(tune_delta_command)


@takes(reading=READING)
def tune_delta_command(
    family: list[str] | None = typer.Option(
        None, "--family", "-f", help="Family of configs/delta.toml (repeatable). Default: all.",
        show_default=False,
    ),
    graph: str | None = typer.Option(
        None, "--graph", "-g",
        help="Tune this graph's family (on the family's reference; a graph whose family has "
        "none, such as a file, on itself).",
    ),
    threads: str | None = typer.Option(
        None, "--threads", "-t",
        help="Thread counts to tune at (1,2 or 1..16). Default: the rule's (configs/delta.toml;"
        " \"sweep\": 1 and the powers of two up to the cores).", show_default=False,
    ),
    levels: bool = typer.Option(
        False, "--levels",
        help="Tune the bucket width of the LLP level worklists (bucketed, obim; timed on obim) "
        "instead of Δ-stepping's Δ: the same rule, cached apart.",
    ),
    save: bool = typer.Option(True, "--save/--no-save", help="Update the Δ cache sweeps read."),
    cache_dir: Path | None = typer.Option(
        None,
        "--cache-dir",
        envvar="LLPBENCH_DATA_DIR",
        help="Datasets cache folder, which holds the Δ cache (default: $LLPBENCH_DATA_DIR, "
        "else <repo>/datasets).",
        show_default=False,
    ),
    *,
    reading: ReadOptions,
) -> None:
    """Measure Δ-stepping (or, with --levels, the LLP level worklists) over the fixed Δ grid
    per family and print the grid and the rule's Δ."""
    from llpbench.baselines.delta import family as dfam
    from llpbench.bench.spec import parse_threads
    from llpbench.graphs.registry import load_graph
    from llpbench.problems.sssp import LEVELS

    solver = LEVELS if levels else None
    timed = " the level worklists (LLP over obim)" if levels else ""

    rule = dfam.load_rule()
    counts = parse_threads(threads) if threads is not None else rule.default_threads()
    console = Console(highlight=False, soft_wrap=False)
    targets = []  # (family label, graph to tune on)
    if graph is not None:
        g = load_graph(graph, cache_dir=cache_dir, progress=True,
                       options=reading)
        if g.n == 0:
            raise SpecError(f"{g.name}: the graph has no vertices")
        ref = dfam.reference_for(g, rule)
        if ref and ref != g.name:
            console.print(f"{g.name} is of family {g.family!r}: its Δ is tuned on {ref}")
            g = load_graph(ref, cache_dir=cache_dir, progress=True)
            targets.append((g.family, g))
        else:
            targets.append((g.family if ref else f"{g.family}:{g.name}", g))
    names = list(family or ([] if graph is not None else rule.families))
    for f in names:
        if f not in rule.families:
            known = ", ".join(sorted(rule.families))
            raise SpecError(f"unknown family {f!r} in configs/delta.toml (known: {known})")
        targets.append((f, load_graph(rule.families[f], cache_dir=cache_dir, progress=True)))

    path = dfam.cache_path(cache_dir)
    before = dfam.read_cache(path)
    summary = []
    for (label, g), t in ((target, t) for target in targets for t in counts):
        clock = "thread CPU time" if t == 1 else "wall time"
        if levels:
            clock = "wall time"
        console.print(
            f"\n[bold]{label}[/] at {t} thread(s): tuning{timed} on {g.name} (n={g.n:,}, "
            f"m={g.m:,}); rule: Δ = median weight x 2^{rule.k_min}..2^{rule.k_max}, "
            f"{rule.sources} fixed sources, {rule.rounds} interleaved rounds, {clock}"
        )
        result = dfam.tune_on(g, rule, label, threads=t, solver=solver)
        console.print(_grid_table(result))
        old = before.get(dfam.entry_name(label, t, result.solver), {})
        prev = old.get("delta") if old.get("key") == result.key else None
        same = "-" if prev is None else ("same" if prev == result.delta else f"was {prev:g}")
        console.print(
            f"Δ = {result.delta:g}  (tied within {rule.tolerance:.0%} of the fastest: "
            f"{', '.join(f'{d:g}' for d in result.tied)}; prior Δ0 = {result.prior:.3g}; "
            f"load average {result.load[0]:.2f}; cached before: {prev if prev else 'none'})"
        )
        summary.append((label, g.name, result, same))
        if save:
            dfam.write_cache(path, result)
    what = "level worklists' width" if levels else "Δ"
    table = Table(title=f"{what} per family and thread count", title_justify="left")
    for col in ("family", "reference", "threads", "Δ", "tied", "vs cached"):
        table.add_column(col)
    for label, name, result, same in summary:
        table.add_row(label, name, str(result.threads), f"{result.delta:g}",
                      " ".join(f"{d:g}" for d in result.tied), same)
    console.print(table)
    if save:
        console.print(f"saved to {path}")


def _grid_table(result) -> Table:
    best = min(p.fastest for p in result.grid)
    table = Table()
    for col in ("Δ", "fastest ms", "/ best", "median ms", "interval ms", "wall median ms", ""):
        table.add_column(col, justify="right")
    for p in result.grid:
        mark = "* chosen" if p.delta == result.delta else ("tied" if p.delta in result.tied
                                                           else "")
        table.add_row(
            f"{p.delta:g}", f"{p.fastest * 1e3:.3f}", f"{p.fastest / best:.2f}",
            f"{p.median * 1e3:.3f}", f"{p.low * 1e3:.2f}-{p.high * 1e3:.2f}",
            f"{p.wall_median * 1e3:.3f}", mark,
        )
    return table
