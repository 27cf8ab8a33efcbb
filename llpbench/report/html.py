"""One HTML page per run (``<run>/report.html``): the story a dozen files tell, in one place.

The page reads the run folder only (``runs.csv``, ``meta.json``, and Table 1 from
``tables/datasets.csv`` when a report wrote it); it never solves, never loads a graph, and
needs no network to be read: style, script and figures are inline (:mod:`.page`). Top to
bottom: what is wrong with the run, if anything (partial, interrupted, unverified, slowed by
a test switch: :func:`runinfo.run_status`); the headline (best LLP against the baselines and
the floor at every thread count, :mod:`.headline`); the figures; the paper's tables,
sortable; the counters behind each gap; the Δ chosen and why; the machine; every warning in
words; every cell; and the commands that run it again.
"""

from __future__ import annotations

import os
import warnings as pywarnings
from pathlib import Path

import pandas as pd

from llpbench.errors import LlpbenchError, StoreWarning
from llpbench.io import write_text_atomic
from llpbench.report import headline as H
from llpbench.report import page, runinfo
from llpbench.report.all import TABLES, build_table, empty_reason
from llpbench.report.compare import run_label
from llpbench.report.instability import instability_table
from llpbench.report.store import load_meta, load_runs, resolve_run, timed_rows
from llpbench.report.tables import TABLES_DIR, cell_stats

REPORT = "report.html"
SECTIONS = (("status", "Status"), ("headline", "Headline"), ("figures", "Figures"),
            ("tables", "Tables"), ("gaps", "What explains the gaps"), ("delta", "Δ per family"),
            ("machine", "Machine"), ("warnings", "Warnings"), ("cells", "Every cell"),
            ("reproduce", "Reproduce"))  # fmt: skip


def load_run(run_dir: Path) -> tuple[pd.DataFrame, list[str]]:
    """The run's rows and the store's warnings about them (a torn last row), which the page
    shows at its top instead of letting them scroll by on a terminal."""
    with pywarnings.catch_warnings(record=True) as caught:
        pywarnings.simplefilter("always", StoreWarning)
        runs = load_runs(run_dir)
    return runs, [str(w.message) for w in caught if issubclass(w.category, StoreWarning)]


def datasets_table(run_dir: Path, runs: pd.DataFrame) -> pd.DataFrame:
    """Table 1: as ``llpbench table datasets`` wrote it (it measures the graphs), else the
    sizes the rows recorded (no graph is loaded to draw a page)."""
    stored = run_dir / TABLES_DIR / "datasets.csv"
    if stored.is_file():
        try:
            df = pd.read_csv(stored, keep_default_na=False)
            df.attrs["notes"] = [f"from {TABLES_DIR}/datasets.csv"]
            return df
        except (OSError, ValueError, pd.errors.ParserError):
            pass
    graphs = runs[(runs["m"].fillna(0) > 0) & ~runs["graph"].str.startswith("size=")]
    first = graphs.drop_duplicates("graph")
    df = pd.DataFrame({
        "graph": first["graph"], "family": first["family"], "vertices": first["n"],
        "arcs": first["m"], "avg_degree": (first["m"] / first["n"]).astype(float),
        "reading": first["reading"],
    }).reset_index(drop=True)  # fmt: skip
    df.attrs["notes"] = ["sizes as the rows recorded them (`llpbench table datasets` measures "
                         "weights and degrees from the graphs)"]
    return df


def _tables(run_dir: Path, runs: pd.DataFrame) -> str:
    parts = []
    for name in (n for n, spec in TABLES.items() if spec.on_page):
        title = TABLES[name].title
        try:
            df = datasets_table(run_dir, runs) if name == "datasets" else build_table(name, runs)
        except LlpbenchError as exc:
            parts.append(_skipped(name, title, str(exc)))
            continue
        if df.empty:
            parts.append(_skipped(name, title, empty_reason(name, df)))
            continue
        parts.append(page.table(df, name, title=title))
    return "\n".join(parts)


def _skipped(name: str, title: str, why: str) -> str:
    return (f'<h3>{page.esc(title)}</h3><p class="muted" data-skipped="{page.esc(name)}">'
            f"Not in this run: {page.esc(why)}</p>")


