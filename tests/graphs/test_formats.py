"""Graph file readers and writers: real files, malformed files, round trips, atomic writes."""

from __future__ import annotations

import gzip
import os
import re
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llpbench.errors import FormatError, NegativeWeightError
from llpbench.graphs import formats_text
from llpbench.graphs.formats import (
    load_npz,
    read_dimacs,
    read_graph,
    read_matrix_market,
    read_snap,
    read_wel,
    save_npz,
    write_graph,
)
from llpbench.graphs.graph import Graph


@pytest.fixture
def fast_only(monkeypatch):
    """Fail the test if a valid file falls back to the line-by-line parser."""

    def boom(*args, **kwargs):
        raise AssertionError("valid file took the slow per-line parse")

    monkeypatch.setattr(formats_text, "parse_body_slow", boom)


def same_graph(a: Graph, b: Graph) -> None:
    assert (a.n, a.m, a.directed) == (b.n, b.m, b.directed)
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.indices, b.indices)
    assert a.weights.dtype == b.weights.dtype
    np.testing.assert_array_equal(a.weights, b.weights)


def mtx_pairs(path: Path) -> set[tuple[int, int]]:
    """Independent plain-Python reading of a symmetric pattern file: both arcs, 0-based."""
    arcs = set()
    lines = [ln for ln in path.read_text().splitlines() if not ln.startswith("%")]
    for line in lines[1:]:
        i, j = (int(x) - 1 for x in line.split())
        if i != j:
            arcs |= {(i, j), (j, i)}
    return arcs


def arcs_of(g: Graph) -> set[tuple[int, int]]:
    src, dst, _ = g.edges()
    return set(zip(src.tolist(), dst.tolist(), strict=True))


# --- real files -------------------------------------------------------------------------------


def test_luxembourg_osm(datasets_dir, fast_only):
    path = datasets_dir / "luxembourg_osm.mtx"
    g = read_graph(path)
    assert (g.n, g.m, g.directed) == (114_599, 239_332, False)
    assert g.name == "luxembourg_osm" and g.family == "file"
    reading = g.provenance.pop("reading")
    assert g.provenance == {"source": str(path), "format": "mtx", "pattern": True}
    assert reading["directed"] is False
    assert reading["directed_because"] == "Matrix Market 'symmetric'"
    assert (reading["self_loops"], reading["parallel_arcs_merged"]) == (0, 0)
    assert g.weights.dtype == np.int8 and np.all(g.weights == 1)
    assert arcs_of(g) == mtx_pairs(path)


def test_delaunay_n16(datasets_dir, fast_only):
    g = read_matrix_market(datasets_dir / "delaunay_n16.mtx", name="d16", family="mesh")
    assert (g.n, g.m, g.directed) == (65_536, 2 * 196_575, False)
    assert (g.name, g.family) == ("d16", "mesh")
    np.testing.assert_array_equal(g.out_degrees(), np.diff(g.reverse[0]))


def test_cit_hepph_counts_match_plain_python(datasets_dir, fast_only):
    path = datasets_dir / "cit-HepPh.txt"
    pairs, loops, ids = set(), 0, set()
    with open(path, "rb") as fh:
        for raw in fh:
            line = raw.decode().strip()
            if not line or line.startswith("#"):
                continue
            u, v = (int(x) for x in line.split())
            ids |= {u, v}
            if u == v:
                loops += 1
            else:
                pairs.add((u, v))
    g = read_graph(path)
    assert g.directed and g.provenance["format"] == "snap" and g.provenance["pattern"]
    assert g.m == len(pairs)
    assert g.n == max(ids) + 1  # ids are kept, not compacted
    assert arcs_of(g) == pairs
    assert loops > 0  # the file does contain self-loops, which the reader drops


