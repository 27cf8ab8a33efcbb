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
        Arc heads.
    weights : int64 or float64 array of length m
        Non-negative arc weights.
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
            weights = weights.astype(np.int64, copy=False)
        else:
            weights = weights.astype(np.float64, copy=False)
        if indptr.ndim != 1 or indptr.shape[0] < 1 or indptr[0] != 0:
            raise ValueError("indptr must be a 1-D array starting at 0")
        if indices.shape[0] != indptr[-1] or weights.shape[0] != indices.shape[0]:
            raise ValueError(
                f"CSR arrays disagree: indptr ends at {indptr[-1]}, "
                f"{indices.shape[0]} indices, {weights.shape[0]} weights"
            )
        if weights.shape[0] and weights.min() < 0:
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
    def reverse(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """In-edge CSR ``(indptr, sources, weights)``, built once on first use."""
        if not self.directed:
            return self.indptr, self.indices, self.weights
        src = np.repeat(np.arange(self.n, dtype=self.indices.dtype), self.out_degrees())
        order = np.argsort(self.indices, kind="stable")
        counts = np.bincount(self.indices, minlength=self.n)
        rptr = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(counts, out=rptr[1:])
        out = (rptr, np.ascontiguousarray(src[order]), np.ascontiguousarray(self.weights[order]))
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
        if not self.integer_weights or self.n >= 2**31:
            return None
        if self.m and int(self.weights.max()) >= 2**31:
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
        """
        from llpbench.graphs.independent import min_merged_matrix

        src, dst, w = self.edges()
        return min_merged_matrix(self.n, src, dst, w)

    def edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All arcs as parallel arrays ``(sources, targets, weights)``."""
        src = np.repeat(np.arange(self.n, dtype=np.int64), self.out_degrees())
        return src, self.indices.astype(np.int64), self.weights

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
        src = np.asarray(src, dtype=np.int64)
        dst = np.asarray(dst, dtype=np.int64)
        if weights is None:
            weights = np.ones(src.shape[0], dtype=np.int64)
        weights = np.asarray(weights)
        if src.shape[0] and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= n):
            raise ValueError(f"edge endpoint outside 0..{n - 1}")
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
