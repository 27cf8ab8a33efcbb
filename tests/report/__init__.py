"""A synthetic results store for the report tests: known times, so expectations are computed.

:func:`write_run` writes ``<results>/<run-id>/runs.csv`` (the exact schema) and ``meta.json``
for two SSSP graphs, configurations worklist/ptwb, worklist/swb and the delta-stepping
baseline, threads 1, 2, 4, three repetitions and two sources, plus (optionally) a stable-marriage
instance with its sequential baseline, and rows that failed verification. Every time comes from
:func:`seconds`, so a test derives what a table must say from the same formula instead of
typing numbers in.
"""

from __future__ import annotations

import csv
import json
import os
import statistics
from pathlib import Path

from llpbench.bench.schema import COLUMNS, COUNTER_NAMES

GRAPHS = {"g-alpha": (1024, 8192), "g-beta": (2048, 4096)}  # name: (n, arcs)
LLP_CONFIGS = ("worklist/ptwb", "worklist/swb")
BASELINE = "delta-stepping"
THREADS = (1, 2, 4)
REPS = 3
SOURCES = (0, 7)
DELTA = {"g-alpha": 32.0, "g-beta": 64.0}
#: One-thread time (rep 0, first source) and the exponent of its fall with threads.
BASE_SECONDS = {
    ("g-alpha", "worklist/ptwb"): 0.080,
    ("g-alpha", "worklist/swb"): 0.070,
    ("g-alpha", BASELINE): 0.010,
    ("g-beta", "worklist/ptwb"): 0.050,
    ("g-beta", "worklist/swb"): 0.090,
    ("g-beta", BASELINE): 0.008,
}
EXPONENT = {"worklist/ptwb": 0.9, "worklist/swb": 0.3, BASELINE: 0.5}
#: A non-SSSP problem: LLP all-indices at 1, 2, 4 threads, Gale-Shapley on one thread.
SM_INSTANCE = "size=64"
SM_LLP = {1: 0.004, 2: 0.0025, 4: 0.0015}
SM_BASELINE = 0.002
#: Rows that failed verification: faster than anything, so counting them would show.
FAILED_CELL = ("g-alpha", "worklist/swb", 4)
FAILED_ROWS = 7
#: The cores the synthetic run's meta.json names: its 4-thread points are oversubscribed.
META_CORES = 2


def seconds(graph: str, config: str, threads: int, source: int, rep: int) -> float:
    """The time written for one solve of the synthetic run."""
    base = BASE_SECONDS[(graph, config)] / threads ** EXPONENT[config]
    return base * (1 + 0.05 * rep) * (1 + 0.2 * SOURCES.index(source))


def expected_median(graph: str, config: str, threads: int) -> float:
    """The median over all repetitions and sources of a cell: what the tables must report."""
    return statistics.median(
        seconds(graph, config, threads, s, r) for s in SOURCES for r in range(REPS)
    )


def reached(graph: str) -> int:
    return GRAPHS[graph][0] - 24


def counters(graph: str, config: str, threads: int, rep: int) -> dict[str, int]:
    """Work counters growing with threads (more stale work) and differing per worklist."""
    r = reached(graph)
    k = 2 if config.endswith("ptwb") else 3
    return {
        "items": k * r + 10 * threads + rep,
        "advances": r + 5 * threads,
        "stale": (k - 1) * r + 7 * threads,
        "retries": 3 * threads * k,
        "steals": 4 * (threads - 1) if config.endswith("ptwb") else 0,
        "pushes": k * r,
        "contention": 0 if config.endswith("ptwb") else 50 * threads,
        "idle": threads,
        "rounds": 0,
    }


def _row(**values: object) -> dict[str, object]:
    row = {c: "" for c in COLUMNS}
    row.update({name: 0 for name in COUNTER_NAMES})
    row.update(values)
    return row


