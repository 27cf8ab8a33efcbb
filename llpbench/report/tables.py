"""The paper's tables, computed from a run's rows: Table 1 (datasets), Table 2 (speedups over
tuned Δ-stepping), the single-thread overhead of LLP, and LLP against each other problem's
baseline.

Every table function is pure (a DataFrame in, a DataFrame out) so that tests can check the
numbers; the renderers turn a table into a rich table for the terminal or into
``<run>/tables/<name>.csv`` and ``.md`` files.

How a cell's time is summarized. A cell is one configuration on one instance at one thread
count: rows with equal ``(problem, graph, kind, config, threads)``. Its time is the **median
over all its rows** (every repetition of every source): the median resists the odd slow
repetition (a page fault, a preempted thread), and pooling sources weighs each source equally
because every source runs the same number of repetitions. GAP reports the mean over trials;
with few repetitions on a shared machine the median is the steadier choice. Rows that failed
verification, or carry no time, never enter a median; each table's notes count them.

How far to trust a ratio. Every speedup and ratio comes with its 95% bootstrap interval
(``*_ci_low``, ``*_ci_high``; :mod:`llpbench.report.stats`), both sides resampled from their
stored rows; an interval that includes 1.0 means the rows cannot tell the two apart. Cells
whose repetitions disagree (:mod:`llpbench.report.instability`) are named in the notes.

Where a table has a ``threads`` column, an ``oversubscribed`` column beside it says whether
that thread count exceeded the machine's cores (:mod:`llpbench.report.oversubscription`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from llpbench.io import write_text_atomic
from llpbench.report.instability import instability_note
from llpbench.report.oversubscription import mark_oversubscribed
from llpbench.report.stats import median_ci, ratio_ci
from llpbench.report.store import exclusion_note, per_reached, timed_rows

CELL = ["problem", "graph", "variant", "kind", "config", "threads"]
TABLES_DIR = "tables"


# --------------------------------------------------------------------------- cells


def cell_stats(runs: pd.DataFrame, intervals: bool = False) -> pd.DataFrame:
    """Median, min and max seconds and the row count of every cell, in first-seen order;
    with ``intervals``, also the 95% bootstrap interval of each median (``median_ci_low``,
    ``median_ci_high``; NaN for a cell of one row)."""
    timed = timed_rows(runs)
    cols = [*CELL, "median_s", "min_s", "max_s", "rows"]
    cols += ["median_ci_low", "median_ci_high"] if intervals else []
    if timed.empty:
        return pd.DataFrame(columns=cols)
    grouped = timed.groupby(CELL, sort=False)["seconds"]
    out = grouped.agg(median_s="median", min_s="min", max_s="max", rows="size").reset_index()
    if intervals:
        bounds = [median_ci(secs) for _, secs in grouped]
        out["median_ci_low"] = [lo for lo, _ in bounds]
        out["median_ci_high"] = [hi for _, hi in bounds]
    return out[cols]


def cell_seconds(timed: pd.DataFrame, problem: str, graph: str, config: str, threads: int):
    """The timed seconds of one cell (all its repetitions and sources)."""
    mask = (
        (timed["problem"] == problem)
        & (timed["graph"] == graph)
        & (timed["config"] == config)
        & (timed["threads"] == threads)
    )
    return timed.loc[mask, "seconds"].to_numpy(dtype=float)


def _with_notes(df: pd.DataFrame, notes: Iterable[str | None]) -> pd.DataFrame:
    df.attrs["notes"] = [n for n in notes if n]
    return df


def _fastest(cells: pd.DataFrame) -> pd.Series:
    return cells.loc[cells["median_s"].idxmin()]


def _delta_used(runs: pd.DataFrame, problem: str, graph: str, config: str, threads: int):
    """The Δ of a baseline cell: its one value, or the median when sources were tuned apart."""
    timed = timed_rows(runs)
    rows = timed[
        (timed["problem"] == problem)
        & (timed["graph"] == graph)
        & (timed["config"] == config)
        & (timed["threads"] == threads)
    ]
    deltas = rows["delta"].dropna()
    if deltas.empty:
        return math.nan, None
    values = sorted(deltas.unique())
    if len(values) == 1:
        return float(values[0]), None
    note = f"Δ varied on {graph} ({values[0]:g}..{values[-1]:g}); the median is shown"
    return float(deltas.median()), note


def _sides(group: pd.DataFrame, problem: str, graph: str, notes: list[str]):
    """(LLP cells, baseline cells) of one instance, or None (and a note) if one side is
    missing."""
    llp, base = group[group["kind"] == "llp"], group[group["kind"] == "baseline"]
    if llp.empty or base.empty:
        missing = "LLP" if llp.empty else "baseline"
        notes.append(f"{problem} on {graph}: no timed {missing} rows, left out")
        return None
    return llp, base


def _compare(runs: pd.DataFrame, keep) -> tuple[list[dict[str, Any]], list[str]]:
    """Best LLP cell at each instance's largest thread count against its fastest baseline,
    with the instance's one-pass floor.

    The baseline is taken at the same thread count; where it was not run there (a sequential
    baseline), its fastest thread count is used and its ``baseline_threads`` says so.
    """
    cells = cell_stats(runs)
    timed = timed_rows(runs)
    rows, notes = [], []
    for (problem, graph), group in cells.groupby(["problem", "graph"], sort=False):
        if not keep(problem) or (sides := _sides(group, problem, graph, notes)) is None:
            continue
        llp, base = sides
        threads = int(llp["threads"].max())
        best = _fastest(llp[llp["threads"] == threads])
        same = base[base["threads"] == threads]
        b = _fastest(same if not same.empty else base)
        delta, note = _delta_used(runs, problem, graph, b["config"], int(b["threads"]))
        notes.append(note)
        low, high = ratio_ci(
            cell_seconds(timed, problem, graph, b["config"], int(b["threads"])),
            cell_seconds(timed, problem, graph, best["config"], threads),
        )
        floor_s = float(group[group["kind"] == "floor"]["median_s"].min())  # NaN: none
        rows.append(
            {
                "problem": problem,
                "graph": graph,
                "threads": threads,
                "best_llp": best["config"],
                "llp_median_s": float(best["median_s"]),
                "baseline": b["config"],
                "baseline_threads": int(b["threads"]),
                "baseline_median_s": float(b["median_s"]),
                "delta": delta,
                "speedup": float(b["median_s"]) / float(best["median_s"]),
                "speedup_ci_low": low,
                "speedup_ci_high": high,
                "floor_s": floor_s,
                "llp_x_floor": float(best["median_s"]) / floor_s,
                "baseline_x_floor": float(b["median_s"]) / floor_s,
            }
        )
    return rows, notes


def is_baseline(rows: pd.DataFrame, name: str, default: str | None) -> pd.Series:
    """Which baseline rows are baseline ``name``: named by the sweep (``baseline/NAME``),
    reporting ``name`` as their config, or the plain ``baseline`` when ``name`` is the
    problem's ``default``."""
    solver = rows["solver"].astype(str) if "solver" in rows else pd.Series("", rows.index)
    hit = (rows["config"] == name) | (solver == f"baseline/{name}") | (solver == name)
    return hit | ((solver == "baseline") & (name == default))


