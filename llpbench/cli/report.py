"""`llpbench table ...`, `llpbench plot ...`, `llpbench report` and `llpbench history`: the
paper's tables and figures from a run, one HTML page per run, and time across runs.

Thin commands over :mod:`llpbench.report`: find the run (``--results``, default the newest
run of the results store), build the table, figure or page, print it (or the written paths)
and write the files into the run's ``tables/`` or ``figures/`` folder (``report.html`` beside
them; ``history/`` under the results folder). Nothing here runs a solver.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from llpbench.cli.lists import split_list
from llpbench.cli.options import CACHE_DIR

if TYPE_CHECKING:
    from llpbench.report.all import TableSpec

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
    register_tables(table_app)
    app.add_typer(table_app, name="table")
    app.add_typer(plot_app, name="plot")
    app.command("report")(report_command)
    app.command("history")(history_command)


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


#: The flag of each table option (:data:`llpbench.report.all.OPTIONS`): ``(type, option)``.
TABLE_FLAGS: dict[str, tuple[object, object]] = {
    "graphs": (list[str] | None, typer.Option(
        None, "--graph", "-g", help="Graphs to list (a,b or repeat); default: the run's graphs."
    )),
    "problems": (list[str] | None, typer.Option(
        None, "--problem", "-p", help="Problems to include (a,b or repeat); default: sssp."
    )),
    "against": (str | None, typer.Option(
        None, "--against", help="The baseline to compare with, by name (gap, networkit, ...) "
        "[delta-stepping; other problems: their fastest]."
    )),
    "cache_dir": (Path | None, CACHE_DIR),
}
#: Options given as a list on the command line (``a,b`` or repeated).
LIST_OPTIONS = ("graphs", "problems")


def _table(name: str, results: Path | None, **options) -> None:
    """Build, print and write table ``name`` of the run ``results`` names, as its entry in
    :data:`llpbench.report.all.TABLES` says (options, title, file name, empty answer)."""
    from llpbench.report.all import (
        build_table,
        empty_reason,
        run_title,
        table_file,
        table_spec,
        table_title,
    )
    from llpbench.report.figures import NoDataError
    from llpbench.report.store import NoResultsError, load_runs, resolve_run
    from llpbench.report.tables import to_rich, write_table

    spec = table_spec(name)
    options = {k: (split_list(v) or None) if k in LIST_OPTIONS else v for k, v in options.items()}
    if spec.check is not None:
        spec.check(options)
    runless = spec.needs_run_unless is not None and options.get(spec.needs_run_unless)
    try:
        run_dir: Path | None = resolve_run(results)
    except NoResultsError:
        if results is not None or not runless:
            raise
        run_dir = None  # e.g. graphs named on the command line need no run to be listed
    runs = load_runs(run_dir) if run_dir is not None else None
    df = build_table(name, runs, **options)
    console = _console()
    title = table_title(name, **options)
    if df.empty:
        if not spec.empty_is_error:
            console.print(spec.empty)
            return
        raise NoDataError(f"no {name} table for {run_dir}: {empty_reason(name, df)}")
    if run_dir is None:
        console.print(to_rich(df, title))
        console.print("not written: no run folder (pass --results to write it into one)")
        return
    title = title if runless else run_title(run_dir, title)
    console.print(to_rich(df, title))
    for path in write_table(df, run_dir, table_file(name, **options), title):
        console.print(f"wrote {path}", soft_wrap=True)  # a path stays one line


def table_command(name: str, spec: TableSpec) -> Callable[..., None]:
    """The ``llpbench table NAME`` command of one entry of
    :data:`llpbench.report.all.TABLES`: ``--results`` and the flags of its options, its help
    from the entry (typer reads the signature and annotations made here)."""

    def command(**options) -> None:
        results = options.pop("results")
        _table(name, results, **options)

    params = [inspect.Parameter("results", inspect.Parameter.KEYWORD_ONLY, default=RESULTS,
                                annotation=Path | None)]
    annotations: dict[str, object] = {"results": Path | None, "return": None}
    for option in spec.options:
        kind, flag = TABLE_FLAGS[option]
        params.append(inspect.Parameter(option, inspect.Parameter.KEYWORD_ONLY, default=flag,
                                        annotation=kind))
        annotations[option] = kind
    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = annotations
    command.__doc__ = spec.help
    command.__name__ = command.__qualname__ = f"{name.replace('-', '_')}_command"
    return command


def register_tables(group: typer.Typer) -> None:
    """One ``table`` sub-command per entry of :data:`llpbench.report.all.TABLES`, in its
    order (the registry imports neither pandas nor a solver: the CLI starts fast)."""
    from llpbench.report.all import TABLES

    for name, spec in TABLES.items():
        group.command(name)(table_command(name, spec))


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
