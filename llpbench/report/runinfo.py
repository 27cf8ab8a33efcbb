"""What a run's folder says about the run itself, in plain words: whether it is whole, which
rows cannot be trusted, the Δ it chose and why, the machine, and how to run it again.

A table drawn from a run that stopped halfway looks just like one from a finished run; a
reader must be told first. :func:`run_status` compares the rows on disk with the plan the
sweep recorded (``meta.json``'s sweep gives every planned cell), reads the status the session
left (``interrupted``, ``failed``, ``running``; merged runs: ``complete``), and counts the rows
that failed verification or were never verified, each as one sentence at the top of a page.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from llpbench.bench.machine import UNAVAILABLE
from llpbench.errors import LlpbenchError
from llpbench.report.compare import _get, _text
from llpbench.report.instability import instability_table
from llpbench.report.oversubscription import core_count
from llpbench.report.store import failed_mask, untimed_mask

ERROR, WARN, INFO, OK = "error", "warn", "info", "ok"
CELL = ["problem", "graph", "config", "threads"]


@dataclass(frozen=True)
class Banner:
    """One line for the top of a page: ``level`` (error, warn, info, ok) and its words."""

    level: str
    text: str


def planned_rows(meta: dict[str, Any]) -> int | None:
    """How many rows the run's recorded sweep (or its shard) plans; None when unknown."""
    shard = meta.get("shard")
    if isinstance(shard, dict) and isinstance(shard.get("rows_expected"), int):
        return int(shard["rows_expected"])
    if not isinstance(meta.get("sweep"), dict):
        return None
    from llpbench.bench.plan import cell_ids
    from llpbench.bench.spec import Sweep

    try:
        sweep = Sweep.from_dict(meta["sweep"])
        return sum(sweep.studies[c.study].reps for c in cell_ids(sweep))
    except (LlpbenchError, KeyError, TypeError, ValueError):
        return None


def _cells(rows: pd.DataFrame, limit: int = 4) -> str:
    keys = list(dict.fromkeys(rows[CELL].itertuples(index=False, name=None)))
    named = ", ".join(f"{c} on {g} ({p}, {t} thr)" for p, g, c, t in keys[:limit])
    return named + (f" and {len(keys) - limit} more cells" if len(keys) > limit else "")


def unverified_mask(runs: pd.DataFrame) -> pd.Series:
    """Rows whose answer was never checked (``--no-verify``); floor rows solve nothing."""
    return runs["verified"].isna() & (runs["kind"] != "floor")


def error_mask(runs: pd.DataFrame) -> pd.Series:
    """Rows whose solve could not finish (their ``error`` says why; runs stored before the
    column have none)."""
    if "error" not in runs.columns:
        return pd.Series(False, index=runs.index)
    return runs["error"].astype(str).str.strip() != ""


