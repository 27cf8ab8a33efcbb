"""Which thread counts ran more threads than the machine had cores.

Above the core count, workers time-share cores: the operating system switches them in and
out, so a time measured there says how the solver copes with preemption, not how it scales.
On a 2-core machine a 32-thread point is 16 threads per core; a "speedup" read off it is not
a parallel speedup. Every row records its machine's cores (``cores``,
:func:`llpbench.llp.placement.core_count`); this module marks the tables' thread counts above
them (an ``oversubscribed`` column and a note) and gives the figures the count to shade from.

Rows of one instance may come from several machines (a merged cluster run): a thread count is
oversubscribed when it exceeds the fewest cores any of that instance's rows had.
"""

from __future__ import annotations

import pandas as pd

OVERSUBSCRIBED = "oversubscribed"


def core_count(runs: pd.DataFrame) -> int | None:
    """The fewest cores any of ``runs`` was measured with; None when no row says."""
    if "cores" not in runs.columns:
        return None
    known = pd.to_numeric(runs["cores"], errors="coerce").dropna()
    return int(known.min()) if len(known) else None


def _instance_cores(runs: pd.DataFrame, table: pd.DataFrame, graph_col: str) -> list:
    """The core count behind each row of ``table`` (its problem and graph), else the run's."""
    whole = core_count(runs)
    by_instance = {}
    if "cores" in runs.columns and len(runs):
        known = runs.dropna(subset=["cores"])
        by_instance = known.groupby(["problem", "graph"])["cores"].min().to_dict()
    return [
        by_instance.get((problem, graph), whole)
        for problem, graph in zip(table["problem"], table[graph_col], strict=True)
    ]


def mark_oversubscribed(table: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """``table`` with an ``oversubscribed`` column after ``threads`` and a note saying why.

    The column is True where the row's thread count exceeds its instance's cores, False where
    it does not, and ``<NA>`` where the rows do not say how many cores there were (a run
    stored before they did, without a machine record). The note (``attrs["notes"]``) names
    the core count and the thread counts above it, so the terminal, the CSV (the column) and
    the Markdown (column and note) all say it.

    Parameters
    ----------
    table : DataFrame
        A report table with ``problem``, ``threads`` and ``graph`` (or ``instance``) columns.
    runs : DataFrame
        The run's rows the table was computed from (:func:`llpbench.report.store.load_runs`).
    """
    if table.empty or "threads" not in table.columns or OVERSUBSCRIBED in table.columns:
        return table
    graph_col = "graph" if "graph" in table.columns else "instance"
    cores = _instance_cores(runs, table, graph_col)
    marks = pd.array(
        [
            pd.NA if pd.isna(c) else bool(t > c)
            for t, c in zip(table["threads"], cores, strict=True)
        ],
        dtype="boolean",
    )
    out = table.copy()
    out.insert(out.columns.get_loc("threads") + 1, OVERSUBSCRIBED, marks)
    out.attrs = dict(table.attrs)
    out.attrs["notes"] = [*(table.attrs.get("notes") or []), *_notes(table, cores, marks)]
    return out


def _notes(table: pd.DataFrame, cores: list, marks) -> list[str]:
    notes = []
    over = pd.Series(marks).fillna(False).to_numpy(dtype=bool)
    if over.any():
        threads = sorted({int(t) for t in table["threads"][over]})
        counts = sorted({int(c) for c, o in zip(cores, over, strict=True) if o})
        shown = ", ".join(map(str, threads))
        core_text = "/".join(map(str, counts))
        notes.append(
            f"{OVERSUBSCRIBED}: {shown} threads on {core_text} cores time-share them; those "
            "times measure preemption, not parallel speedup"
        )
    if pd.Series(marks).isna().any():
        notes.append(f"{OVERSUBSCRIBED} unknown: the rows do not record the machine's cores")
    return notes


def oversubscription_title(threads: int, cores: int | None) -> str:
    """A figure's words for one thread count: ``""``, or ``(oversubscribed: 32 threads on 2
    cores)``."""
    if cores is None or threads <= cores:
        return ""
    return f" ({OVERSUBSCRIBED}: {threads} threads on {cores} cores)"
