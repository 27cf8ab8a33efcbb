"""Reading real-format files right, and a verifier that cannot share the reader's mistakes.

Small files in the shapes found in the wild (count headers, 1-based ids, undirected edges
listed once or both ways, pattern Matrix Market, self-loops, parallel arcs): each test pins
down n, m, what the reader says it assumed, and the answers solved on the graph. The last
group corrupts what the solver sees and checks that verification, which re-reads the file on
its own path, fails.
"""

from __future__ import annotations

import dataclasses
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from llpbench.errors import ReadingWarning, SpecError
from llpbench.graphs.formats import load_npz, read_graph, save_npz, write_graph
from llpbench.graphs.graph import Graph
from llpbench.graphs.independent import reading_dispute, reference_input, reference_matrix
from llpbench.graphs.reading import reading_label
from llpbench.graphs.registry import ReadOptions, load_graph
from llpbench.llp.runtime import solve_llp
from llpbench.problems import build_instance, problem_module
from tests.graphs.test_formats import graphs


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return path


def read_quietly(path, **kw) -> tuple[Graph, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        graph = read_graph(path, **kw)
    return graph, [str(w.message) for w in caught if issubclass(w.category, ReadingWarning)]


def solve(graph: Graph, problem: str, source: int = 0):
    """(answer, mismatch) of a 2-thread PTWB solve checked against the problem's reference."""
    module = problem_module(problem)
    inst = build_instance(module, graph=graph, source=source)
    result = solve_llp(inst, "worklist", "ptwb", 2)
    answer = module.answer(inst, result.state)
    return answer, module.verify(answer, module.reference(inst))


def arcs(graph: Graph) -> set[tuple[int, int]]:
    src, dst, _ = graph.edges()
    return set(zip(src.tolist(), dst.tolist(), strict=True))


# --- headers, index base, directedness -----------------------------------------------------


def test_count_header_is_not_an_arc_and_one_based_ids_are_shifted(tmp_path):
    g, warns = read_quietly(write(tmp_path, "small.txt", "3 2\n1 2\n2 3\n"))
    assert (g.n, g.m) == (3, 2)
    assert arcs(g) == {(0, 1), (1, 2)}
    reading = g.provenance["reading"]
    assert reading["header_line"] == 1 and reading["declared_n"] == 3
    assert reading["index_base"] == 1 and "declared n" in reading["index_base_because"]
    assert g.directed and any("--undirected" in w for w in warns)


def test_undirected_flag_makes_each_listed_edge_two_arcs(tmp_path):
    g, warns = read_quietly(write(tmp_path, "small.txt", "3 2\n1 2\n2 3\n"), directed=False)
    assert not g.directed and (g.n, g.m) == (3, 4)
    assert g.provenance["reading"]["directed_because"] == "--undirected"
    assert not any("directed" in w for w in warns)  # the flag settled it


def test_header_whose_count_does_not_match_is_an_arc(tmp_path):
    # "5 9" cannot count the 2 lines after it: it is an arc like the others
    g, _ = read_quietly(write(tmp_path, "g.txt", "5 9\n0 1\n1 2\n"))
    assert g.provenance["reading"]["header_line"] is None
    assert (g.n, g.m) == (10, 3) and (5, 9) in arcs(g)


def test_one_based_ids_without_header_warn_and_index_base_zero_keeps_them(tmp_path):
    path = write(tmp_path, "g.txt", "1 2\n2 3\n3 1\n")
    g, warns = read_quietly(path)
    assert g.n == 3 and arcs(g) == {(0, 1), (1, 2), (2, 0)}
    assert any("--index-base 0" in w for w in warns)
    kept, _ = read_quietly(path, index_base=0)
    assert kept.n == 4 and arcs(kept) == {(1, 2), (2, 3), (3, 1)}


def test_zero_based_ids_are_kept_without_warning_about_the_base(tmp_path):
    g, warns = read_quietly(write(tmp_path, "g.txt", "0 1\n1 0\n1 2\n2 1\n"))
    assert g.provenance["reading"]["index_base"] == 0 and g.n == 3
    assert not any("index-base" in w for w in warns)


def test_both_directions_listed_is_read_undirected_without_warning(tmp_path):
    g, warns = read_quietly(write(tmp_path, "g.txt", "0 1\n1 0\n1 2\n2 1\n"))
    assert not g.directed and g.m == 4
    assert g.provenance["reading"]["directed_because"] == "every arc is listed in both directions"
    assert warns == []


def test_comments_settle_directedness(tmp_path):
    snap = "# Undirected graph: ca-Like\n# Nodes: 3 Edges: 2\n0 1\n1 2\n"
    g, warns = read_quietly(write(tmp_path, "u.txt", snap))
    assert not g.directed and g.m == 4 and warns == []
    konect = "% sym unweighted\n1 2\n2 3\n"
    k, _ = read_quietly(write(tmp_path, "out.k", konect))
    assert not k.directed and k.n == 3 and k.m == 4
    d, warns = read_quietly(write(tmp_path, "d.txt", "# Directed graph\n0 1\n1 2\n"))
    assert d.directed and d.m == 2 and not any("directed" in w for w in warns)


def test_edge_count_comment_that_disagrees_warns(tmp_path):
    _, warns = read_quietly(write(tmp_path, "g.txt", "# Nodes: 3 Edges: 5\n0 1\n1 2\n"))
    assert any("says 5 edges" in w and "2 edge lines" in w for w in warns)


def test_real_snap_file_says_it_is_directed(datasets_dir):
    g, warns = read_quietly(datasets_dir / "cit-HepPh.txt")
    reading = g.provenance["reading"]
    assert g.directed and reading["directed_because"] == "the file's comment says so"
    assert reading["arc_lines"] == 201_300
    assert g.m == 201_300 - reading["parallel_arcs_merged"] - reading["self_loops"]
    assert g.loops.shape[0] == reading["self_loops"] > 0
    assert not any("directed" in w for w in warns)


# --- weights -------------------------------------------------------------------------------


def test_pattern_mtx_gets_default_weights_with_a_warning_and_unit_on_request(tmp_path):
    mtx = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"
    path = write(tmp_path, "p.mtx", mtx)
    with pytest.warns(ReadingWarning, match="--weights"):
        g = load_graph(path, cache_dir=tmp_path / "c")
    assert g.provenance["weights"].startswith("uniform-int:1:255")
    assert g.weights.min() >= 1 and g.weights.max() <= 255
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReadingWarning)
        unit = load_graph(path, cache_dir=tmp_path / "c", options=ReadOptions(weights="unit"))
    assert np.all(unit.weights == 1) and unit.m == 4
    _, mismatch = solve(unit, "sssp")
    assert mismatch is None