def test_real_file_gzipped_and_rewritten(datasets_dir, tmp_path, fast_only):
    g = read_graph(datasets_dir / "luxembourg_osm.mtx")
    gz = tmp_path / "lux.mtx.gz"
    gz.write_bytes(gzip.compress((datasets_dir / "luxembourg_osm.mtx").read_bytes(), 1))
    same_graph(read_graph(gz), g)
    assert read_graph(gz).name == "lux"
    for suffix in (".mtx", ".gr", ".wel"):
        same_graph(read_graph(write_graph(g, tmp_path / f"lux{suffix}")), g)
    assert read_graph(tmp_path / "lux.mtx").provenance["pattern"] is True
    assert (
        (tmp_path / "lux.mtx")
        .read_text()
        .startswith("%%MatrixMarket matrix coordinate pattern symmetric\n")
    )


def test_error_at_end_of_real_file_names_its_line(datasets_dir, tmp_path):
    text = (datasets_dir / "luxembourg_osm.mtx").read_bytes()
    bad = tmp_path / "lux.mtx"
    bad.write_bytes(text.replace(b"114597 114596", b"114597 114596 7"))
    last = text.count(b"\n")
    found = re.escape(f"{bad}:{last}: an entry 'row col', found '114597 114596 7'")
    with pytest.raises(FormatError, match=f"^{found}$") as err:
        read_graph(bad)
    assert err.value.line == last == 119_670


# --- small valid files ------------------------------------------------------------------------


def test_snap_line_endings_tabs_and_sparse_ids(tmp_path, fast_only):
    path = tmp_path / "g.tsv"
    path.write_bytes(b"# c1\n# c2\r\n10\t20\r\n20 10\n\n 7\t 7 \r\n10\t20\r\n30  0")
    g = read_snap(path)
    assert g.n == 31 and g.directed
    assert arcs_of(g) == {(10, 20), (20, 10), (30, 0)}
    u = read_graph(path, directed=False)
    assert not u.directed and arcs_of(u) == {(10, 20), (20, 10), (30, 0), (0, 30)}


def test_matrix_market_fields_and_directedness(tmp_path, fast_only):
    path = tmp_path / "w.mtx"
    path.write_text(
        "%%MatrixMarket matrix coordinate real general\n% x\n%\n3 3 4\n"
        "1 2 0.5\n2 3 1e-3\n1 2 0.25\n3 3 9\n"
    )
    g = read_graph(path)
    assert g.directed and g.weights.dtype == np.float64
    assert arcs_of(g) == {(0, 1), (1, 2)}
    np.testing.assert_array_equal(g.weights, [0.25, 1e-3])  # duplicate: smallest weight kept
    assert g.provenance["pattern"] is False
    path.write_text("%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 4\n3 2 5\n")
    g = read_graph(path)
    assert not g.directed and g.weights.dtype == np.int8 and g.m == 4
    d = read_graph(path, directed=True)
    assert d.directed and arcs_of(d) == arcs_of(g)


def test_dimacs_and_wel(tmp_path, fast_only):
    gr = tmp_path / "g.gr"
    gr.write_text("c hello\np sp 4 3\nc mid\na 1 2 7\na 2 3 0\na\t4\t1\t2\n")
    g = read_dimacs(gr)
    assert (g.n, g.m, g.directed) == (4, 3, True) and g.weights.dtype == np.int8
    wel = tmp_path / "g.wel"
    wel.write_text("# c\n0 1 2\n1 2 1.5\n")
    g = read_wel(wel)
    assert (g.n, g.m) == (3, 2) and g.weights.dtype == np.float64


def test_empty_bodies(tmp_path):
    (tmp_path / "e.mtx").write_text("%%MatrixMarket matrix coordinate pattern general\n2 2 0\n")
    assert read_graph(tmp_path / "e.mtx").m == 0
    (tmp_path / "e.txt").write_text("# nothing\n")
    assert read_graph(tmp_path / "e.txt").n == 0


# --- malformed files --------------------------------------------------------------------------

