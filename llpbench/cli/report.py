"""`llpbench table ...`, `llpbench plot ...`, `llpbench report` and `llpbench history`: the
paper's tables and figures from a run, one HTML page per run, and time across runs.

Thin commands over :mod:`llpbench.report`: find the run (``--results``, default the newest
run of the results store), build the table, figure or page, print it (or the written paths)
and write the files into the run's ``tables/`` or ``figures/`` folder (``report.html`` beside
them; ``history/`` under the results folder). Nothing here runs a solver.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from llpbench.cli.lists import split_list
from llpbench.cli.options import CACHE_DIR

table_app = typer.Typer(
    name="table",
    help="Print the paper's tables from a run and write them (CSV, Markdown) into its folder.",
    no_args_is_help=True,
)
plot_app = typer.Typer(
    name="plot",
    help="Draw the paper's figures from a run into its figures/ folder (PNG, SVG).",
    no_args_is_help=True,
)

RESULTS = typer.Option(
    None,
    "--results",
    help="A run folder, or a results folder whose newest run to use "
    "(default: the results store's `latest`).",
    show_default=False,
)


def register(app: typer.Typer) -> None:
    """Add the ``table`` and ``plot`` sub-command groups and the ``report`` and ``history``
    commands to the ``llpbench`` app."""
    app.add_typer(table_app, name="table")
    app.add_typer(plot_app, name="plot")
    app.command("report")(report_command)
    app.command("history")(history_command)


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _table(name: str, results: Path | None, title: str | None = None, file: str | None = None,
           **options) -> None:
    """Build, print and write one table of the run ``results`` names (``title`` and ``file``
    override the table's own title and file name)."""
    from llpbench.report.all import TITLES, build_table, empty_reason, run_title
    from llpbench.report.figures import NoDataError
    from llpbench.report.store import load_runs, resolve_run
    from llpbench.report.tables import to_rich, write_table

    run_dir = resolve_run(results)
    df = build_table(name, load_runs(run_dir), **options)
    if df.empty:
        raise NoDataError(f"no {name} table for {run_dir}: {empty_reason(name, df)}")
    title = run_title(run_dir, title or TITLES[name])
    console = _console()
    console.print(to_rich(df, title))
    for path in write_table(df, run_dir, file or name, title):
        console.print(f"wrote {path}", soft_wrap=True)  # a path stays one line


@table_app.command("datasets")
def datasets_command(
    results: Path | None = RESULTS,
    graph: list[str] | None = typer.Option(
        None, "--graph", "-g", help="Graphs to list (a,b or repeat); default: the run's graphs."
    ),
    cache_dir: Path | None = CACHE_DIR,
) -> None:
    """Table 1: the graphs' vertices, edges, average degree, weights and source."""
    graph = split_list(graph)
    if not graph:
        _table("datasets", results, cache_dir=cache_dir)
        return
    from llpbench.report.all import TITLES
    from llpbench.report.store import NoResultsError, resolve_run
    from llpbench.report.tables import datasets_table, to_rich, write_table

    try:
        run_dir: Path | None = resolve_run(results)
    except NoResultsError:
        if results is not None:
            raise
        run_dir = None  # graphs named on the command line need no run to be listed
    df = datasets_table(graph, cache_dir=cache_dir)
    console = _console()
    console.print(to_rich(df, TITLES["datasets"]))
    if run_dir is None:
        console.print("not written: no run folder (pass --results to write it into one)")
        return
    for path in write_table(df, run_dir, "datasets", TITLES["datasets"]):
        console.print(f"wrote {path}", soft_wrap=True)  # a path stays one line


@table_app.command("speedup")
def speedup_command(
    results: Path | None = RESULTS,
    problem: list[str] | None = typer.Option(
        None, "--problem", "-p", help="Problems to include (a,b or repeat); default: sssp."
    ),
    against: str = typer.Option(
        None, "--against", help="The baseline to compare with, by name (gap, networkit, ...) "
        "[delta-stepping; other problems: their fastest]."
    ),
) -> None:
    """Table 2: fastest LLP configuration vs a baseline (tuned Δ-stepping unless --against
    names another) at the largest thread count, with the one-pass floor (x floor); written as
    speedup[-vs-NAME].csv/.md."""
    from llpbench.report.all import speedup_name, speedup_title

    problems = split_list(problem) or None
    if against is not None:
        _check_against(against, problems or ["sssp"])
    _table("speedup", results, title=speedup_title(against), file=speedup_name(against),
           problems=problems, against=against)


def _check_against(name: str, problems: list[str]) -> None:
    """Refuse a baseline name that none of ``problems`` has (a typo would give an empty
    table with a puzzling reason)."""
    from llpbench.baselines.selection import baselines_of
    from llpbench.errors import UnknownNameError
    from llpbench.problems import problem_module

    known = {b for p in problems for b in baselines_of(problem_module(p))}
    if name not in known:
        raise UnknownNameError("baseline", name, sorted(known))


@table_app.command("overhead")
def overhead_command(results: Path | None = RESULTS) -> None:
    """Single-thread LLP vs the baseline: time ratio and work counters per reached vertex."""
    _table("overhead", results)


@table_app.command("problems")
def problems_command(results: Path | None = RESULTS) -> None:
    """The other problems: best LLP configuration vs each problem's own baseline."""
    _table("problems", results)


@table_app.command("instability")
def instability_command(results: Path | None = RESULTS) -> None:
    """Cells whose repetitions disagree: wide spread or an outlying first repetition."""
    from llpbench.report.all import EMPTY
    from llpbench.report.instability import instability_table
    from llpbench.report.store import load_runs, resolve_run

    if instability_table(load_runs(resolve_run(results))).empty:
        _console().print(EMPTY["instability"])
        return
    _table("instability", results)


@table_app.command("baselines")
def baselines_command(results: Path | None = RESULTS) -> None:
    """Every baseline (own, alternatives, peers) vs the best LLP configuration."""
    _table("baselines", results)


def _print_paths(paths: list[Path]) -> None:
    console = _console()
    for path in paths:
        console.print(f"wrote {path}", soft_wrap=True)  # a path stays one line


@plot_app.command("scaling")
def scaling_command(
    results: Path | None = RESULTS,
    problem: str | None = typer.Option(
        None, "--problem", "-p", help="One problem; default: a figure for each of the run's."
    ),
) -> None:
    """Figure 5: time vs threads (log-log), one panel per graph, one line per configuration."""
    from llpbench.report.figures import plot_scaling
    from llpbench.report.store import load_runs, resolve_run

    run_dir = resolve_run(results)
    _print_paths(plot_scaling(load_runs(run_dir), run_dir, problem=problem))


@plot_app.command("worklists")
def worklists_command(
    results: Path | None = RESULTS,
    threads: int | None = typer.Option(
        None, "--threads", "-t", min=1, help="Thread count; default: the largest run."
    ),
    graph: str | None = typer.Option(
        None, "--graph", "-g", help="Graph; default: the first with worklist rows."
    ),
    problem: str | None = typer.Option(
        None, "--problem", "-p", help="Problem; default: sssp if the run has it."
    ),
) -> None:
    """Figure 6: the worklist policies side by side, with the counters that explain them."""
    from llpbench.report.figures import plot_worklists
    from llpbench.report.store import load_runs, resolve_run

    run_dir = resolve_run(results)
    runs = load_runs(run_dir)
    _print_paths(plot_worklists(runs, run_dir, threads=threads, graph=graph, problem=problem))


OPEN = typer.Option(False, "--open", help="Open the page in the default web browser.")


def _open_page(path: Path) -> None:
    """Open ``path`` in a browser ($BROWSER is honoured); say where it is if none opens."""
    import webbrowser

    console = _console()
    try:
        opened = webbrowser.open(path.resolve().as_uri())
    except webbrowser.Error:
        opened = False
    if not opened:
        console.print(f"no browser could be opened here: open {path} yourself", soft_wrap=True)


def report_command(
    run: Path | None = typer.Argument(
        None, help="A run folder, or a results folder whose newest run to use "
        "(default: the results store's `latest`).", show_default=False,
    ),
    open_page: bool = OPEN,
) -> None:
    """Write the run's report.html: headline, tables, figures, Δ, machine, warnings and the
    commands that reproduce it, in one self-contained page."""
    from llpbench.report.html import write_report
    from llpbench.report.store import resolve_run

    path = write_report(resolve_run(run))
    _print_paths([path])
    if open_page:
        _open_page(path)


def history_command(
    results_dir: Path = typer.Argument(
        ..., help="A folder of runs (every run under it, oldest first).", show_default=False,
    ),
    threshold: str = typer.Option(
        "10%", "--threshold", help="Flag a cell significantly slower than the run before by "
        "more than this."
    ),
    fail_if_slower: str | None = typer.Option(
        None, "--fail-if-slower", help="Exit 1 if a cell of the newest run is significantly "
        "slower than in the run before by more than this (e.g. 5%): for CI.", show_default=False,
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Where to write history.html, history.csv and the figures "
        "[RESULTS_DIR/history].", show_default=False,
    ),
    open_page: bool = OPEN,
) -> None:
    """Time across runs, cell by cell: each run against the one before, with compare's
    statistics; regressions flagged, as a page and a table."""
    from llpbench.errors import RegressionError
    from llpbench.report import compare as C
    from llpbench.report import history as Hy
    from llpbench.report.history_page import PAGE, write_history
    from llpbench.report.tables import to_rich

    flag_at = Hy.parse_percent(threshold, "--threshold")
    gate_at = Hy.parse_percent(fail_if_slower, "--fail-if-slower") if fail_if_slower else None
    history = Hy.load_history(results_dir, flag_at)
    console = _console()
    for run in history.runs:
        console.print(f"{run.label}: {run.rows} rows, {run.status}, {run.machine}",
                      soft_wrap=True)
    for step in history.steps:
        counts = step.table["verdict"].value_counts()
        said = ", ".join(f"{n} {v}" for v, n in counts.items())
        machine = " (another machine)" if len(step.machines) else ""
        console.print(f"#{step.a.index} -> #{step.b.index}{machine}: {len(step.table)} cells "
                      f"({said}); {len(step.flagged)} flagged", soft_wrap=True)
    flagged = history.flagged()
    if len(flagged):
        shown = C.display_table(flagged).assign(to=flagged["to"].str.split().str[0])
        console.print(to_rich(shown[["to", *shown.columns[:-1]]],
                              f"Flagged: significantly slower than the run before by more "
                              f"than {C.percent(flag_at)}"))
    written = write_history(history, out)
    _print_paths([p for p in written if p.name == PAGE] + [p for p in written if p.name != PAGE])
    if open_page:
        _open_page(next(p for p in written if p.name == PAGE))
    if gate_at is not None:
        found = Hy.gate(history, gate_at)
        if len(found):
            step = history.steps[-1]
            raise RegressionError(f"{step.b.label} vs {step.a.label}: "
                                  + C.regression_message(found, gate_at))
        if not history.steps:
            console.print("one run: nothing to compare it with, so nothing regressed")
            return
        console.print(f"no cell of the newest run significantly slower than the run before by "
                      f"more than {C.percent(gate_at)}", soft_wrap=True)
