"""The counting CSR build of a big graph gives the sort's arrays exactly: rows sorted by head,
self-loops out (and recorded), each (tail, head) pair once with its lightest weight."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.graphs import graph as graph_module
from llpbench.graphs.csr_build import distinct_pairs
from llpbench.graphs.graph import Graph

WEIGHTS = {"int8": (np.int8, 1, 100), "int16": (np.int16, 1, 30000),
           "int64": (np.int64, 0, 2**40), "float": (np.float64, 0, 1)}


def _arcs(seed: int, n: int, k: int, ids, weight: str):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, k).astype(ids)
    dst = rng.integers(0, n, k).astype(ids)
    dst[: k // 10] = src[: k // 10]  # self-loops
    src[k // 10: k // 5], dst[k // 10: k // 5] = src[k // 5: 3 * k // 10], dst[k // 5: 3 * k // 10]
    dtype, lo, hi = WEIGHTS[weight]
    w = rng.uniform(lo, hi, k) if dtype is np.float64 else rng.integers(lo, hi, k).astype(dtype)
    return src, dst, w


def _both(monkeypatch, n, src, dst, w, symmetrize):
    sorted_ = Graph.from_edges(n, src, dst, w, symmetrize=symmetrize)
    monkeypatch.setattr(graph_module, "CSR_BUILD_MIN_ARCS", 0)
    counted = Graph.from_edges(n, src, dst, w, symmetrize=symmetrize)
    monkeypatch.setattr(graph_module, "CSR_BUILD_MIN_ARCS", 1 << 18)
    return sorted_, counted


#: Each a compile of its own: the reader's (int64 ids and weights), a generated graph's
#: narrow types, float weights (the merge-sort path), and each line end of the row sort.
CASES = [(np.int64, "int64", True), (np.int64, "int64", False), (np.int32, "int16", True),
         (np.int32, "int8", False), (np.int64, "float", True)]


@pytest.mark.parametrize(("ids", "weight", "symmetrize"), CASES,
                         ids=[f"{i.__name__}-{w}-{'sym' if s else 'dir'}" for i, w, s in CASES])
def test_the_counting_build_gives_the_sorts_arrays(monkeypatch, ids, weight, symmetrize):
    src, dst, w = _arcs(7, 300, 5000, ids, weight)
    a, b = _both(monkeypatch, 300, src, dst, w, symmetrize)
    assert (a.n, a.m, a.directed) == (b.n, b.m, b.directed)
    assert np.array_equal(a.indptr, b.indptr)
    assert a.indices.dtype == b.indices.dtype and np.array_equal(a.indices, b.indices)
    assert a.weights.dtype == b.weights.dtype and np.array_equal(a.weights, b.weights)
    assert np.array_equal(a.loops, b.loops)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 12), arcs=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11),
                                                     st.integers(1, 9)), max_size=60),
       symmetrize=st.booleans())
def test_small_arc_lists_of_any_shape_agree(n, arcs, symmetrize):
    arcs = [(u % n, v % n, w) for u, v, w in arcs]
    src = np.array([a[0] for a in arcs], dtype=np.int64)
    dst = np.array([a[1] for a in arcs], dtype=np.int64)
    w = np.array([a[2] for a in arcs], dtype=np.int64)
    with pytest.MonkeyPatch.context() as mp:
        a, b = _both(mp, n, src, dst, w, symmetrize)
    assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
    assert np.array_equal(a.weights, b.weights) and np.array_equal(a.loops, b.loops)
    keys = {(u, v) for u, v, _ in arcs if u != v}
    assert distinct_pairs(n, src, dst) == len(keys)
