"""The paper's figures, drawn from a run's rows: Figure 5 (scaling) and Figure 6 (worklists).

Figure 5 plots, for each graph, time against threads on log-log axes, one line per
configuration (the baseline dashed), each point the median of its cell with the 95%
bootstrap interval of that median as a band (an error bar where a line has one point), so
that a reader sees both the trend and how far to trust it: where two bands overlap, the rows
do not tell those configurations apart. Figure 6 sets the worklist policies side by side at
one thread count on one graph, and beside the times the counters that explain the gaps
between them: stale pops, lost atomic races, lock contention and steals, per reached vertex.

Figures are written as PNG (for a quick look) and SVG (for the paper) into
``<run>/figures/``, each through a temporary file so that an interrupted report never leaves
a truncated image. Medians are the same as the tables' (:func:`tables.cell_stats`).
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display: figures go to files, on any machine

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullFormatter, NullLocator  # noqa: E402

from llpbench.errors import LlpbenchError  # noqa: E402
from llpbench.io import atomic_path  # noqa: E402
from llpbench.llp.worklists import WORKLISTS  # noqa: E402
from llpbench.problems import PROBLEMS  # noqa: E402
from llpbench.report import layout  # noqa: E402
from llpbench.report.oversubscription import core_count, oversubscription_title  # noqa: E402
from llpbench.report.stats import median_ci  # noqa: E402
from llpbench.report.store import per_reached, timed_rows  # noqa: E402
from llpbench.report.tables import cell_stats  # noqa: E402

FIGURES_DIR = "figures"
FORMATS = ("png", "svg")
WORKLIST_ORDER = tuple(WORKLISTS)  # the registry's order: the paper's four, then the others
#: Counters of Figure 6's second panel: each one is time a policy spends not advancing.
EXPLAINING_COUNTERS = ("stale", "retries", "contention", "steals")
LLP_COLORS = plt.get_cmap("tab10").colors
BASELINE_COLORS = ("black", "dimgray", "darkgray")
#: How the threads above the machine's cores are drawn: a shaded region from the core count.
OVERSUBSCRIBED_SHADE = {"color": "tab:red", "alpha": 0.08, "linewidth": 0, "zorder": 0}
CORE_LINE = {"color": "tab:red", "linestyle": ":", "linewidth": 1.2}
PANEL_INCHES = (4.3, 3.4)


class NoDataError(LlpbenchError):
    """The run holds no rows a figure or table needs (the message says which)."""


def slug(text: str) -> str:
    """A file-name-safe version of a graph name (which may be a path)."""
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", Path(text).name if "/" in text else text)


def save_figure(fig: Figure, run_dir: str | os.PathLike[str], stem: str) -> list[Path]:
    """Write ``fig`` as ``<run_dir>/figures/<stem>.png`` and ``.svg``, atomically."""
    folder = Path(run_dir) / FIGURES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in FORMATS:
        target = folder / f"{stem}.{fmt}"
        with atomic_path(target) as tmp, matplotlib.rc_context({"svg.hashsalt": "llpbench"}):
            fig.savefig(tmp, format=fmt, dpi=150, metadata=_metadata(fmt))  # stable SVG ids
        written.append(target)
    return written


def _metadata(fmt: str) -> dict[str, None]:
    return {"Date": None} if fmt == "svg" else {}  # identical input, identical SVG


def _config_order(cells: pd.DataFrame) -> list[str]:
    """LLP configurations first (sorted), then the baselines: the legend's order."""
    llp = sorted(set(cells.loc[cells["kind"] == "llp", "config"]))
    base = sorted(set(cells.loc[cells["kind"] == "baseline", "config"]))
    return llp + base


def _styles(cells: pd.DataFrame) -> dict[str, dict]:
    """One colour and line style per configuration, the same in every panel."""
    styles, llp_i, base_i = {}, 0, 0
    for config in _config_order(cells):
        if (cells.loc[cells["config"] == config, "kind"] == "baseline").any():
            color = BASELINE_COLORS[base_i % len(BASELINE_COLORS)]
            styles[config] = {"color": color, "linestyle": "--", "marker": "s"}
            base_i += 1
        else:
            styles[config] = {"color": LLP_COLORS[llp_i % len(LLP_COLORS)], "linestyle": "-"}
            styles[config]["marker"] = "o"
            llp_i += 1
    return styles


def _thread_axis(ax, threads: list[int]) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(threads, labels=[str(t) for t in threads])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlim(threads[0] / 1.25, threads[-1] * 1.25)


