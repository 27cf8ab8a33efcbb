"""Tests of the synthetic graph generators: determinism, shape, cleanup and distributions."""

from __future__ import annotations

import re

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.errors import SpecError
from llpbench.graphs import generators as gen
from llpbench.graphs.csr_parallel import csr_from_arcs
from llpbench.graphs.generators import (
    dag_layers,
    kronecker,
    mesh,
    random_dag,
    rmat,
    uniform_random,
)
from llpbench.graphs.graph import Graph

SLOW_OK = settings(deadline=None, max_examples=25)


def assert_simple(g: Graph) -> None:
    """CSR well-formed, rows strictly increasing (so no duplicates), no self-loops, unit weights."""
    src, dst, w = g.edges()
    assert g.indptr[0] == 0 and g.indptr[-1] == g.m
    assert np.all(np.diff(g.indptr) >= 0)
    assert np.all((dst >= 0) & (dst < g.n))
    assert not np.any(src == dst), "self-loop"
    same_row = src[1:] == src[:-1]
    assert np.all(dst[1:][same_row] > dst[:-1][same_row]), "row unsorted or duplicate arc"
    assert w.dtype == np.int8 and np.all(w == 1)  # unit weights: the narrowest type


def assert_symmetric(g: Graph) -> None:
    a = g.to_scipy()
    assert (a != a.T).nnz == 0


def same_graph(g: Graph, h: Graph) -> bool:
    return (
        g.n == h.n
        and np.array_equal(g.indptr, h.indptr)
        and np.array_equal(g.indices, h.indices)
        and np.array_equal(g.weights, h.weights)
    )


GENERATORS = {
    "kronecker": lambda seed: kronecker(10, 8, seed),
    "rmat": lambda seed: rmat(10, 8, seed),
    "rmat-directed": lambda seed: rmat(10, 8, seed, directed=True),
    "uniform": lambda seed: uniform_random(1000, 8, seed),
    "uniform-directed": lambda seed: uniform_random(1000, 8, seed, directed=True),
    "dag": lambda seed: random_dag(500, 4, seed),
    "ldag": lambda seed: random_dag(500, 4, seed, layered=True),
}


@pytest.mark.parametrize("which", sorted(GENERATORS))
def test_deterministic_per_seed_and_simple(which):
    make = GENERATORS[which]
    g1, g2, g3 = make(1), make(1), make(2)
    assert same_graph(g1, g2)
    assert not same_graph(g1, g3)
    assert g1.m > 0
    assert_simple(g1)
    assert g1.provenance["seed"] == 1 and g1.provenance["generator"]
    assert g1.indices.dtype == np.int32


@pytest.mark.parametrize("which", ["kronecker", "rmat", "uniform"])
def test_undirected_generators_are_symmetric(which):
    g = GENERATORS[which](7)
    assert not g.directed
    assert_symmetric(g)


def test_directed_variants_are_not_symmetrised():
    for g in (GENERATORS["rmat-directed"](3), GENERATORS["uniform-directed"](3)):
        assert g.directed
        a = g.to_scipy()
        assert (a != a.T).nnz > 0


@pytest.mark.parametrize("scale,edge_factor", [(8, 4), (10, 16), (12, 2)])
def test_kronecker_sizes(scale, edge_factor):
    g = kronecker(scale, edge_factor, seed=5)
    generated = edge_factor * 2**scale
    assert g.n == 2**scale
    assert g.provenance["edges_generated"] == generated
    assert g.family == "kronecker"
    assert 0.5 * 2 * generated <= g.m <= 2 * generated
    assert g.m % 2 == 0


def test_kronecker_degrees_skewed_uniform_not():
    k = kronecker(12, 16, seed=0)
    deg = k.out_degrees()
    assert deg.max() > 10 * deg.mean()
    assert (deg == 0).sum() > 0  # Graph500 graphs keep isolated vertices
    u = uniform_random(4096, 32, seed=0)
    udeg = u.out_degrees()
    assert udeg.max() < 2 * udeg.mean()
    assert abs(udeg.mean() - 32) < 1


