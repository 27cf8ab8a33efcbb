"""Run B against run A, cell by cell: is the difference real?

A cell is one configuration on one input at one thread count (problem, graph, config,
threads). For every cell both runs hold, the rows of the instances (sources, sizes, seeds)
both runs timed are pooled per run, and :func:`llpbench.report.stats.difference` gives the
ratio of medians B / A (above 1: B is slower), its 95% bootstrap interval, the Mann-Whitney
p-value and the verdict: "slower" or "faster" only when the interval excludes 1.0 *and*
p < 0.05, otherwise "not significant". Cells only one run holds, and cells whose repetitions
were unstable in either run (:mod:`llpbench.report.instability`), are named in the notes.

:func:`regressions` is what ``--fail-if-slower`` checks: significantly slower cells whose
ratio exceeds 1 + the threshold. :func:`machine_differences` sets the two runs' machine
records side by side, because a "regression" measured on another machine is no regression.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from llpbench.bench.machine import STABLE_FIELDS, UNAVAILABLE
from llpbench.errors import SpecError
from llpbench.report.instability import instability_table
from llpbench.report.stats import ALPHA, SLOWER, difference, rows_for_alpha, smallest_p
from llpbench.report.store import exclusion_note, load_meta, timed_rows

CELL = ["problem", "graph", "config", "threads"]
INSTANCE = ["source", "size", "seed"]
COLUMNS = [
    *CELL, "a_median_s", "b_median_s", "ratio", "ratio_ci_low", "ratio_ci_high", "p_value",
    "verdict", "rows_a", "rows_b", "unstable_in",
]  # fmt: skip


def _instances(rows: pd.DataFrame) -> set[tuple]:
    return set(rows[INSTANCE].astype(str).itertuples(index=False, name=None))


def _on(rows: pd.DataFrame, instances: set[tuple]) -> pd.DataFrame:
    keys = rows[INSTANCE].astype(str).itertuples(index=False, name=None)
    return rows[[k in instances for k in keys]]


def compare_runs(runs_a: pd.DataFrame, runs_b: pd.DataFrame) -> pd.DataFrame:
    """One row per cell both runs timed: medians, ratio B/A, interval, p-value, verdict.

    ``attrs["notes"]`` says which cells one run lacks, which rows were left out, and which
    cells were unstable.
    """
    timed_a, timed_b = timed_rows(runs_a), timed_rows(runs_b)
    groups_a = dict(list(timed_a.groupby(CELL, sort=False)))
    groups_b = dict(list(timed_b.groupby(CELL, sort=False)))
    unstable = {
        side: {tuple(k) for k in instability_table(runs)[CELL].itertuples(index=False)}
        for side, runs in (("A", runs_a), ("B", runs_b))
    }
    rows, notes = [], []
    instances: dict[tuple, int] = {}  # cell -> instances (sources, sizes, seeds) both timed
    for key, a in groups_a.items():
        b = groups_b.get(key)
        if b is None:
            continue
        common = _instances(a) & _instances(b)
        if not common:
            notes.append(f"{_label(key)}: no instance (source, size, seed) timed in both runs")
            continue
        a, b = _on(a, common), _on(b, common)
        instances[key] = len(common)
        d = difference(a["seconds"], b["seconds"])
        rows.append({
            **dict(zip(CELL, key, strict=True)),
            "a_median_s": float(a["seconds"].median()),
            "b_median_s": float(b["seconds"].median()),
            "ratio": d.ratio,
            "ratio_ci_low": d.low,
            "ratio_ci_high": d.high,
            "p_value": d.p_value,
            "verdict": d.verdict,
            "rows_a": len(a),
            "rows_b": len(b),
            "unstable_in": ", ".join(s for s in ("A", "B") if key in unstable[s]) or "-",
        })  # fmt: skip
    only_a = [k for k in groups_a if k not in groups_b]
    only_b = [k for k in groups_b if k not in groups_a]
    for side, keys in (("A", only_a), ("B", only_b)):
        if keys:
            more = f" and {len(keys) - 3} more" if len(keys) > 3 else ""
            named = ", ".join(_label(k) for k in keys[:3])
            notes.append(f"{len(keys)} cells only in run {side}: {named}{more}")
    df = pd.DataFrame(rows, columns=COLUMNS)
    notes.append(_sample_size_note(df, instances))
    shaky = df[df["unstable_in"] != "-"]
    if len(shaky):
        notes.append(f"{len(shaky)} cells were unstable in a run (column unstable_in): their "
                     "verdicts rest on noisy repetitions")
    notes += [_side_note("A", exclusion_note(runs_a)), _side_note("B", exclusion_note(runs_b))]
    df.attrs["notes"] = [
        "ratio = median B / median A (above 1: B slower); significant only if the 95% "
        "interval excludes 1 and Mann-Whitney p < 0.05",
        *[n for n in notes if n],
    ]
    return df


def _sample_size_note(df: pd.DataFrame, instances: dict[tuple, int]) -> str | None:
    """Say so when a cell's rows are too few for Mann-Whitney to reach p < ALPHA whatever the
    times (3 rows a side: p >= 0.1), and how many repetitions would be enough."""
    if df.empty:
        return None
    floor = [smallest_p(int(a), int(b)) for a, b in zip(df["rows_a"], df["rows_b"], strict=True)]
    short = df[[p >= ALPHA for p in floor]]
    if short.empty:
        return None
    need = rows_for_alpha()
    per_rep = min(instances.get(tuple(k), 1) for k in short[CELL].itertuples(index=False))
    reps = -(-need // per_rep)
    return (
        f"{len(short)} of {len(df)} cells have too few rows to be called slower or faster "
        f"whatever the times (with {int(short['rows_a'].min())} and "
        f"{int(short['rows_b'].min())} rows the smallest possible p is {max(floor):.2g}, not "
        f"below {ALPHA}): {need} rows a side would be enough, e.g. --reps {reps} with the "
        f"same sources"
    )


def display_table(table: pd.DataFrame) -> pd.DataFrame:
    """The comparison as a reader scans it in a terminal: the ratio and its interval in one
    column, the p-value to two digits, the rows per side left to the CSV."""

    def ratio(r) -> str:
        if pd.isna(r["ratio_ci_low"]):
            return f"{r['ratio']:.3g}"
        return f"{r['ratio']:.3g} [{r['ratio_ci_low']:.3g}, {r['ratio_ci_high']:.3g}]"

    out = table[[*CELL, "a_median_s", "b_median_s"]].copy()
    out["B/A [95% CI]"] = [ratio(r) for _, r in table.iterrows()]
    out["p"] = [f"{p:.2g}" if pd.notna(p) else "-" for p in table["p_value"]]
    out["verdict"] = table["verdict"]
    out["unstable in"] = table["unstable_in"]
    out.attrs = dict(table.attrs)
    return out.rename(columns={"a_median_s": "A_s", "b_median_s": "B_s", "threads": "thr"})


def _side_note(side: str, note: str | None) -> str | None:
    return f"run {side}: {note}" if note else None


def _label(key: tuple) -> str:
    problem, graph, config, threads = key
    return f"{config} on {graph} ({problem}, {threads} thr)"


def parse_threshold(text: str) -> float:
    """``5%`` (or ``5``) as the fraction 0.05.

    Raises
    ------
    SpecError
        For anything but a non-negative percentage.
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*%?\s*", str(text))
    if not m:
        raise SpecError(f"--fail-if-slower: expected a percentage like 5%, got {text!r}")
    return float(m[1]) / 100