def only_baseline(runs: pd.DataFrame, against: str | None) -> pd.DataFrame:
    """``runs`` with every baseline row that is not baseline ``against`` left out; LLP rows
    are kept. ``against`` None keeps the default of a problem compared with its default
    (SSSP: Δ-stepping, not a peer that happened to be faster) and, for the other problems,
    every baseline (their fastest)."""
    from llpbench.problems import PROBLEMS, compared_with_default

    if runs.empty:
        return runs
    keep = runs["kind"] != "baseline"
    for problem in runs["problem"].unique():
        if problem not in PROBLEMS or (against is None and not compared_with_default(problem)):
            keep |= runs["problem"] == problem  # left as it is
            continue
        from llpbench.baselines.selection import default_baseline
        from llpbench.problems import problem_module

        default = default_baseline(problem_module(problem))
        mine = runs["problem"] == problem
        keep |= mine & is_baseline(runs, against or default, default)
    return runs[keep]


def _used_cells(df: pd.DataFrame, pairs: Iterable[tuple[str, str]]) -> list[tuple]:
    """The (problem, graph, config, threads) cells a table's rows were computed from."""
    graph = "graph" if "graph" in df.columns else "instance"
    out = []
    for config_col, threads_col in pairs:
        out += [
            (r["problem"], r[graph], r[config_col], r[threads_col] if threads_col else 1)
            for _, r in df.iterrows()
        ]
    return out


