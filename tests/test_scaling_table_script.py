"""scripts/scaling_table.py computes its Markdown from a run's rows: medians per thread count
and baseline / best LLP ratios (with intervals), here on the synthetic run of tests/report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.report import BASELINE, DELTA, GRAPHS, LLP_CONFIGS, THREADS, expected_median, write_run

REPO = Path(__file__).resolve().parents[1]


def test_scaling_table_writes_medians_and_ratios_against_the_best_llp(tmp_path):
    run = write_run(tmp_path / "results", failed=False)
    out = tmp_path / "scaling.md"
    proc = subprocess.run([sys.executable, "scripts/scaling_table.py", str(run), str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    for graph in GRAPHS:
        section = text.split(f"### {graph}\n")[1].split("###")[0]
        lines = {line.split(" | ")[0].lstrip("| "): line.split(" | ")[1:]
                 for line in section.splitlines() if line.startswith("| ")}
        ours = [c.strip(" |") for c in lines[BASELINE]]
        ratios = [c.strip(" |") for c in lines[f"{BASELINE} / best LLP"]]
        for t, mine, ratio in zip(THREADS, ours, ratios, strict=True):
            assert mine == f"{expected_median(graph, BASELINE, t) * 1e3:.3g} ({DELTA[graph]:g})"
            best = min(LLP_CONFIGS, key=lambda c: expected_median(graph, c, t))
            want = expected_median(graph, BASELINE, t) / expected_median(graph, best, t)
            assert ratio.startswith(f"{want:.2f}x [") and ratio.endswith(best.split("/")[1])
    assert "gap / best LLP" not in text  # a run without GAP has only our ratio