def plot_scaling(
    runs: pd.DataFrame, run_dir: str | os.PathLike[str], problem: str | None = None
) -> list[Path]:
    """Figure 5: time against threads, one panel per graph; one figure per problem.

    Writes ``figures/scaling-<problem>.png`` and ``.svg`` for ``problem`` (default: every
    problem of the run) and returns the written paths.
    """
    written: list[Path] = []
    for fig in scaling_figures(runs, problem):
        written += save_figure(fig, run_dir, fig.get_label())
    return written


def scaling_figures(runs: pd.DataFrame, problem: str | None = None) -> list[Figure]:
    """The figures :func:`plot_scaling` writes, each labelled with its file stem
    (``fig.get_label()``, ``scaling-<problem>``), drawn and sized to hold all they show."""
    cells = cell_stats(runs, intervals=True)
    problems = list(dict.fromkeys(cells["problem"])) if problem is None else [problem]
    if cells.empty or not set(problems) & set(cells["problem"]):
        raise NoDataError(f"no timed rows for {problem or 'any problem'}: nothing to plot")
    figs = []
    for prob in problems:
        mine = cells[cells["problem"] == prob]
        if mine.empty:
            raise NoDataError(f"no timed rows for problem {prob!r}: nothing to plot")
        cores = {g: core_count(runs[(runs["problem"] == prob) & (runs["graph"] == g)])
                 for g in dict.fromkeys(mine["graph"])}  # fmt: skip
        fig = _scaling_figure(prob, mine, cores)
        fig.set_label(f"scaling-{slug(prob)}")
        figs.append(fig)
    return figs