# --------------------------------------------------------------------------- the tables

SPEEDUP_COLUMNS = [
    "problem", "graph", "threads", "best_llp", "llp_median_s", "baseline", "baseline_threads",
    "baseline_median_s", "delta", "speedup", "speedup_ci_low", "speedup_ci_high",
    "floor_s", "llp_x_floor", "baseline_x_floor",
]  # fmt: skip


def speedup_table(
    runs: pd.DataFrame,
    problems: Iterable[str] | None = ("sssp",),
    against: str | None = None,
) -> pd.DataFrame:
    """Table 2: per graph, the fastest LLP configuration against the tuned baseline.

    Both sides at the largest thread count the graph's LLP rows reach; ``speedup`` is
    baseline time / LLP time, so above 1 means LLP wins, and ``speedup_ci_low``/``_high`` its
    95% bootstrap interval. ``delta`` is the Δ the baseline used. ``floor_s`` is the graph's
    one-pass floor (``floor/...`` rows, one thread; NaN without them) and ``llp_x_floor`` /
    ``baseline_x_floor`` each side's time in floors (the "x floor" columns).

    The baseline is the one named ``against`` (``gap``, ``networkit``, ...); by default SSSP's
    own ``delta-stepping`` (a run timing several SSSP baselines is compared with it alone,
    never with whichever happened to be fastest) and the other problems' fastest.

    Parameters
    ----------
    runs : DataFrame
        A run's rows (:func:`llpbench.report.store.load_runs`).
    problems : iterable of str or None
        Problems to include; None includes all (the paper's Table 2 is SSSP alone).
    """
    wanted = None if problems is None else set(problems)
    runs = only_baseline(runs, against)
    rows, notes = _compare(runs, lambda p: wanted is None or p in wanted)
    df = pd.DataFrame(rows, columns=SPEEDUP_COLUMNS)
    mine = runs if wanted is None else runs[runs["problem"].isin(wanted)]
    used = _used_cells(df, [("best_llp", "threads"), ("baseline", "baseline_threads")])
    df = _with_notes(df, [*notes, exclusion_note(mine), instability_note(runs, used)])
    return mark_oversubscribed(df, runs)


PROBLEMS_COLUMNS = [
    "problem", "instance", "size", "variant", "threads", "best_llp", "llp_median_s",
    "baseline", "baseline_threads", "baseline_median_s", "speedup", "speedup_ci_low",
    "speedup_ci_high", "floor_s", "llp_x_floor", "items_per_index", "advances_per_index",
    "stale_per_index", "retries_per_index",
]  # fmt: skip


def _size_of(instance: str) -> float:
    """The size of a generated instance (``size=N``), NaN for a graph."""
    head, _, n = str(instance).partition("=")
    return float(n) if head == "size" and n.isdigit() else math.nan