def test_weights_file_on_a_pattern_file_is_refused(tmp_path):
    path = write(tmp_path, "g.txt", "0 1\n1 0\n")
    with pytest.raises(SpecError, match="no weights"):
        load_graph(path, cache_dir=tmp_path / "c", options=ReadOptions(weights="file"))


def test_assigned_weights_are_recomputed_by_the_verifier(tmp_path):
    path = write(tmp_path, "g.txt", "# Undirected\n0 1\n1 2\n2 3\n0 3\n1 3\n")
    options = ReadOptions(weights="uniform:1..255")
    g = load_graph(path, cache_dir=tmp_path / "c", options=options)
    assert g.provenance["weights"] == "uniform-int:1:255;seed=0"
    dist, mismatch = solve(g, "sssp")
    assert mismatch is None and np.all(np.isfinite(dist))
    assert "re-read independently" in reference_input(g)


def test_registry_names_refuse_reading_flags():
    with pytest.raises(SpecError, match="registry graph"):
        load_graph("tiny-kron", options=ReadOptions(directed=False))


# --- self-loops and parallel arcs ----------------------------------------------------------


def test_self_loop_makes_a_vertex_reach_itself_in_the_closure(tmp_path):
    g, _ = read_quietly(write(tmp_path, "loop.txt", "0 0\n0 1\n1 2\n"))
    assert g.m == 2 and g.loops.tolist() == [0]
    assert g.provenance["reading"]["self_loops"] == 1
    closure, mismatch = solve(g, "transitive-closure")
    assert mismatch is None
    rows = problem_module("transitive-closure").vertex_rows(closure)
    assert rows[:, 0].tolist() == [0b111, 0b100, 0]  # 0 reaches {0, 1, 2}


