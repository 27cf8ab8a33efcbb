"""The parallel CSR builder of generated graphs against scipy's COO-to-CSR conversion (an
independent construction), and the same arrays for any number of parts and chunks."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from llpbench.graphs.csr_parallel import csr_from_arcs


def _scipy_csr(n: int, src: np.ndarray, dst: np.ndarray, symmetrize: bool):
    keep = src != dst
    rows, cols = src[keep].astype(np.int64), dst[keep].astype(np.int64)
    if symmetrize:
        rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
    m = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    m.sum_duplicates()
    m.sort_indices()
    return m.indptr.astype(np.int64), m.indices.astype(np.int32)


def _arcs(n: int, k: int, seed: int, hub_share: float = 0.0):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, k).astype(np.int32)
    dst = rng.integers(0, n, k).astype(np.int32)
    hubs = rng.random(k) < hub_share  # long rows: numba's sort, not insertion
    src[hubs] = 3 % n
    dst[: k // 50] = src[: k // 50]  # self-loops
    dst[k // 50: k // 25] = dst[k // 25: k // 25 + (k // 25 - k // 50)]  # parallel arcs
    src[k // 50: k // 25] = src[k // 25: k // 25 + (k // 25 - k // 50)]
    return src, dst


@pytest.mark.parametrize("symmetrize", [False, True])
@pytest.mark.parametrize(("n", "k", "hub"), [
    (1, 10, 0.0), (7, 500, 0.0), (1000, 20_000, 0.3),
    (200_003, 150_000, 0.05),  # n > 2^16: buckets of several tails; k > 2^16: several chunks
])
def test_matches_scipy_for_any_thread_count(n, k, hub, symmetrize):
    src, dst = _arcs(n, k, seed=n + k, hub_share=hub)
    ref_ptr, ref_idx = _scipy_csr(n, src, dst, symmetrize)
    for threads in (1, 2, 3, 8):
        indptr, indices = csr_from_arcs(n, [src.copy(), dst.copy()], symmetrize, threads)
        assert indptr.dtype == np.int64 and indices.dtype == np.int32
        assert np.array_equal(indptr, ref_ptr), threads
        assert np.array_equal(indices, ref_idx), threads


def test_no_arcs_and_only_self_loops():
    for n, src in ((5, np.empty(0, np.int32)), (4, np.arange(4, dtype=np.int32))):
        indptr, indices = csr_from_arcs(n, [src, src.copy()], True)
        assert np.array_equal(indptr, np.zeros(n + 1, np.int64))
        assert indices.size == 0


def test_the_list_is_emptied_so_the_ids_can_be_freed():
    src, dst = _arcs(100, 1000, seed=1)
    arcs = [src, dst]
    csr_from_arcs(100, arcs, False)
    assert arcs == []
