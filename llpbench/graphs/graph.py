"""The one graph type of llpbench: an immutable CSR adjacency with weights.

Every generator and reader produces a :class:`Graph`, every problem instance is built from
one, and nothing downstream knows which file format or generator it came from. Arrays are
read-only so that a graph shared by many solver runs cannot be changed by one of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from llpbench.errors import NegativeWeightError
from llpbench.graphs.ids import IDENTITY, FileIds


@dataclass(frozen=True, eq=False)
class Graph:
    """A weighted graph in compressed sparse row form.

    Parameters
    ----------
    indptr : int64 array of length n + 1
        Row pointers: the out-arcs of ``u`` are ``indices[indptr[u]:indptr[u + 1]]``.
    indices : int32 or int64 array of length m
        Arc heads: int32 while ``n < 2**31`` (:meth:`from_edges` and the generators choose it).
    weights : integer or float64 array of length m
        Non-negative arc weights. Integers are stored in the narrowest *signed* type that holds
        them (:func:`narrow_weights`: int8 for unit weights, int16 for GAP's 1..255), so that a
        big graph costs bytes per arc, not words; signed, because unsigned arithmetic wraps
        (``w - 1``, ``-w``) and numpy turns uint64 mixed with int64 into float64.
    directed : bool
        False when every arc (u, v) has its twin (v, u); ``m`` counts arcs either way.
    name, family : str
        Registry name (or file name) and family (kronecker, road, mesh, ...).
    provenance : dict
        How the graph was made: generator and parameters, or source file and weight rule.
    loops : int64 array, optional
        The vertices with a self-loop, sorted. Self-loops are kept out of the CSR (no shortest
        path or BFS level uses one) but remembered here for problems whose semantics need them:
        in a transitive closure a looped vertex reaches itself; a job that is its own
        prerequisite makes a scheduling instance invalid.
    file_ids : FileIds, optional
        How the file the graph was read from names its vertices (1-based, labels renumbered,
        ...); None for a generated graph, whose ids are the internal ones. Every id a user
        gives or reads (``--source``, ``solve -o``, ``runs.csv``) converts through it
        (:attr:`ids`), so that they all speak the file's ids.

    Raises
    ------
    NegativeWeightError
        If any weight is negative.

    Examples
    --------
    >>> import numpy as np
    >>> g = Graph.from_edges(3, np.array([0, 1]), np.array([1, 2]), np.array([5, 7]))
    >>> g.n, g.m, list(g.out_neighbors(0))
    (3, 2, [1])
    """

    indptr: np.ndarray
    indices: np.ndarray
    weights: np.ndarray
    directed: bool = True
    name: str = "graph"
    family: str = "unknown"
    provenance: dict[str, Any] = field(default_factory=dict)
    loops: np.ndarray | None = None
    file_ids: FileIds | None = None

    def __post_init__(self) -> None:
        loops = np.unique(np.asarray([] if self.loops is None else self.loops, dtype=np.int64))
        if loops.shape[0] and (loops[0] < 0 or loops[-1] >= len(self.indptr) - 1):
            raise ValueError("self-loop vertex outside the graph")
        loops.setflags(write=False)
        object.__setattr__(self, "loops", loops)
        indptr = np.ascontiguousarray(self.indptr, dtype=np.int64)
        indices = np.asarray(self.indices)
        if indices.dtype not in (np.int32, np.int64):
            indices = indices.astype(np.int64)
        indices = np.ascontiguousarray(indices)
        weights = np.ascontiguousarray(self.weights)
        if weights.dtype.kind in "iub":
            weights = narrow_weights(weights, self.name)
        else:
            weights = weights.astype(np.float64, copy=False)
        if indptr.ndim != 1 or indptr.shape[0] < 1 or indptr[0] != 0:
            raise ValueError("indptr must be a 1-D array starting at 0")
        if indices.shape[0] != indptr[-1] or weights.shape[0] != indices.shape[0]:
            raise ValueError(
                f"CSR arrays disagree: indptr ends at {indptr[-1]}, "
                f"{indices.shape[0]} indices, {weights.shape[0]} weights"
            )
        if weights.shape[0] and weights.dtype.kind == "f" and weights.min() < 0:
            bad = int(np.argmax(weights < 0))
            raise NegativeWeightError(
                f"{self.name}: negative weight {weights[bad]} on arc {bad}; "
                "shortest-path problems need non-negative weights"
            )
        for arr in (indptr, indices, weights):
            arr.setflags(write=False)
        object.__setattr__(self, "indptr", indptr)
        object.__setattr__(self, "indices", indices)
        object.__setattr__(self, "weights", weights)

    @property
    def n(self) -> int:
        """Number of vertices."""
        return self.indptr.shape[0] - 1

    @property
    def m(self) -> int:
        """Number of arcs (an undirected edge counts twice)."""
        return int(self.indices.shape[0])

    @property
    def ids(self) -> FileIds:
        """The mapping between internal ids and the file's (identity for generated graphs)."""
        return self.file_ids if self.file_ids is not None else IDENTITY

    @property
    def integer_weights(self) -> bool:
        return self.weights.dtype.kind == "i"

    def out_neighbors(self, u: int) -> np.ndarray:
        return self.indices[self.indptr[u] : self.indptr[u + 1]]

    def out_degrees(self) -> np.ndarray:
        return np.diff(self.indptr)

    @cached_property
    def weight_median(self) -> float:
        """``np.median(weights)`` in O(m) (a partition, not a sort), computed once.

        SSSP's default bucket width and the graph's statistics read it; ``np.median`` sorts a
        copy of every weight, seconds on a graph of 10**8 arcs.
        """
        m = self.m
        if m == 0:
            return float("nan")
        half = m // 2
        if self.integer_weights and int(self.weights.max()) < 1 << 16:
            counts = np.zeros(int(self.weights.max()) + 1, np.int64)  # counting: O(m + max)
            for at in range(0, m, 1 << 20):  # in chunks: bincount copies its input to int64
                chunk = np.bincount(self.weights[at : at + (1 << 20)])
                counts[: chunk.shape[0]] += chunk
            cum = np.cumsum(counts)
            hi = int(np.searchsorted(cum, half, side="right"))
            lo = hi if m % 2 else int(np.searchsorted(cum, half - 1, side="right"))
            return (lo + hi) / 2
        kth = [half] if m % 2 else [half - 1, half]
        part = np.partition(self.weights, kth)
        return float(part[half]) if m % 2 else (float(part[half - 1]) + float(part[half])) / 2

    @cached_property
    def reverse(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """In-edge CSR ``(indptr, sources, weights)``, built once on first use (no int64 copy
        of the arcs)."""
        if not self.directed:
            return self.indptr, self.indices, self.weights
        out = _transpose(self.indptr, self.indices, self.weights)
        for arr in out:
            arr.setflags(write=False)
        return out

    @cached_property
    def packed_arcs(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Arc heads and weights as int32 views of one interleaved ``(m, 2)`` array, or None.

        Shortest-path kernels read an arc's head and weight together; interleaved, both come
        in one cache line, and at 4 bytes each (GAP's ``WNode``) half as many bytes stream
        through the caches as from ``indices`` plus int64 ``weights``. None when the weights
        are floats or do not fit int32. Built once on first use; read-only.
        """
        if not self.integer_weights or self.n >= 2**31 or self.weights.itemsize > 4:
            return None
        arcs = np.empty((self.m, 2), dtype=np.int32)
        arcs[:, 0] = self.indices
        arcs[:, 1] = self.weights
        arcs.setflags(write=False)
        return arcs[:, 0], arcs[:, 1]

    def to_scipy(self):
        """The graph as a ``scipy.sparse.csr_matrix``, parallel arcs merged to the lightest.

        scipy would *sum* duplicate entries (arcs of 5 and 7 becoming one of 12); the lightest
        is the one every shortest path uses, so duplicates are merged by minimum instead.
        Explicit zero weights stay stored arcs. Self-loops (:attr:`loops`) are not included.
        Rows whose heads strictly increase (every generated graph, every :meth:`from_edges`
        graph) are wrapped as they are; only a graph with parallel or unsorted arcs is sorted.
        """
        import scipy.sparse as sp

        indptr, indices, weights = min_merged_csr(self.indptr, self.indices, self.weights)
        return sp.csr_matrix((weights, indices, indptr), shape=(self.n, self.n), copy=False)

    def edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All arcs as parallel arrays ``(sources, targets, weights)``; ids keep the graph's
        index type (int32 while n < 2**31), so no int64 copy of the arcs is made."""
        src = np.repeat(np.arange(self.n, dtype=self.indices.dtype), self.out_degrees())
        return src, self.indices, self.weights

    def with_weights(self, weights: np.ndarray, rule: str) -> Graph:
        """A copy with new arc weights, recording the rule in the provenance."""
        prov = dict(self.provenance, weights=rule)
        return Graph(
            self.indptr,
            self.indices,
            weights,
            self.directed,
            self.name,
            self.family,
            prov,
            self.loops,
            self.file_ids,
        )

    @classmethod
    def from_edges(
        cls,
        n: int,
        src: np.ndarray,
        dst: np.ndarray,
        weights: np.ndarray | None = None,
        *,
        directed: bool = True,
        symmetrize: bool = False,
        dedup: bool = True,
        drop_self_loops: bool = True,
        **meta: Any,
    ) -> Graph:
        """Build a CSR graph from arc lists.

        With ``symmetrize`` every arc gets its reverse twin and the graph is undirected. With
        ``dedup`` parallel arcs collapse to one, keeping the smallest weight (the one any
        shortest path would use). With ``drop_self_loops`` self-loops leave the CSR and their
        vertices are recorded in :attr:`loops`.
        """
        src, dst = np.asarray(src), np.asarray(dst)
        if src.dtype not in (np.int32, np.int64) or dst.dtype != src.dtype:
            src, dst = src.astype(np.int64), dst.astype(np.int64)
        if weights is None:
            weights = np.ones(src.shape[0], dtype=np.int64)
        weights = np.asarray(weights)
        if src.shape[0] and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= n):
            raise ValueError(f"edge endpoint outside 0..{n - 1}")
        if dedup and drop_self_loops and src.shape[0] >= CSR_BUILD_MIN_ARCS:
            # a big graph: two counting passes in O(n + m), the same arrays as the sort below
            from llpbench.graphs.csr_build import build_csr

            meta.setdefault("loops", src[src == dst])
            indptr, heads, weights = build_csr(n, src, dst, _narrowed(weights), symmetrize)
            return cls(indptr, heads, weights, False if symmetrize else directed, **meta)
        src, dst = src.astype(np.int64, copy=False), dst.astype(np.int64, copy=False)
        if symmetrize:
            src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
            weights = np.concatenate([weights, weights])
            directed = False
        if drop_self_loops:
            keep = src != dst
            meta.setdefault("loops", src[~keep])
            src, dst, weights = src[keep], dst[keep], weights[keep]
        order = np.lexsort((weights, dst, src))
        src, dst, weights = src[order], dst[order], weights[order]
        if dedup and src.shape[0]:
            first = np.ones(src.shape[0], dtype=bool)
            first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
            src, dst, weights = src[first], dst[first], weights[first]
        counts = np.bincount(src, minlength=n)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        idx_dtype = np.int32 if n < 2**31 - 1 else np.int64
        return cls(indptr, dst.astype(idx_dtype), weights, directed, **meta)

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        return f"Graph({self.name!r}, family={self.family!r}, n={self.n}, m={self.m}, {kind})"


_SIGNED = (np.int8, np.int16, np.int32, np.int64)
#: From this many arcs up, :meth:`Graph.from_edges` builds by counting
#: (:mod:`llpbench.graphs.csr_build`) instead of sorting.
CSR_BUILD_MIN_ARCS = 1 << 18


def _narrowed(weights: np.ndarray) -> np.ndarray:
    """Integer weights in the narrowest signed type that holds their values (negative ones
    included, for the constructor to refuse), unchanged otherwise: the CSR build then moves
    1 or 2 bytes per arc instead of 8."""
    if weights.dtype.kind not in "iu" or weights.shape[0] == 0:
        return weights
    dtype = _narrowest_signed(int(weights.min()), int(weights.max()))
    if dtype is None or weights.dtype == dtype:
        return weights
    return weights.astype(dtype)


def _narrowest_signed(lo: int, hi: int) -> type | None:
    """The first of :data:`_SIGNED` that holds every integer in ``lo..hi``, or None."""
    for dtype in _SIGNED:
        info = np.iinfo(dtype)
        if info.min <= lo and hi <= info.max:
            return dtype
    return None


def narrow_weights(weights: np.ndarray, name: str = "graph") -> np.ndarray:
    """Integer weights in the narrowest signed type that holds them (a view when already so).

    Raises
    ------
    NegativeWeightError
        If a weight is negative (checked here, on the one min/max scan).

    Examples
    --------
    >>> narrow_weights(np.array([1, 255])).dtype
    dtype('int16')
    """
    if weights.shape[0] == 0:
        return weights.astype(np.int8)
    lo, hi = int(weights.min()), int(weights.max())
    if lo < 0:
        bad = int(np.argmax(weights < 0))
        raise NegativeWeightError(
            f"{name}: negative weight {weights[bad]} on arc {bad}; "
            "shortest-path problems need non-negative weights"
        )
    dtype = _narrowest_signed(0, hi)
    if dtype is None:
        raise ValueError(f"{name}: weight {hi} does not fit int64")
    if weights.dtype.kind == "u" and weights.dtype.itemsize >= np.dtype(dtype).itemsize:
        return weights.astype(dtype)
    return weights.astype(dtype, copy=False)


def _rows_strictly_increase(indptr: np.ndarray, indices: np.ndarray) -> bool:
    """Whether every row's heads strictly increase: no parallel arcs, rows sorted."""
    if indices.shape[0] < 2:
        return True
    rising = indices[1:] > indices[:-1]
    rising[indptr[1:-1][(indptr[1:-1] > 0) & (indptr[1:-1] < indices.shape[0])] - 1] = True
    return bool(rising.all())


def min_merged_csr(
    indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR rows sorted by head, each parallel group kept once with its minimum weight.

    Already-canonical rows (the common case) come back as they are, without a copy; others
    are sorted on one combined key ``row * n + head`` (then weight), never a three-key lexsort.
    """
    if _rows_strictly_increase(indptr, indices):
        return indptr, indices, weights
    n = indptr.shape[0] - 1
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    key = rows * max(n, 1) + indices
    order = np.lexsort((weights, key))
    key, heads, w = key[order], indices[order], weights[order]
    first = np.ones(key.shape[0], dtype=bool)
    first[1:] = key[1:] != key[:-1]
    rows, heads, w = rows[order][first], heads[first], w[first]
    out_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=out_ptr[1:])
    return out_ptr, heads, w


def _transpose(indptr, indices, weights):
    """In-edge CSR by a stable sort on heads: sources in increasing order within each row."""
    n = indptr.shape[0] - 1
    counts = np.bincount(indices, minlength=n)
    rptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=rptr[1:])
    src = np.repeat(np.arange(n, dtype=indices.dtype), np.diff(indptr))
    order = np.argsort(indices, kind="stable")  # stable radix sort for int32 in numpy
    return rptr, src[order], weights[order]
