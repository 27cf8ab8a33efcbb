"""Issue 29: a graph file's own ids in and out, and the inputs left unanswered before.

``--source`` and every line of ``solve -o`` speak the file's ids (a DIMACS file's vertex 1 is
``--source 1``), ``runs.csv`` records them, ``datasets info`` states the mapping; KONECT files
with a count column, CSV edge lists with a header row and negative weights are read; and the
remaining bad inputs are one ``error:`` line each. Every command runs in this process through
the console script's own entry point (:func:`llpbench.cli.main.run`).
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from llpbench.cli import main
from llpbench.graphs.formats import load_npz, read_graph, save_npz
from tests.cli.conftest import assert_one_line_error

# file vertex 1 -> 2 (5), 2 -> 3 (1); vertex 4 has no arc at all: unreached from anywhere
DIMACS = "p sp 4 2\na 1 2 5\na 2 3 1\n"
# KONECT's powergrid shape: '% sym unweighted' with a third column of 1s (a count)
KONECT = "% sym unweighted\n% 4 5 5\n1 2 1\n2 3 1\n3 4 1\n4 5 1\n"


class Ran:
    """What one in-process command did: exit code, stdout, stderr (as CompletedProcess)."""

    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = code, stdout, stderr


@pytest.fixture
def llpbench(monkeypatch, capsys, tmp_path):
    """Run ``llpbench ARGS`` in this process with a private cache and results store."""
    monkeypatch.setenv("LLPBENCH_DATA_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LLPBENCH_RESULTS_DIR", str(tmp_path / "results"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("LLPBENCH_MAX_MEMORY", raising=False)

    def run(*args: str) -> Ran:
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["llpbench", *args])
        code = 0
        try:
            main.run()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
        return Ran(code, out, err)

    return run


def answer_lines(path: Path) -> dict[int, str]:
    """An answer file's ``id value`` lines, its ``#`` lines left out."""
    rows = [line.split() for line in path.read_text().splitlines() if not line.startswith("#")]
    assert all(len(r) == 2 for r in rows)
    return {int(r[0]): r[1] for r in rows}


def test_source_and_answer_lines_are_the_dimacs_files_own_ids(llpbench, tmp_path):
    graph = tmp_path / "s.gr"
    graph.write_text(DIMACS)
    out = tmp_path / "dist.txt"
    ran = llpbench("solve", "--graph", str(graph), "--source", "1", "-o", str(out))
    assert ran.returncode == 0, ran.stderr
    # this test's own reading: file vertex v is row v - 1 of the matrix, as DIMACS says
    mat = sp.csr_matrix(([5.0, 1.0], ([0, 1], [1, 2])), shape=(4, 4))
    truth = dijkstra(mat, indices=0)
    lines = answer_lines(out)
    assert sorted(lines) == [1, 2, 3, 4]  # the file's ids, not 0..3
    for v, text in lines.items():
        assert text == ("unreached" if np.isinf(truth[v - 1]) else str(int(truth[v - 1])))
    assert lines[4] == "unreached"  # marked in words, not a sentinel number
    assert "1-based (DIMACS): file vertex v is internal v-1" in out.read_text()


def test_a_source_outside_the_files_ids_names_the_ids_it_has(llpbench, tmp_path):
    graph = tmp_path / "s.gr"
    graph.write_text(DIMACS)
    ran = llpbench("solve", "--graph", str(graph), "--source", "0")
    assert_one_line_error(ran, "--source 0 is not a vertex of", "s.gr", "its ids are 1..4")


def test_label_ids_are_the_source_and_the_answer_lines(llpbench, tmp_path):
    graph = tmp_path / "labels.txt"
    graph.write_text("# Directed graph\n1000 2000\n2000 3000\n")
    out = tmp_path / "levels.txt"
    ran = llpbench("solve", "-g", str(graph), "--compact-ids", "-p", "bfs", "--source", "2000",
                   "-o", str(out))
    assert ran.returncode == 0, ran.stderr
    assert answer_lines(out) == {1000: "unreached", 2000: "0", 3000: "1"}
    ran = llpbench("datasets", "info", str(graph), "--compact-ids")
    assert "renumbered in increasing order (--compact-ids)" in ran.stdout
    assert "3 labels from 1,000 to 3,000" in ran.stdout


def test_without_source_solve_starts_where_run_does_and_says_so(llpbench, tmp_path):
    graph = tmp_path / "s.gr"
    graph.write_text(DIMACS)
    ran = llpbench("solve", "-g", str(graph))
    assert ran.returncode == 0, ran.stderr
    said = [ln for ln in ran.stderr.splitlines() if ln.startswith("source: ")]
    assert len(said) == 1 and "first of the graph's fixed-seed sources" in said[0]
    chosen = int(said[0].split("file vertex ")[1].split(",")[0])
    assert chosen in (1, 2)  # a vertex with an out-arc, never the isolated vertex 4
    ran = llpbench("run", "-g", str(graph), "--no-progress", "--reps", "1", "--no-baseline",
                   "--worklist", "swb")
    assert ran.returncode == 0, ran.stderr
    run_dir = tmp_path / "results" / "latest"
    rows = list(csv.DictReader((run_dir / "runs.csv").open()))
    assert {r["source"] for r in rows} == {str(chosen)}  # runs.csv: the file's id too
    assert not (run_dir / "writer.lock").exists()  # a finished run keeps its results only


def test_a_graph_with_fewer_vertices_with_arcs_than_the_rule_tunes_on_them_all(llpbench,
                                                                               tmp_path):
    graph = tmp_path / "s.gr"
    graph.write_text("p sp 3 2\na 1 2 5\na 2 3 1\n")  # two vertices with an out-arc; Δ's rule
    ran = llpbench("run", "-g", str(graph), "--no-progress", "--reps", "1",  # times 4 sources
                   "--worklist", "bucketed")
    assert ran.returncode == 0, ran.stderr
    assert "sources must be at most" not in ran.stderr


