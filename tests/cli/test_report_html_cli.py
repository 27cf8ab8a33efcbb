"""`llpbench report`, `llpbench history` and `reproduce`'s report.html on real runs, and the
pages in a real browser (headless Chromium: DOM after the scripts ran, a screenshot).

One small real sweep (tiny-kron, two worklists and Δ-stepping at 1 and 2 threads, 2 sources x
3 repetitions, Δ given so nothing is tuned) is run three times into one results folder: by
`reproduce` (which must leave report.html), plainly by `run`, and by `run` with the SWB
worklist slowed 50 ms a solve (a tiny-kron solve takes well under a millisecond on a quiet
machine, a few when the suite's other worker shares its cores: 5 ms once failed to be 400%
slower at two threads). `history` must flag exactly the two slowed cells.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest

from llpbench.llp.runtime import SLOW_WORKLIST_ENV
from tests.cli.conftest import assert_one_line_error
from tests.conftest import seed_tuned_delta
from tests.report.chromium import dump_dom, needs_chromium, screenshot, with_script
from tests.report.htmlcheck import html_errors, read_dom

REPO = Path(__file__).resolve().parents[2]
SWEEP = """[sweep]
threads = "1,2"
configs = ["worklist/ptwb", "worklist/swb", "baseline"]
sources = 2
reps = 3
seed = 42
delta = 4

