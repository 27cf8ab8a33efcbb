"""The GAP peer runner: parsing GAP's output, running a binary as a subprocess, exporting.

GAP itself is built outside the repository (see the README), so these tests run stand-in
executables with GAP's command line and output format: ``converter`` really reads the
``.gr`` file llpbench wrote (``a u v w`` lines, as GAP's reader does) and reports its sizes;
``sssp`` reports what it was asked and its environment. Everything else is real: files,
subprocesses, exit codes.
"""

from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest

from llpbench.baselines.gap import (
    GapError,
    check_same_graph,
    export_for_gap,
    find_gap,
    gap_vertex_count,
    parse_gap_output,
    run_gap,
)
from llpbench.graphs.generators import kronecker
from llpbench.graphs.graph import Graph
from llpbench.graphs.weights import assign_weights

# What GAP's sssp printed here for `-n 2 -d 8 -r 59600 -v -a` on kron-2e16.
GAP_OUTPUT = """\
Read Time:           0.01693
Graph has 65532 nodes and 611812 directed edges for degree: 9
Trial Time:          0.02209
Verification:           PASS
Verification Time:   0.02404
Trial Time:          0.00852
SSSP Tree reaches 35634 nodes
Verification:           PASS
Verification Time:   0.01395
Average Time:        0.01530
"""

CONVERTER = """\
import sys
args = sys.argv[1:]
src = args[args.index("-f") + 1]
out = args[args.index("-b") + 1]
arcs = set()
top = -1
for line in open(src):
    if line.startswith("a"):
        _, u, v, w = line.split()
        u, v = int(u) - 1, int(v) - 1
        top = max(top, u, v)
        if u != v:
            arcs.add((u, v))
open(out, "w").write("serialized")
print(f"Graph has {top + 1} nodes and {len(arcs)} directed edges for degree: 1")
"""

SSSP = """\
import os, sys
args = sys.argv[1:]
if "-f" not in args or not os.path.exists(args[args.index("-f") + 1]):
    print("Couldn't open file")
    sys.exit(254)
n = int(args[args.index("-n") + 1])
print(f"Graph has {os.environ['FAKE_NODES']} nodes and {os.environ['FAKE_EDGES']} directed "
      "edges for degree: 1")
for i in range(n):
    print(f"Trial Time:          0.0{os.environ['OMP_NUM_THREADS']}{i}00")
    if "-v" in args:
        print("Verification:           " + os.environ.get("FAKE_VERDICT", "PASS"))
if "-a" in args:
    print("SSSP Tree reaches 7 nodes")
print("args:", " ".join(args))
"""


@pytest.fixture
def gap_bin(tmp_path):
    folder = tmp_path / "gapbs"
    folder.mkdir()
    for name, body in (("converter", CONVERTER), ("sssp", SSSP)):
        exe = folder / name
        exe.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
        exe.chmod(0o755)
    return folder


def small_graph() -> Graph:
    return assign_weights(kronecker(7, 4, seed=3), "uniform-int:1:255", 1)


def test_parse_gap_output_reads_sizes_trials_verification_and_reach():
    r = parse_gap_output(GAP_OUTPUT)
    assert (r.nodes, r.edges, r.directed) == (65532, 611812, True)
    assert r.times == [0.02209, 0.00852]
    assert r.verified is True and r.reached == 35634
    failed = parse_gap_output(GAP_OUTPUT.replace("PASS\nVerification Time:   0.01395", "FAIL"))
    assert failed.verified is False
    quiet = parse_gap_output("Graph has 3 nodes and 4 undirected edges for degree: 1\n"
                             "Trial Time:          0.10000\n")
    assert quiet.directed is False and quiet.verified is None and quiet.reached is None


@pytest.mark.parametrize("text", ["", "Trial Time:          0.1\n",
                                  "Graph has 3 nodes and 4 directed edges for degree: 1\n"])
def test_parse_gap_output_refuses_what_is_not_a_run(text):
    with pytest.raises(GapError, match="GAP sssp"):
        parse_gap_output(text)


def test_gap_vertex_count_ignores_trailing_isolated_vertices():
    g = Graph.from_edges(6, np.array([0, 2]), np.array([3, 1]), np.array([5, 7]))
    assert g.n == 6 and gap_vertex_count(g) == 4
    check_same_graph(g, 4, 2, "here")
    with pytest.raises(GapError, match="did not read the same graph"):
        check_same_graph(g, 6, 2, "here")


def test_export_writes_what_gaps_reader_counts_and_reuses_it(gap_bin, tmp_path):
    g = small_graph()
    out = export_for_gap(g, tmp_path / "work", gap_bin=gap_bin)
    assert out.path.is_file() and out.path.suffix == ".wsg"
    assert (out.nodes, out.edges) == (gap_vertex_count(g), g.m)
    assert not any(p.name.startswith(".gap-") for p in (tmp_path / "work").iterdir())
    again = export_for_gap(g, tmp_path / "work", gap_bin=gap_bin)
    assert again.path == out.path


def test_export_refuses_float_weights_and_missing_builds(gap_bin, tmp_path):
    g = assign_weights(kronecker(5, 4, seed=1), "uniform-float:0:1", 1)
    with pytest.raises(GapError, match="int32"):
        export_for_gap(g, tmp_path, gap_bin=gap_bin)
    with pytest.raises(GapError, match="no such GAP build folder"):
        find_gap(tmp_path / "nowhere")
    (gap_bin / "converter").unlink()
    with pytest.raises(GapError, match="converter"):
        export_for_gap(small_graph(), tmp_path, gap_bin=gap_bin)


def test_run_gap_passes_threads_source_delta_and_parses(gap_bin, tmp_path, monkeypatch):
    f = tmp_path / "g.wsg"
    f.write_text("x")
    monkeypatch.setenv("FAKE_NODES", "10")
    monkeypatch.setenv("FAKE_EDGES", "20")
    r = run_gap("sssp", f, 5, 2, 3, 8, gap_bin=gap_bin, verify=True)
    assert r.times == [0.02, 0.021, 0.022]  # OMP_NUM_THREADS=2 reached the process
    assert r.verified is True and r.reached == 7 and (r.nodes, r.edges) == (10, 20)
    assert "-r 5" in r.output and "-d 8" in r.output and "-v" in r.output
    monkeypatch.setenv("FAKE_VERDICT", "FAIL")
    assert run_gap("sssp", f, 5, 1, 1, 8, gap_bin=gap_bin, verify=True).verified is False


def test_run_gap_failure_is_one_gap_error(gap_bin, tmp_path):
    with pytest.raises(GapError, match="exited with 254: Couldn't open file"):
        run_gap("sssp", tmp_path / "missing.wsg", 0, 1, 1, gap_bin=gap_bin)
    with pytest.raises(GapError, match="no executable GAP 'bfs'"):
        run_gap("bfs", tmp_path / "missing.wsg", 0, 1, 1, gap_bin=gap_bin)