def run_status(run_dir: Path, runs: pd.DataFrame, meta: dict[str, Any],
               warnings: Sequence[str] = (), unstable: pd.DataFrame | None = None,
               ) -> list[Banner]:
    """Every way the run falls short of a whole, verified, quiet measurement, most serious
    first; one ``ok`` banner when there is none. ``warnings`` are the store's own (a torn
    last row); ``unstable`` the run's :func:`instability_table` (computed when not given)."""
    out: list[Banner] = []
    status = meta.get("status")
    planned = planned_rows(meta)
    have = len(runs)
    of = f"{have} of {planned} planned rows" if planned else f"{have} rows"
    resume = f"`llpbench run --resume --out {run_dir.parent}` continues it"
    if not meta:
        out.append(Banner(WARN, "NO METADATA: meta.json is missing or unreadable, so the "
                                "machine, the Δ and the commands are unknown"))
    if status == "interrupted":
        out.append(Banner(ERROR, f"INTERRUPTED: the run was stopped after {of}; {resume}"))
    elif status == "failed":
        out.append(Banner(ERROR, f"FAILED: a write or a solve failed after {of}; {resume}"))
    elif status == "running":
        out.append(Banner(WARN, f"STILL RUNNING (or killed without a word): {of} so far"))
    elif meta.get("complete") is False or status == "incomplete":
        lacking = sorted({*meta.get("missing_shards", []), *meta.get("incomplete_shards", [])})
        out.append(Banner(ERROR, f"INCOMPLETE: merged without shard(s) "
                                 f"{', '.join(map(str, lacking)) or '?'}: {of}"))
    elif planned and have < planned:
        out.append(Banner(ERROR, f"PARTIAL: {of} are stored"))
    for text in warnings:
        out.append(Banner(ERROR, f"TORN ROW: {text}"))
    failed = failed_mask(runs)
    if failed.any():
        out.append(Banner(ERROR, f"FAILED VERIFICATION: {int(failed.sum())} rows gave a wrong "
                                 f"answer ({_cells(runs[failed])}); they are left out of every "
                                 "table"))
    unverified = unverified_mask(runs)
    if unverified.any():
        out.append(Banner(WARN, f"UNVERIFIED: {int(unverified.sum())} of {have} rows were not "
                                f"checked against a reference (--no-verify): "
                                f"{_cells(runs[unverified])}"))
    errored = error_mask(runs)
    if errored.any():
        first = str(runs.loc[errored, "error"].iloc[0])
        out.append(Banner(ERROR, f"SOLVES FAILED: {int(errored.sum())} rows could not finish "
                                 f"({_cells(runs[errored])}); the first says: {first}"))
    untimed = untimed_mask(runs) & ~failed & ~errored
    if untimed.any():
        out.append(Banner(WARN, f"NO TIME: {int(untimed.sum())} rows carry no time "
                                f"({_cells(runs[untimed])})"))
    for name, value in (meta.get("test_settings") or {}).items():
        out.append(Banner(ERROR, f"TEST SETTING {name}={value}: this run was slowed or broken "
                                 "on purpose by a test switch; its times are not measurements"))
    unstable = instability_table(runs) if unstable is None else unstable
    if len(unstable):
        out.append(Banner(WARN, f"UNSTABLE: {len(unstable)} of {unstable.attrs['cells']} cells' "
                                "repetitions disagree (see Warnings); read their medians with "
                                "care"))
    cores = core_count(runs)
    if cores is not None and (runs["threads"] > cores).any():
        over = sorted({int(t) for t in runs["threads"] if t > cores})
        out.append(Banner(INFO, f"OVERSUBSCRIBED: {', '.join(map(str, over))} threads on "
                                f"{cores} cores time-share them: those times measure "
                                "preemption, not parallel speedup"))
    if not any(b.level in (ERROR, WARN) for b in out):
        out.insert(0, Banner(OK, f"COMPLETE: {of}, every answer verified"))
    return out


def machine_record(meta: dict[str, Any], runs: pd.DataFrame) -> list[tuple[str, str]]:
    """The machine fields a reader needs to weigh a time, as (name, value) words."""
    m = meta.get("machine") if isinstance(meta.get("machine"), dict) else {}

    def get(path: str) -> str:
        return _text(_get(m, path))

    cores = core_count(runs)
    threads = sorted(int(t) for t in runs["threads"].unique())
    over = [t for t in threads if cores is not None and t > cores]
    loads = [f"{w}: {get(f'load_average.{w}')}" for w in ("start", "end")]
    pin = meta.get("pinning") or {}
    return [
        ("CPU", f"{get('cpu_model')} ({get('cpu_arch')})"),
        ("cores the run could use", f"{get('core_count')} (affinity {get('affinity')}; "
                                    f"{get('physical_cores')} physical, "
                                    f"{get('logical_cores')} logical)"),
        ("frequency governor", get("governor")),
        ("frequency (MHz)", f"now {get('frequency.current_mhz')}, min "
                            f"{get('frequency.min_mhz')}, max {get('frequency.max_mhz')}"),
        ("load average (1, 5, 15 min)", "; ".join(loads)),
        ("thread counts", ", ".join(map(str, threads))),
        ("oversubscribed", ", ".join(map(str, over)) + f" threads > {cores} cores" if over
         else "no: every thread count fits the cores"),
        ("pinning", "applied" if pin.get("applied") else
         f"not applied ({pin.get('reason') or 'not requested'})"),
        ("order of repetitions", str(meta.get("order", UNAVAILABLE))),
        ("memory", get("memory.total_bytes") + " bytes total"),
        ("numba", get("numba")),
        ("BLAS", get("blas")),
        ("versions", get("versions")),
        ("git commit", get("git_commit")),
        ("host", f"{get('hostname')}, {get('platform')}"),
        ("started / finished", f"{meta.get('started', '?')} / {meta.get('finished', '?')}"),
    ]