[[study]]
problem = "sssp"
graphs = ["tiny-kron"]
"""
SLOW = "swb:0.05"
SLOWED = {("worklist/swb", 1), ("worklist/swb", 2)}
#: The flag and gate allowance of the test: the slowed cells are tens of times slower, and a
#: 400% allowance keeps a noisy plain cell of a shared machine from being flagged with them.
ALLOWANCE = "400%"
MAX_BYTES = 2 * 1024 * 1024
TABLES = ("headline", "gaps", "datasets", "speedup", "overhead", "baselines", "delta", "cells")


def llpbench(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "llpbench", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def store(tmp_path_factory, tuned_delta_cache):
    root = tmp_path_factory.mktemp("report-html")
    seed_tuned_delta(root / "data", tuned_delta_cache)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLPBENCH_")}
    env.update(LLPBENCH_DATA_DIR=str(root / "data"), COLUMNS="200", NO_COLOR="1")
    config = root / "tiny.toml"
    config.write_text(SWEEP)
    results = root / "results"
    runs = []
    plan = [(("reproduce",), {}), (("run",), {}), (("run",), {SLOW_WORKLIST_ENV: SLOW})]
    for args, extra in plan:
        proc = llpbench(*args, "--config", str(config), "--out", str(results), "--no-progress",
                        env={**env, **extra})
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        runs.append((results / "latest").resolve())
        if args == ("reproduce",):
            assert f"wrote {runs[0] / 'report.html'}" in proc.stdout
    assert len(set(runs)) == 3
    return {"root": root, "env": env, "results": results, "runs": runs}


def test_reproduce_leaves_a_well_formed_small_report(store):
    page = store["runs"][0] / "report.html"
    text = page.read_text()
    assert html_errors(text) == []
    assert page.stat().st_size < MAX_BYTES
    dom = read_dom(text)
    # a whole, verified run: nothing at the top but the noise of a shared machine, if any
    assert dom.banners and not [t for level, t in dom.banners if level == "error"]
    assert all(t.split(":")[0] in ("COMPLETE", "UNSTABLE", "OVERSUBSCRIBED")
               for _, t in dom.banners), dom.banners
    assert "42 rows" in " ".join(dom.text) and dom.body["data-status"] == "finished"
    assert dom.code["reproduce"].splitlines()[-2].startswith("llpbench reproduce --config ")


@needs_chromium
def test_the_page_in_a_browser_has_every_table_and_figure_and_sorts(store, tmp_path):
    run_dir = store["runs"][0]
    script = """(function () {
      var out = {}, t = document.querySelector('table[data-table="cells"]');
      var heads = Array.prototype.map.call(t.tHead.rows[0].cells,
                                           function (h) { return h.getAttribute('data-col'); });
      var i = heads.indexOf('median_s');
      function col() { return Array.prototype.map.call(t.tBodies[0].rows,
        function (r) { return r.cells[i].getAttribute('data-sort'); }); }
      t.tHead.rows[0].cells[i].click(); out.asc = col();
      t.tHead.rows[0].cells[i].click(); out.desc = col();
      out.figures = Array.prototype.map.call(document.querySelectorAll('figure svg'),
        function (s) { var b = s.getBoundingClientRect(), g = s.querySelector('g').getBBox();
                       return [b.width, b.height, g.width, s.querySelectorAll('text').length]; });
      document.body.setAttribute('data-test', JSON.stringify(out));
    })();"""
    dom = read_dom(dump_dom(with_script(run_dir / "report.html", script, tmp_path / "t.html")))
    assert dom.root.get("data-sortable") == "ready"  # the page's own script ran
    runs = pd.read_csv(run_dir / "runs.csv")
    assert set(TABLES) <= set(dom.tables) and dom.skipped == ["problems"]
    assert sum(int(n) for n in dom.tables["cells"].column("rows")) == len(runs) == 42
    cells = runs.groupby(["config", "threads"]).size()
    assert len(dom.tables["cells"].rows) == len(cells) == 7  # 3 configs x 2 + the floor
    assert len(dom.tables["headline"].rows) == runs.query("kind == 'llp'")["threads"].nunique()
    assert len(dom.tables["speedup"].rows) == 1 and len(dom.tables["overhead"].rows) == 2
    found = json.loads(dom.body["data-test"])
    medians = [float(v) for v in found["asc"]]
    assert medians == sorted(medians) and len(medians) == 7
    assert [float(v) for v in found["desc"]] == sorted(medians, reverse=True)
    assert set(dom.figures) == {"scaling-sssp", "worklists-sssp-tiny-kron-t2"}
    assert len(found["figures"]) == 2
    for width, height, drawn, texts in found["figures"]:
        assert width > 300 and height > 200 and drawn > 100 and texts > 10


@needs_chromium
def test_the_screenshot_shows_a_page(store):
    png = screenshot(store["runs"][0] / "report.html", store["root"] / "report.png")
    image = mpimg.imread(png)
    assert image.shape[:2] == (4000, 1280)
    ink = (image[..., :3] < 0.9).any(axis=-1)
    assert 0.02 < ink.mean() < 0.6  # text, tables and figures, not a blank or a black page
    rows = np.nonzero(ink.any(axis=1))[0]
    assert rows.max() > 3000  # the page fills the window: figures below the tables


def test_a_partial_run_with_a_torn_row_says_so_and_opens(store, tmp_path):
    copy = tmp_path / "partial"
    shutil.copytree(store["runs"][1], copy)
    lines = (copy / "runs.csv").read_text().splitlines(keepends=True)
    (copy / "runs.csv").write_text("".join(lines[:21]) + lines[21][:30])  # 20 rows, then torn
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(0o755)
    proc = llpbench("report", str(copy), "--open", env={**store["env"], "BROWSER": str(browser)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == f"wrote {copy / 'report.html'}"
    assert opened.read_text().strip() == (copy / "report.html").as_uri()
    banners = read_dom((copy / "report.html").read_text()).banners
    assert banners[0] == ("error", "PARTIAL: 20 of 42 planned rows are stored")
    assert banners[1][0] == "error" and banners[1][1].startswith("TORN ROW: ")


def test_history_flags_exactly_the_slowed_cells_and_fails_the_gate(store):
    proc = llpbench("history", str(store["results"]), "--threshold", ALLOWANCE,
                    "--fail-if-slower", ALLOWANCE, env=store["env"])
    line = assert_one_line_error(proc, "worklist/swb", "2 cell(s) significantly slower")
    assert proc.returncode == 1 and "#3 " in line
    assert "#2 -> #3: 7 cells" in proc.stdout and "2 flagged" in proc.stdout
    page = store["results"] / "history" / "history.html"
    text = page.read_text()
    assert html_errors(text) == []
    cells = read_dom(text).tables["history"]
    flagged = {(c, int(t)) for c, t, k in zip(cells.column("config"), cells.column("threads"),
                                              cells.classes, strict=True) if k == "flag"}
    assert flagged == SLOWED
    table = pd.read_csv(store["results"] / "history" / "history.csv")
    marked = table[table["flagged"].eq(True)]
    assert set(zip(marked["config"], marked["threads"], strict=True)) == SLOWED
    assert set(marked["run"]) == {3}
    assert set(table["commit"]) == {json.loads((r / "meta.json").read_text())["machine"]
                                    ["git_commit"] for r in store["runs"]}


@pytest.mark.parametrize("args, needles", [
    (["report", "{root}/nowhere"], ["no such folder"]),
    (["report", "{root}"], ["no runs.csv"]),
    (["history", "{root}/data"], ["no folder under it holds a runs.csv"]),
])
def test_bad_input_is_one_line_and_non_zero(store, args, needles):
    args = [a.format(root=store["root"]) for a in args]
    proc = llpbench(*args, env=store["env"])
    assert_one_line_error(proc, *needles)
    assert proc.returncode == 2
