"""`llpbench solve --worklist bucketed` and `llpbench run` use the same bucket width."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from llpbench.graphs.registry import ReadOptions, load_graph
from tests.problems.test_tuned import seed_family_delta

# these tests seed the family Δ they check: they start from an empty cache
pytestmark = pytest.mark.empty_cache

EDGES = "0 1 5\n1 2 50\n0 2 90\n2 3 40\n1 3 70\n3 0 20\n"


def test_solve_and_run_take_the_bucket_width_from_the_family_delta(cli, tmp_path):
    path = tmp_path / "g.wel"
    path.write_text(EDGES)
    graph = load_graph(str(path), cache_dir=cli.cache, options=ReadOptions(directed=True))
    median = int(np.median(graph.weights))
    seed_family_delta(cli.cache, graph, 3)  # the family's Δ, far from the median weight
    assert median != 3

    solved = cli("solve", "-g", str(path), "--directed", "--worklist", "bucketed")
    assert solved.returncode == 0, solved.stderr
    width = next(line for line in solved.stdout.splitlines() if "bucket width" in line)
    assert width.strip("│ ").split()[-1] == "3"

    ran = cli("run", "-p", "sssp", "-g", str(path), "--directed", "--solver", "worklist",
              "--worklist", "bucketed", "--no-baseline", "--reps", "1", "--no-progress",
              "--out", str(tmp_path / "results"))
    assert ran.returncode == 0, ran.stderr
    rows = list(csv.DictReader((tmp_path / "results" / "latest" / "runs.csv").open()))
    assert [(r["delta"], r["bucket_width"]) for r in rows] == [("", "3")]
