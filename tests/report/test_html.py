"""The run report page (``report.html``) on the synthetic run: known times, so every number the
page shows is computed here from the same formula, and every warning is provoked on purpose."""

from __future__ import annotations

import json
import re

import pytest

from llpbench.report.all import build_table
from llpbench.report.html import REPORT, datasets_table, write_report
from llpbench.report.page import svg_text
from llpbench.report.runinfo import Banner, commands, delta_table, machine_record, run_status
from llpbench.report.store import NoResultsError, load_meta, load_runs
from tests.report import (
    BASELINE,
    FAILED_CELL,
    FAILED_ROWS,
    GRAPHS,
    LLP_CONFIGS,
    THREADS,
    expected_median,
    write_run,
)
from tests.report.htmlcheck import html_errors, read_dom

MAX_BYTES = 2 * 1024 * 1024


def _meta(run_dir, **changes):
    meta = json.loads((run_dir / "meta.json").read_text())
    meta.update(changes)
    (run_dir / "meta.json").write_text(json.dumps(meta))


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """One synthetic run and its page, shared by the tests that only read them."""
    results = tmp_path_factory.mktemp("html") / "results"
    run_dir = write_run(results)
    path = write_report(results)  # a results folder: its newest run
    text = path.read_text()
    return {"dir": run_dir, "path": path, "runs": load_runs(run_dir), "text": text,
            "dom": read_dom(text)}


def test_page_is_well_formed_self_contained_and_small(synthetic):
    text = synthetic["text"]
    assert html_errors(text) == []
    assert len(text.encode()) < MAX_BYTES
    assert "<?xml" not in text and "<script src" not in text
    assert synthetic["dom"].root.get("lang") == "en"


@pytest.mark.parametrize("name", ["speedup", "overhead", "problems", "baselines"])
def test_each_table_has_the_rows_its_function_computes(synthetic, name):
    df = build_table(name, synthetic["runs"])
    table = synthetic["dom"].tables[name]
    assert len(table.rows) == len(df) > 0
    assert table.column("best_llp" if "best_llp" in df else "config") == \
        list(df["best_llp" if "best_llp" in df else "config"])
    seconds = next(c for c in df.columns if c.endswith("_median_s"))
    assert [float(v) for v in table.values(seconds)] == list(df[seconds])


def test_every_row_of_runs_csv_is_counted_in_the_cells_table(synthetic):
    runs, cells = synthetic["runs"], synthetic["dom"].tables["cells"]
    assert sum(int(r) for r in cells.column("rows")) == len(runs)
    assert sum(int(f) for f in cells.column("failed")) == FAILED_ROWS
    keys = set(zip(cells.column("graph"), cells.column("config"),
                   (int(t) for t in cells.column("threads")), strict=True))
    assert keys == set(zip(runs["graph"], runs["config"], runs["threads"], strict=True))
    i = next(k for k, row in enumerate(zip(cells.column("graph"), cells.column("config"),
                                           cells.column("threads"), strict=True))
             if row == ("g-beta", "worklist/ptwb", "2"))
    assert float(cells.values("median_s")[i]) == pytest.approx(
        expected_median("g-beta", "worklist/ptwb", 2))


def test_headline_is_best_llp_against_the_baseline_per_graph_and_thread_count(synthetic):
    head = synthetic["dom"].tables["headline"]
    for graph in GRAPHS:
        for threads in THREADS:
            i = next(k for k, (g, t) in enumerate(zip(head.column("graph"),
                                                      head.column("threads"), strict=True))
                     if (g, int(t)) == (graph, threads))
            # (the failed rows of FAILED_CELL are left out: its median is of its good rows)
            llp = {c: expected_median(graph, c, threads) for c in LLP_CONFIGS}
            best = min(llp, key=llp.get)
            assert head.column("best_llp")[i] == best
            speedup = expected_median(graph, BASELINE, threads) / llp[best]
            assert float(head.values("speedup")[i]) == pytest.approx(speedup)
            assert head.column("verdict")[i] == ("LLP slower" if speedup < 1 else "LLP faster")
    summary = " ".join(synthetic["dom"].text)
    assert "sssp at 4 threads, best LLP vs delta-stepping on 2 instance(s): 2 LLP slower" in summary