def problems_table(runs: pd.DataFrame, exclude: Iterable[str] = ("sssp",)) -> pd.DataFrame:
    """Per problem, instance (and variant) and thread count: the best LLP configuration
    against the problem's fastest baseline, with the work that explains the LLP time.

    The baseline is the fastest baseline cell at up to the same thread count
    (``baseline_threads`` says which): T threads may always run the sequential algorithm, so
    a parallel baseline that is slower than its one-thread run (stable marriage's parallel
    Gale-Shapley on two cores, Δ-stepping on a road network) does not flatter LLP;
    ``speedup`` is baseline time / LLP time, above 1 means LLP wins. ``items_per_index``,
    ``advances_per_index``, ``stale_per_index`` and ``retries_per_index`` are
    the best LLP cell's counters over the indices of its state vector (medians over the
    cell's rows; for graph problems, over the reached vertices): how often each index was
    popped, advanced, popped for nothing, and failed an atomic update (reduction: a look-back
    too early). ``size``: a generated instance's; ``floor_s``: the problem's floor
    (``floor/...`` rows: the reduction's copy; NaN without), ``llp_x_floor`` LLP in floors.
    """
    skip = set(exclude)
    cells = cell_stats(runs)
    timed = timed_rows(runs)
    rows, notes = [], []
    keys = ["problem", "graph", "variant"]
    for (problem, graph, variant), group in cells.groupby(keys, sort=False):
        if problem in skip or (sides := _sides(group, problem, graph, notes)) is None:
            continue
        llp, base = sides
        floor_s = float(group[group["kind"] == "floor"]["median_s"].min())  # NaN: none
        here = timed[
            (timed["problem"] == problem) & (timed["graph"] == graph)
            & (timed["variant"] == variant)
        ]
        for threads in sorted(llp["threads"].unique()):
            best = _fastest(llp[llp["threads"] == threads])
            upto = base[base["threads"] <= threads]
            b = _fastest(upto if not upto.empty else base)
            work = here[
                (here["kind"] == "llp") & (here["config"] == best["config"])
                & (here["threads"] == threads)
            ]
            base_s = cell_seconds(here, problem, graph, b["config"], int(b["threads"]))
            low, high = ratio_ci(base_s, work["seconds"])
            rows.append(
                {
                    "problem": problem,
                    "instance": graph,
                    "size": _size_of(graph),
                    "variant": variant,
                    "threads": int(threads),
                    "best_llp": best["config"],
                    "llp_median_s": float(best["median_s"]),
                    "baseline": b["config"],
                    "baseline_threads": int(b["threads"]),
                    "baseline_median_s": float(b["median_s"]),
                    "speedup": float(b["median_s"]) / float(best["median_s"]),
                    "speedup_ci_low": low,
                    "speedup_ci_high": high,
                    "floor_s": floor_s,
                    "llp_x_floor": float(best["median_s"]) / floor_s,
                    **{f"{c}_per_index": float(per_reached(work, c).median()) if c in work
                       else math.nan for c in ("items", "advances", "stale", "retries")},
                }
            )
    df = pd.DataFrame(rows, columns=PROBLEMS_COLUMNS)
    used = _used_cells(df, [("best_llp", "threads"), ("baseline", "baseline_threads")])
    df = _with_notes(df, [*notes, exclusion_note(runs[~runs["problem"].isin(skip)]),
                          instability_note(runs, used)])  # fmt: skip
    return mark_oversubscribed(df, runs)


BASELINES_COLUMNS = [
    "problem", "instance", "variant", "threads", "baseline", "baseline_median_s", "best_llp",
    "llp_median_s", "speedup",
]  # fmt: skip


