"""Thread counts above the machine's cores are marked in every table that has threads."""

from __future__ import annotations

import pandas as pd
import pytest

from llpbench.report.all import build_table
from llpbench.report.oversubscription import OVERSUBSCRIBED, core_count, mark_oversubscribed
from llpbench.report.store import load_runs
from llpbench.report.tables import (
    baselines_table,
    problems_table,
    speedup_table,
    to_markdown,
    to_rich,
    write_table,
)
from tests.report import META_CORES, THREADS, write_run

TABLES = {
    "speedup": lambda runs: speedup_table(runs),
    "problems": lambda runs: problems_table(runs),
    "baselines": lambda runs: baselines_table(runs),
}


def _expected(df: pd.DataFrame, cores: int) -> list[bool]:
    return [int(t) > cores for t in df["threads"]]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_tables_mark_each_thread_count_above_the_cores(tmp_path, name):
    runs = load_runs(write_run(tmp_path))
    df = TABLES[name](runs)
    assert list(df.columns).index(OVERSUBSCRIBED) == list(df.columns).index("threads") + 1
    assert df[OVERSUBSCRIBED].tolist() == _expected(df, META_CORES)
    over = sorted({int(t) for t in df["threads"] if t > META_CORES})
    assert over, "the synthetic run must reach above its cores for this test to mean anything"
    note = next(n for n in df.attrs["notes"] if n.startswith(OVERSUBSCRIBED))
    assert f"{', '.join(map(str, over))} threads on {META_CORES} cores" in note


def test_the_mark_reaches_csv_markdown_and_terminal(tmp_path):
    run_dir = write_run(tmp_path)
    df = problems_table(load_runs(run_dir))
    csv_path, md_path = write_table(df, run_dir, "problems")
    written = pd.read_csv(csv_path)
    assert written[OVERSUBSCRIBED].tolist() == _expected(df, META_CORES)
    markdown = to_markdown(df)
    assert f"| threads | {OVERSUBSCRIBED} |" in markdown.splitlines()[0]
    assert f"Note: {OVERSUBSCRIBED}: " in markdown and md_path.read_text() == markdown
    from rich.console import Console

    console = Console(width=250, record=True)
    console.print(to_rich(df, "problems"))
    text = console.export_text()
    assert OVERSUBSCRIBED in text and f"on {META_CORES} cores time-share them" in text


def test_rows_cores_win_over_the_run_record(tmp_path):
    runs = load_runs(write_run(tmp_path, cores=max(THREADS)))
    assert core_count(runs) == max(THREADS)
    df = speedup_table(runs)
    assert not df[OVERSUBSCRIBED].any()
    assert not [n for n in df.attrs["notes"] if n.startswith(OVERSUBSCRIBED)]


def test_an_instance_measured_on_fewer_cores_is_judged_by_them(tmp_path):
    runs = load_runs(write_run(tmp_path, cores=max(THREADS)))
    runs.loc[runs["graph"] == "g-beta", "cores"] = 1  # a merged run: g-beta's shard was smaller
    df = baselines_table(runs)
    cores = df["instance"].map(lambda g: 1 if g == "g-beta" else max(THREADS))
    assert df[OVERSUBSCRIBED].tolist() == (df["threads"] > cores).tolist()


def test_unknown_cores_are_said_to_be_unknown_not_guessed(tmp_path):
    runs = load_runs(write_run(tmp_path, meta_cores=None))
    assert runs["cores"].isna().all() and core_count(runs) is None
    df = speedup_table(runs)
    assert df[OVERSUBSCRIBED].isna().all()
    assert f"{OVERSUBSCRIBED} unknown: the rows do not record the machine's cores" in (
        df.attrs["notes"]
    )


def test_instability_table_is_marked_too(tmp_path):
    runs = load_runs(write_run(tmp_path))
    runs.loc[(runs["threads"] == max(THREADS)) & (runs["rep"] == 0), "seconds"] *= 5
    df = build_table("instability", runs)
    assert len(df) and df[OVERSUBSCRIBED].tolist() == _expected(df, META_CORES)


def test_marking_twice_or_a_table_without_threads_changes_nothing(tmp_path):
    runs = load_runs(write_run(tmp_path))
    once = speedup_table(runs)
    assert mark_oversubscribed(once, runs) is once
    plain = pd.DataFrame({"problem": ["sssp"], "graph": ["g-alpha"]})
    assert mark_oversubscribed(plain, runs) is plain