def delta_table(meta: dict[str, Any], runs: pd.DataFrame) -> pd.DataFrame:
    """The Δ of each family and thread count (``meta.json``'s ``deltas``), the graphs that
    used it, the level worklists' width, and why: given, or tuned where and at what."""
    families = dict(zip(runs["graph"], runs["family"], strict=True))
    groups: dict[tuple, dict[str, Any]] = {}
    for key, rec in (meta.get("deltas") or {}).items():
        if not isinstance(rec, dict) or "@" not in key:
            continue
        graph, _, threads = key.rpartition("@")
        family = rec.get("family") or families.get(graph, "?")
        level = rec.get("level_delta_how") or {}
        ident = (family, threads, rec.get("delta"), rec.get("level_delta"))
        row = groups.setdefault(ident, {
            "family": family, "threads": int(threads) if threads.isdigit() else threads,
            "graphs": [], "delta": rec.get("delta"), "level_width": rec.get("level_delta"),
            "why": why_delta(rec, "Δ"), "level_why": why_delta(level, "width") if level else "-",
        })  # fmt: skip
        row["graphs"].append(graph)
    rows = [{**r, "graphs": ", ".join(r["graphs"])} for r in groups.values()]
    df = pd.DataFrame(rows, columns=["family", "threads", "graphs", "delta", "level_width",
                                     "why", "level_why"])
    for col in ("delta", "level_width"):
        df[col] = pd.to_numeric(df[col], errors="coerce")
    df.attrs["notes"] = ["the rule: the Δ whose time is within the tolerance of the fastest, "
                         "nearest the prior mean weight / mean degree, wins "
                         "(docs/choosing-delta.md)"]
    return df


def why_delta(rec: dict[str, Any], what: str) -> str:
    """Where one Δ came from, as a sentence."""
    source = rec.get("from")
    if source == "given":
        return f"{what} given (--delta or the sweep's config), not tuned"
    if source:
        return f"{what} follows the {source.removeprefix('given ')} given, not tuned"
    if "tuned_on" not in rec:
        return "not recorded"
    tied = rec.get("tied") or []
    ties = f"; tied within the tolerance: {', '.join(map(str, tied))}" if tied else ""
    return (f"tuned on {rec['tuned_on']} at {rec.get('tuned_threads', '?')} thread(s), "
            f"{rec.get('measured', 'when unknown')}{ties}")


def commands(run_dir: Path, meta: dict[str, Any]) -> list[str]:
    """Shell lines that run the same sweep again, then redraw this page."""
    lines = []
    commit = str(_get(meta.get("machine") or {}, "git_commit"))
    if commit not in (UNAVAILABLE, "unknown", ""):
        clean = commit.removesuffix("-dirty")
        note = "  # the tree had local changes" if commit.endswith("-dirty") else ""
        lines += [f"git checkout {clean}{note}", "pip install -e ."]
    env = " ".join(f"{k}={shlex.quote(_setting(v))}"
                   for k, v in (meta.get("test_settings") or {}).items())
    sessions = [s.get("command") for s in meta.get("sessions") or [] if s.get("command")]
    for argv in sessions or [meta.get("command", "").split()]:
        if not argv:
            continue
        argv = list(argv)
        if Path(argv[0]).name in ("llpbench", "__main__.py", "-m"):
            argv[0] = "llpbench"
        lines.append((env + " " if env else "") + shlex.join(argv))
    if not sessions and not meta.get("command"):
        lines.append("# no command recorded in meta.json")
    lines.append(f"llpbench report {shlex.quote(str(run_dir))}")
    return lines


def _setting(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}:{v:g}" if isinstance(v, float) else f"{k}:{v}"
                        for k, v in value.items())
    return str(value)


def problem_rows(runs: pd.DataFrame) -> pd.DataFrame:
    """Every cell that holds a failed, unverified, untimed or unfinished row, with counts."""
    bad = failed_mask(runs) | unverified_mask(runs) | untimed_mask(runs) | error_mask(runs)
    rows = runs[bad]
    if rows.empty:
        return pd.DataFrame(columns=[*CELL, "failed", "unverified", "untimed", "unfinished"])
    marks = pd.DataFrame({
        "failed": failed_mask(rows), "unverified": unverified_mask(rows),
        "untimed": untimed_mask(rows) & ~failed_mask(rows) & ~error_mask(rows),
        "unfinished": error_mask(rows),
    })  # fmt: skip
    out = pd.concat([rows[CELL], marks], axis=1).groupby(CELL, sort=False).sum().reset_index()
    for col in ("failed", "unverified", "untimed", "unfinished"):
        out[col] = out[col].astype(int)
    return out
