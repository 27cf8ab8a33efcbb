"""Transitive closure (reachability) of a directed graph as an LLP problem (Garg, "Predicate
detection to solve combinatorial optimization problems", SPAA 2020: a least fixed point
reached by advancing forbidden indices; LLP-FW, Ribeiro Alves and Garg, 2026).

Formulation
    State: one reachability set ``R(j)`` per vertex, a row of ``W = ceil(n / 64)`` int64
    bitset words (flattened, ``n * W`` words), starting empty; a state advances by setting
    bits. ``j`` is forbidden when some arc ``j -> v`` has ``R(v) ∪ {v} ⊄ R(j)``; advancing
    ORs every such set into ``R(j)`` (a CAS loop per word) and reports j's in-neighbours,
    whose predicate reads ``R(j)``. The least state with no forbidden vertex is the closure:
    ``R(j)`` = the vertices reachable from j by a path of one or more arcs (j itself only if
    it lies on a cycle). Cycles need no special case. A self-loop is the shortest cycle: the
    CSR keeps no loops (``Graph.loops`` lists them), so a looped vertex starts with its own
    bit set, the one fact about j that no other arc can give.

Priority ``|R(j)|`` (a popcount of the row): small sets, near the sinks and complete early,
propagate first (a constant key made PTWB's heap pop almost LIFO: 38x the items of FIFO on
the 4000-vertex instance; this key gives fewer items than FIFO). Nothing is stale: an old
item propagates the *current* ``R(j)``, and skipping it in favour of the newer push only
delays that (FIFO items grew 30% when outdated items were skipped).

Two statements of the same predicate
    *Direct* (``forbidden``/``advance``, scanning solvers): pull from j's out-neighbours.
    *Incremental* (``work``, worklist solvers): when ``R(j)`` grew, the only terms that can
    have become unsatisfied are ``R(j) ∪ {j} ⊆ R(u)`` for j's in-neighbours u, so the item
    "j advanced" ORs ``R(j) ∪ {j}`` into each ``R(u)`` and reports the u it changed.

Instances: :func:`generate` draws ``uniform_random(size, 1.5, seed, directed=True)``; mean
out-degree 1.5 keeps the closure at about a third of all pairs whatever ``size`` (2 already
gives two thirds, 4 gives 96%), and the giant strongly connected component exercises cycles.
Registry graphs are accepted up to :data:`MAX_VERTICES` (the bitset is n^2 / 8 bytes).
Reference: scipy's ``breadth_first_order`` from every vertex. Baseline: SCC condensation and
one bitset pass in reverse topological order (:mod:`llpbench.baselines.scc_closure`, one
thread); ``bfs-from-every-vertex`` (a numba BFS from every vertex into a bitset row, sources
split over threads) remains by name. Bitset Warshall is O(n^3 / 64), slower on sparse graphs.
"""

from __future__ import annotations

import threading
import time

import numpy as np
from numba import njit, typeof

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError
from llpbench.graphs.graph import Graph
from llpbench.graphs.independent import checks_reading, dispute_of
from llpbench.llp.atomics import atomic_cas, atomic_load
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES, RETRIES

NAME = "transitive-closure"
INPUT = "size"
AVG_DEGREE = 1.5
MAX_VERTICES = 20_000  # 50 MB of bitset

# --- kernels -------------------------------------------------------------------------------
# inst = (indptr, indices, rev_indptr, rev_sources, n, words)
# R(j) is state[j * words : (j + 1) * words]; vertex v is bit v & 63 of word v >> 6.


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return inst[4]


@njit(nogil=True, cache=True, inline="always")
def _or_word(state, idx, bits, ctr):
    """Atomically OR ``bits`` into ``state[idx]``; True if this call set a new bit."""
    while True:
        old = atomic_load(state, idx)
        new = old | bits
        if new == old:
            return False
        if atomic_cas(state, idx, old, new):
            return True
        ctr[RETRIES] += 1