def regressions(table: pd.DataFrame, threshold: float) -> pd.DataFrame:
    """Cells significantly slower in B whose ratio B/A exceeds ``1 + threshold``."""
    return table[(table["verdict"] == SLOWER) & (table["ratio"] > 1 + threshold)]


def regression_message(found: pd.DataFrame, threshold: float) -> str:
    """The one line ``--fail-if-slower`` exits with."""
    named = "; ".join(
        f"{_label(tuple(r[c] for c in CELL))} {r['ratio']:.3g}x "
        f"[{r['ratio_ci_low']:.3g}, {r['ratio_ci_high']:.3g}]"
        for _, r in found.head(3).iterrows()
    )
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return (f"{len(found)} cell(s) significantly slower than {percent(threshold)} allows: "
            f"{named}{more}")


def percent(fraction: float) -> str:
    """0.05 as ``5%``, 0.005 as ``0.5%``."""
    return f"{fraction * 100:g}%"


def _get(record: dict[str, Any], dotted: str) -> Any:
    value: Any = record
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return UNAVAILABLE
        value = value[part]
    return value


def _text(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "; ".join(sorted(
            f"{v.get('library')} {v.get('version')} x{v.get('num_threads')}" for v in value
        ))  # fmt: skip
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def machine_differences(meta_a: dict[str, Any], meta_b: dict[str, Any]) -> pd.DataFrame:
    """The machine fields (:data:`STABLE_FIELDS`) whose values differ between the runs,
    side by side (``field``, ``run_a``, ``run_b``); empty when the machines agree.

    The load averages, which differ from moment to moment, are added when anything else
    differs, so that the table shows how busy each machine was.
    """
    ma, mb = meta_a.get("machine") or {}, meta_b.get("machine") or {}
    rows = [
        {"field": f, "run_a": _text(_get(ma, f)), "run_b": _text(_get(mb, f))}
        for f in STABLE_FIELDS
        if _text(_get(ma, f)) != _text(_get(mb, f))
    ]
    if rows:
        for moment in ("start", "end"):
            rows.append({
                "field": f"load_average.{moment}",
                "run_a": _text(_get(ma, f"load_average.{moment}")),
                "run_b": _text(_get(mb, f"load_average.{moment}")),
            })  # fmt: skip
    return pd.DataFrame(rows, columns=["field", "run_a", "run_b"])


def run_label(run_dir: Path) -> str:
    """``run-id (commit abcdef1)``: how a compared run is named in titles."""
    meta = load_meta(run_dir)
    commit = str(_get(meta.get("machine") or {}, "git_commit"))
    short = commit[:7] + ("-dirty" if commit.endswith("-dirty") else "")
    return f"{meta.get('run_id') or run_dir.name} (commit {short})"


def later_run(run_a: Path, run_b: Path) -> Path:
    """The run that started later (``meta.json``'s ``started``, else the run-id's order)."""

    def when(run: Path) -> tuple[str, str]:
        meta = load_meta(run)
        return str(meta.get("started") or ""), str(meta.get("run_id") or run.name)

    return run_b if when(run_b) >= when(run_a) else run_a