def test_closure_baseline_keeps_self_loops(tmp_path):
    g, _ = read_quietly(write(tmp_path, "loop.txt", "0 0\n0 1\n1 2\n2 2\n"))
    module = problem_module("transitive-closure")
    inst = build_instance(module, graph=g)
    result = module.baseline(inst, threads=2)
    assert module.verify(result.answer, module.reference(inst)) is None
    assert module.vertex_rows(result.answer)[:, 0].tolist() == [0b111, 0b100, 0b100]


def test_job_that_is_its_own_prerequisite_is_rejected(tmp_path):
    g, _ = read_quietly(write(tmp_path, "jobs.txt", "0 1\n1 1\n1 2\n"))
    with pytest.raises(SpecError, match="job 1 is its own prerequisite"):
        build_instance(problem_module("job-scheduling"), graph=g)


def test_self_loops_survive_compaction_cache_and_export(tmp_path):
    path = write(tmp_path, "g.wel", "# Directed\n10 10 1\n10 20 3\n20 30 4\n")
    g, _ = read_quietly(path)
    out = tmp_path / "out.wel"
    write_graph(g, out)
    again, _ = read_quietly(out)
    assert again.loops.tolist() == g.loops.tolist() == [10]
    assert arcs(again) == arcs(g)
    save_npz(g, tmp_path / "g.npz")
    assert load_npz(tmp_path / "g.npz").loops.tolist() == [10]


def test_parallel_arcs_in_a_file_merge_to_the_lightest(tmp_path):
    g, _ = read_quietly(write(tmp_path, "g.wel", "# Directed\n0 1 5\n0 1 7\n1 2 1\n"))
    assert g.m == 2 and g.provenance["reading"]["parallel_arcs_merged"] == 1
    dist, mismatch = solve(g, "sssp")
    assert mismatch is None and dist.tolist() == [0, 5, 6]


def test_hand_built_parallel_arcs_verify_against_the_lightest():
    g = Graph(np.array([0, 2, 2]), np.array([1, 1]), np.array([5, 7]), directed=True)
    assert g.to_scipy()[0, 1] == 5  # scipy alone would have summed them to 12
    dist, mismatch = solve(g, "sssp")
    assert mismatch is None and dist.tolist() == [0, 5]


# --- the verifier reads the file on its own path -------------------------------------------


def ca_hepph_like(tmp_path, n: int = 300, seed: int = 5):
    """A SNAP-style collaboration file: count header, 1-based ids, each edge listed once."""
    rng = np.random.default_rng(seed)
    tree = [(int(rng.integers(0, v)), v) for v in range(1, n)]  # connected
    extra = {tuple(sorted(map(int, rng.choice(n, 2, replace=False)))) for _ in range(2 * n)}
    edges = sorted(set(tree) | extra)
    lines = [f"{n} {len(edges)}"] + [f"{u + 1}\t{v + 1}" for u, v in edges]
    path = tmp_path / "ca-HepPh-like.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, n, len(edges)


def test_ca_hepph_like_file_read_undirected_reaches_the_whole_component(tmp_path):
    path, n, edges = ca_hepph_like(tmp_path)
    g, _ = read_quietly(path, directed=False)
    assert (g.n, g.m) == (n, 2 * edges)
    levels, mismatch = solve(g, "bfs")
    assert mismatch is None and np.isfinite(levels).sum() == n


