"""Time across runs: every run under a results folder, cell by cell, and the steps that made a
cell slower.

The asv/pyperf idea: a benchmark's history is a series of runs (each at a git commit, on a
machine, both in its ``meta.json``), and a regression is a step between two consecutive runs
that is both large and real. Each step is judged exactly as ``llpbench compare`` judges two
runs (:func:`llpbench.report.compare.compare_runs`: the ratio of medians later / earlier, its
95% bootstrap interval, Mann-Whitney), and a cell is *flagged* when it is significantly slower
by more than the threshold (:func:`llpbench.report.compare.regressions`; asv's default factor
1.1 is the default 10% here). A step between two machines is marked, because a "regression"
measured on another machine is no regression.

Runs are ordered by the time they started (``meta.json``'s ``started``, else the run-id,
which sorts by time). Shard folders are left out: their merged run is the run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from llpbench.bench.layout import is_run_dir
from llpbench.errors import SpecError
from llpbench.report import compare as C
from llpbench.report.stats import median_ci
from llpbench.report.store import NoResultsError, load_meta, load_runs, timed_rows

CELL = C.CELL
DEFAULT_THRESHOLD = 0.10
#: How deep under the results folder runs are looked for (``results/a/<run-id>`` is 2).
MAX_DEPTH = 4


@dataclass(frozen=True)
class RunInfo:
    """One run of a history: where it is, when it started, its commit and machine."""

    index: int
    path: Path
    run_id: str
    started: str
    commit: str
    machine: str
    status: str
    rows: int
    test_settings: str

    @property
    def label(self) -> str:
        """``#2 20261207-034034-09392 (abc1234)``: how a run is named on a page."""
        short = self.commit[:7] + ("-dirty" if self.commit.endswith("-dirty") else "")
        return f"#{self.index} {self.run_id} ({short})"


@dataclass
class Step:
    """Run ``b`` against the run before it, ``a``: compare's table and the machine fields
    that differ between them."""

    a: RunInfo
    b: RunInfo
    table: pd.DataFrame
    machines: pd.DataFrame
    flagged: pd.DataFrame = field(default_factory=pd.DataFrame)


@dataclass
class History:
    """Every run, each cell's median per run (``series``), and each step's verdicts."""

    root: Path
    runs: list[RunInfo]
    series: pd.DataFrame
    steps: list[Step]
    threshold: float
    skipped: list[str]

    def flagged(self) -> pd.DataFrame:
        """Every flagged cell of every step, with the step's run labels (``from``, ``to``)."""
        parts = [s.flagged.assign(**{"from": s.a.label, "to": s.b.label})
                 for s in self.steps if len(s.flagged)]
        if not parts:
            return pd.DataFrame(columns=["from", "to", *C.COLUMNS])
        out = pd.concat(parts, ignore_index=True)
        return out[["from", "to", *[c for c in out.columns if c not in ("from", "to")]]]


def parse_percent(text: str, flag: str) -> float:
    """``10%`` as 0.1, naming ``flag`` when the text is not a percentage."""
    try:
        return C.parse_threshold(text)
    except SpecError:
        raise SpecError(f"{flag}: expected a percentage like 10%, got {text!r}") from None


def find_runs(root: str | os.PathLike[str]) -> tuple[list[Path], list[str]]:
    """Every run folder under ``root`` (``root`` itself if it is one), oldest first, and a
    note for each folder left out (a shard).

    Raises
    ------
    NoResultsError
        If ``root`` is not a folder, or holds no run.
    """
    root = Path(root).expanduser()
    if not root.is_dir():
        why = "not a folder" if root.exists() else "no such folder"
        raise NoResultsError(f"no results in {root} ({why})")
    found, skipped = [], []
    for here, dirs, _files in os.walk(root):  # symlinks (``latest``) are not followed
        path = Path(here)
        depth = len(path.relative_to(root).parts)
        if is_run_dir(path):
            dirs.clear()
            if load_meta(path).get("shard"):
                skipped.append(f"{path}: a shard (its merged run counts)")
            else:
                found.append(path)
        elif depth >= MAX_DEPTH:
            dirs.clear()
        dirs.sort()
    if not found:
        raise NoResultsError(f"no results in {root} (no folder under it holds a runs.csv): "
                             "run `llpbench run --out` into it first")

    def when(run: Path) -> tuple[str, str]:
        meta = load_meta(run)
        return str(meta.get("started") or ""), str(meta.get("run_id") or run.name)

    return sorted(found, key=when), skipped