def _figures(runs: pd.DataFrame) -> str:
    from llpbench.report import figures as F

    parts = []
    try:
        for fig in F.scaling_figures(runs):
            parts.append(page.figure(fig, fig.get_label(), f"Figure 5 ({fig.get_label()}): time "
                                     "against threads, log-log; bands are 95% intervals"))
    except F.NoDataError as exc:
        parts.append(page.paragraph(f"No scaling figure: {exc}", "muted"))
    timed = timed_rows(runs)
    rows = timed[(timed["kind"] == "llp") & (timed["worklist"] != "")]
    grid = []
    for problem, graph in dict.fromkeys(zip(rows["problem"], rows["graph"], strict=True)):
        fig = F.worklist_figure(runs, graph=graph, problem=problem)
        grid.append(page.figure(fig, fig.get_label(), f"Figure 6 ({fig.get_label()}): the "
                                "worklist policies side by side, and the counters that explain "
                                "their gaps"))
    if grid:  # two a row: each is one graph's, and a reader compares them side by side
        parts.append('<div class="grid">' + "".join(grid) + "</div>")
    if rows.empty:
        parts.append(page.paragraph("No worklist figure: no worklist-solver rows.", "muted"))
    return "\n".join(parts)


def cells_table(runs: pd.DataFrame, unstable: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every cell of ``runs.csv`` (all its rows, timed or not): counts, median with its
    interval, min, max, and why it is unstable, if it is (``unstable``: the run's
    :func:`instability_table`, computed here when not given)."""
    keys = ["problem", "graph", "variant", "kind", "config", "threads"]
    marks = pd.DataFrame({
        "rows": 1, "failed": runs["verified"].eq(False).fillna(False).astype(int),
        "unverified": runinfo.unverified_mask(runs).astype(int),
    })  # fmt: skip
    counts = pd.concat([runs[keys], marks], axis=1).groupby(keys, sort=False).sum().reset_index()
    stats = cell_stats(runs, intervals=True).drop(columns=["rows"])
    out = counts.merge(stats, on=keys, how="left")
    unstable = instability_table(runs) if unstable is None else unstable
    reasons = {tuple(r[:4]): r[4] for r in unstable[["problem", "graph", "config", "threads",
                                                     "reasons"]].itertuples(index=False)}
    out["unstable"] = [reasons.get((p, g, c, t), "") for p, g, c, t in
                       out[["problem", "graph", "config", "threads"]].itertuples(index=False)]
    out = out.rename(columns={"median_ci_low": "median_s_ci_low",
                              "median_ci_high": "median_s_ci_high"})
    cols = [*keys, "rows", "failed", "unverified", "median_s", "median_s_ci_low",
            "median_s_ci_high", "min_s", "max_s", "unstable"]
    out = out[cols]
    out.attrs["notes"] = [f"{len(runs)} rows in {len(out)} cells; medians over the timed, "
                          "verified rows"]
    return out


def _warnings(runs: pd.DataFrame, banners: list[runinfo.Banner], unstable: pd.DataFrame) -> str:
    parts = [page.bullet_list([b.text for b in banners if b.level != runinfo.OK], "warnings")
             if any(b.level != runinfo.OK for b in banners) else
             page.paragraph("Nothing to warn about.")]
    if len(unstable):
        parts.append("<h3>Unstable cells</h3>")
        parts.append(page.bullet_list([
            f"{r.config} on {r.graph} ({r.problem}, {r.threads} threads): its repetitions "
            f"disagree ({r.reasons}); the median is shown, rerun on a quieter machine to trust it"
            for r in unstable.itertuples(index=False)], "unstable"))
    bad = runinfo.problem_rows(runs)
    if len(bad):
        parts.append("<h3>Failed, unverified, untimed or unfinished cells</h3>")
        parts.append(page.bullet_list([
            f"{r.config} on {r.graph} ({r.problem}, {r.threads} threads): "
            + ", ".join(f"{n} {w}" for n, w in ((r.failed, "rows gave a wrong answer"),
                                                (r.unverified, "rows were not verified"),
                                                (r.untimed, "rows carry no time"),
                                                (r.unfinished, "solves could not finish"))
                       if n)
            for r in bad.itertuples(index=False)], "bad-cells"))
        parts.append(page.table(bad, "problem-rows"))
    return "\n".join(parts)


def build_page(run_dir: str | os.PathLike[str]) -> str:
    """The whole report page of one run, as text.

    Raises
    ------
    NoResultsError
        If ``run_dir`` holds no run; FormatError if its ``runs.csv`` is broken.
    """
    run_dir = resolve_run(run_dir)
    runs, store_warnings = load_run(run_dir)
    meta = load_meta(run_dir)
    unstable = instability_table(runs)  # the slow part of a page: once
    banners = runinfo.run_status(run_dir, runs, meta, store_warnings, unstable)
    label = run_label(run_dir)
    machine = meta.get("machine") or {}
    sub = (f"{len(runs)} rows; started {meta.get('started', '?')}; "
           f"{machine.get('cpu_model', '?')}, {machine.get('core_count', '?')} cores; "
           f"status {meta.get('status', 'unknown')}")
    nav = "<nav>" + "".join(f'<a href="#{a}">{page.esc(t)}</a>' for a, t in SECTIONS) + "</nav>"
    head = H.headline_table(runs)
    body = [
        f"<header><h1>llpbench report: run {page.esc(label)}</h1>"
        f'<p class="sub">{page.esc(sub)}</p></header>',
        page.section("status", "Status", *[page.banner(b.level, b.text) for b in banners]),
        nav,
        page.section("headline", "Headline: best LLP against the baselines and the floor",
                     page.bullet_list(H.summary_lines(head)) if len(head) else
                     page.paragraph("No LLP rows: no headline.", "muted"),
                     page.table(head, "headline") if len(head) else ""),
        page.section("figures", "Figures", _figures(runs)),
        page.section("tables", "Tables", _tables(run_dir, runs)),
        page.section("gaps", "What explains the gaps: the best LLP configuration's counters",
                     *_gaps(runs, head)),
        page.section("delta", "Δ per family and thread count, and why",
                     _delta(meta, runs)),
        page.section("machine", "Machine", page.record(runinfo.machine_record(meta, runs),
                                                       "machine")),
        page.section("warnings", "Warnings", _warnings(runs, banners, unstable)),
        page.section("cells", "Every cell of runs.csv",
                     page.table(cells_table(runs, unstable), "cells")),
        page.section("reproduce", "Reproduce",
                     page.paragraph("These commands run the same sweep again and redraw this "
                                    "page (Δ is re-tuned on a new machine unless the datasets "
                                    "cache holds it):"),
                     page.code_block(runinfo.commands(run_dir, meta), "reproduce")),
    ]
    levels = {b.level for b in banners}
    state = next((s for s in (runinfo.ERROR, runinfo.WARN) if s in levels), runinfo.OK)
    return page.document(f"llpbench report: {label}", "\n".join(body),
                         {"data-run": run_dir.name, "data-state": state,
                          "data-status": str(meta.get("status", "unknown"))})


def _gaps(runs: pd.DataFrame, head: pd.DataFrame) -> list[str]:
    """The counters table, and each row's reading as a sentence below it."""
    if head.empty:
        return [page.paragraph("No LLP rows: no gaps to explain.", "muted")]
    gaps = H.gap_counters(runs, head)
    said = [f"{r.graph}, {r.threads} thread(s): {r.explanation}" for r in gaps.itertuples()]
    return [page.table(gaps.drop(columns="explanation"), "gaps"),
            page.bullet_list(said, "explanations")]


def _delta(meta: dict, runs: pd.DataFrame) -> str:
    df = runinfo.delta_table(meta, runs)
    if df.empty:
        return page.paragraph("No Δ recorded: the run timed no tuned parameter.", "muted")
    return page.table(df, "delta")


def write_report(run_dir: str | os.PathLike[str]) -> Path:
    """Write ``<run>/report.html`` atomically and return its path (see :func:`build_page`)."""
    run_dir = resolve_run(run_dir)
    return write_text_atomic(run_dir / REPORT, build_page(run_dir))
