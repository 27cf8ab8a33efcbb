"""Every table and figure of a run, by name: what `llpbench table`, `llpbench plot` and
`llpbench reproduce` share.

:func:`build_table` maps a table's name to its function and title, so the CLI stays a thin
layer; :func:`write_all_reports` writes everything that applies to a run and says, in one
line each, what it skipped and why (a run without baseline rows has no speedup table) rather
than failing the whole report for one missing piece.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from llpbench.errors import LlpbenchError
from llpbench.report import tables
from llpbench.report.instability import instability_table
from llpbench.report.oversubscription import mark_oversubscribed
from llpbench.report.store import load_meta, load_runs, timed_rows

TITLES = {
    "datasets": "Table 1: graphs",
    "speedup": "Table 2: fastest LLP configuration vs tuned Δ-stepping (largest thread count)",
    "overhead": "Single-thread overhead: each LLP configuration vs the baseline at 1 thread",
    "problems": "Other problems: best LLP configuration vs each problem's baseline",
    "instability": "Instability: cells whose repetitions disagree (rerun or read with care)",
    "baselines": "Every baseline (own, named alternatives, external peers) vs the best LLP",
}
#: What an empty table means, for the one-line message that replaces it.
EMPTY = {
    "datasets": "no graph instances in the run",
    "speedup": "no SSSP graph with both LLP and baseline rows",
    "overhead": "no instance with both LLP and baseline rows at 1 thread",
    "problems": "no non-SSSP problem with both LLP and baseline rows",
    "instability": "no unstable cell: every instance's repetitions agree within the thresholds",
    "baselines": "no instance with both LLP and baseline rows",
}


#: How a speedup table names the baseline it was computed against.
AGAINST = {None: "tuned Δ-stepping", "delta-stepping": "tuned Δ-stepping",
           "gap": "GAP at its best Δ per thread count"}


def speedup_title(against: str | None) -> str:
    """Table 2's title, naming its baseline."""
    return TITLES["speedup"].replace(AGAINST[None], AGAINST.get(against, against))


def speedup_name(against: str | None) -> str:
    """Table 2's file name: ``speedup``, or ``speedup-vs-NAME`` against another baseline."""
    return "speedup" if against in (None, "delta-stepping") else f"speedup-vs-{against}"


def run_title(run_dir: str | os.PathLike[str], title: str) -> str:
    """A table title that names the run it came from."""
    meta = load_meta(run_dir)
    run_id = meta.get("run_id") or Path(run_dir).name
    if meta.get("complete") is False:  # merged from shards with some missing or unfinished
        plan = meta.get("plan") or {}
        lacking = sorted({*meta.get("missing_shards", []), *meta.get("incomplete_shards", [])})
        shards = ", ".join(f"{i}/{plan.get('count', '?')}" for i in lacking)
        return f"{title} (run {run_id}, INCOMPLETE: shard(s) {shards} missing or unfinished)"
    return f"{title} (run {run_id})"


def build_table(
    name: str,
    runs: pd.DataFrame,
    *,
    graphs: list[str] | None = None,
    problems: list[str] | None = None,
    against: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> pd.DataFrame:
    """The table ``name`` (one of :data:`TITLES`) of a run's rows.

    ``graphs`` overrides the run's graphs for Table 1; ``problems`` the problems of Table 2,
    ``against`` its baseline (default each problem's own).
    """
    if name == "datasets":
        return tables.datasets_table(graphs or tables.graph_names(runs), cache_dir=cache_dir)
    if name == "speedup":
        return tables.speedup_table(runs, problems=problems or ("sssp",), against=against)
    if name == "overhead":
        return tables.overhead_table(runs)
    if name == "problems":
        return tables.problems_table(runs)
    if name == "instability":
        return mark_oversubscribed(instability_table(runs), runs)
    if name == "baselines":
        return tables.baselines_table(runs)
    raise LlpbenchError(f"unknown table {name!r}; known: {', '.join(TITLES)}")


def empty_reason(name: str, df: pd.DataFrame) -> str:
    """Why a table came out empty: its general reason and the table's own notes."""
    notes = "; ".join(df.attrs.get("notes") or [])
    return EMPTY[name] + (f" ({notes})" if notes else "")


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
    from llpbench.report import figures

    run_dir = Path(run_dir)
    runs = load_runs(run_dir)
    written: list[Path] = []
    for name, title in TITLES.items():
        try:
            df = build_table(name, runs, cache_dir=cache_dir)
        except LlpbenchError as exc:
            echo(f"note: {name} table skipped: {exc}")
            continue
        if df.empty:
            echo(f"note: {name} table skipped: {empty_reason(name, df)}")
            continue
        written += tables.write_table(df, run_dir, name, run_title(run_dir, title))
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

    timed = timed_rows(runs)
    rows = timed[(timed["kind"] == "llp") & (timed["worklist"] != "")]
    pairs = list(dict.fromkeys(zip(rows["problem"], rows["graph"], strict=True)))
    if not pairs:
        echo("note: worklist figure skipped: no worklist-solver rows in the run")
    written: list[Path] = []
    for problem, graph in pairs:
        written += figures.plot_worklists(runs, run_dir, graph=graph, problem=problem)
    return written