def _sssp_rows() -> list[dict[str, object]]:
    rows = []
    for graph, (n, m) in GRAPHS.items():
        for config in (*LLP_CONFIGS, BASELINE):
            llp = config != BASELINE
            for threads in THREADS:
                for source in SOURCES:
                    for rep in range(REPS):
                        rows.append(
                            _row(
                                graph=graph,
                                family="kronecker",
                                n=n,
                                m=m,
                                problem="sssp",
                                kind="llp" if llp else "baseline",
                                solver="worklist" if llp else BASELINE,
                                worklist=config.split("/")[1] if llp else "",
                                config=config,
                                threads=threads,
                                source=source,
                                size=-1,
                                seed=0,
                                rep=rep,
                                seconds=repr(seconds(graph, config, threads, source, rep)),
                                compile_seconds=0.5,
                                verified=True,
                                delta="" if llp else DELTA[graph],
                                **(counters(graph, config, threads, rep) if llp else {}),
                                reached=reached(graph),
                                timestamp="2026-01-01T00:00:00Z",
                            )
                        )
    return rows


def _failed_rows() -> list[dict[str, object]]:
    graph, config, threads = FAILED_CELL
    n, m = GRAPHS[graph]
    return [
        _row(
            graph=graph,
            family="kronecker",
            n=n,
            m=m,
            problem="sssp",
            kind="llp",
            solver="worklist",
            worklist="swb",
            config=config,
            threads=threads,
            source=0,
            size=-1,
            seed=0,
            rep=REPS + i,
            seconds=1e-6,
            compile_seconds=0.5,
            verified=False,
            **counters(graph, config, threads, 0),
            reached=reached(graph),
            timestamp="2026-01-01T00:00:00Z",
        )
        for i in range(FAILED_ROWS)
    ]


def _problem_rows() -> list[dict[str, object]]:
    common = dict(
        graph=SM_INSTANCE,
        family="generated",
        n=64,
        m=0,
        problem="stable-marriage",
        source=-1,
        size=64,
        seed=3,
        compile_seconds=0.1,
        verified="",
        timestamp="2026-01-01T00:00:00Z",
    )
    rows = []
    for rep in range(REPS):
        for threads, secs in SM_LLP.items():
            rows.append(
                _row(
                    **common,
                    kind="llp",
                    solver="all-indices",
                    worklist="",
                    config="all-indices",
                    threads=threads,
                    rep=rep,
                    seconds=secs,
                )
            )
        rows.append(
            _row(
                **common,
                kind="baseline",
                solver="gale-shapley",
                worklist="",
                config="gale-shapley",
                threads=1,
                rep=rep,
                seconds=SM_BASELINE,
            )
        )
    return rows


def write_run(
    results: Path,
    run_id: str = "20260101-000000-synthetic",
    *,
    latest: str | None = "symlink",
    failed: bool = True,
    problems: bool = True,
    baseline: bool = True,
    cores: int | None = None,
    meta_cores: int | None = META_CORES,
) -> Path:
    """Write a synthetic run under ``results`` and return its folder.

    ``latest`` is ``"symlink"``, ``"file"`` (a text file holding the run-id) or None.
    ``cores`` fills the rows' ``cores`` column (None: left empty, as in runs stored before
    the column); ``meta_cores`` is what ``meta.json`` says (None: nothing).
    """
    run_dir = results / run_id
    run_dir.mkdir(parents=True, exist_ok=True)
    rows = _sssp_rows() + (_failed_rows() if failed else [])
    rows += _problem_rows() if problems else []
    if not baseline:
        rows = [r for r in rows if r["kind"] != "baseline"]
    for row in rows:
        row["cores"] = "" if cores is None else cores
    with open(run_dir / "runs.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
    meta = {"run_id": run_id, "command": "llpbench run", "cpu_model": "test"}
    if meta_cores is not None:
        meta["cores"] = meta_cores
    (run_dir / "meta.json").write_text(json.dumps(meta))
    link = results / "latest"
    if latest == "symlink":
        if link.is_symlink() or link.exists():
            link.unlink()
        os.symlink(run_id, link)
    elif latest == "file":
        if link.is_symlink() or link.exists():
            link.unlink()
        link.write_text(run_id + "\n")
    return run_dir