def baselines_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Every baseline of a run (each problem's own, its named alternatives, external peers)
    against the best LLP configuration on the same instance at the same thread count.

    One row per instance, thread count and baseline, fastest baseline first; ``speedup`` is
    baseline time / best LLP time (above 1: LLP wins). A baseline run at a thread count with
    no LLP rows is left out.
    """
    cells = cell_stats(runs)
    rows, notes = [], []
    keys = ["problem", "graph", "variant", "threads"]
    for (problem, graph, variant, threads), group in cells.groupby(keys, sort=False):
        if (sides := _sides(group, problem, graph, notes)) is None:
            continue
        llp, base = sides
        best = _fastest(llp)
        for _, b in base.sort_values("median_s").iterrows():
            rows.append(
                {
                    "problem": problem,
                    "instance": graph,
                    "size": _size_of(graph),
                    "variant": variant,
                    "threads": int(threads),
                    "baseline": b["config"],
                    "baseline_median_s": float(b["median_s"]),
                    "best_llp": best["config"],
                    "llp_median_s": float(best["median_s"]),
                    "speedup": float(b["median_s"]) / float(best["median_s"]),
                }
            )
    df = pd.DataFrame(rows, columns=BASELINES_COLUMNS)
    return mark_oversubscribed(_with_notes(df, [*dict.fromkeys(notes), exclusion_note(runs)]), runs)


OVERHEAD_COLUMNS = [
    "problem", "graph", "config", "llp_median_s", "baseline", "baseline_median_s", "ratio",
    "ratio_ci_low", "ratio_ci_high", "items_per_reached", "advances_per_reached",
    "stale_per_reached",
]  # fmt: skip


def overhead_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Single-thread cost of LLP: each LLP configuration at one thread against the baseline.

    ``ratio`` is LLP time / baseline time (the paper reports LLP about 10x slower on one
    thread), ``ratio_ci_low``/``_high`` its 95% bootstrap interval; the work counters per
    reached vertex (medians over the cell's rows) show where the extra time goes: items
    popped, advances made and stale pops for each vertex the solve reached.
    """
    cells = cell_stats(runs)
    one = cells[cells["threads"] == 1]
    timed = timed_rows(runs)
    timed = timed[timed["threads"] == 1]
    rows, notes = [], []
    for (problem, graph), group in one.groupby(["problem", "graph"], sort=False):
        llp, base = group[group["kind"] == "llp"], group[group["kind"] == "baseline"]
        if llp.empty or base.empty:
            missing = "LLP" if llp.empty else "baseline"
            notes.append(f"{problem} on {graph}: no one-thread {missing} rows, left out")
            continue
        b = _fastest(base)
        here = timed[(timed["problem"] == problem) & (timed["graph"] == graph)]
        base_s = here.loc[here["config"] == b["config"], "seconds"]
        for _, cell in llp.iterrows():
            mine = here[here["config"] == cell["config"]]
            low, high = ratio_ci(mine["seconds"], base_s)
            rows.append(
                {
                    "problem": problem,
                    "graph": graph,
                    "config": cell["config"],
                    "llp_median_s": float(cell["median_s"]),
                    "baseline": b["config"],
                    "baseline_median_s": float(b["median_s"]),
                    "ratio": float(cell["median_s"]) / float(b["median_s"]),
                    "ratio_ci_low": low,
                    "ratio_ci_high": high,
                    "items_per_reached": float(per_reached(mine, "items").median()),
                    "advances_per_reached": float(per_reached(mine, "advances").median()),
                    "stale_per_reached": float(per_reached(mine, "stale").median()),
                }
            )
    df = pd.DataFrame(rows, columns=OVERHEAD_COLUMNS)
    used = _used_cells(df, [("config", None), ("baseline", None)])
    return _with_notes(df, [*notes, exclusion_note(runs), instability_note(runs, used)])


DATASET_COLUMNS = [
    "graph", "family", "vertices", "edges", "edges_are", "avg_degree", "weights", "weight_range",
    "source", "origin",
]  # fmt: skip


def graph_names(runs: pd.DataFrame) -> list[str]:
    """The graphs a run used, in first-seen order (generated, non-graph instances left out)."""
    graphs = runs[(runs["m"].fillna(0) > 0) & ~runs["graph"].str.startswith("size=")]
    return list(dict.fromkeys(graphs["graph"]))


def datasets_table(
    graph_names: Iterable[str], *, cache_dir: str | os.PathLike[str] | None = None
) -> pd.DataFrame:
    """Table 1: the graphs, their sizes and weights, measured from the graphs themselves.

    Each graph is loaded through the registry (from the cache, or built) and measured with
    :func:`llpbench.graphs.stats.graph_stats`, so the table can never disagree with what was
    benchmarked. ``edges`` counts undirected edges for an undirected graph and arcs for a
    directed one (``edges_are`` says which); ``avg_degree`` is arcs per vertex (for an
    undirected graph, 2|E|/|V|).
    """
    from llpbench.graphs.registry import load_graph, resolve
    from llpbench.graphs.stats import graph_stats

    rows = []
    for name in dict.fromkeys(graph_names):
        spec = resolve(name)
        graph = load_graph(spec, cache_dir=cache_dir)
        stats = graph_stats(graph, bfs_samples=0)
        undirected = not stats["directed"]
        rule = spec.weights
        if rule == "file":
            rule = str(graph.provenance.get("weights", "file"))
        else:
            rule = f"{rule} (seed {spec.weight_seed})"
        low, high = stats["weight_min"], stats["weight_max"]
        rows.append(
            {
                "graph": spec.name,
                "family": spec.family,
                "vertices": int(stats["n"]),
                "edges": int(stats["undirected_edges"] if undirected else stats["m"]),
                "edges_are": "undirected edges" if undirected else "arcs",
                "avg_degree": float(stats["degree_mean"]),
                "weights": rule,
                "weight_range": "" if low is None else f"{low:g}..{high:g}",
                "source": spec.source,
                "origin": spec.source_label,
            }
        )
    return _with_notes(pd.DataFrame(rows, columns=DATASET_COLUMNS), [])


# --------------------------------------------------------------------------- rendering


def _fmt(value: Any) -> str:
    if value is None or value is pd.NA:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    return str(value)


def _plain(v: Any) -> Any:
    return v.item() if hasattr(v, "item") else v  # numpy scalars to Python ones


def _cells(df: pd.DataFrame) -> list[list[str]]:
    return [[_fmt(_plain(v)) for v in row] for row in df.itertuples(index=False)]


def _numeric(df: pd.DataFrame) -> list[bool]:
    return [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]


CI_LOW, CI_HIGH = "_ci_low", "_ci_high"


def join_intervals(df: pd.DataFrame) -> pd.DataFrame:
    """Each ``X_ci_low``/``X_ci_high`` pair as one text column ``X 95% CI`` ("[0.97, 1.1]")
    in the low column's place: how a reader wants an interval, not as two numbers apart."""
    out = df.copy()
    for col in [c for c in df.columns if str(c).endswith(CI_LOW)]:
        high = str(col)[: -len(CI_LOW)] + CI_HIGH
        if high not in df.columns:
            continue
        text = [
            "-" if pd.isna(lo) or pd.isna(hi) else f"[{lo:.3g}, {hi:.3g}]"
            for lo, hi in zip(df[col], df[high], strict=True)
        ]
        out[col] = text
        out = out.drop(columns=[high]).rename(columns={col: "95% CI"})
    out.attrs = dict(df.attrs)
    return out


def _for_terminal(df: pd.DataFrame) -> pd.DataFrame:
    """Times in milliseconds and short headers (words, not identifiers) for a terminal."""
    out = join_intervals(df)
    df = out.copy()
    names = {}
    for col in df.columns:
        name = str(col)
        if name.endswith("_s") and pd.api.types.is_numeric_dtype(df[col]):
            out[col] = df[col] * 1e3
            name = name[:-2].replace("_median", "") + " ms"
        names[col] = (
            name.replace("_per_reached", "/v").replace("_per_index", "/index").replace("_", " ")
        )
    return out.rename(columns=names)


def to_rich(df: pd.DataFrame, title: str):
    """A :class:`rich.table.Table` of ``df`` (numbers right-aligned), its notes as caption."""
    from rich.table import Table

    table = Table(title=title, title_justify="left", caption_justify="left")
    shown = _for_terminal(df)
    if len(shown) == 1:  # one row reads best as a column of name: value pairs
        shown = pd.DataFrame({"": [str(c) for c in shown.columns],
                              "value": [_fmt(_plain(v)) for v in shown.iloc[0]]})
    constant = [c for c in shown.columns if len(shown) > 1 and shown[c].nunique(dropna=False) == 1]
    same = [f"{c}: {_fmt(_plain(shown[c].iloc[0]))}" for c in constant]
    shown = shown.drop(columns=constant)
    for i, (col, numeric) in enumerate(zip(shown.columns, _numeric(shown), strict=True)):
        # the first column names the row (a graph, an instance): never cut inside a name
        table.add_column(str(col), justify="right" if numeric else "left", overflow="fold",
                         no_wrap=i == 0)
    for row in _cells(shown):
        table.add_row(*row)
    notes = ([f"every row: {'; '.join(same)}"] if same else []) + (df.attrs.get("notes") or [])
    if notes:
        table.caption = "\n".join(f"Note: {n}" for n in notes)
    return table


def to_markdown(df: pd.DataFrame, title: str | None = None) -> str:
    """A GitHub-flavoured Markdown table (``tabulate`` is not a dependency), notes below."""

    def esc(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    notes = df.attrs.get("notes") or []
    df = join_intervals(df)
    lines = [f"**{esc(title)}**", ""] if title else []
    lines.append("| " + " | ".join(esc(str(c)) for c in df.columns) + " |")
    lines.append("| " + " | ".join("---:" if n else "---" for n in _numeric(df)) + " |")
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in _cells(df)]
    if notes:
        lines.append("")
        lines += [f"Note: {esc(n)}  " for n in notes]
    return "\n".join(lines) + "\n"


def write_table(
    df: pd.DataFrame, run_dir: str | os.PathLike[str], name: str, title: str | None = None
) -> list[Path]:
    """Write ``<run_dir>/tables/<name>.csv`` (full precision) and ``<name>.md``; return both."""
    folder = Path(run_dir) / TABLES_DIR
    csv = write_text_atomic(folder / f"{name}.csv", df.to_csv(index=False), parents=True)
    md = write_text_atomic(folder / f"{name}.md", to_markdown(df, title), parents=True)
    return [csv, md]