@pytest.mark.parametrize("flags", [["-p", "sssp"], ["-p", "bfs"], ["--weights", "unit"],
                                   ["--weights", "file"]])
def test_konect_unweighted_with_a_count_column_verifies(llpbench, tmp_path, flags):
    graph = tmp_path / "out.powergrid-like"
    graph.write_text(KONECT)
    ran = llpbench("solve", "-g", str(graph), "--source", "1", *flags)
    assert ran.returncode == 0, ran.stderr + ran.stdout  # 3 when verification fails
    assert re.search(r"verified\s*│\s*yes", ran.stdout)


@pytest.mark.parametrize(
    ("text", "header"),
    [
        ("from,to,weight\n0,1,3\n1,2,4\n2,0,1\n", "'from,to,weight'"),
        ("edge1,edge2,weight\n0,1,3\n1,2,4\n2,0,1\n", "'edge1,edge2,weight'"),
        (",source,target,weight\n0,0,1,3\n1,1,2,4\n2,2,0,1\n", "an index) dropped"),
    ],
)
def test_csv_with_a_header_row_is_read_and_says_so(llpbench, tmp_path, text, header):
    graph = tmp_path / "edges.csv"
    graph.write_text(text)
    out = tmp_path / "d.txt"
    ran = llpbench("solve", "-g", str(graph), "--source", "0", "--directed", "-o", str(out))
    assert ran.returncode == 0, ran.stderr
    assert answer_lines(out) == {0: "0", 1: "3", 2: "7"}  # 0 -> 1 (3) -> 2 (4)
    info = llpbench("datasets", "info", str(graph), "--directed", "--json").stdout
    assert '"reading: delimiter": "comma (line 1 has one)"' in info
    assert header in info


def test_negative_weights_block_sssp_only_naming_the_flag(llpbench, tmp_path):
    graph = tmp_path / "neg.wel"
    graph.write_text("0 1 4\n1 2 -3\n2 0 5\n")
    bfs = llpbench("solve", "-g", str(graph), "--directed", "-p", "bfs", "--source", "0")
    assert bfs.returncode == 0, bfs.stderr
    info = llpbench("datasets", "info", str(graph), "--directed", "--json")
    assert info.returncode == 0 and "neg.wel:2: negative weight -3" in info.stdout
    sssp = llpbench("solve", "-g", str(graph), "--directed", "--source", "0")
    assert_one_line_error(sssp, "neg.wel:2: negative weight -3", "--weights unit")
    unit = llpbench("solve", "-g", str(graph), "--directed", "--weights", "unit")
    assert unit.returncode == 0, unit.stderr


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["run", "-p", "knapsack", "--size", "2000000"], ["knapsack --size 2,000,000",
                                                          "--max-memory"]),
        (["solve", "-p", "stable-marriage", "--size", "10000000"], ["stable-marriage"]),
        (["run", "-g", "kron-2e0"], ["kron-2e0: scale and edge factor must be at least 1"]),
        (["datasets", "info", "graph500-s2-ef0"], ["graph500-s2-ef0", "at least 1"]),
    ],
)
def test_inputs_that_cannot_be_solved_are_one_line(llpbench, tmp_path, args, needles):
    ran = llpbench(*args)
    assert_one_line_error(ran, *needles)
    assert not (tmp_path / "results").exists()


def test_an_out_that_is_a_file_or_unwritable_is_one_line_and_nothing_is_written(llpbench,
                                                                                tmp_path):
    graph = tmp_path / "s.gr"
    graph.write_text(DIMACS)
    taken = tmp_path / "taken"
    taken.write_text("mine\n")
    run = ["run", "-g", str(graph), "--no-progress", "--no-baseline", "--worklist", "swb"]
    ran = llpbench(*run, "--out", str(taken))
    assert_one_line_error(ran, str(taken), "a file is there, not a folder")
    ran = llpbench(*run, "--out", str(taken / "sub"))
    assert_one_line_error(ran, "is a file, so no folder can be made there")
    assert taken.read_text() == "mine\n"


def test_compare_of_a_run_with_itself_says_so(llpbench, tmp_path):
    graph = tmp_path / "s.gr"
    graph.write_text(DIMACS)
    ran = llpbench("run", "-g", str(graph), "--no-progress", "--reps", "1", "--no-baseline",
                   "--worklist", "swb")
    assert ran.returncode == 0, ran.stderr
    latest = str(tmp_path / "results" / "latest")
    assert_one_line_error(llpbench("compare", latest, latest), "are the same run")
    assert_one_line_error(llpbench("compare", latest), "B (the newest run, by default)")


def test_help_keeps_every_bracketed_default_and_no_rst_markup(llpbench):
    text = " ".join(llpbench("run", "--help").stdout.split())
    for said in ("[$LLPBENCH_RESULTS_DIR, else ./results]", "[the problem's default]",
                 "[the problem's first]", "[the file's, else uniform-int:1:255]", "[auto]"):
        assert said in text, said
    assert "``" not in text and "<repo>" not in text
    reproduce = " ".join(llpbench("reproduce", "--help").stdout.split())
    assert "[configs/smoke.toml]" in reproduce


def test_the_id_mapping_survives_the_graph_cache(tmp_path):
    graph = tmp_path / "labels.txt"
    graph.write_text("5 7\n7 9\n")
    read = read_graph(graph, compact=True, directed=True)
    back = load_npz(save_npz(read, tmp_path / "g.npz"))
    assert back.ids.to_file(np.arange(3)).tolist() == [5, 7, 9]
    assert back.ids.how == read.ids.how
