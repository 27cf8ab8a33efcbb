"""Time across runs (:mod:`llpbench.report.history`) on synthetic runs: three copies of the
known run, one cell made twice as slow in one of them, so exactly that cell must be flagged."""

from __future__ import annotations

import csv
import json
import re

import pytest

from llpbench.errors import SpecError
from llpbench.report.history import (
    find_runs,
    gate,
    history_csv,
    load_history,
    parse_percent,
)
from llpbench.report.history_page import build_history_page, write_history
from llpbench.report.store import NoResultsError
from tests.report import expected_median, write_run
from tests.report.htmlcheck import html_errors, read_dom

SLOW_CELL = ("g-beta", "worklist/ptwb", 2)
IDS = ("20260101-000001-one", "20260102-000001-two", "20260103-000001-three")


def _slow(run_dir, factor=2.0):
    """Multiply the seconds of :data:`SLOW_CELL`'s rows in ``run_dir`` by ``factor``."""
    path = run_dir / "runs.csv"
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        if (row["graph"], row["config"], int(row["threads"])) == SLOW_CELL:
            row["seconds"] = repr(float(row["seconds"]) * factor)
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _store(root, slowed: int | None, nested=False):
    """Three runs under ``root`` (oldest first by ``started``), run ``slowed`` (1-based)
    slowed; with ``nested``, each in a folder of its own, as `--out results/a` leaves them."""
    dirs = []
    for i, run_id in enumerate(IDS, 1):
        parent = root / f"out{i}" if nested else root
        run_dir = write_run(parent, run_id, latest="symlink", failed=False)
        meta = json.loads((run_dir / "meta.json").read_text())
        meta.update(started=f"2026-01-0{i}T00:00:00Z", status="finished",
                    machine={"hostname": "box", "cpu_model": "Test CPU", "core_count": 2,
                             "git_commit": f"{i:07d}abc"})
        (run_dir / "meta.json").write_text(json.dumps(meta))
        if i == slowed:
            _slow(run_dir)
        dirs.append(run_dir)
    return dirs


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Three runs, the newest slowed, a shard beside them; the history written once."""
    root = tmp_path_factory.mktemp("history") / "results"
    _store(root, slowed=3)
    shard = write_run(root / "shards", "shard-1-of-2-abc", latest=None)
    (shard / "meta.json").write_text(json.dumps({"shard": {"index": 1}}))
    history = load_history(root)
    paths = write_history(history)
    page = (root / "history" / "history.html").read_text()
    return {"root": root, "shard": shard, "history": history, "paths": paths, "page": page}


@pytest.fixture(scope="module")
def last_slowed(written):
    return written["history"]


def _key(row) -> tuple:
    return row["graph"], row["config"], int(row["threads"])


def test_runs_are_found_oldest_first_with_commit_and_machine(last_slowed):
    assert [r.run_id for r in last_slowed.runs] == list(IDS)
    assert [r.commit for r in last_slowed.runs] == ["0000001abc", "0000002abc", "0000003abc"]
    assert {r.machine for r in last_slowed.runs} == {"box, Test CPU, 2 cores"}
    assert last_slowed.runs[0].label == f"#1 {IDS[0]} (0000001)"


def test_exactly_the_slowed_cell_is_flagged_in_the_step_that_slowed_it(last_slowed):
    first, second = last_slowed.steps
    assert first.flagged.empty
    assert set(first.table["verdict"]) == {"not significant"}  # the same rows: no change
    assert [_key(r) for _, r in second.flagged.iterrows()] == [SLOW_CELL]
    assert second.flagged["ratio"].iloc[0] == pytest.approx(2.0)
    flagged = last_slowed.flagged()
    assert list(flagged["to"]) == [last_slowed.runs[2].label]


def test_the_gate_fails_on_the_newest_step_unless_the_allowance_is_larger(last_slowed):
    assert [_key(r) for _, r in gate(last_slowed, 0.05).iterrows()] == [SLOW_CELL]
    assert gate(last_slowed, 1.5).empty  # 2x is within a 150% allowance


def test_a_slowed_middle_run_is_flagged_once_and_the_way_back_is_faster(tmp_path):
    _store(tmp_path, slowed=2, nested=True)
    history = load_history(tmp_path)
    assert len(history.runs) == 3  # found one folder down, `latest` links not counted twice
    slower, back = history.steps
    assert [_key(r) for _, r in slower.flagged.iterrows()] == [SLOW_CELL]
    assert back.flagged.empty
    row = back.table[[_key(r) == SLOW_CELL for _, r in back.table.iterrows()]]
    assert list(row["verdict"]) == ["faster"]
    assert gate(history, 0.05).empty  # the newest run is fine


def test_the_cell_table_and_csv_hold_every_run_and_mark_the_flag(last_slowed, written):
    page = written["page"]
    assert html_errors(page) == []
    dom = read_dom(page)
    cells = dom.tables["history"]
    flagged = [k for k, c in zip(zip(cells.column("graph"), cells.column("config"),
                                     (int(t) for t in cells.column("threads")), strict=True),
                                 cells.classes, strict=True) if c == "flag"]
    assert flagged == [SLOW_CELL]
    i = [*zip(cells.column("graph"), cells.column("config"),
              (int(t) for t in cells.column("threads")), strict=True)].index(SLOW_CELL)
    medians = [float(cells.values(f"#{r}_s")[i]) for r in (1, 2, 3)]
    assert medians == pytest.approx([expected_median(*SLOW_CELL)] * 2
                                    + [2 * expected_median(*SLOW_CELL)])
    assert len(dom.tables["runs"].rows) == 3 and len(dom.tables["steps"].rows) == 2
    assert len(dom.tables["regressions"].rows) == 1
    assert dom.banners[0][0] == "error" and dom.banners[0][1].startswith("REGRESSIONS: 1 cell")
    table = history_csv(last_slowed)
    marked = table[table["flagged"].eq(True)]
    assert [(r["run"], *_key(r)) for _, r in marked.iterrows()] == [(3, *SLOW_CELL)]


def test_the_figure_of_the_slowed_graph_rings_its_point(written):
    page = written["page"]
    figures = dict(re.findall(r'<figure data-figure="([^"]+)">(.*?)</figure>', page, re.S))
    assert set(figures) == {"history-sssp-g-alpha", "history-sssp-g-beta",
                            "history-stable-marriage-size=64"}
    assert "#ff0000" in figures["history-sssp-g-beta"]
    assert "#ff0000" not in figures["history-sssp-g-alpha"]


def test_a_step_between_machines_is_marked(tmp_path):
    dirs = _store(tmp_path, slowed=None)
    meta = json.loads((dirs[2] / "meta.json").read_text())
    meta["machine"]["cpu_model"] = "Another CPU"
    (dirs[2] / "meta.json").write_text(json.dumps(meta))
    history = load_history(tmp_path)
    assert history.steps[0].machines.empty and not history.steps[1].machines.empty
    banners = read_dom(build_history_page(history, figures=[])).banners
    assert ("ok", "NO REGRESSION: no cell significantly slower than the run before by more "
                  "than 10%") in banners
    assert any(level == "warn" and text.startswith("MACHINE CHANGED") and "cpu_model" in text
               for level, text in banners)


def test_written_files_and_shards_left_out(written):
    history, shard = written["history"], written["shard"]
    assert len(history.runs) == 3
    assert history.skipped == [f"{shard}: a shard (its merged run counts)"]
    folder = written["root"] / "history"
    names = sorted(p.relative_to(folder).as_posix() for p in written["paths"])
    assert names[:2] == ["figures/history-sssp-g-alpha.png", "figures/history-sssp-g-alpha.svg"]
    assert {"history.html", "history.csv"} <= set(names) and len(names) == 2 + 3 * 2
    assert all(p.stat().st_size > 0 for p in written["paths"])
    assert not list(folder.rglob(".*.part"))
    assert "left out: " + history.skipped[0] in " ".join(read_dom(written["page"]).text)


def test_bad_input_is_refused_with_a_reason(tmp_path):
    with pytest.raises(NoResultsError, match="no such folder"):
        find_runs(tmp_path / "nowhere")
    with pytest.raises(NoResultsError, match="no folder under it holds a runs.csv"):
        find_runs(tmp_path)
    with pytest.raises(SpecError, match="--threshold: expected a percentage"):
        parse_percent("lots", "--threshold")
    assert parse_percent("10%", "--threshold") == pytest.approx(0.1)
