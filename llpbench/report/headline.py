"""The headline of a run: the best LLP configuration against its baselines, per instance and
thread count, and the counters that explain each gap.

Table 2 answers one question (the largest thread count); a reader of a whole run wants the
curve: at every thread count, how far the fastest LLP configuration is from tuned Δ-stepping
(each problem's own baseline), from GAP's C++ Δ-stepping where the run timed it, and from the
one-pass floor (the time to touch every arc once, below which no solver can go). Each ratio
comes with its 95% bootstrap interval (:mod:`llpbench.report.stats`), and a verdict says
whether the interval settles which side is faster.

The baseline is chosen as Table 2 and the problems table choose it (:func:`only_baseline`):
SSSP against Δ-stepping alone, the other problems against their fastest baseline; at the same
thread count where it ran, else at the most threads up to it (a sequential baseline).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from llpbench.report.oversubscription import mark_oversubscribed
from llpbench.report.stats import ratio_ci
from llpbench.report.store import exclusion_note, per_reached, timed_rows
from llpbench.report.tables import cell_seconds, cell_stats, only_baseline

HEADLINE_COLUMNS = [
    "problem", "graph", "threads", "best_llp", "llp_median_s", "baseline", "baseline_threads",
    "baseline_median_s", "speedup", "speedup_ci_low", "speedup_ci_high", "verdict",
    "gap_median_s", "vs_gap", "vs_gap_ci_low", "vs_gap_ci_high", "floor_s", "llp_x_floor",
    "llp_x_floor_ci_low", "llp_x_floor_ci_high",
]  # fmt: skip
#: The counters of :func:`gap_counters`, each per reached vertex (per index elsewhere).
COUNTERS = ("items", "advances", "stale", "retries", "steals", "contention", "idle", "fused")
LLP_FASTER, LLP_SLOWER, CANNOT_TELL, TOO_FEW = (
    "LLP faster", "LLP slower", "cannot tell apart", "too few rows",
)


def speedup_verdict(low: float, high: float) -> str:
    """The words for a speedup's interval: which side is faster, if the interval says."""
    if math.isnan(low) or math.isnan(high):
        return TOO_FEW
    if low > 1.0:
        return LLP_FASTER
    if high < 1.0:
        return LLP_SLOWER
    return CANNOT_TELL


def _pick(cells: pd.DataFrame, threads: int) -> pd.Series | None:
    """The fastest baseline cell at ``threads``, else at the most threads below it, else any."""
    if cells.empty:
        return None
    same = cells[cells["threads"] == threads]
    if same.empty:
        below = cells[cells["threads"] <= threads]
        same = below[below["threads"] == below["threads"].max()] if len(below) else cells
    return same.loc[same["median_s"].idxmin()]


def _baseline_cells(runs: pd.DataFrame, against: str | None) -> pd.DataFrame:
    cells = cell_stats(only_baseline(runs, against))
    return cells[cells["kind"] == "baseline"]