def test_misread_graph_fails_verification(tmp_path):
    """A reader that got the file wrong, but recorded the right assumptions: the verifier
    re-reads the file and disagrees, where a reference from the solver's own CSR agreed."""
    path, n, _ = ca_hepph_like(tmp_path)
    good, _ = read_quietly(path, directed=False)
    src, dst, w = good.edges()
    keep = np.ones(src.shape[0], dtype=bool)
    keep[np.flatnonzero(src == 0)] = False  # lose every arc out of vertex 0
    keep[np.flatnonzero(dst == 0)] = False
    wrong = Graph.from_edges(n, src[keep], dst[keep], w[keep], directed=False)
    wrong = dataclasses.replace(wrong, provenance=good.provenance)
    module = problem_module("bfs")
    inst = build_instance(module, graph=wrong, source=1)
    answer = module.answer(inst, solve_llp(inst, "worklist", "ptwb", 2).state)
    from scipy.sparse.csgraph import breadth_first_order

    order = breadth_first_order(wrong.to_scipy(), 1, return_predecessors=False)
    assert np.isfinite(answer).sum() == order.shape[0]  # self-consistent on the wrong graph
    assert module.verify(answer, module.reference(inst)) is not None


def test_instance_corrupted_before_the_solve_fails_verification(tmp_path):
    path = write(tmp_path, "g.wel", "# Directed\n0 1 4\n1 2 4\n0 2 9\n")
    g, _ = read_quietly(path)
    module = problem_module("sssp")
    inst = build_instance(module, graph=g, source=0)
    weights = inst.arrays.weights.copy()
    weights[:] = 1  # the solver now sees other weights than the file's
    inst = dataclasses.replace(inst, arrays=inst.arrays._replace(weights=weights))
    answer = module.answer(inst, solve_llp(inst, "worklist", "ptwb", 1).state)
    assert answer.tolist() == [0, 1, 1]
    mismatch = module.verify(answer, module.reference(inst))
    assert mismatch is not None and "differ" in mismatch


def test_reference_of_a_generated_graph_comes_from_its_arcs():
    g = Graph.from_edges(3, [0, 1], [1, 2], [2, 3], directed=True)
    assert reference_input(g) == "the graph's arcs (no source file)"
    assert reference_matrix(g).toarray().tolist() == [[0, 2, 0], [0, 0, 3], [0, 0, 0]]


def test_reading_label_states_every_assumption(tmp_path):
    g, _ = read_quietly(write(tmp_path, "small.txt", "3 3\n1 2\n2 2\n2 3\n"), directed=False)
    label = reading_label(g)
    assert label.startswith("snap undirected base=1 header=line1")
    assert "loops=1" in label and "merged=0" in label


# --- the two readers agree on files read right ---------------------------------------------


def same_arcs(reference, graph: Graph) -> None:
    """The verifier's matrix, self-loops left out, equals the solver's graph arc for arc."""
    ref = reference.tolil()
    ref.setdiag(0)
    ref = ref.tocsr()
    ref.eliminate_zeros()
    mine = graph.to_scipy().astype(np.float64)
    mine.eliminate_zeros()
    assert ref.shape == mine.shape
    assert (ref != mine).nnz == 0


def stored_loops(reference) -> list[int]:
    """The vertices with a stored diagonal entry (a self-loop's weight is 0 in written files)."""
    coo = reference.tocoo()
    return sorted(set(coo.row[coo.row == coo.col].tolist()))


def graph_of(n: int, arcs: list[tuple[int, int, int]], directed: bool) -> Graph:
    src, dst, w = (np.array(c, dtype=np.int64) for c in zip(*arcs, strict=True))
    return Graph.from_edges(n, src, dst, w, symmetrize=not directed, directed=directed, name="h")