@njit(nogil=True, cache=True, inline="always")
def _with_self(state, words, v, w):
    """Word ``w`` of ``R(v) ∪ {v}``."""
    bits = atomic_load(state, v * words + w)
    if (v >> 6) == w:
        bits |= np.int64(1) << (v & 63)
    return bits


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    indptr, indices, words = inst[0], inst[1], inst[5]
    base = j * words
    for e in range(indptr[j], indptr[j + 1]):
        v = indices[e]
        for w in range(words):
            if _with_self(state, words, v, w) & ~atomic_load(state, base + w):
                return True
    return False


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    indptr, indices, rptr, rsrc, words = inst[0], inst[1], inst[2], inst[3], inst[5]
    base = j * words
    changed = False
    for w in range(words):
        acc = np.int64(0)
        for e in range(indptr[j], indptr[j + 1]):
            acc |= _with_self(state, words, indices[e], w)
        if acc & ~atomic_load(state, base + w):
            changed |= _or_word(state, base + w, acc, ctr)
    if changed:
        ctr[ADVANCES] += 1
    k = 0
    for e in range(rptr[j], rptr[j + 1]):
        out[k] = rsrc[e]
        k += 1
    return k


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    rptr, rsrc, words = inst[2], inst[3], inst[5]
    k = 0
    for e in range(rptr[j], rptr[j + 1]):
        u = rsrc[e]
        base = u * words
        changed = False
        for w in range(words):
            bits = _with_self(state, words, j, w)
            if bits != 0 and bits & ~atomic_load(state, base + w):
                changed |= _or_word(state, base + w, bits, ctr)
        if changed:
            out[k] = u
            k += 1
            ctr[ADVANCES] += 1
    return k


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(nogil=True, cache=True, inline="always")
def _popcount(word):
    """Set bits of an int64 word (SWAR)."""
    x = np.uint64(word)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    """``|R(j)|``: small sets (near the sinks, complete first) propagate first."""
    words = inst[5]
    count = np.int64(0)
    for w in range(j * words, (j + 1) * words):
        count += _popcount(atomic_load(state, w))
    return count


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    """Never: an item propagates ``R(j)`` as it is when popped, however old the push."""
    return False


# --- instances, answers, reference ---------------------------------------------------------


def instance(graph: Graph) -> Instance:
    """The transitive-closure instance of ``graph`` (weights ignored; an undirected graph's
    arcs count both ways).

    Raises
    ------
    SpecError
        If ``graph`` has more than :data:`MAX_VERTICES` vertices.
    """
    n = graph.n
    if n > MAX_VERTICES:
        raise SpecError(
            f"transitive-closure: {graph.name} has {n} vertices; the bitset closure is limited "
            f"to {MAX_VERTICES} ({MAX_VERTICES**2 // 8 // 2**20} MiB)"
        )
    words = (n + 63) // 64
    rptr, rsrc, _ = graph.reverse
    in_degrees = np.diff(rptr)
    arrays = (graph.indptr, graph.indices, rptr, rsrc, np.int64(n), np.int64(words))
    loops = graph.loops

    def init_state() -> np.ndarray:
        state = np.full(n * words, 0, dtype=np.int64)  # written: no page faults in the timing
        _set_own_bits(state.reshape(max(n, 1), words) if n else state.reshape(0, 0), loops)
        return state

    return Instance(
        problem=__name__,
        arrays=arrays,
        n=n,
        max_out=int(in_degrees.max(initial=0)),
        init_state=init_state,
        # worklist items mean "R(j) ∪ {j} is not yet in its in-neighbours' sets"
        init_work=np.flatnonzero(in_degrees > 0).astype(np.int64),
        bucket_width=1,
        meta={"graph": graph, "words": words},
        max_rounds=n + 1,  # a vertex reachable from j is so by a path of at most n arcs
    )


def _set_own_bits(rows: np.ndarray, vertices: np.ndarray) -> None:
    """Set bit v of row v for each v in ``vertices`` (rows: ``(n, words)`` int64 or uint64)."""
    if vertices.shape[0]:
        bits = (np.uint64(1) << (vertices.astype(np.uint64) & np.uint64(63))).view(np.int64)
        flat = rows.view(np.int64)
        flat[vertices, vertices >> 6] |= bits


def generate(size: int, seed: int) -> Instance:
    """A random directed graph on ``size`` vertices (uniform arcs, mean out-degree 1.5)."""
    from llpbench.graphs.generators import uniform_random

    if not 1 <= size <= MAX_VERTICES:
        raise SpecError(f"transitive-closure: size must be 1..{MAX_VERTICES}, got {size}")
    return instance(uniform_random(size, AVG_DEGREE, seed, directed=True))


def make(graph: Graph | None, size: int | None, seed: int, source: int | None) -> Instance:
    """Runner entry point: the closure of ``graph``, or of a generated graph of ``size``."""
    if graph is not None:
        return instance(graph)
    if size is None:
        raise SpecError("transitive-closure needs a size or a graph")
    return generate(int(size), seed)


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """The closure as an ``(n, words)`` uint64 bitset matrix (bit v of row j: j reaches v)."""
    return state.view(np.uint64).reshape(inst.n, inst.meta["words"]).copy()


def _pack_rows(rows: np.ndarray, words: int) -> np.ndarray:
    """Boolean ``(r, n)`` rows as ``(r, words)`` uint64 bitsets (bit v & 63 of word v >> 6)."""
    padded = np.zeros((rows.shape[0], words * 64), dtype=bool)
    padded[:, : rows.shape[1]] = rows
    packed = np.packbits(padded, axis=1, bitorder="little")
    return packed.view("<u8").astype(np.uint64)


