"""Reading the results store: find a run's folder, load its ``runs.csv`` and ``meta.json``.

The report reads only what the runner wrote (``<results>/<run-id>/runs.csv``, one row per timed
solve, columns as :data:`llpbench.bench.schema.COLUMNS`), so every table and figure can be
redrawn later, on another machine, without running anything. ``<results>/latest`` names the
newest run: a symlink, or (where symlinks fail) a text file holding the run-id.

Nothing is dropped silently: :func:`load_runs` keeps every row, :func:`timed_rows` leaves out
the rows that must not count in a timing (a wrong answer, or no time at all), and
:func:`exclusion_note` says how many were left out and why, for a table's footnote.
"""

from __future__ import annotations

import io
import json
import os
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from llpbench import paths
from llpbench.bench.layout import LATEST, META, RUNS, follow_latest, is_run_dir, torn_last_row
from llpbench.bench.schema import COLUMNS, COUNTER_NAMES
from llpbench.errors import FormatError, LlpbenchError, StoreWarning

KINDS = ("llp", "baseline", "floor")

#: Columns read as text; everything else in the schema is a number (or ``verified``).
TEXT_COLUMNS = (
    "graph", "family", "problem", "kind", "solver", "worklist", "config", "timestamp", "reading",
    "variant", "error",
)
#: Columns added after runs were first stored: a runs.csv without them reads them as empty.
LATER_COLUMNS = ("variant", "cores", "fused", "error")
#: Integer columns that every row must fill; the other integer columns may be empty (``<NA>``).
REQUIRED_INT_COLUMNS = ("threads", "rep")
INT_COLUMNS = ("n", "m", "threads", "source", "size", "seed", "rep", "cores")
#: Where an older run's ``meta.json`` says how many cores it had, most telling first.
META_CORES = ("core_count", "physical_cores", "logical_cores", "cores")
_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no"}


class NoResultsError(LlpbenchError):
    """No run where the report looked: nothing has been benchmarked there yet."""


def _no_results(where: Path, why: str = "") -> NoResultsError:
    extra = f" ({why})" if why else ""
    return NoResultsError(f"no results in {where}{extra}: run `llpbench run` first")


def resolve_run(results: str | os.PathLike[str] | None = None) -> Path:
    """The folder of one run, from whatever the user pointed at.

    Parameters
    ----------
    results : path or None
        None: the newest run of the results store (``paths.results_dir() / "latest"``).
        A run folder (it holds ``runs.csv``): that run. A results folder (it holds
        ``latest``): its newest run. The ``latest`` link or text file itself: the run it names.

    Returns
    -------
    Path
        A folder that holds ``runs.csv``.

    Raises
    ------
    NoResultsError
        If nothing there is a run; the message names the place and how to make one.
    """
    where = Path(results).expanduser() if results is not None else paths.results_dir()
    if is_run_dir(where):
        return where
    latest = where if where.name == LATEST else where / LATEST
    if latest.is_symlink() or latest.exists():
        target, why = follow_latest(latest)
        if target is None:
            raise _no_results(latest.parent, why)
        return target
    if where.is_dir():
        why = "no runs.csv and no `latest` there"
    elif where.exists():
        why = "not a folder"
    else:
        why = "no such folder"
    raise _no_results(where, why)


def load_meta(run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The run's ``meta.json`` (machine, versions, the sweep), or ``{}`` when absent or broken.

    The metadata only decorates titles; a report without it is still a report.
    """
    try:
        meta = json.loads((Path(run_dir) / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def meta_cores(meta: dict[str, Any]) -> Any:
    """The cores a run's machine record names (see :data:`META_CORES`), or ``pd.NA``."""
    machine = meta.get("machine") if isinstance(meta.get("machine"), dict) else meta
    for key in META_CORES:
        value = machine.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return pd.NA


def load_runs(run_dir: str | os.PathLike[str]) -> pd.DataFrame:
    """Every row of a run's ``runs.csv``, typed, in file order.

    Text columns are strings (empty where the runner wrote nothing); integer columns are
    ``int64`` for ``threads`` and ``rep`` (never empty) and nullable ``Int64`` for the rest;
    the times, Δ (``delta``, weight units), ``bucket_width`` (priority units), the counters and
    ``reached`` are floats (NaN where empty); ``verified`` is a
    nullable boolean (``<NA>`` when verification was off). Columns beyond the schema are kept
    as text. A torn last row (a crash or a full disk in the middle of a write) is left out
    with a :class:`~llpbench.errors.StoreWarning` naming it; ``run --resume`` redoes it. A run
    stored before rows named their machine's ``cores`` takes them from its ``meta.json``
    (``<NA>`` when that does not say either). A schema-1 run (one ``delta`` column for both
    widths, :data:`llpbench.bench.schema.SCHEMA_VERSION`) reads as schema 2: its LLP rows'
    ``delta`` becomes ``bucket_width``.

    Raises
    ------
    FormatError
        If the file lacks schema columns (all of them are named), or a cell is not what its
        column needs (the file, line and column are named).
    NoResultsError
        If ``runs.csv`` does not exist.
    """
    path = Path(run_dir) / RUNS
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _no_results(Path(run_dir), "no runs.csv") from None
    if (torn := torn_last_row(data)) is not None:
        warnings.warn(f"{torn.describe(path)}; left out (`llpbench run --resume` redoes it)",
                      StoreWarning, stacklevel=2)
        data = data[: torn.keep_bytes]
    try:
        raw = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False, na_filter=False)
    except pd.errors.EmptyDataError:
        raise FormatError(path, 1, "expected a header line naming the schema's columns") from None
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise FormatError(path, None, f"not a readable CSV table: {exc}") from None
    raw = _upgrade(raw)
    for col in LATER_COLUMNS:
        if col not in raw.columns:
            raw[col] = ""
    if missing := [c for c in COLUMNS if c not in raw.columns]:
        raise FormatError(path, 1, f"missing column(s) {', '.join(missing)}")
    # the schema's order whatever the file's (later columns were appended to older files)
    raw = raw[list(COLUMNS) + [c for c in raw.columns if c not in COLUMNS]]
    raw = raw.fillna("")  # short (partly written) last lines
    df = raw.copy()
    for col in TEXT_COLUMNS:
        df[col] = raw[col].astype(str).str.strip()
    for col in COLUMNS:
        if col in TEXT_COLUMNS or col == "verified":
            continue
        df[col] = _numbers(raw[col], path, col, integer=col in INT_COLUMNS)
    for col in REQUIRED_INT_COLUMNS:
        if df[col].isna().any():
            row = int(df[col].isna().to_numpy().nonzero()[0][0])
            raise FormatError(path, row + 2, f"column {col!r}: expected an integer, got nothing")
        df[col] = df[col].astype("int64")
    df["verified"] = _booleans(raw["verified"], path)
    if df["cores"].isna().any():  # a run from before rows said: its machine record does
        df["cores"] = df["cores"].fillna(meta_cores(load_meta(run_dir)))
    if bad := sorted(set(df["kind"]) - set(KINDS)):
        line = int(df.index[df["kind"] == bad[0]][0]) + 2
        raise FormatError(path, line, f"column 'kind': expected llp or baseline, got {bad[0]!r}")
    return df