BANNER = "%%MatrixMarket matrix coordinate integer general\n"
BAD = [
    ("a.mtx", "%MatrixMarket matrix coordinate real general\n", 1, "banner"),
    ("a.mtx", "%%MatrixMarket matrix array real general\n2 2\n", 1, "array"),
    ("a.mtx", "%%MatrixMarket matrix coordinate complex general\n", 1, "complex"),
    ("a.mtx", "%%MatrixMarket matrix coordinate real hermitian\n", 1, "hermitian"),
    ("a.mtx", "", 1, "empty file"),
    ("a.mtx", BANNER + "% only comments\n", 2, "size line"),
    ("a.mtx", BANNER + "% c\n3 3\n1 2 3\n", 3, "size line"),
    ("a.mtx", BANNER + "3 4 1\n1 2 3\n", 2, "square"),
    ("a.mtx", BANNER + "3 3 2\r\n1 2 3\r\n2 3\r\n", 4, "entry"),
    ("a.mtx", BANNER + "3 3 2\n1 2 3\n2 3 4 5\n", 4, "entry"),
    ("a.mtx", BANNER + "3 3 2\n1 2 3\n2 three 4\n", 4, "integer ids"),
    ("a.mtx", BANNER + "3 3 2\n1 2 3\n2 3 4.5\n", 4, "integer as weight"),
    ("a.mtx", BANNER + "3 3 2\n1 2 3\n2 4 4\n", 4, "1..3, found 4"),
    ("a.mtx", BANNER + "3 3 2\n0 2 3\n2 3 4\n", 3, "1..3, found 0"),
    ("a.mtx", BANNER + "3 3 3\n1 2 3\n2 3 4\n", 4, "3 data lines as declared on line 2"),
    ("a.mtx", BANNER + "3 3 1\n1 2 3\n2 3 4\n", 4, "found more"),
    ("a.mtx", BANNER.replace("integer", "real") + "3 3 1\n1 2 nan\n", 3, "finite number"),
    ("a.gr", "c x\na 1 2 3\n", 2, "problem line"),
    ("a.gr", "c x\np sp 3\na 1 2 3\n", 2, "problem line"),
    ("a.gr", "p sp 3 2\na 1 2 3\nx 2 3 4\n", 3, "arc line"),
    ("a.gr", "p sp 3 2\na 1 2 3\na 2 3 4 5\n", 3, "arc line"),
    ("a.gr", "c llpbench: weights=int64\np sp 3 1\na 1 2 0.5\n", 3, "integer as weight"),
    ("a.gr", "p sp 3 1\na 1 2 3\na 2 3 4\n", 3, "found more"),
    ("a.gr", "p sp 3 2\na 1 2 3\na 2 5 4\n", 3, "1..3, found 5"),
    ("a.txt", "# c\n1 2\n3 4 5\n", 3, "'from to'"),
    ("a.txt", "# c\r\n1 2\r\n3 x\r\n", 3, "integer ids"),
    ("a.txt", "1 2\n-3 4\n", 2, ">= 0, found -3"),
    ("a.wel", "# c\n0 1 2\n1 2\n", 3, "'u v w'"),
    ("a.wel", "# llpbench: n=2\n0 1 2\n1 2 3\n", 3, "0..1, found 2"),
    ("a.wel", "# llpbench: n=two\n0 1 2\n", 1, "llpbench comment"),
]


@pytest.mark.parametrize(("name", "text", "line", "words"), BAD)
def test_malformed_file_names_file_and_line(tmp_path, name, text, line, words):
    path = tmp_path / name
    path.write_text(text, newline="")
    where = re.escape(f"{path}:{line}: ")
    with pytest.raises(FormatError, match=f"^{where}.*{re.escape(words)}") as err:
        read_graph(path)
    assert err.value.line == line


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("n.mtx", BANNER + "% c\n3 3 2\n1 2 3\n2 3 -4\n", 5),
        ("n.gr", "c\np sp 3 2\na 1 2 3\na 2 3 -1\n", 4),
        ("n.wel", "0 1 -0.5\n", 1),
    ],
)
def test_negative_weight_names_file_and_line(tmp_path, name, text, line):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(NegativeWeightError, match=f"^{path}:{line}: negative weight"):
        read_graph(path)