def test_kronecker_initiator_bits():
    """Unpermuted raw edges: P(source bit = 0) = a + b and P(dest bit = 0) = a + c."""
    count, scale = 200_000, 12
    src = np.empty(count, np.int32)
    dst = np.empty(count, np.int32)

    def t(p):
        return np.uint64(int(p * 2**32))

    a, b, c = 0.57, 0.19, 0.19
    gen._fill_kronecker(
        src,
        dst,
        scale,
        t(a + b),
        t(a / (a + b)),
        t(c / (1 - a - b)),
        gen._key(0, "kronecker"),
        np.empty(0, np.int32),
    )
    for bit in (0, scale - 1):
        assert abs(np.mean((src >> bit) & 1 == 0) - (a + b)) < 0.01
        assert abs(np.mean((dst >> bit) & 1 == 0) - (a + c)) < 0.01
        both0 = np.mean(((src >> bit) & 1 == 0) & ((dst >> bit) & 1 == 0))
        assert abs(both0 - a) < 0.01


def test_permutation_is_a_permutation():
    p = gen._permutation(1000, gen._key(3, "perm"))
    assert np.array_equal(np.sort(p), np.arange(1000))
    assert not np.array_equal(p, np.arange(1000))


def test_rmat_defaults_and_permute_flag():
    g = rmat(10, 8, seed=2)
    assert g.family == "rmat"
    assert (g.provenance["a"], g.provenance["b"], g.provenance["c"]) == (0.45, 0.15, 0.15)
    assert abs(g.provenance["d"] - 0.25) < 1e-12
    plain = rmat(10, 8, seed=2, permute=False)
    # without relabelling the hub is vertex 0 (all bits chosen "low" most often)
    assert int(np.argmax(plain.out_degrees())) == 0
    assert plain.m == g.m  # relabelling changes ids, not the edge multiset


@pytest.mark.parametrize("directed", [False, True])
def test_uniform_counts(directed):
    g = uniform_random(2000, 6, seed=4, directed=directed)
    assert g.family == "uniform" and g.n == 2000
    assert 0.95 * 2000 * 6 <= g.m <= 2000 * 6


@given(rows=st.integers(1, 30), cols=st.integers(1, 30))
@SLOW_OK
def test_mesh_exact(rows, cols):
    g = mesh(rows, cols)
    assert g.n == rows * cols
    assert g.m == 2 * (rows * (cols - 1) + cols * (rows - 1))
    assert g.family == "mesh" and not g.directed
    if g.m:
        assert_simple(g)
    assert_symmetric(g)
    deg = g.out_degrees().reshape(rows, cols)
    expect = (
        (np.arange(rows)[:, None] > 0).astype(int)
        + (np.arange(rows)[:, None] < rows - 1)
        + (np.arange(cols)[None, :] > 0)
        + (np.arange(cols)[None, :] < cols - 1)
    )
    assert np.array_equal(deg, expect)
    src, dst, _ = g.edges()
    r1, c1, r2, c2 = src // cols, src % cols, dst // cols, dst % cols
    assert np.all(np.abs(r1 - r2) + np.abs(c1 - c2) == 1)


def test_mesh_matches_networkx():
    g = mesh(5, 7)
    ref = nx.convert_node_labels_to_integers(nx.grid_2d_graph(5, 7), ordering="sorted")
    a = nx.to_scipy_sparse_array(ref, nodelist=range(35), format="csr")
    assert (g.to_scipy() != a).nnz == 0


@given(seed=st.integers(0, 2**64 - 1), n=st.integers(2, 300), deg=st.floats(0.5, 6))
@SLOW_OK
def test_dag_is_acyclic(seed, n, deg):
    g = random_dag(n, deg, seed)
    assert g.directed and g.family == "dag"
    assert g.m <= round(n * deg)
    assert_simple(g) if g.m else None
    src, dst, _ = g.edges()
    dg = nx.DiGraph()
    dg.add_nodes_from(range(n))
    dg.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    assert nx.is_directed_acyclic_graph(dg)


def test_dag_not_trivially_ordered():
    """The topological order is random, not the identity: some arcs go from high to low id."""
    src, dst, _ = random_dag(500, 4, 1).edges()
    assert np.any(src > dst) and np.any(src < dst)