# a first line ``u v w`` whose w counts the lines after it: the verifier once took it for a
# count header (``0 0 0`` alone: n = 0, where the file's loop and llpbench comment say n = 1)
ARC_LIKE_HEADERS = {
    "a lone loop on vertex 0": (1, [(0, 0, 0)], False),
    "a lone loop on the highest vertex": (3, [(2, 2, 0)], True),
    "a lone loop below n": (5, [(2, 2, 0)], False),
    "loops only": (4, [(1, 1, 0), (3, 3, 0)], True),
    "an arc whose weight counts the arcs after it": (12, [(5, 6, 1), (6, 7, 3)], True),
}
FORMATS = [".mtx", ".gr", ".wel", ".mtx.gz", ".gr.gz", ".wel.gz"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(g=graphs(), suffix=st.sampled_from(FORMATS))
@example(g=graph_of(1, [(0, 0, 0)], directed=False), suffix=".wel")
@example(g=graph_of(3, [(2, 2, 0)], directed=True), suffix=".wel")
def test_independent_reader_agrees_with_the_reader_on_every_format(g, suffix):
    with tempfile.TemporaryDirectory() as tmp:
        path = write_graph(g, Path(tmp) / f"g{suffix}")
        again, _ = read_quietly(path)
        assert "re-read independently" in reference_input(again)
        assert reading_dispute(again) is None
        same_arcs(reference_matrix(again), again)
        assert stored_loops(reference_matrix(again)) == again.loops.tolist() == g.loops.tolist()


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize("case", ARC_LIKE_HEADERS)
def test_both_readers_read_n_from_a_file_whose_first_line_could_be_a_header(case, suffix):
    n, listed, directed = ARC_LIKE_HEADERS[case]
    g = graph_of(n, listed, directed)
    with tempfile.TemporaryDirectory() as tmp:
        again, _ = read_quietly(write_graph(g, Path(tmp) / f"g{suffix}"))
        reference = reference_matrix(again)
        assert again.n == reference.shape[0] == n
        assert again.provenance["reading"].get("header_line") is None
        assert reading_dispute(again) is None
        assert stored_loops(reference) == again.loops.tolist() == g.loops.tolist()
        same_arcs(reference, again)


def test_a_lone_wel_line_u_v_w_is_an_arc_and_two_integers_a_header(tmp_path):
    arc, _ = read_quietly(write(tmp_path, "arc.wel", "0 0 0\n"))
    assert (arc.n, arc.loops.tolist()) == (1, [0])
    assert reference_matrix(arc).shape == (1, 1) and reading_dispute(arc) is None
    header, _ = read_quietly(write(tmp_path, "header.wel", "4 0\n"))
    assert (header.n, header.m, header.provenance["reading"]["header_line"]) == (4, 0, 1)
    assert reference_matrix(header).shape == (4, 4) and reading_dispute(header) is None


def test_a_silent_file_of_self_loops_only_is_undirected_for_both_readers(tmp_path):
    """Each loop is its own reverse: every arc is listed both ways, on both sides."""
    g, _ = read_quietly(write(tmp_path, "loops.txt", "0 0\n2 2\n"))
    assert (g.n, g.m, g.loops.tolist(), g.directed) == (3, 0, [0, 2], False)
    assert reading_dispute(g) is None
    assert stored_loops(reference_matrix(g)) == [0, 2]


@pytest.mark.parametrize("name", ["luxembourg-road", "delaunay-n16", "cit-hepph"])
def test_independent_reader_agrees_on_the_real_registry_graphs(name, tmp_path):
    g = load_graph(name, cache_dir=tmp_path)
    assert "re-read independently" in reference_input(g)
    same_arcs(reference_matrix(g), g)


def test_label_ids_warn_and_compact_ids_renumbers_them(tmp_path):
    path = write(tmp_path, "labels.txt", "# Directed\n1000 2000\n2000 3000\n3000 1000\n")
    with pytest.warns(ReadingWarning, match="--compact-ids"):
        sparse = load_graph(path, cache_dir=tmp_path / "c", options=ReadOptions(weights="unit"))
    assert sparse.n == 3001
    options = ReadOptions(weights="unit", compact=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReadingWarning)
        g = load_graph(path, cache_dir=tmp_path / "c", options=options)
    assert g.n == 3 and arcs(g) == {(0, 1), (1, 2), (2, 0)}
    assert "compacted" in reading_label(g)
    dist, mismatch = solve(g, "sssp")
    assert mismatch is None and dist.tolist() == [0, 1, 2]


def test_a_konect_file_is_named_konect_and_its_stated_edge_count_is_checked():
    from llpbench.graphs.formats import read_graph
    from llpbench.graphs.reading import reading_facts

    path = Path(__file__).resolve().parents[1] / "data" / "out.moreno_lesmis_lesmis"
    facts = reading_facts(read_graph(path))
    assert facts["reading: format"] == "konect"
    assert facts["reading: stated"] == (
        "the KONECT line '% 254 77 77': n = 77, 254 edge lines (254 read)"
    )