def _upgrade(raw: pd.DataFrame) -> pd.DataFrame:
    """A schema-1 table (no ``bucket_width`` column) in schema 2's columns.

    Schema 1 kept two quantities in ``delta``: Δ-stepping's Δ (weight units) on baseline
    rows, and the level worklists' bucket width (priority units) on LLP rows. LLP rows carry
    no Δ-stepping Δ, so their ``delta`` moves to ``bucket_width``: a plot of either column
    then shows one quantity in one unit, whichever version wrote the run.
    """
    if "bucket_width" in raw.columns or "delta" not in raw.columns or "kind" not in raw.columns:
        return raw
    raw = raw.copy()
    llp = raw["kind"].astype(str).str.strip() == "llp"
    raw["bucket_width"] = raw["delta"].where(llp, "")
    raw.loc[llp, "delta"] = ""
    return raw


def _numbers(col: pd.Series, path: Path, name: str, *, integer: bool) -> pd.Series:
    text = col.astype(str).str.strip()
    values = pd.to_numeric(text.where(text != ""), errors="coerce")
    bad = values.isna() & (text != "")
    if integer:
        bad |= values.notna() & (values != values.round())
    if bad.any():
        row = int(bad.to_numpy().nonzero()[0][0])
        expected = "an integer" if integer else "a number"
        got = text.iloc[row]
        raise FormatError(path, row + 2, f"column {name!r}: expected {expected}, got {got!r}")
    return values.astype("Int64") if integer else values.astype("float64")


def _booleans(col: pd.Series, path: Path) -> pd.Series:
    text = col.astype(str).str.strip().str.lower()
    out = pd.Series(pd.NA, index=col.index, dtype="boolean")
    out[text.isin(_TRUE)] = True
    out[text.isin(_FALSE)] = False
    bad = ~(text.isin(_TRUE) | text.isin(_FALSE) | (text == ""))
    if bad.any():
        row = int(bad.to_numpy().nonzero()[0][0])
        got = col.iloc[row]
        raise FormatError(
            path, row + 2, f"column 'verified': expected True, False or nothing, got {got!r}"
        )
    return out


def failed_mask(runs: pd.DataFrame) -> pd.Series:
    """Rows whose answer was checked and found wrong: their time measures nothing."""
    return runs["verified"].eq(False).fillna(False).astype(bool)


def untimed_mask(runs: pd.DataFrame) -> pd.Series:
    """Rows without a usable time (empty or negative ``seconds``)."""
    return ~(runs["seconds"].notna() & (runs["seconds"] >= 0))


def timed_rows(runs: pd.DataFrame) -> pd.DataFrame:
    """The rows that count in timing aggregates: not failed verification, and timed."""
    return runs[~failed_mask(runs) & ~untimed_mask(runs)]


def exclusion_note(runs: pd.DataFrame) -> str | None:
    """One footnote line saying which rows :func:`timed_rows` left out, or None if none were."""
    failed, untimed = failed_mask(runs), untimed_mask(runs) & ~failed_mask(runs)
    if not failed.any() and not untimed.any():
        return None
    parts = []
    if failed.any():
        cells = runs[failed].groupby(["problem", "graph", "config", "threads"], sort=False).size()
        named = ", ".join(f"{c} on {g} ({p}, {t} thr)" for (p, g, c, t) in cells.index[:4])
        more = f" and {len(cells) - 4} more cells" if len(cells) > 4 else ""
        parts.append(f"{int(failed.sum())} failed verification ({named}{more})")
    if untimed.any():
        parts.append(f"{int(untimed.sum())} without a time")
    total = len(runs)
    return f"{int(failed.sum() + untimed.sum())} of {total} rows excluded from timings: " + (
        "; ".join(parts)
    )


def per_reached(runs: pd.DataFrame, counter: str) -> pd.Series:
    """A counter divided by the row's reached vertices (NaN where nothing was reached)."""
    if counter not in COUNTER_NAMES:
        raise LlpbenchError(f"unknown counter {counter!r}; known: {', '.join(COUNTER_NAMES)}")
    reached = runs["reached"].where(runs["reached"] > 0)
    return runs[counter] / reached