def test_failed_and_unverified_rows_are_said_at_the_top(synthetic):
    dom = synthetic["dom"]
    levels = dict((text.split(":")[0], level) for level, text in dom.banners)
    assert levels["FAILED VERIFICATION"] == "error" and levels["UNVERIFIED"] == "warn"
    failed = next(t for _, t in dom.banners if t.startswith("FAILED VERIFICATION"))
    graph, config, threads = FAILED_CELL
    assert f"{FAILED_ROWS} rows" in failed
    assert f"{config} on {graph} (sssp, {threads} thr)" in failed
    assert "COMPLETE" not in levels
    assert any(f"{FAILED_ROWS} rows gave a wrong answer" in item
               for item in dom.lists["bad-cells"])
    assert dom.body["data-state"] == "error"


def test_figures_are_inline_svg_with_ids_of_their_own(synthetic):
    dom, text = synthetic["dom"], synthetic["text"]
    assert set(dom.figures) == {"scaling-sssp", "scaling-stable-marriage",
                                "worklists-sssp-g-alpha-t4", "worklists-sssp-g-beta-t4"}
    assert all(count > 50 for count in dom.figures.values()), dom.figures
    assert text.count("<svg") == len(dom.figures)
    for name in dom.figures:
        block = text.split(f'data-figure="{name}"', 1)[1].split("</figure>", 1)[0]
        ids = re.findall(r'\bid="([^"]+)"', block)
        assert ids and all(i.startswith(f"f-{name}-") for i in ids)
    assert "time vs threads" in " ".join(dom.text)  # text stays text, not glyph outlines


def test_svg_text_prefixes_every_reference():
    from matplotlib.figure import Figure

    fig = Figure()
    fig.subplots().plot([1, 2], [1, 2], marker="o")
    svg = svg_text(fig, "pre", "a line")
    refs = re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', svg)
    assert refs and all((a or b).startswith("pre-") for a, b in refs)
    assert svg.startswith('<svg role="img" aria-label="a line"')


@pytest.mark.parametrize(
    "meta, level, words",
    [
        ({"status": "interrupted"}, "error", "INTERRUPTED"),
        ({"status": "failed"}, "error", "FAILED: a write or a solve failed"),
        ({"status": "running"}, "warn", "STILL RUNNING"),
        ({"status": "incomplete", "complete": False, "missing_shards": [2]}, "error",
         "INCOMPLETE: merged without shard(s) 2"),
        ({"test_settings": {"LLPBENCH_TEST_SLOW_WORKLIST": {"swb": 0.005}}}, "error",
         "TEST SETTING LLPBENCH_TEST_SLOW_WORKLIST"),
    ],
)
def test_a_run_that_is_not_whole_says_so_first(tmp_path, meta, level, words):
    run_dir = write_run(tmp_path / "results", failed=False, problems=False)
    _meta(run_dir, **meta)
    banners = run_status(run_dir, load_runs(run_dir), load_meta(run_dir))
    assert banners[0].level == level and banners[0].text.startswith(words), banners
    assert not any(b.level == "ok" for b in banners)


def test_a_whole_verified_run_says_complete(tmp_path):
    run_dir = write_run(tmp_path / "results", failed=False, problems=False)
    banners = run_status(run_dir, load_runs(run_dir), load_meta(run_dir))
    assert banners[0] == Banner("ok", f"COMPLETE: {len(load_runs(run_dir))} rows, every "
                                      "answer verified")
    assert [b.level for b in banners[1:]] == ["info"]  # only: 4 threads on 2 cores


def test_the_page_shows_the_banners_first(synthetic):
    dom = synthetic["dom"]
    expected = run_status(synthetic["dir"], synthetic["runs"], load_meta(synthetic["dir"]))
    assert dom.banners[:len(expected)] == [(b.level, b.text) for b in expected]
    assert synthetic["text"].index('id="status"') < synthetic["text"].index('id="headline"')


def test_table1_comes_from_the_stored_table_else_from_the_rows(synthetic, tmp_path):
    table = synthetic["dom"].tables["datasets"]
    assert table.column("graph") == list(GRAPHS)
    assert [int(v) for v in table.column("arcs")] == [m for _, m in GRAPHS.values()]
    run_dir = write_run(tmp_path / "results", failed=False)
    (run_dir / "tables").mkdir()
    (run_dir / "tables" / "datasets.csv").write_text("graph,family,origin\ng-alpha,kron,mine\n")
    stored = datasets_table(run_dir, load_runs(run_dir))
    assert list(stored.columns) == ["graph", "family", "origin"]
    assert stored.values.tolist() == [["g-alpha", "kron", "mine"]]


