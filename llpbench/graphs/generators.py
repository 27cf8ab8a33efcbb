"""Deterministic synthetic graph generators: Kronecker (Graph500/GAP), R-MAT, uniform, mesh, DAG.

Every generator is a pure function of its parameters and ``seed``: random numbers come from
a counter-based splitmix64 stream (one stream per generated edge), so the result does not
depend on numpy's RNG, on the platform or on the order in which work is done: the edge
kernels run in parallel (numba ``prange``) and give the same arrays for any thread count.
Generators give unit (int8 ``1``) weights; :func:`llpbench.graphs.weights.assign_weights` is
a separate step.

Edge lists become CSR on every core (:mod:`llpbench.graphs.csr_parallel`: arcs partitioned
by tail range, then each part's rows placed, sorted and de-duplicated), again the same
arrays for any thread count. Vertex ids are stored as int32.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from llpbench.errors import SpecError
from llpbench.graphs.csr_parallel import csr_from_arcs
from llpbench.graphs.graph import Graph
from llpbench.graphs.splitmix import GOLDEN as _GOLDEN
from llpbench.graphs.splitmix import mix as _mix

# The generators (the registry looks names up here); dag_layers is public but not a generator.
__all__ = ["kronecker", "mesh", "random_dag", "rmat", "uniform_random"]

_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_MASK64 = (1 << 64) - 1
# Per-generator stream tags, so that two generators given the same seed draw unrelated numbers.
_TAG = {"kronecker": 1, "rmat": 2, "uniform": 3, "dag": 4, "perm": 5, "dagarcs": 6, "road": 7,
        "highways": 8, "geometric": 9}
_MAX_SCALE = 30  # int32 vertex ids


# --------------------------------------------------------------------------- numba kernels


@njit(cache=True, inline="always")
def _below(r32, bound):
    """Map a uniform 32-bit value to ``0..bound-1`` (Lemire's multiply-shift, bound < 2**32)."""
    return np.int64((r32 * np.uint64(bound)) >> _S32)


@njit(cache=True)
def _permutation(n, key):
    """A seeded Fisher-Yates shuffle of ``0..n-1`` (int32)."""
    perm = np.arange(n).astype(np.int32)
    for i in range(n - 1, 0, -1):
        j = _below(_mix(key + np.uint64(i) * _GOLDEN) >> _S32, i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


@njit(cache=True, parallel=True)
def _fill_kronecker(src, dst, scale, t_ab, t_a, t_c, key, perm):
    """Graph500 Kronecker edges: one quadrant choice per bit, thresholds scaled to 2**32."""
    for e in prange(src.shape[0]):
        s = _mix(key ^ (np.uint64(e) * _GOLDEN))
        u = 0
        v = 0
        for bit in range(scale):
            s += _GOLDEN
            r = _mix(s)
            ii = (r >> _S32) >= t_ab
            jj = (r & _LOW32) >= (t_c if ii else t_a)
            u |= np.int64(ii) << bit
            v |= np.int64(jj) << bit
        if perm.shape[0] > 0:
            u = perm[u]
            v = perm[v]
        src[e] = u
        dst[e] = v


@njit(cache=True, parallel=True)
def _fill_uniform(src, dst, n, key):
    """Both endpoints uniform in ``0..n-1`` (GAP's ``-u`` generator)."""
    for e in prange(src.shape[0]):
        r = _mix(key ^ (np.uint64(e) * _GOLDEN))
        src[e] = _below(r >> _S32, n)
        dst[e] = _below(r & _LOW32, n)


@njit(cache=True, parallel=True)
def _fill_dag(src, dst, n, key, order, layer_start):
    """Arcs from lower to higher position of ``order``; with layers, only layer l -> l + 1."""
    n_layers = layer_start.shape[0] - 1
    for e in prange(src.shape[0]):
        r = _mix(key ^ (np.uint64(e) * _GOLDEN))
        if n_layers < 2:
            i = _below(r >> _S32, n)
            j = _below(r & _LOW32, n)
            if i > j:
                i, j = j, i
        else:
            lay = _below(r >> _S32, n_layers - 1)
            r2 = _mix(r + _GOLDEN)
            lo, mid, hi = layer_start[lay], layer_start[lay + 1], layer_start[lay + 2]
            i = lo + _below(r2 >> _S32, mid - lo)
            j = mid + _below(r2 & _LOW32, hi - mid)
        src[e] = order[i]
        dst[e] = order[j]  # i == j gives a self-loop, dropped when building the CSR


@njit(cache=True)
def _mesh_csr(rows, cols):
    """4-neighbour grid CSR, vertex ``r * cols + c``, neighbours in increasing id order."""
    n = rows * cols
    indptr = np.zeros(n + 1, np.int64)
    for r in range(rows):
        for c in range(cols):
            d = (r > 0) + (c > 0) + (c < cols - 1) + (r < rows - 1)
            indptr[r * cols + c + 1] = d
    for i in range(n):
        indptr[i + 1] += indptr[i]
    indices = np.empty(indptr[n], np.int32)
    for r in range(rows):
        for c in range(cols):
            u = r * cols + c
            p = indptr[u]
            if r > 0:
                indices[p] = u - cols
                p += 1
            if c > 0:
                indices[p] = u - 1
                p += 1
            if c < cols - 1:
                indices[p] = u + 1
                p += 1
            if r < rows - 1:
                indices[p] = u + cols
    return indptr, indices


# --------------------------------------------------------------------------- helpers


def _key(seed: int, tag: str) -> np.uint64:
    """The stream key for ``(seed, generator)``; any Python int seed is taken modulo 2**64."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise SpecError(f"seed must be an integer, got {seed!r}")
    z = ((int(seed) & _MASK64) ^ (_TAG[tag] * 0xD1B54A32D192ED03)) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64  # splitmix64, in Python ints
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return np.uint64(z ^ (z >> 31))


def _need_int(gen: str, what: str, value: object, lo: int, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise SpecError(f"{gen}: {what} must be an integer, got {value!r}")
    if value < lo or (hi is not None and value > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise SpecError(f"{gen}: {what} must be {rng}, got {value}")
    return int(value)


def _need_degree(gen: str, avg_degree: object) -> float:
    if isinstance(avg_degree, bool) or not isinstance(avg_degree, int | float | np.number):
        raise SpecError(f"{gen}: avg_degree must be a number, got {avg_degree!r}")
    if not np.isfinite(avg_degree) or avg_degree < 0:
        raise SpecError(f"{gen}: avg_degree must be finite and >= 0, got {avg_degree}")
    return float(avg_degree)


def _id_arrays(count: int) -> list[np.ndarray]:
    """``[src, dst]``, int32: a list, so that :func:`csr_from_arcs` can drop the last
    references to them once it has partitioned their arcs (keep no names of your own)."""
    return [np.empty(count, np.int32), np.empty(count, np.int32)]


def _finish(n, arcs, directed, name, family, prov) -> Graph:
    indptr, indices = csr_from_arcs(n, arcs, not directed)
    return _unit_graph(indptr, indices, directed, name, family, prov)


def _unit_graph(indptr, indices, directed, name, family, prov) -> Graph:
    weights = np.ones(indices.shape[0], np.int8)
    return Graph(indptr, indices, weights, directed, name, family, prov)


def _recursive(gen, scale, edge_factor, seed, a, b, c, directed, permute, name, family):
    scale = _need_int(gen, "scale", scale, 0, _MAX_SCALE)
    edge_factor = _need_int(gen, "edge_factor", edge_factor, 0)
    probs = [float(x) for x in (a, b, c)]
    d = 1.0 - sum(probs)
    if min(probs) < 0 or d < -1e-12 or not all(np.isfinite(probs)):
        raise SpecError(f"{gen}: initiator a={a}, b={b}, c={c} must be >= 0 with a + b + c <= 1")
    d = max(d, 0.0)
    a, b, c = probs
    ab = a + b
    a_norm = a / ab if ab > 0 else 0.5
    c_norm = c / (c + d) if c + d > 0 else 0.5

    def thresh(p: float) -> np.uint64:
        return np.uint64(min(int(p * 2.0**32), 2**32))

    n = 1 << scale
    count = edge_factor * n
    key = _key(seed, family)
    perm = _permutation(n, _key(seed, "perm")) if permute else np.empty(0, np.int32)
    arcs = _id_arrays(count)
    _fill_kronecker(*arcs, scale, thresh(ab), thresh(a_norm), thresh(c_norm), key, perm)
    del perm
    prov = dict(generator=gen, scale=scale, edge_factor=edge_factor, a=a, b=b, c=c, d=d)
    prov.update(seed=int(seed), directed=directed, permuted=permute, edges_generated=count)
    return _finish(n, arcs, directed, name, family, prov)


# --------------------------------------------------------------------------- public API


def kronecker(
    scale: int,
    edge_factor: int = 16,
    seed: int = 0,
    *,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    name: str | None = None,
) -> Graph:
    """Undirected Graph500 / GAP Kronecker graph with ``2**scale`` vertices.

    Generates ``edge_factor * 2**scale`` edges by the recursive Kronecker product: for each of
    the ``scale`` bits of the endpoints one quadrant of the initiator ``[[a, b], [c, d]]`` is
    chosen (``d = 1 - a - b - c``). Vertex ids are then relabelled by a seeded random
    permutation, self-loops and duplicates are removed and every edge becomes two arcs.
    Isolated vertices are kept, so ``n == 2**scale``.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices, 0..30.
    edge_factor : int
        Edges generated per vertex (before cleanup; each edge gives two arcs).
    seed : int
        Seed of the edge stream and of the vertex permutation.
    a, b, c : float
        Initiator probabilities; the defaults are Graph500's 0.57, 0.19, 0.19 (d = 0.05).
    name : str, optional
        Graph name; defaults to ``kron-s{scale}-ef{edge_factor}-seed{seed}``.

    Returns
    -------
    Graph
        Undirected, unit weights, family ``"kronecker"``.

    References
    ----------
    Graph500 specification, section "Kronecker generator" (graph500.org); Beamer, Asanović and
    Patterson, "The GAP Benchmark Suite", arXiv:1508.03619 (the ``-g`` generator); Leskovec et
    al., "Kronecker Graphs", JMLR 11 (2010).
    """
    name = name or f"kron-s{scale}-ef{edge_factor}-seed{seed}"
    return _recursive(
        "kronecker", scale, edge_factor, seed, a, b, c, False, True, name, "kronecker"
    )


def rmat(
    scale: int,
    edge_factor: int = 8,
    seed: int = 0,
    *,
    a: float = 0.45,
    b: float = 0.15,
    c: float = 0.15,
    name: str | None = None,
    directed: bool = False,
    permute: bool = True,
) -> Graph:
    """R-MAT graph with ``2**scale`` vertices and ``edge_factor * 2**scale`` generated edges.

    The same recursive quadrant choice as :func:`kronecker`, with R-MAT's own default
    initiator a=0.45, b=0.15, c=0.15, d=0.25 (a moderately skewed setting, milder than
    Graph500's; note that PaRMAT's defaults are a=0.45, b=c=0.22). The same cleanup follows:
    seeded vertex permutation (unless ``permute=False``), self-loop and duplicate removal and,
    unless ``directed``, symmetrisation.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices, 0..30.
    edge_factor : int
        Edges generated per vertex.
    seed : int
        Seed of the edge stream and the permutation.
    a, b, c : float
        Initiator probabilities (d = 1 - a - b - c).
    name : str, optional
        Graph name; defaults to ``rmat-s{scale}-ef{edge_factor}-seed{seed}``.
    directed : bool
        Keep arcs as generated instead of symmetrising.
    permute : bool
        Relabel vertices by a seeded random permutation (hubs otherwise sit at low ids).

    Returns
    -------
    Graph
        Unit weights, family ``"rmat"``.

    References
    ----------
    Chakrabarti, Zhan and Faloutsos, "R-MAT: A Recursive Model for Graph Mining", SDM 2004.
    """
    name = name or f"rmat-s{scale}-ef{edge_factor}-seed{seed}"
    return _recursive(
        "rmat", scale, edge_factor, seed, a, b, c, bool(directed), bool(permute), name, "rmat"
    )


def uniform_random(
    n: int, avg_degree: float, seed: int = 0, *, directed: bool = False, name: str | None = None
) -> Graph:
    """Erdős–Rényi-style graph with uniformly random endpoints (GAP's ``-u`` generator).

    Draws ``round(n * avg_degree)`` arcs' worth of edges with both endpoints uniform in
    ``0..n-1``: ``round(n * avg_degree / 2)`` edges, symmetrised, when undirected, and
    ``round(n * avg_degree)`` arcs when directed, so the mean out-degree is ``avg_degree``
    less the few self-loops and duplicates removed.

    Parameters
    ----------
    n : int
        Number of vertices, 1..2**31 - 1.
    avg_degree : float
        Target mean out-degree.
    seed : int
        Seed of the edge stream.
    directed : bool
        Directed arcs instead of symmetric edges.
    name : str, optional
        Graph name; defaults to ``uniform-n{n}-d{avg_degree}-seed{seed}``.

    Returns
    -------
    Graph
        Unit weights, family ``"uniform"``.

    References
    ----------
    Erdős and Rényi, "On random graphs I" (1959); Beamer et al., "The GAP Benchmark Suite",
    arXiv:1508.03619.
    """
    n = _need_int("uniform_random", "n", n, 1, 2**31 - 1)
    deg = _need_degree("uniform_random", avg_degree)
    count = int(round(n * deg if directed else n * deg / 2))
    arcs = _id_arrays(count)
    _fill_uniform(*arcs, n, _key(seed, "uniform"))
    name = name or f"uniform-n{n}-d{avg_degree:g}-seed{seed}"
    prov = dict(generator="uniform_random", n=n, avg_degree=deg, seed=int(seed))
    prov.update(directed=bool(directed), edges_generated=count)
    return _finish(n, arcs, bool(directed), name, "uniform", prov)


def mesh(rows: int, cols: int, *, name: str | None = None) -> Graph:
    """Undirected 2-D grid with 4-neighbour connectivity; vertex ``(r, c)`` has id ``r*cols+c``.

    Parameters
    ----------
    rows, cols : int
        Grid shape, each >= 1.
    name : str, optional
        Graph name; defaults to ``mesh-{rows}x{cols}``.

    Returns
    -------
    Graph
        ``rows * cols`` vertices, ``2 * (rows * (cols - 1) + cols * (rows - 1))`` arcs, unit
        weights, family ``"mesh"``.
    """
    rows = _need_int("mesh", "rows", rows, 1)
    cols = _need_int("mesh", "cols", cols, 1)
    if rows * cols > 2**31 - 1:
        raise SpecError(f"mesh: {rows}x{cols} has more than 2**31 - 1 vertices")
    indptr, indices = _mesh_csr(rows, cols)
    prov = {"generator": "mesh", "rows": rows, "cols": cols}
    return _unit_graph(indptr, indices, False, name or f"mesh-{rows}x{cols}", "mesh", prov)


def _layer_bounds(n: int, layers: int) -> np.ndarray:
    """Start position of each layer (near-equal sizes) followed by ``n``."""
    return (np.arange(layers + 1, dtype=np.int64) * n) // layers


def dag_layers(n: int, seed: int = 0, layers: int | None = None) -> np.ndarray:
    """The layer of every vertex in ``random_dag(n, ..., seed, layered=True, layers=layers)``.

    Parameters
    ----------
    n : int
        Number of vertices.
    seed : int
        The DAG's seed.
    layers : int, optional
        Number of layers; default ``max(2, round(sqrt(n)))`` capped at ``n``.

    Returns
    -------
    numpy.ndarray
        int64 array of length ``n``; every arc of the layered DAG goes from layer ``l`` to
        ``l + 1``.
    """
    n = _need_int("random_dag", "n", n, 1, 2**31 - 1)
    layers = _default_layers(n, layers)
    order = _permutation(n, _key(seed, "dag"))
    layer_of = np.empty(n, np.int64)
    layer_of[order] = np.repeat(np.arange(layers), np.diff(_layer_bounds(n, layers)))
    return layer_of


def _default_layers(n: int, layers: int | None) -> int:
    if layers is None:
        return min(n, max(2, int(round(np.sqrt(n)))))
    return _need_int("random_dag", "layers", layers, 1, n)


def random_dag(
    n: int,
    avg_degree: float,
    seed: int = 0,
    *,
    layered: bool = False,
    layers: int | None = None,
    name: str | None = None,
) -> Graph:
    """Random directed acyclic graph.

    A seeded random permutation fixes a topological order. Plain variant: ``round(n *
    avg_degree)`` position pairs are drawn uniformly and each becomes an arc from the earlier
    to the later position (equal positions are dropped). Layered variant: the order is cut
    into ``layers`` near-equal consecutive layers and each arc joins a uniform vertex of a
    uniform layer ``l`` to a uniform vertex of layer ``l + 1`` (see :func:`dag_layers`).
    Duplicates are removed, so the mean out-degree is at most ``avg_degree``.

    Parameters
    ----------
    n : int
        Number of vertices, 1..2**31 - 1.
    avg_degree : float
        Arcs drawn per vertex.
    seed : int
        Seed of the order and of the arcs.
    layered : bool
        Only arcs between consecutive layers.
    layers : int, optional
        Number of layers (needs ``layered=True``); default ``max(2, round(sqrt(n)))``.
    name : str, optional
        Graph name; defaults to ``dag-n{n}-d{avg_degree}-seed{seed}`` (``ldag-...`` layered).

    Returns
    -------
    Graph
        Directed, acyclic, unit weights, family ``"dag"``.
    """
    n = _need_int("random_dag", "n", n, 1, 2**31 - 1)
    deg = _need_degree("random_dag", avg_degree)
    if layers is not None and not layered:
        raise SpecError("random_dag: layers= needs layered=True")
    count = int(round(n * deg))
    order = _permutation(n, _key(seed, "dag"))
    if layered:
        layers = _default_layers(n, layers)
        bounds = _layer_bounds(n, layers) if layers >= 2 else np.empty(0, np.int64)
        if layers < 2:
            count = 0
    else:
        bounds = np.empty(0, np.int64)
    arcs = _id_arrays(count)
    if count:
        _fill_dag(*arcs, n, _key(seed, "dagarcs"), order, bounds)
    prefix = "ldag" if layered else "dag"
    name = name or f"{prefix}-n{n}-d{avg_degree:g}-seed{seed}"
    prov = dict(generator="random_dag", n=n, avg_degree=deg, seed=int(seed))
    prov.update(layered=bool(layered), layers=layers if layered else None, edges_generated=count)
    return _finish(n, arcs, True, name, "dag", prov)