@given(seed=st.integers(0, 2**32), n=st.integers(2, 400), layers=st.integers(2, 20))
@SLOW_OK
def test_layered_dag_arcs_go_to_next_layer(seed, n, layers):
    layers = min(layers, n)
    g = random_dag(n, 3, seed, layered=True, layers=layers)
    layer = dag_layers(n, seed, layers)
    assert np.array_equal(np.unique(layer), np.arange(layers))
    src, dst, _ = g.edges()
    assert np.all(layer[dst] == layer[src] + 1)
    assert g.provenance["layers"] == layers


def test_layered_dag_default_layers():
    g = random_dag(400, 3, 0, layered=True)
    assert g.provenance["layers"] == 20
    layer = dag_layers(400, 0)
    src, dst, _ = g.edges()
    assert np.all(layer[dst] == layer[src] + 1)
    assert len(np.unique(layer[src])) == 19  # every layer but the last has out-arcs


def test_seed_streams_differ_between_generators():
    u = uniform_random(1024, 8, seed=0)
    k = rmat(10, 4, seed=0, a=0.25, b=0.25, c=0.25)  # uniform initiator, different stream
    assert not same_graph(u, k)


@given(
    n=st.integers(1, 40),
    arcs=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=200),
    symmetrize=st.booleans(),
)
@SLOW_OK
def test_csr_builder_matches_from_edges(n, arcs, symmetrize):
    arcs = [(u % n, v % n) for u, v in arcs]
    src = np.array([u for u, _ in arcs], np.int32)
    dst = np.array([v for _, v in arcs], np.int32)
    indptr, indices = csr_from_arcs(n, [src.copy(), dst.copy()], symmetrize)
    ref = Graph.from_edges(n, src, dst, symmetrize=symmetrize)
    assert np.array_equal(indptr, ref.indptr)
    assert np.array_equal(indices, ref.indices)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: kronecker(-1), "kronecker: scale must be 0..30, got -1"),
        (lambda: kronecker(31), "kronecker: scale must be 0..30, got 31"),
        (lambda: kronecker(4, 1.5), "kronecker: edge_factor must be an integer, got 1.5"),
        (lambda: kronecker(4, -1), "kronecker: edge_factor must be >= 0, got -1"),
        (
            lambda: kronecker(4, 2, a=0.6, b=0.3, c=0.3),
            "kronecker: initiator a=0.6, b=0.3, c=0.3 must be >= 0 with a + b + c <= 1",
        ),
        (lambda: kronecker(4, 2, seed="x"), "seed must be an integer, got 'x'"),
        (lambda: rmat(4, 2, a=-0.1), "rmat: initiator a=-0.1, b=0.15, c=0.15 must be >= 0"),
        (lambda: uniform_random(0, 3), "uniform_random: n must be 1..2147483647, got 0"),
        (
            lambda: uniform_random(10, -1),
            "uniform_random: avg_degree must be finite and >= 0, got -1",
        ),
        (
            lambda: uniform_random(10, float("nan")),
            "uniform_random: avg_degree must be finite and >= 0, got nan",
        ),
        (lambda: mesh(0, 3), "mesh: rows must be >= 1, got 0"),
        (lambda: mesh(3, True), "mesh: cols must be an integer, got True"),
        (lambda: random_dag(10, 2, layers=3), "random_dag: layers= needs layered=True"),
        (
            lambda: random_dag(10, 2, layered=True, layers=11),
            "random_dag: layers must be 1..10, got 11",
        ),
    ],
)
def test_bad_parameters_raise_spec_error(call, message):
    with pytest.raises(SpecError, match=re.escape(message)) as info:
        call()
    assert "\n" not in str(info.value)


def test_names_and_provenance():
    g = kronecker(6, 4, seed=9)
    assert g.name == "kron-s6-ef4-seed9"
    assert kronecker(6, 4, seed=9, name="kron-x").name == "kron-x"
    assert g.provenance["generator"] == "kronecker"
    assert (g.provenance["a"], g.provenance["b"], g.provenance["c"]) == (0.57, 0.19, 0.19)
    assert mesh(2, 3).name == "mesh-2x3"
    assert random_dag(10, 2, 1, layered=True).name.startswith("ldag-")
