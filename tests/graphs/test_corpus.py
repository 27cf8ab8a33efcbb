"""The reading corpus (``tests/data``): files in the shapes found in the wild, read right.

Each file's truth (n, lines, directed, base) is written in ``tests/data/manifest.toml`` from
its format's documentation. Each test reads a file through the registry as a user would,
checks it against that truth, and solves SSSP and BFS, comparing with scipy on a reading the
test does itself from the manifest (a third reader, sharing nothing with llpbench's two).
The last tests force the reader to misread (the ``count_header`` hook) and check that
verification then fails, naming the decision.
"""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from llpbench.errors import ReadingWarning
from llpbench.graphs import formats, formats_common, formats_edges
from llpbench.graphs.independent import reading_dispute
from llpbench.graphs.reading import reading_facts
from llpbench.graphs.registry import ReadOptions, load_graph
from llpbench.llp.runtime import solve_llp
from llpbench.problems import build_instance, problem_module

DATA = Path(__file__).resolve().parents[1] / "data"
MANIFEST = tomllib.loads((DATA / "manifest.toml").read_text())["files"]


def truth_matrix(name: str, truth: dict, weighted: bool):
    """The graph as the manifest says the file is: this test's own reading, self-loops out,
    parallel arcs merged by their minimum weight."""
    prefix = truth.get("prefix", "")
    rows = []
    for line in (DATA / name).read_text().splitlines():
        tokens = line.split(truth["delimiter"]) if "delimiter" in truth else line.split()
        tokens = [t.strip() for t in tokens if t.strip() or "delimiter" not in truth]
        if not tokens or tokens[0][0] in "#%":
            continue
        if prefix:
            if tokens[0] != prefix:
                continue
            tokens = tokens[1:]
        rows.append(tokens)
    rows = [r[truth.get("index", 0):] for r in rows[truth["skip"] :]]
    assert len(rows) == truth["lines"]
    ids = np.array([[int(r[0]), int(r[1])] for r in rows], dtype=np.int64)
    if truth["base"] == "labels":
        ids = np.unique(ids, return_inverse=True)[1].reshape(ids.shape)
    else:
        ids -= truth["base"]
    col = truth["weights"]
    w = [float(r[col]) if weighted else 1.0 for r in rows]
    best: dict[tuple[int, int], float] = {}
    mirror = truth.get("storage") == "both" or not truth["directed"]
    for (u, v), x in zip(ids.tolist(), w, strict=True):
        for a, b in ((u, v), (v, u)) if mirror else ((u, v),):
            if a != b:
                best[(a, b)] = min(x, best.get((a, b), np.inf))
    keys = list(best)
    n = truth["n"]
    return sp.csr_matrix(
        ([best[k] for k in keys], ([k[0] for k in keys], [k[1] for k in keys])), shape=(n, n)
    )


def load(name: str, tmp_path, weighted: bool, **flags):
    weights = "file" if weighted else "unit"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        graph = load_graph(
            DATA / name, cache_dir=tmp_path, options=ReadOptions(weights=weights, **flags)
        )
    return graph, [str(w.message) for w in caught if issubclass(w.category, ReadingWarning)]


def solved(graph, problem: str, source: int):
    module = problem_module(problem)
    inst = build_instance(module, graph=graph, source=source)
    answer = module.answer(inst, solve_llp(inst, "worklist", "ptwb", 2).state)
    return answer, module.verify(answer, module.reference(inst))