DELTAS = {
    "g-alpha@1": {"delta": 2, "family": "kronecker", "tuned_on": "kron-2e16",
                  "tuned_threads": 1, "tied": [2, 4], "measured": "2026-12-07T03:41:06Z",
                  "level_delta": 4, "level_delta_how": {"tuned_on": "kron-2e16",
                                                        "tuned_threads": 1, "tied": [4]}},
    "g-alpha@4": {"delta": 8, "family": "kronecker", "tuned_on": "kron-2e16",
                  "tuned_threads": 2, "tied": [8]},
    "g-beta@4": {"delta": 8, "family": "kronecker", "tuned_on": "kron-2e16",
                 "tuned_threads": 2, "tied": [8]},
    "g-beta@1": {"delta": 64.0, "from": "given"},
}


def test_delta_machine_and_commands_come_from_meta(tmp_path):
    run_dir = write_run(tmp_path / "results", failed=False, problems=False)
    _meta(run_dir, deltas=DELTAS, status="finished", machine={
        "cpu_model": "Test CPU", "governor": "performance", "core_count": 2,
        "load_average": {"start": [0.5, 0.4, 0.3], "end": [1.5, 1.0, 0.5]},
        "git_commit": "abcdef1234567890",
    }, sessions=[{"command": ["/venv/bin/llpbench", "run", "--graph", "g alpha"]}],
        test_settings={"LLPBENCH_TEST_SLOW_WORKLIST": {"swb": 0.005}})
    runs, meta = load_runs(run_dir), load_meta(run_dir)
    delta = delta_table(meta, runs)
    rows = {(f, int(t), g): w for f, t, g, w in
            delta[["family", "threads", "graphs", "why"]].itertuples(index=False)}
    assert set(rows) == {("kronecker", 1, "g-alpha"), ("kronecker", 4, "g-alpha, g-beta"),
                         ("kronecker", 1, "g-beta")}  # one Δ at 4 threads, both graphs
    assert rows[("kronecker", 4, "g-alpha, g-beta")].startswith("tuned on kron-2e16 at 2 thread")
    assert rows[("kronecker", 1, "g-alpha")].endswith("tied within the tolerance: 2, 4")
    assert rows[("kronecker", 1, "g-beta")] == "Δ given (--delta or the sweep's config), not tuned"
    assert delta["level_width"].iloc[0] == 4
    record = dict(machine_record(meta, runs))
    assert record["frequency governor"] == "performance"
    assert record["load average (1, 5, 15 min)"] == "start: [0.5, 0.4, 0.3]; end: [1.5, 1.0, 0.5]"
    assert record["oversubscribed"] == "4 threads > 2 cores"
    assert commands(run_dir, meta) == [
        "git checkout abcdef1234567890", "pip install -e .",
        "LLPBENCH_TEST_SLOW_WORKLIST=swb:0.005 llpbench run --graph 'g alpha'",
        f"llpbench report {run_dir}",
    ]


def test_the_page_holds_the_sections_machine_and_commands(synthetic):
    dom, text = synthetic["dom"], synthetic["text"]
    for anchor in ("status", "headline", "gaps", "tables", "figures", "delta", "machine",
                   "warnings", "cells", "reproduce"):
        assert f'<section id="{anchor}">' in text
    assert dom.code["reproduce"].splitlines() == [
        "llpbench run", f"llpbench report {synthetic['dir']}"]
    assert "No Δ recorded" in " ".join(dom.text)  # the synthetic meta records none
    assert dom.skipped == []


def test_write_report_is_atomic_and_refuses_a_folder_without_a_run(synthetic, tmp_path):
    assert synthetic["path"] == synthetic["dir"] / REPORT
    assert not list(synthetic["dir"].glob(".report.html.*"))  # no temporary file left behind
    with pytest.raises(NoResultsError, match="no runs.csv and no `latest` there"):
        write_report(tmp_path)


def test_rows_whose_solve_could_not_finish_are_said_with_their_reason(tmp_path):
    run_dir = write_run(tmp_path / "results", failed=False, problems=False)
    runs = load_runs(run_dir)
    runs["error"] = ""
    runs.loc[runs.index[:2], "error"] = "work lost: every worker idle with 3 items pending"
    runs.loc[runs.index[:2], "seconds"] = float("nan")
    banners = run_status(run_dir, runs, load_meta(run_dir))
    said = [b for b in banners if b.text.startswith("SOLVES FAILED")]
    assert len(said) == 1 and said[0].level == "error"
    assert said[0].text.startswith("SOLVES FAILED: 2 rows could not finish (worklist/ptwb on "
                                   "g-alpha (sssp, 1 thr)); the first says: work lost")
    assert not any(b.text.startswith("NO TIME") for b in banners)  # said once, with why