@checks_reading
def reference(inst: Instance) -> np.ndarray:
    """Reachability by scipy's ``breadth_first_order`` from every vertex (j reaches itself
    only if some in-neighbour of j, j itself for a self-loop, is reachable from j), on the
    graph as the verifier reads it (self-loops included: see
    :func:`~llpbench.graphs.independent.reference_structure`)."""
    from scipy.sparse.csgraph import breadth_first_order

    from llpbench.graphs.independent import reference_structure

    mat = reference_structure(inst.meta["graph"])
    n = mat.shape[0]  # the file's n: a misread graph of another size fails verify's shape test
    words = (n + 63) // 64
    rev = mat.T.tocsr()
    rptr, rsrc = rev.indptr, rev.indices
    result = np.zeros((n, words), dtype=np.uint64)
    chunk = 256
    for start in range(0, n, chunk):
        rows = np.zeros((min(chunk, n - start), n), dtype=bool)
        for i in range(rows.shape[0]):
            j = start + i
            order = breadth_first_order(mat, j, directed=True, return_predecessors=False)
            rows[i, order] = True
            rows[i, j] = bool(rows[i, rsrc[rptr[j] : rptr[j + 1]]].any())
        result[start : start + rows.shape[0]] = _pack_rows(rows, words)
    return result


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if the bitset matrices agree exactly, else a one-line reason."""
    if disputed := dispute_of(expected):  # the verifier read the file otherwise
        return disputed
    if result.shape != expected.shape:
        return f"closure has shape {result.shape}, expected {expected.shape}"
    diff = np.asarray(result, dtype=np.uint64) ^ np.asarray(expected, dtype=np.uint64)
    bad_rows = np.flatnonzero(diff.any(axis=1))
    if bad_rows.size:
        j = int(bad_rows[0])
        bits = int(np.bitwise_count(diff).sum())
        got, want = int(np.bitwise_count(result[j]).sum()), int(np.bitwise_count(expected[j]).sum())
        return (
            f"{bits} pairs differ in {bad_rows.size} rows, first vertex {j}: "
            f"reaches {got} vertices, expected {want}"
        )
    return None


# --- baseline ------------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def _bfs_rows(indptr, indices, rows, first, step, queue):
    """BFS from sources ``first, first + step, ...`` marking reached vertices in their rows."""
    n = rows.shape[0]
    for s in range(first, n, step):
        row = rows[s]
        head = 0
        tail = 0
        u = s
        while True:
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                bit = np.int64(1) << (v & 63)
                if (row[v >> 6] & bit) == 0:
                    row[v >> 6] |= bit
                    queue[tail] = v
                    tail += 1
            if head == tail:
                break
            u = queue[head]
            head += 1


def baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """SCC condensation and one bitset pass (see :mod:`llpbench.baselines.scc_closure`)."""
    from llpbench.baselines.scc_closure import scc_closure

    return scc_closure(inst.meta["graph"], threads)


def bfs_from_every_vertex(inst: Instance, threads: int = 1) -> BaselineResult:
    """BFS from every vertex (numba), sources interleaved over ``threads`` OS threads.

    ``seconds`` covers the searches; the zeroed result matrix is allocated before the clock
    starts, as the LLP solvers' initial state is.
    """
    graph, words = inst.meta["graph"], inst.meta["words"]
    n = graph.n
    rows = np.full((n, words), 0, dtype=np.int64)  # written: no page faults in the timing
    queues = np.empty((threads, max(n, 1)), dtype=np.int64)
    sig = tuple(typeof(a) for a in (graph.indptr, graph.indices, rows, 0, 1, queues[0]))
    t0 = time.perf_counter()
    _bfs_rows.compile(sig)
    compile_s = time.perf_counter() - t0
    workers = [
        threading.Thread(
            target=_bfs_rows, args=(graph.indptr, graph.indices, rows, t, threads, queues[t])
        )
        for t in range(threads)
    ]
    t0 = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    _set_own_bits(rows, graph.loops)
    seconds = time.perf_counter() - t0
    return BaselineResult(
        answer=rows.view(np.uint64),
        seconds=seconds,
        compile_seconds=compile_s,
        name="bfs-from-every-vertex",
        params={"threads": threads},
    )


#: The baselines by name, the default first (``--baseline NAME`` picks another).
BASELINES = {"scc-bitset": baseline, "bfs-from-every-vertex": bfs_from_every_vertex}


def instance_bytes(size: int, variant: str | None = None) -> int:
    """A lower bound of the instance's peak bytes, checked before it is allocated
    (:func:`llpbench.problems.check_input`): the state's ``size`` rows of ``size`` bits."""
    return 8 * size * -(-size // 64)
