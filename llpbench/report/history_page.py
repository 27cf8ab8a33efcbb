"""The history page (``history.html``) and its figures: each cell's time across runs.

One figure per problem and graph, one panel per thread count, one line per configuration:
the x axis is the run (``#1``, ``#2``, ... oldest first), the y axis the cell's median with
its 95% bootstrap interval as an error bar, and a red ring around every point a step flagged
(significantly slower than the run before by more than the threshold). The page puts the
verdict first (which cells got slower, in which run, on which machine), then the runs, the
steps, the figures, and the whole table; like the run report it is one self-contained file.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from llpbench.io import write_text_atomic
from llpbench.report import layout, page
from llpbench.report.compare import percent
from llpbench.report.figures import LLP_COLORS, save_figure, slug
from llpbench.report.history import CELL, History, cell_history, history_csv

HISTORY_DIR = "history"
PAGE = "history.html"
CSV = "history.csv"
PANEL = (3.6, 2.9)


def history_figures(history: History) -> list[Figure]:
    """One figure per (problem, graph), labelled ``history-<problem>-<graph>``."""
    series = history.series
    flagged = {(s.b.index, *k) for s in history.steps
               for k in s.flagged[CELL].itertuples(index=False, name=None)}
    runs = [r.index for r in history.runs]
    figs = []
    for (problem, graph), rows in series.groupby(["problem", "graph"], sort=False):
        threads = sorted(int(t) for t in rows["threads"].unique())
        ncols = min(4, len(threads))
        nrows = math.ceil(len(threads) / ncols)
        width = PANEL[0] * ncols
        fig = Figure(figsize=(width, PANEL[1] * nrows + 1.0), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False)
        configs = list(dict.fromkeys(rows["config"]))
        handles = {}
        for ax, t in zip(axes.flat, threads, strict=False):
            for i, config in enumerate(configs):
                line = rows[(rows["threads"] == t) & (rows["config"] == config)]
                line = line.sort_values("run")
                if line.empty:
                    continue
                x, med = line["run"].to_numpy(), line["median_s"].to_numpy()
                lo = line["median_ci_low"].fillna(line["median_s"]).to_numpy()
                hi = line["median_ci_high"].fillna(line["median_s"]).to_numpy()
                color = LLP_COLORS[i % len(LLP_COLORS)]
                handle = ax.errorbar(x, med, yerr=[(med - lo).clip(min=0), (hi - med).clip(min=0)],
                                     color=color, marker="o", markersize=3, capsize=2,
                                     linewidth=1, label=config)
                handles.setdefault(config, handle)
                bad = [(r, m) for r, m in zip(x, med, strict=True)
                       if (int(r), problem, graph, config, t) in flagged]
                if bad:
                    ring = ax.scatter([b[0] for b in bad], [b[1] for b in bad], s=110,
                                      facecolors="none", edgecolors="red", linewidths=1.6,
                                      zorder=5)
                    handles.setdefault("flagged: slower than the run before", ring)
            ax.set_yscale("log")
            ax.set_xticks(runs, labels=[f"#{r}" for r in runs])
            ax.set_xlim(runs[0] - 0.5, runs[-1] + 0.5)
            ax.set_title(f"{t} thread{'s' if t > 1 else ''}", fontsize=10)
            ax.set_xlabel("run")
            ax.set_ylabel("median time (s)")
            ax.grid(True, which="both", alpha=0.3)
        for ax in axes.flat[len(threads):]:
            ax.set_visible(False)
        cols = layout.legend_columns(list(handles), width)
        fig.legend(list(handles.values()), list(handles), loc="outside lower center",
                   ncols=cols, frameon=False, fontsize=8)
        fig.suptitle(layout.wrap_label(f"{problem} on {graph}: median time per run "
                                       "(bars: 95% interval)", layout.chars_for(width, 12)))
        fig.set_label(f"history-{slug(problem)}-{slug(graph)}")
        figs.append(layout.fit_canvas(fig))
    return figs


def _banners(history: History) -> list[str]:
    out = []
    flagged = history.flagged()
    if len(history.runs) < 2:
        out.append(page.banner("info", "ONE RUN: nothing to compare yet; the next run under "
                                       "this folder will be judged against it"))
    elif len(flagged):
        steps = ", ".join(dict.fromkeys(flagged["to"]))
        out.append(page.banner("error", f"REGRESSIONS: {len(flagged)} cell(s) significantly "
                                        f"slower than the run before by more than "
                                        f"{percent(history.threshold)} (in {steps})"))
    else:
        out.append(page.banner("ok", f"NO REGRESSION: no cell significantly slower than the "
                                     f"run before by more than {percent(history.threshold)}"))
    for step in history.steps:
        if len(step.machines):
            fields = ", ".join(f for f in step.machines["field"] if not f.startswith("load"))
            out.append(page.banner("warn", f"MACHINE CHANGED between {step.a.label} and "
                                           f"{step.b.label} ({fields}): that step compares "
                                           "machines, not code"))
    for run in history.runs:
        if run.status != "finished":
            out.append(page.banner("warn", f"{run.label} is {run.status.upper()}: its cells "
                                           "may be missing or partial"))
        if run.test_settings:
            out.append(page.banner("warn", f"{run.label} ran with the test switch "
                                           f"{run.test_settings}"))
    out += [page.banner("info", f"left out: {s}") for s in history.skipped]
    return out


def _runs_table(history: History) -> pd.DataFrame:
    return pd.DataFrame([{
        "run": f"#{r.index}", "run_id": r.run_id, "started": r.started, "commit": r.commit,
        "machine": r.machine, "status": r.status, "rows": r.rows,
        "test_settings": r.test_settings or "-", "folder": str(r.path),
    } for r in history.runs])  # fmt: skip


def _steps_table(history: History) -> pd.DataFrame:
    rows = []
    for s in history.steps:
        counts = s.table["verdict"].value_counts()
        rows.append({
            "from": s.a.label, "to": s.b.label, "cells": len(s.table),
            **{v: int(counts.get(v, 0)) for v in ("slower", "faster", "not significant",
                                                   "too few rows")},
            "flagged": len(s.flagged),
            "machine": ", ".join(f for f in s.machines["field"] if not f.startswith("load"))
            or "same",
        })  # fmt: skip
    return pd.DataFrame(rows)


def build_history_page(history: History, figures: list[Figure] | None = None) -> str:
    """The whole history page, as text (``figures``: :func:`history_figures`, drawn here when
    not given)."""
    figures = history_figures(history) if figures is None else figures
    cells = cell_history(history)
    classes = ["flag" if f else "" for f in cells["flagged_in"]]
    flagged = history.flagged()
    stats = (f"each step compares a run with the run before it, cell by cell, as `llpbench "
             f"compare` does: ratio of medians (later / earlier), 95% bootstrap interval, "
             f"Mann-Whitney U; flagged when significantly slower by more than "
             f"{percent(history.threshold)}")
    body = [
        f"<header><h1>llpbench history: {len(history.runs)} run(s) under "
        f"{page.esc(history.root)}</h1></header>",
        page.section("status", "Verdict", *_banners(history), page.paragraph(stats, "muted")),
        page.section("regressions", "Flagged cells",
                     page.table(flagged, "regressions") if len(flagged) else
                     page.paragraph("No cell was flagged.", "muted")),
        page.section("runs", "Runs, oldest first", page.table(_runs_table(history), "runs")),
        page.section("steps", "Steps", page.table(_steps_table(history), "steps")
                     if history.steps else page.paragraph("One run: no step.", "muted")),
        page.section("figures", "Time across runs", *[
            page.figure(f, f.get_label(), f"{f.get_label()}: each cell's median per run; a red "
                        "ring marks a flagged step") for f in figures]),
        page.section("cells", "Every cell across runs (medians; the newest step judged)",
                     page.table(cells, "history", row_classes=classes)),
    ]
    state = "error" if len(flagged) else "ok"
    return page.document(f"llpbench history: {history.root}", "\n".join(body),
                         {"data-state": state, "data-runs": str(len(history.runs))})


def write_history(history: History, out: str | os.PathLike[str] | None = None) -> list[Path]:
    """Write ``history.html``, ``history.csv`` and the figures (PNG, SVG) into ``out``
    (default ``<root>/history``), atomically; return the written paths."""
    folder = Path(out) if out is not None else history.root / HISTORY_DIR
    folder.mkdir(parents=True, exist_ok=True)
    figures = history_figures(history)
    written = [write_text_atomic(folder / PAGE, build_history_page(history, figures)),
               write_text_atomic(folder / CSV, history_csv(history).to_csv(index=False))]
    for fig in figures:
        written += save_figure(fig, folder, fig.get_label())
    return written