def headline_table(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per instance and thread count with LLP rows: the fastest LLP configuration,
    its baseline and the speedup (baseline / LLP, above 1: LLP wins) with its interval and
    verdict, the same against GAP (``vs_gap``; NaN without GAP rows) and the LLP time in
    one-pass floors (``llp_x_floor``; NaN without floor rows)."""
    cells = cell_stats(runs)
    timed = timed_rows(runs)
    own = _baseline_cells(runs, None)
    gap = _baseline_cells(runs, "gap")
    rows: list[dict[str, Any]] = []
    for (problem, graph, variant), group in cells.groupby(["problem", "graph", "variant"],
                                                          sort=False):
        llp = group[group["kind"] == "llp"]
        floor = group[group["kind"] == "floor"]
        mine = (own["problem"] == problem) & (own["graph"] == graph) & (own["variant"] == variant)
        theirs = (gap["problem"] == problem) & (gap["graph"] == graph)
        for threads in sorted(int(t) for t in llp["threads"].unique()):
            here = llp[llp["threads"] == threads]
            best = here.loc[here["median_s"].idxmin()]
            llp_s = cell_seconds(timed, problem, graph, best["config"], threads)
            row: dict[str, Any] = {c: math.nan for c in HEADLINE_COLUMNS}
            row.update(problem=problem, graph=graph, threads=threads, best_llp=best["config"],
                       llp_median_s=float(best["median_s"]), baseline="-", verdict=TOO_FEW,
                       baseline_threads=pd.NA)  # fmt: skip
            base = _pick(own[mine], threads)
            if base is not None:
                base_s = cell_seconds(timed, problem, graph, base["config"], int(base["threads"]))
                low, high = ratio_ci(base_s, llp_s)
                row.update(baseline=base["config"], baseline_threads=int(base["threads"]),
                           baseline_median_s=float(base["median_s"]),
                           speedup=float(base["median_s"]) / float(best["median_s"]),
                           speedup_ci_low=low, speedup_ci_high=high,
                           verdict=speedup_verdict(low, high))  # fmt: skip
            g = _pick(gap[theirs], threads)
            if g is not None:
                g_s = cell_seconds(timed, problem, graph, g["config"], int(g["threads"]))
                low, high = ratio_ci(g_s, llp_s)
                row.update(gap_median_s=float(g["median_s"]), vs_gap_ci_low=low,
                           vs_gap=float(g["median_s"]) / float(best["median_s"]),
                           vs_gap_ci_high=high)  # fmt: skip
            if not floor.empty:
                f = floor.loc[floor["median_s"].idxmin()]
                f_s = cell_seconds(timed, problem, graph, f["config"], int(f["threads"]))
                low, high = ratio_ci(llp_s, f_s)
                row.update(floor_s=float(f["median_s"]), llp_x_floor_ci_low=low,
                           llp_x_floor=float(best["median_s"]) / float(f["median_s"]),
                           llp_x_floor_ci_high=high)  # fmt: skip
            rows.append(row)
    df = pd.DataFrame(rows, columns=HEADLINE_COLUMNS)
    df["baseline_threads"] = df["baseline_threads"].astype("Int64")
    for col in ("gap_median_s", "vs_gap", "vs_gap_ci_low", "vs_gap_ci_high"):
        if df[col].isna().all():
            df = df.drop(columns=col)  # no GAP rows: no empty columns
    df.attrs["notes"] = [n for n in [
        "speedup = baseline time / best LLP time (above 1: LLP wins), with its 95% bootstrap "
        "interval; the verdict names a winner only when the interval excludes 1",
        "llp x floor = best LLP time / the one-pass floor (the arc sweep, one thread)",
        exclusion_note(runs),
    ] if n]
    return mark_oversubscribed(df, runs)


def summary_lines(headline: pd.DataFrame) -> list[str]:
    """Plain sentences: per problem and thread count (the fewest and the most), on how many
    instances LLP is faster, slower, or not told apart from its baseline."""
    lines = []
    for problem, group in headline.groupby("problem", sort=False):
        counts = sorted(group["threads"].unique())
        for threads in dict.fromkeys([counts[0], counts[-1]]):
            at = group[group["threads"] == threads]
            base = ", ".join(sorted(set(at["baseline"]) - {"-"})) or "no baseline"
            tally = at["verdict"].value_counts()
            said = ", ".join(f"{tally[v]} {v}" for v in (LLP_FASTER, LLP_SLOWER, CANNOT_TELL,
                                                           TOO_FEW) if v in tally)
            speedups = at["speedup"].dropna()
            span = (f"; speedup {speedups.min():.3g} to {speedups.max():.3g}"
                    if len(speedups) else "")
            lines.append(f"{problem} at {threads} thread{'s' if threads > 1 else ''}, best LLP "
                         f"vs {base} on {len(at)} instance(s): {said}{span}")
    return lines


def _per_vertex(runs: pd.DataFrame, problem: str, graph: str, config: str, threads: int,
                counter: str) -> float:
    rows = timed_rows(runs)
    rows = rows[(rows["problem"] == problem) & (rows["graph"] == graph)
                & (rows["config"] == config) & (rows["threads"] == threads)]
    if rows.empty:
        return math.nan
    return float(per_reached(rows, counter).median())


def gap_counters(runs: pd.DataFrame, headline: pd.DataFrame) -> pd.DataFrame:
    """For each headline row, the best LLP cell's counters per reached vertex (medians over
    its rows), the baseline's stale work, and a sentence that reads them: what the LLP side
    did that the baseline did not."""
    rows = []
    for _, h in headline.iterrows():
        p, g, t = h["problem"], h["graph"], int(h["threads"])
        row: dict[str, Any] = {"problem": p, "graph": g, "threads": t, "best_llp": h["best_llp"]}
        for c in COUNTERS:
            row[f"{c}_per_reached"] = _per_vertex(runs, p, g, h["best_llp"], t, c)
        row["baseline"] = h["baseline"]
        base_t = h["baseline_threads"]
        row["baseline_stale_per_reached"] = (
            math.nan if pd.isna(base_t) else _per_vertex(runs, p, g, h["baseline"], int(base_t),
                                                         "stale"))  # fmt: skip
        row["explanation"] = explain(row, h.get("speedup", math.nan))
        rows.append(row)
    columns = ["problem", "graph", "threads", "best_llp",
               *[f"{c}_per_reached" for c in COUNTERS], "baseline",
               "baseline_stale_per_reached", "explanation"]  # fmt: skip
    df = pd.DataFrame(rows, columns=columns)
    df.attrs["notes"] = ["counters per reached vertex (per index of the state for the other "
                         "problems), medians over the cell's rows"]
    return df


def explain(row: dict[str, Any], speedup: float) -> str:
    """One sentence reading a row of :func:`gap_counters`."""
    def v(name: str) -> float:
        x = row.get(f"{name}_per_reached", math.nan)
        return math.nan if x is None or pd.isna(x) else float(x)

    parts = []
    if not math.isnan(speedup):
        side = "faster" if speedup >= 1 else "slower"
        factor = speedup if speedup >= 1 else 1 / speedup
        parts.append(f"{row['best_llp']} is {factor:.3g}x {side} than {row['baseline']}")
    if v("advances") > 1.05:
        parts.append(f"it advanced each reached vertex {v('advances'):.3g} times (1 is the "
                     "least: the rest is re-correction a settled order avoids)")
    if v("items") > 0:
        share = v("stale") / v("items") if v("items") else math.nan
        parts.append(f"it popped {v('items'):.3g} items per vertex, "
                     f"{share:.0%} of them stale (no longer forbidden when popped)")
    for name, words in (("retries", "lost atomic races"), ("contention", "lock waits"),
                        ("steals", "steals"), ("fused", "indices fused into a worker's run")):
        if v(name) > 0.005:
            parts.append(f"{v(name):.3g} {words} per vertex")
    base_stale = row.get("baseline_stale_per_reached", math.nan)
    if base_stale is not None and not pd.isna(base_stale) and base_stale > 0:
        parts.append(f"{row['baseline']} had {float(base_stale):.3g} stale entries per vertex")
    return "; ".join(parts) if parts else "no counters recorded"