def test_the_corpus_has_forty_real_files_of_ten_kinds_each_described():
    readme = (DATA / "README.md").read_text()
    kinds = {"out" if name.startswith("out.") else Path(name).suffix for name in MANIFEST}
    real = [name for name, truth in MANIFEST.items() if truth.get("real")]
    assert len(real) >= 40 and len({MANIFEST[name]["kind"] for name in real}) >= 10
    assert {".el", ".wel", ".gr", ".mtx", ".txt", ".csv", ".edgelist", "out"} <= kinds
    for name in MANIFEST:
        assert (DATA / name).is_file() and f"`{name}`" in readme


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_corpus_file_is_read_as_documented_and_solves_like_scipy(name, tmp_path):
    truth = MANIFEST[name]
    weighted = truth["weights"] >= 0
    graph, _ = load(name, tmp_path, weighted)
    reading = graph.provenance["reading"]
    assert (graph.n, reading["arc_lines"], graph.directed) == (
        truth["n"],
        truth["lines"],
        truth["directed"],
    )
    if "index_base" in reading:
        expected = 0 if truth["base"] == "labels" else truth["base"]
        assert reading["index_base"] == expected
        assert ("ids_compacted" in reading) == (truth["base"] == "labels")
    assert reading_dispute(graph) is None
    mat = truth_matrix(name, truth, weighted)
    mine = graph.to_scipy().astype(np.float64)
    assert (mine != mat).nnz == 0  # arc for arc, weight for weight
    unit = mat.copy()
    unit.data[:] = 1.0
    for source in sorted({0, truth["n"] // 2, truth["n"] - 1}):
        dist, mismatch = solved(graph, "sssp", source)
        assert mismatch is None
        assert np.array_equal(dist, dijkstra(mat, indices=source))
        levels, mismatch = solved(graph, "bfs", source)
        assert mismatch is None
        assert np.array_equal(levels, dijkstra(unit, indices=source))


def test_count_header_over_label_ids_is_5242_vertices_undirected_without_phantoms(tmp_path):
    graph, warns = load("ca-grqc-like.txt", tmp_path, False)
    assert (graph.n, graph.directed) == (5242, False)
    assert int((graph.out_degrees() == 0).sum()) == 0  # every vertex has an edge: no phantom
    assert any("5,242 distinct ids" in w and "--compact-ids" in w for w in warns)
    facts = reading_facts(graph)
    assert facts["reading: count header"].startswith("line 1 (n = 5242)")
    assert facts["reading: ids"].startswith("renumbered 0..5241 (from n = 26,197)")


def test_a_parser_forced_to_misread_the_header_fails_verification_naming_it(tmp_path, monkeypatch):
    monkeypatch.setattr(formats_edges, "count_header", lambda *args: None)  # the test hook
    graph, _ = load("ca-grqc-like.txt", tmp_path, False, compact=True)
    # the header read as an arc: 28980 is a phantom vertex (5242 happens to be a label)
    assert graph.n == 5243
    _, mismatch = solved(graph, "bfs", 0)
    assert mismatch.startswith("not verified: the verifier reads the file differently")
    assert "count header: the reader has none, the verifier 1" in mismatch
    assert "vertex count: the reader has 5,243, the verifier 5,242" in mismatch
    _, mismatch = solved(graph, "sssp", 0)
    assert "count header" in mismatch


def test_a_parser_forced_to_misread_the_direction_fails_with_the_flag_that_settles_it(
    tmp_path, monkeypatch
):
    real = formats_edges.graph_from_arcs

    def one_way(*args, **kw):
        kw["claim"], kw["directed"] = True, None
        return real(*args, **kw)

    monkeypatch.setattr(formats_common, "_without_reverse", lambda *args: 1)
    monkeypatch.setattr(formats_edges, "graph_from_arcs", one_way)
    graph, _ = load("email-enron-like.txt", tmp_path, False)
    assert graph.directed
    _, mismatch = solved(graph, "sssp", 1)
    assert "direction: the reader has directed, the verifier undirected" in mismatch
    assert "--directed or --undirected settles it" in mismatch


def test_snap_node_count_sets_the_base_and_a_short_copy_is_called_partial(tmp_path):
    graph, warns = load("email-enron-like.txt", tmp_path, False)
    assert graph.n == 40 and graph.provenance["reading"]["index_base"] == 0
    assert int((graph.out_degrees() == 0).sum()) == 1  # vertex 0, whose lines are missing
    assert any("134 edges" in w and "132 edge lines (a partial copy?)" in w for w in warns)


def test_more_lines_than_the_comment_states_is_not_called_partial(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("# Nodes: 3 Edges: 1\n0 1\n1 2\n")
    with pytest.warns(ReadingWarning, match="more than stated") as caught:
        formats.read_graph(path)
    assert not any("partial" in str(w.message) for w in caught)


def test_konect_columns_are_recorded_multiplicity_ignored_timestamps_too(tmp_path):
    graph, _ = load("out.radoslaw-like", tmp_path, False)
    facts = reading_facts(graph)
    assert facts["reading: KONECT header"] == "asym positive"
    assert facts["reading: third column"].startswith("multiplicity")
    assert facts["reading: fourth column"] == "a timestamp, ignored"
    weighted, _ = load("out.radoslaw-like", tmp_path, True)  # --weights file: the column
    assert reading_facts(weighted)["reading: third column"].startswith("weights (--weights file")
    assert reading_dispute(weighted) is None


def test_self_loops_say_lines_and_vertices_apart(tmp_path):
    graph, _ = load("gap-4.el", tmp_path, False)
    assert reading_facts(graph)["reading: self-loops"].startswith("36 lines on 5 vertices")