def test_unreadable_inputs(tmp_path):
    with pytest.raises(FormatError, match="cannot read: No such file") as err:
        read_graph(tmp_path / "missing.mtx")
    assert err.value.line is None
    (tmp_path / "bad.mtx.gz").write_bytes(b"not gzip at all")
    with pytest.raises(FormatError, match="cannot read: not a valid gzip"):
        read_graph(tmp_path / "bad.mtx.gz")
    with pytest.raises(FormatError, match="cannot read"):
        read_graph(tmp_path)


# --- round trips ------------------------------------------------------------------------------


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 12))
    directed = draw(st.booleans())
    k = draw(st.integers(0, 30))
    ids = st.lists(st.integers(0, n - 1), min_size=k, max_size=k)
    if draw(st.booleans()):
        w = st.integers(0, 2**53)
    else:
        w = st.floats(0, 1e300, allow_nan=False, allow_infinity=False, allow_subnormal=True)
    weights = np.array(draw(st.lists(w, min_size=k, max_size=k)))
    if weights.dtype == object or weights.size == 0:
        weights = weights.astype(np.int64)
    return Graph.from_edges(
        n,
        np.array(draw(ids), dtype=np.int64),
        np.array(draw(ids), dtype=np.int64),
        weights,
        symmetrize=not directed,
        directed=directed,
        name="h",
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(g=graphs(), suffix=st.sampled_from([".mtx", ".gr", ".wel", ".mtx.gz", ".wel.gz"]))
def test_write_then_read_is_exact(g, suffix):
    with tempfile.TemporaryDirectory() as tmp:
        path = write_graph(g, Path(tmp) / f"g{suffix}")
        same_graph(read_graph(path), g)
        assert sorted(os.listdir(tmp)) == [f"g{suffix}"]


@settings(max_examples=25, deadline=None)
@given(g=graphs())
def test_npz_round_trip(g):
    g = Graph(g.indptr, g.indices, g.weights, g.directed, "n", "fam", {"seed": np.int64(3)})
    with tempfile.TemporaryDirectory() as tmp:
        back = load_npz(save_npz(g, Path(tmp) / "g.npz"))
    same_graph(back, g)
    assert (back.name, back.family, back.provenance) == ("n", "fam", {"seed": 3})


def test_npz_rejects_foreign_files(tmp_path):
    (tmp_path / "x.npz").write_bytes(b"garbage")
    with pytest.raises(FormatError, match="llpbench graph cache"):
        load_npz(tmp_path / "x.npz")
    np.savez(tmp_path / "y.npz", a=np.arange(3))
    with pytest.raises(FormatError, match="llpbench graph cache"):
        load_npz(tmp_path / "y.npz")
    with pytest.raises(FormatError, match="cannot read"):
        load_npz(tmp_path / "z.npz")


# --- atomic writes ----------------------------------------------------------------------------

SMALL = Graph.from_edges(3, np.array([0, 1]), np.array([1, 2]), np.array([5, 7]))


def test_writer_failing_to_start_leaves_nothing(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(FormatError, match="cannot write") as err:
        write_graph(SMALL, tmp_path / "file" / "g.mtx")
    assert err.value.line is None
    with pytest.raises(FormatError, match=r"\.mtx, \.gr or \.wel"):
        write_graph(SMALL, tmp_path / "g.csv")
    assert sorted(os.listdir(tmp_path)) == ["file"]


def test_writer_failing_midway_removes_temp_and_keeps_old_file(tmp_path, monkeypatch):
    (tmp_path / "dir.wel").mkdir()  # os.replace onto a directory fails after the temp exists
    with pytest.raises(FormatError, match="cannot write"):
        write_graph(SMALL, tmp_path / "dir.wel")
    assert sorted(os.listdir(tmp_path)) == ["dir.wel"]

    target = write_graph(SMALL, tmp_path / "g.gr")
    before = target.read_bytes()

    def crash(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(np, "savez", crash)
    with pytest.raises(RuntimeError, match="disk on fire"):
        save_npz(SMALL, tmp_path / "g.gr")
    assert target.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["dir.wel", "g.gr"]