def run_info(index: int, path: Path, rows: int) -> RunInfo:
    """What ``meta.json`` says about one run (``unknown`` where it says nothing)."""
    meta = load_meta(path)
    m = meta.get("machine") if isinstance(meta.get("machine"), dict) else {}
    machine = (f"{m.get('hostname', 'unknown host')}, {m.get('cpu_model', 'unknown CPU')}, "
               f"{m.get('core_count', m.get('cores', '?'))} cores")
    settings = "; ".join(f"{k}={v}" for k, v in (meta.get("test_settings") or {}).items())
    return RunInfo(index, path, str(meta.get("run_id") or path.name),
                   str(meta.get("started") or "?"), str(m.get("git_commit") or "unknown"),
                   machine, str(meta.get("status") or "unknown"), rows, settings)


def _series(index: int, runs: pd.DataFrame) -> pd.DataFrame:
    """Each cell's median and its interval in one run, its rows pooled as compare pools them."""
    grouped = timed_rows(runs).groupby(CELL, sort=False)["seconds"]
    out = grouped.agg(median_s="median", rows="size").reset_index()
    bounds = [median_ci(secs) for _, secs in grouped]
    out["median_ci_low"] = [lo for lo, _ in bounds]
    out["median_ci_high"] = [hi for _, hi in bounds]
    out.insert(0, "run", index)
    return out


def build_history(run_dirs: list[Path], threshold: float = DEFAULT_THRESHOLD,
                  root: Path | None = None, skipped: list[str] | None = None) -> History:
    """The history of ``run_dirs`` (oldest first): per-run medians and every step judged."""
    loaded = [load_runs(d) for d in run_dirs]
    infos = [run_info(i + 1, d, len(r)) for i, (d, r) in enumerate(zip(run_dirs, loaded,
                                                                        strict=True))]
    series = pd.concat([_series(i.index, r) for i, r in zip(infos, loaded, strict=True)],
                       ignore_index=True)
    steps = []
    for k in range(1, len(infos)):
        table = C.compare_runs(loaded[k - 1], loaded[k])
        machines = C.machine_differences(load_meta(run_dirs[k - 1]), load_meta(run_dirs[k]))
        steps.append(Step(infos[k - 1], infos[k], table, machines,
                          C.regressions(table, threshold)))
    common = Path(os.path.commonpath([str(d) for d in run_dirs])) if root is None else root
    return History(common, infos, series, steps, threshold, list(skipped or []))


def load_history(root: str | os.PathLike[str],
                 threshold: float = DEFAULT_THRESHOLD) -> History:
    """:func:`find_runs` then :func:`build_history`."""
    run_dirs, skipped = find_runs(root)
    return build_history(run_dirs, threshold, Path(root).expanduser(), skipped)


def gate(history: History, threshold: float) -> pd.DataFrame:
    """The cells of the newest step significantly slower by more than ``threshold``: what
    ``--fail-if-slower`` fails on (empty with fewer than two runs)."""
    if not history.steps:
        return pd.DataFrame(columns=C.COLUMNS)
    return C.regressions(history.steps[-1].table, threshold)


def cell_history(history: History) -> pd.DataFrame:
    """One row per cell: its median in each run (``#1_s``, ``#2_s``, ...; NaN where a run
    did not time it), the newest step's ratio and verdict, and the steps that flagged it."""
    wide = history.series.pivot_table(index=CELL, columns="run", values="median_s",
                                      sort=False)
    wide.columns = [f"#{c}_s" for c in wide.columns]
    out = wide.reset_index()
    keys = list(history.series[CELL].drop_duplicates().itertuples(index=False, name=None))
    out = out.set_index(CELL).reindex(keys).reset_index()
    last = history.steps[-1].table if history.steps else pd.DataFrame(columns=C.COLUMNS)
    last = last[[*CELL, "ratio", "ratio_ci_low", "ratio_ci_high", "verdict"]]
    out = out.merge(last, on=CELL, how="left")
    flags: dict[tuple, list[str]] = {}
    for step in history.steps:
        for key in step.flagged[CELL].itertuples(index=False, name=None):
            flags.setdefault(tuple(key), []).append(f"#{step.b.index}")
    out["flagged_in"] = [", ".join(flags.get(tuple(k), [])) for k in
                         out[CELL].itertuples(index=False, name=None)]
    out["verdict"] = out["verdict"].fillna("-")
    return out


def history_csv(history: History) -> pd.DataFrame:
    """The long table written as ``history.csv``: one row per run and cell, the step into
    that run judged (empty for the first run)."""
    labels = {r.index: r for r in history.runs}
    series = history.series.copy()
    series.insert(1, "run_id", [labels[i].run_id for i in series["run"]])
    series.insert(2, "commit", [labels[i].commit for i in series["run"]])
    judged = [s.table.assign(run=s.b.index, flagged=s.table.index.isin(s.flagged.index))
              for s in history.steps]
    cols = ["run", *CELL, "ratio", "ratio_ci_low", "ratio_ci_high", "p_value", "verdict",
            "flagged"]
    steps = (pd.concat(judged, ignore_index=True)[cols] if judged
             else pd.DataFrame(columns=cols))
    return series.merge(steps, on=["run", *CELL], how="left")