def _scaling_figure(problem: str, cells: pd.DataFrame, cores: dict[str, int | None]) -> Figure:
    """The scaling figure; ``cores`` maps each graph to its machine's cores (None: unknown)."""
    graphs = list(dict.fromkeys(cells["graph"]))
    ncols = min(3, len(graphs))
    nrows = math.ceil(len(graphs) / ncols)
    width = PANEL_INCHES[0] * ncols
    fig = Figure(figsize=(width, PANEL_INCHES[1] * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    styles = _styles(cells)
    handles: dict[str, object] = {}
    for ax, graph in zip(axes.flat, graphs, strict=False):
        here = cells[cells["graph"] == graph]
        for config, style in styles.items():
            line = here[here["config"] == config].sort_values("threads")
            if line.empty:
                continue
            x, med = line["threads"].to_numpy(), line["median_s"].to_numpy()
            # The median's interval; a one-row cell has none, and shows its point alone.
            lo = line["median_ci_low"].fillna(line["median_s"]).to_numpy()
            hi = line["median_ci_high"].fillna(line["median_s"]).to_numpy()
            (handle,) = ax.plot(x, med, label=config, markersize=4, **style)
            handles.setdefault(config, handle)
            if len(x) > 1:
                ax.fill_between(x, lo, hi, color=style["color"], alpha=0.15, linewidth=0)
            else:
                yerr = [(med - lo).clip(min=0), (hi - med).clip(min=0)]
                ax.errorbar(x, med, yerr=yerr, color=style["color"], capsize=3)
        counts = sorted(int(t) for t in here["threads"].unique())
        _thread_axis(ax, counts)
        if _shade_oversubscribed(ax, counts, cores.get(graph)):
            handles.update(_oversubscribed_handles(cores.get(graph)))
        ax.set_yscale("log")
        ax.set_title(layout.wrap_label(graph, layout.chars_for(PANEL_INCHES[0] - 0.6, 12)))
        ax.set_xlabel("threads")
        ax.set_ylabel("time (s)")
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes.flat[len(graphs) :]:
        ax.set_visible(False)
    columns = layout.legend_columns(list(handles), width)
    fig.legend(
        list(handles.values()), list(handles), loc="outside lower center", ncols=columns,
        frameon=False,
    )  # fmt: skip
    title = layout.wrap_label(
        f"{problem}: time vs threads (median; band: its 95% bootstrap interval)",
        layout.chars_for(width, 12),
    )
    fig.suptitle(title)
    # room for the title's and the legend's lines on top of the panels
    rows = math.ceil(len(handles) / columns) + layout.text_lines(title) * 1.2
    fig.set_size_inches(width, PANEL_INCHES[1] * nrows + layout.LINE_INCHES * rows + 0.2)
    return layout.fit_canvas(fig)


def _shade_oversubscribed(ax, threads: list[int], cores: int | None) -> bool:
    """Shade the thread counts above ``cores`` and draw the core count as a labelled line;
    False (nothing drawn) when no thread count exceeds it or the cores are unknown."""
    if cores is None or threads[-1] <= cores:
        return False
    low, high = ax.get_xlim()
    ax.axvspan(max(cores, low), high, **OVERSUBSCRIBED_SHADE)
    ax.axvline(cores, **CORE_LINE)
    ax.text(
        cores, 0.97, f" {cores} cores", transform=ax.get_xaxis_transform(), ha="left",
        va="top", fontsize=8, color=CORE_LINE["color"], clip_on=True,
    )  # fmt: skip
    ax.set_xlim(low, high)
    return True


def _oversubscribed_handles(cores: int | None) -> dict[str, object]:
    """Legend entries for the core line and the shaded region."""
    shade = {k: v for k, v in OVERSUBSCRIBED_SHADE.items() if k != "zorder"}
    return {
        f"{cores} cores (the machine's)": Line2D([], [], **CORE_LINE),
        f"oversubscribed (> {cores} threads)": Patch(**{**shade, "alpha": 0.2}),
    }


def plot_worklists(
    runs: pd.DataFrame,
    run_dir: str | os.PathLike[str],
    threads: int | None = None,
    graph: str | None = None,
    problem: str | None = None,
) -> list[Path]:
    """Figure 6: the worklist policies at one thread count on one graph, with their counters.

    Parameters
    ----------
    threads : int, optional
        Default: the largest thread count the graph's worklist rows reach.
    graph : str, optional
        Default: the first graph of the run that has worklist rows.
    problem : str, optional
        Default: of the problems with worklist rows, the first in
        :data:`llpbench.problems.PROBLEMS` (``sssp``, the paper's Figure 6, when the run has it).

    Returns
    -------
    list of Path
        ``figures/worklists-<problem>-<graph>-t<threads>.png`` and ``.svg``.

    Raises
    ------
    NoDataError
        If the run has no worklist rows for the choice; the message lists what it has.
    """
    fig = worklist_figure(runs, threads=threads, graph=graph, problem=problem)
    return save_figure(fig, run_dir, fig.get_label())


def worklist_figure(
    runs: pd.DataFrame,
    threads: int | None = None,
    graph: str | None = None,
    problem: str | None = None,
) -> Figure:
    """The figure :func:`plot_worklists` writes (same choices and errors), labelled with its
    file stem (``fig.get_label()``), drawn and sized to hold all it shows."""
    timed = timed_rows(runs)
    rows = timed[(timed["kind"] == "llp") & (timed["worklist"] != "")]
    if rows.empty:
        raise NoDataError("no worklist-solver rows in the run: nothing to compare")
    problems = list(dict.fromkeys(rows["problem"]))
    problem = problem or next(p for p in [*PROBLEMS, *problems] if p in problems)
    rows = rows[rows["problem"] == problem]
    graphs = list(dict.fromkeys(rows["graph"]))
    if not graphs:
        raise NoDataError(f"no worklist rows for {problem!r}; the run has {', '.join(problems)}")
    graph = graph or graphs[0]
    if graph not in graphs:
        raise NoDataError(f"no worklist rows on graph {graph!r}; the run has {', '.join(graphs)}")
    rows = rows[rows["graph"] == graph]
    counts = sorted(int(t) for t in rows["threads"].unique())
    threads = counts[-1] if threads is None else threads
    if threads not in counts:
        have = ", ".join(map(str, counts))
        raise NoDataError(f"no worklist rows on {graph} at {threads} threads; it has {have}")
    rows = rows[rows["threads"] == threads]
    base = timed[
        (timed["kind"] == "baseline")
        & (timed["problem"] == problem)
        & (timed["graph"] == graph)
        & (timed["threads"] == threads)
    ]
    colors = {c: s["color"] for c, s in _styles(cell_stats(runs)).items()}  # as in Figure 5
    cores = core_count(runs[(runs["problem"] == problem) & (runs["graph"] == graph)])
    fig = _worklist_figure(rows, base, problem, graph, threads, colors, cores)
    fig.set_label(f"worklists-{slug(problem)}-{slug(graph)}-t{threads}")
    return fig


def _worklist_order(configs: list[str], rows: pd.DataFrame) -> list[str]:
    def key(config: str) -> tuple[int, str]:
        wl = rows.loc[rows["config"] == config, "worklist"].iloc[0]
        rank = WORKLIST_ORDER.index(wl) if wl in WORKLIST_ORDER else len(WORKLIST_ORDER)
        return rank, config

    return sorted(configs, key=key)


def _worklist_figure(
    rows: pd.DataFrame,
    base: pd.DataFrame,
    problem: str,
    graph: str,
    threads: int,
    colors: dict[str, object],
    cores: int | None = None,
) -> Figure:
    configs = _worklist_order(list(dict.fromkeys(rows["config"])), rows)
    # the panels keep their height; slanted configuration names get room of their own below
    slant = math.sin(math.radians(_label_angle(configs))) * max(map(len, configs))
    fig = Figure(figsize=(11, 3.6 + slant * layout.INCH_PER_CHAR), layout="constrained")
    ax_time, ax_work = fig.subplots(1, 2)
    over = oversubscription_title(threads, cores)
    if over:  # the whole figure is above the core count: both panels shaded
        for ax in (ax_time, ax_work):
            ax.set_facecolor((*matplotlib.colors.to_rgb(OVERSUBSCRIBED_SHADE["color"]), 0.08))
    seconds = rows.groupby("config")["seconds"]
    med = seconds.median().reindex(configs)
    bounds = {c: median_ci(s) for c, s in seconds}
    lo = pd.Series({c: b[0] for c, b in bounds.items()}).reindex(configs).fillna(med)
    hi = pd.Series({c: b[1] for c, b in bounds.items()}).reindex(configs).fillna(med)
    x = range(len(configs))
    bar_colors = [colors.get(c, LLP_COLORS[i % len(LLP_COLORS)]) for i, c in enumerate(configs)]
    yerr = [(med - lo).clip(lower=0), (hi - med).clip(lower=0)]
    ax_time.bar(x, med, yerr=yerr, capsize=4, color=bar_colors)
    for i, value, top in zip(x, med, hi, strict=True):
        ax_time.annotate(f"{value * 1e3:.3g} ms", (i, top), ha="center", va="bottom",
                         xytext=(0, 3), textcoords="offset points", fontsize=8)  # fmt: skip
    if not base.empty:
        for config, secs in base.groupby("config")["seconds"]:
            ax_time.axhline(secs.median(), color="black", linestyle="--", label=f"{config}")
        ax_time.legend(frameon=False, fontsize=8)
    ax_time.set_xticks(list(x), labels=configs, rotation=_label_angle(configs), ha="right")
    ax_time.set_ylabel("time (s), median\nbars: its 95% interval")
    ax_time.margins(y=0.12)  # room above the tallest bar for its value
    ax_time.set_title(f"time at {threads} threads")
    _counter_panel(ax_work, rows, configs)
    title = f"{problem} on {graph}: worklist policies at {threads} threads{over}"
    fig.suptitle(layout.wrap_label(title, layout.chars_for(11, 12)))
    return layout.fit_canvas(fig)


def _label_angle(configs: list[str]) -> int:
    """Tick labels slanted enough not to run into each other: steeper when long or many."""
    return 20 if len(configs) <= 4 and max(map(len, configs)) <= 20 else 50


def _counter_panel(ax, rows: pd.DataFrame, configs: list[str]) -> None:
    """Grouped bars of the counters that explain a policy's time, per reached vertex if known."""
    has_reached = bool((rows["reached"].fillna(0) > 0).all())
    values = {}
    for name in EXPLAINING_COUNTERS:
        col = per_reached(rows, name) if has_reached else rows[name]
        values[name] = col.groupby(rows["config"]).median().reindex(configs).fillna(0.0)
    width = 0.8 / len(EXPLAINING_COUNTERS)
    for k, (name, series) in enumerate(values.items()):
        xs = [i + (k - (len(values) - 1) / 2) * width for i in range(len(configs))]
        ax.bar(xs, series.to_numpy(), width=width, label=name)
    positive = [v for s in values.values() for v in s.to_numpy() if v > 0]
    if positive and max(positive) / min(positive) > 100:
        ax.set_yscale("symlog", linthresh=min(positive))
    ax.set_xticks(list(range(len(configs))), labels=configs, rotation=_label_angle(configs),
                  ha="right")  # fmt: skip
    ax.set_ylabel("per reached vertex (median)" if has_reached else "count (median)")
    ax.set_title("work that explains the gaps")
    # beside the panel, not over its bars
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
