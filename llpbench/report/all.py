"""Every table and figure of a run, by name: what `llpbench table`, `llpbench plot`,
`llpbench report` and `llpbench reproduce` share.

:data:`TABLES` is the one table of tables: each entry holds the function that builds it,
its title, what an empty one means, its help line and the options it takes; the CLI makes
one ``llpbench table NAME`` command per entry from it, and :func:`write_all_reports` (and
the HTML page) go through it too. Adding a table is one entry (and its function).
:func:`write_all_reports` writes everything that applies to a run and says, in one line
each, what it skipped and why (a run without baseline rows has no speedup table) rather than
failing the whole report for one missing piece.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from llpbench.errors import LlpbenchError, UnknownNameError

if TYPE_CHECKING:
    import pandas as pd

#: The options a table may take (its command's flags): ``graphs`` (``--graph``, Table 1's
#: graphs instead of the run's), ``problems`` (``--problem``), ``against`` (``--against``, a
#: baseline by name), ``cache_dir`` (``--cache-dir``, where graphs are measured from).
OPTIONS = ("graphs", "problems", "against", "cache_dir")


@dataclass(frozen=True)
class TableSpec:
    """One table of a run.

    Parameters
    ----------
    build : callable
        ``build(runs, **options) -> DataFrame``, given the run's rows and the options it
        declares (those the user left out are not passed).
    title : str
        Its title (the run's id is added where printed or written).
    empty : str
        What an empty table means, for the one-line message that replaces it.
    help : str
        Its command's help (the first line is the summary ``llpbench table --help`` lists).
    options : tuple of str
        The :data:`OPTIONS` it takes.
    empty_is_error : bool
        Whether ``llpbench table NAME`` exits non-zero on an empty table (the instability
        table's empty answer is good news: it is printed, exit 0).
    needs_run_unless : str, optional
        An option that, when given, lets the command print the table without a run folder
        (Table 1 of graphs named with ``--graph``: "not written", exit 0).
    check : callable, optional
        ``check(options)``: refuse options that would give a puzzling empty table, before
        the run is read (Table 2's ``--against`` names a baseline none of its problems has).
    on_page : bool
        Whether the run's HTML page shows it (the instability table has its own section).
    retitle, rename : callable, optional
        ``retitle(options) -> title`` and ``rename(options) -> file stem`` where the options
        change them (Table 2 against another baseline); default :attr:`title` and the name.
    """

    build: Callable[..., pd.DataFrame]
    title: str
    empty: str
    help: str
    options: tuple[str, ...] = ()
    empty_is_error: bool = True
    needs_run_unless: str | None = None
    on_page: bool = True
    check: Callable[[dict], None] | None = None
    retitle: Callable[[dict], str] | None = None
    rename: Callable[[dict], str] | None = None


def lazy(module: str, function: str) -> Callable[..., pd.DataFrame]:
    """``module.function``, imported when first called: the CLI builds its ``table``
    commands from :data:`TABLES` without importing pandas (a second of every start)."""

    def build(*args: object, **kwargs: object) -> pd.DataFrame:
        return getattr(importlib.import_module(module), function)(*args, **kwargs)

    build.__name__ = build.__qualname__ = function
    return build


def _datasets(runs: pd.DataFrame, graphs: list[str] | None = None,
              cache_dir: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    from llpbench.report import tables

    return tables.datasets_table(graphs or tables.graph_names(runs), cache_dir=cache_dir)


def _speedup(runs: pd.DataFrame, problems: list[str] | None = None,
             against: str | None = None) -> pd.DataFrame:
    from llpbench.report.tables import speedup_table

    return speedup_table(runs, problems=problems or ("sssp",), against=against)


def _instability(runs: pd.DataFrame) -> pd.DataFrame:
    from llpbench.report.instability import instability_table
    from llpbench.report.oversubscription import mark_oversubscribed

    return mark_oversubscribed(instability_table(runs), runs)


TABLES: dict[str, TableSpec] = {
    "datasets": TableSpec(
        _datasets, "Table 1: graphs", "no graph instances in the run",
        "Table 1: the graphs' vertices, edges, average degree, weights and source.",
        options=("graphs", "cache_dir"), needs_run_unless="graphs",
    ),
    "speedup": TableSpec(
        _speedup,
        "Table 2: fastest LLP configuration vs tuned Δ-stepping (largest thread count)",
        "no SSSP graph with both LLP and baseline rows",
        "Table 2: fastest LLP configuration vs a baseline (tuned Δ-stepping unless --against "
        "names another) at the largest thread count, with the one-pass floor (x floor); "
        "written as speedup[-vs-NAME].csv/.md.",
        options=("problems", "against"),
        check=lambda o: check_against(o.get("against"), o.get("problems")),
        retitle=lambda o: speedup_title(o.get("against")),
        rename=lambda o: speedup_name(o.get("against")),
    ),
    "overhead": TableSpec(
        lazy("llpbench.report.tables", "overhead_table"),
        "Single-thread overhead: each LLP configuration vs the baseline at 1 thread",
        "no instance with both LLP and baseline rows at 1 thread",
        "Single-thread LLP vs the baseline: time ratio and work counters per reached vertex.",
    ),
    "problems": TableSpec(
        lazy("llpbench.report.tables", "problems_table"),
        "Other problems: best LLP configuration vs each problem's baseline",
        "no non-SSSP problem with both LLP and baseline rows",
        "The other problems: best LLP configuration vs each problem's own baseline.",
    ),
    "instability": TableSpec(
        _instability,
        "Instability: cells whose repetitions disagree (rerun or read with care)",
        "no unstable cell: every instance's repetitions agree within the thresholds",
        "Cells whose repetitions disagree: wide spread or an outlying first repetition.",
        empty_is_error=False, on_page=False,
    ),
    "baselines": TableSpec(
        lazy("llpbench.report.tables", "baselines_table"),
        "Every baseline (own, named alternatives, external peers) vs the best LLP",
        "no instance with both LLP and baseline rows",
        "Every baseline (own, alternatives, peers) vs the best LLP configuration.",
    ),
}


def table_spec(name: str) -> TableSpec:
    """The entry of table ``name``, or a clear error."""
    if name not in TABLES:
        raise UnknownNameError("table", name, list(TABLES))
    return TABLES[name]


#: How a speedup table names the baseline it was computed against.
AGAINST = {None: "tuned Δ-stepping", "delta-stepping": "tuned Δ-stepping",
           "gap": "GAP at its best Δ per thread count"}


def speedup_title(against: str | None) -> str:
    """Table 2's title, naming its baseline."""
    return TABLES["speedup"].title.replace(AGAINST[None], AGAINST.get(against, against))


def speedup_name(against: str | None) -> str:
    """Table 2's file name: ``speedup``, or ``speedup-vs-NAME`` against another baseline."""
    return "speedup" if against in (None, "delta-stepping") else f"speedup-vs-{against}"


def run_title(run_dir: str | os.PathLike[str], title: str) -> str:
    """A table title that names the run it came from."""
    from llpbench.report.store import load_meta

    meta = load_meta(run_dir)
    run_id = meta.get("run_id") or Path(run_dir).name
    if meta.get("complete") is False:  # merged from shards with some missing or unfinished
        plan = meta.get("plan") or {}
        lacking = sorted({*meta.get("missing_shards", []), *meta.get("incomplete_shards", [])})
        shards = ", ".join(f"{i}/{plan.get('count', '?')}" for i in lacking)
        return f"{title} (run {run_id}, INCOMPLETE: shard(s) {shards} missing or unfinished)"
    return f"{title} (run {run_id})"


def table_title(name: str, **options: object) -> str:
    """Table ``name``'s title for ``options`` (Table 2 names its baseline)."""
    spec = table_spec(name)
    return spec.retitle(options) if spec.retitle else spec.title


def table_file(name: str, **options: object) -> str:
    """The stem table ``name`` is written under (Table 2 against another baseline: its own)."""
    spec = table_spec(name)
    return spec.rename(options) if spec.rename else name


def check_against(name: str | None, problems: list[str] | None) -> None:
    """Refuse a baseline name that none of ``problems`` (default SSSP) has: a typo would
    give an empty table with a puzzling reason."""
    if name is None:
        return
    from llpbench.baselines.selection import baselines_of
    from llpbench.problems import problem_module

    known = {b for p in problems or ["sssp"] for b in baselines_of(problem_module(p))}
    if name not in known:
        raise UnknownNameError("baseline", name, sorted(known))


def build_table(name: str, runs: pd.DataFrame, **options: object) -> pd.DataFrame:
    """The table ``name`` (one of :data:`TABLES`) of a run's rows, with the options it takes
    (:data:`OPTIONS`; the others, and those left None, are not passed: ``write_all_reports``
    hands every table the same ``cache_dir``).

    ``graphs`` overrides the run's graphs for Table 1; ``problems`` the problems of Table 2,
    ``against`` its baseline (default each problem's own).
    """
    spec = table_spec(name)
    taken = {k: v for k, v in options.items() if k in spec.options and v is not None}
    return spec.build(runs, **taken)


def empty_reason(name: str, df: pd.DataFrame) -> str:
    """Why a table came out empty: its general reason and the table's own notes."""
    notes = "; ".join(df.attrs.get("notes") or [])
    return table_spec(name).empty + (f" ({notes})" if notes else "")


def write_all_reports(
    run_dir: str | os.PathLike[str],
    *,
    echo: Callable[[str], None] = print,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[Path]:
    """Write every table and figure that applies to the run; return the written files.

    Tables go to ``<run_dir>/tables/``, figures to ``<run_dir>/figures/``. A table or
    figure without data (or a graph that can no longer be loaded for Table 1) is skipped with
    a one-line note through ``echo``; errors in the run's rows themselves still raise.
    """
    from llpbench.report import figures, tables
    from llpbench.report.store import load_runs

    run_dir = Path(run_dir)
    runs = load_runs(run_dir)
    written: list[Path] = []
    for name, spec in TABLES.items():
        try:
            df = build_table(name, runs, cache_dir=cache_dir)
        except LlpbenchError as exc:
            echo(f"note: {name} table skipped: {exc}")
            continue
        if df.empty:
            echo(f"note: {name} table skipped: {empty_reason(name, df)}")
            continue
        written += tables.write_table(df, run_dir, name, run_title(run_dir, spec.title))
    try:
        written += figures.plot_scaling(runs, run_dir)
    except figures.NoDataError as exc:
        echo(f"note: scaling figure skipped: {exc}")
    written += _all_worklist_figures(runs, run_dir, echo)
    return written


def _all_worklist_figures(
    runs: pd.DataFrame, run_dir: Path, echo: Callable[[str], None]
) -> list[Path]:
    """Figure 6 for every (problem, graph) with worklist rows, at its largest thread count."""
    from llpbench.report import figures
    from llpbench.report.store import timed_rows

    timed = timed_rows(runs)
    rows = timed[(timed["kind"] == "llp") & (timed["worklist"] != "")]
    pairs = list(dict.fromkeys(zip(rows["problem"], rows["graph"], strict=True)))
    if not pairs:
        echo("note: worklist figure skipped: no worklist-solver rows in the run")
    written: list[Path] = []
    for problem, graph in pairs:
        written += figures.plot_worklists(runs, run_dir, graph=graph, problem=problem)
    return written
