"""`llpbench compare`: run B against run A, cell by cell, with intervals and a verdict.

Thin: resolve the two runs, delegate to :mod:`llpbench.report.compare`, print, write the
table into the later run's ``tables/``, and exit non-zero under ``--fail-if-slower`` when a
cell is significantly slower than allowed.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console


def register(app: typer.Typer) -> None:
    app.command("compare")(compare_command)


def compare_command(
    run_a: str = typer.Argument(
        ..., help="The reference run: a run folder, a results folder (its newest run), or a "
        "run-id under the results folder.", show_default=False,
    ),
    run_b: str | None = typer.Argument(
        None, help="The run to judge against A (default: the newest run of --results).",
        show_default=False,
    ),
    results: Path | None = typer.Option(
        None, "--results", help="Results folder (or run) that names B when B is not given, "
        "and where run-ids are looked up (default: the results store).", show_default=False,
    ),
    fail_if_slower: str | None = typer.Option(
        None, "--fail-if-slower", help="Exit 1 if a cell is significantly slower in B by more "
        "than this (e.g. 5%): for CI.", show_default=False,
    ),
) -> None:
    """Compare two runs: median ratio B/A per cell, 95% interval, Mann-Whitney, verdict."""
    from llpbench.errors import RegressionError
    from llpbench.report import compare as C
    from llpbench.report.figures import NoDataError
    from llpbench.report.store import load_meta, load_runs
    from llpbench.report.tables import to_rich, write_table

    threshold = C.parse_threshold(fail_if_slower) if fail_if_slower is not None else None
    dir_a = _find_run(run_a, results)
    dir_b = _find_run(run_b, results) if run_b is not None else _newest(results)
    if dir_a.resolve() == dir_b.resolve():
        from llpbench.errors import SpecError

        b_said = f"B ({run_b})" if run_b is not None else "B (the newest run, by default)"
        raise SpecError(f"A ({run_a}) and {b_said} are the same run, {dir_a.resolve()}: "
                        "every ratio would be 1; name two different runs")
    table = C.compare_runs(load_runs(dir_a), load_runs(dir_b))
    label_a, label_b = C.run_label(dir_a), C.run_label(dir_b)
    title = f"Compare: B = {label_b} vs A = {label_a}, time ratio B/A"
    console = Console(highlight=False, soft_wrap=False)
    machines = C.machine_differences(load_meta(dir_a), load_meta(dir_b))
    if len(machines):
        console.print(to_rich(machines, "The two runs were measured on different machines"))
    if table.empty:
        notes = "; ".join(table.attrs["notes"][1:])
        raise NoDataError(f"nothing to compare: no cell of {label_a} was timed in {label_b}"
                          + (f" ({notes})" if notes else ""))
    console.print(to_rich(C.display_table(table), title))
    counts = table["verdict"].value_counts()
    console.print(", ".join(f"{n} {v}" for v, n in counts.items()) + f" of {len(table)} cells")
    later = C.later_run(dir_a, dir_b)
    other = dir_a if later == dir_b else dir_b
    for path in write_table(table, later, f"compare-{other.name}", title):
        console.print(f"wrote {path}", soft_wrap=True)  # a path stays one line
    if threshold is not None:
        found = C.regressions(table, threshold)
        if len(found):
            raise RegressionError(C.regression_message(found, threshold))
        console.print(f"no cell significantly slower by more than {C.percent(threshold)}")


def _find_run(name: str, results: Path | None) -> Path:
    """A run by path (run folder or results folder), else by run-id under the results."""
    from llpbench import paths
    from llpbench.report.store import resolve_run

    if Path(name).expanduser().exists():
        return resolve_run(name)
    root = Path(results).expanduser() if results is not None else paths.results_dir()
    if (root / "runs.csv").is_file():  # --results named a run: look beside it
        root = root.parent
    if (root / name).exists():
        return resolve_run(root / name)
    return resolve_run(name)  # raises, naming what was looked for


def _newest(results: Path | None) -> Path:
    from llpbench.report.store import resolve_run

    return resolve_run(results)
