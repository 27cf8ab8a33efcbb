"""0-1 knapsack as an LLP problem over its dynamic-programming table, one lattice index per
block of a row (Garg, "A Lattice Linear Predicate Parallel Algorithm for the Dynamic
Programming Problems", ICDCN 2022; LLP-FW, Ribeiro Alves and Garg, 2026).

Formulation
    The table ``T[i][c]``, the best value using items ``< i`` within capacity c, for
    i = 0..n and c = 0..C, starts at 0 and advances up; row 0 is fixed at 0. Cell (i, c),
    i >= 1, is forbidden when ``T[i][c] < max(T[i-1][c], T[i-1][c - w] + v)`` for item
    i-1's weight w and value v (the second term only if c >= w); the least state with
    nothing forbidden is the DP table, and its last row the answer. A lattice *index* is a
    block of ``block`` consecutive cells of one row (rows 1..n, ``nblocks`` blocks each, index
    ``(i - 1) * nblocks + b``): it is forbidden when one of its cells is, and advancing it
    raises every cell of the block to its target in one loop. Block (i, b) reads block b of
    row i - 1 and the one or two blocks that hold ``c - w`` for its cells: at most three.

Two statements of the same predicate
    *Direct* (``forbidden``/``advance``, the scanning solvers): test the block's cells, raise
    the low ones, report the blocks of row i + 1 that read this one.
    *Released* (``work``, the worklist solvers): an item is a block whose blocks above have
    all *settled*, so its targets are final: ``work`` writes the block once, in a loop that
    the compiler vectorises (two reads, one store a cell), then takes one off the count of
    unsettled blocks above of each block below that reads it (an atomic decrement); the
    decrement that reaches zero reports that block. Each block is computed once, and the
    wavefront (block b of row i can run once blocks <= b of row i - 1 are done) gives up to
    ``nblocks`` blocks to run at once. The counts are auxiliary words after the table,
    set by ``init_state``. Every released block is pushed (going on with it in the same
    call, as job scheduling does with chains, let one thread snake through the whole
    wavefront and left the others idle). The seed is row 1, which reads only the fixed
    row 0.

Cost (counters per index = per block): ``items`` 1, ``advances`` 1 (blocks written),
``stale`` 0; what the released form adds to the 1-D DP's n * (C + 1) cell updates is a push,
a pop and at most three atomic decrements per block, and writing the whole table
((n + 1)(C + 1) int64: 12.8 MB at 400 items) where the 1-D DP keeps one row in cache. The
direct form (cyclic: one pass in row-major, i.e. topological, order and one that finds
nothing) costs atomic loads per cell and cannot be vectorised. The block size trades the
wavefront's width for the per-block cost (a push, a pop, the decrements, five array views):
on 400 items (C = 4000) one thread took about 0.75, 0.55, 0.43 and 0.38 ms with blocks of
512, 1024, 2048 and 4096 (a whole row: no parallelism left) cells, the two-row DP 0.2 ms.

Instances: ``generate(size, seed)``: ``size`` items with seeded uniform integer weights and
values 1..100 and capacity ``CAPACITY_PER_ITEM * size`` (about a fifth of the items fit);
``block`` defaults to ``BLOCK_CELLS``. The state holds (size + 1) * (10 size + 1) int64
cells: 12.8 MB at 400 items, 80 MB at 1000. Reference: the 1-D DP vectorized in numpy.
Baseline: the 1-D DP in numba (one thread), written with two rows used in turn so that it
vectorises like the released form's block loop (``dp-1d-inplace``, the in-place
descending loop, runs scalar and about 4x slower).
"""

from __future__ import annotations

from functools import partial

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError
from llpbench.llp.atomics import atomic_fetch_add, atomic_load, atomic_store_release
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES
from llpbench.llp.launch import timed_call

NAME = "knapsack"
INPUT = "size"
CAPACITY_PER_ITEM = 10
MAX_WEIGHT = 100
MAX_VALUE = 100
BLOCK_CELLS = 2048  # cells of a row per lattice index (16 KiB; see Cost)

# --- kernels -------------------------------------------------------------------------------
# inst = (weights, values, width, block, nblocks): item i has weights[i], values[i]; a row has
# width = C + 1 cells in nblocks blocks of ``block`` (the last may be shorter). State: the
# table, row-major ((items + 1) * width cells), then one count per index (unsettled blocks
# above it, for ``work``).
#
# Kernels touch arrays (``inst``'s and ``state``) only on paths every call takes, and branch on
# scalars after: numba increfs each array it binds and decrefs it after its last use, and when
# that last use lies in a branch or before an early return it fails to prune the pair; the two
# atomic operations per array then cost more than a cell update (measured 20x per call).


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return inst[0].shape[0] * inst[4]


@njit(nogil=True, cache=True, inline="always")
def _taken_by(b, w, width, block):
    """The blocks (first, last) of the next row whose take term ``c - w`` falls in block b
    of this row, for the next row's item weight w; first > last if none."""
    first = b * block + w
    last = min(b * block + block - 1 + w, width - 1)
    if first > width - 1:
        return np.int64(1), np.int64(0)
    return first // block, last // block


@njit(nogil=True, cache=True, inline="always")
def _locate(inst, j):
    """Row i (1..n), block b, its cells [lo, hi), and row i's item (w, v) of index j."""
    weights, values, width, block, nblocks = inst[0], inst[1], inst[2], inst[3], inst[4]
    i = j // nblocks + 1
    b = j - (i - 1) * nblocks
    lo = b * block
    return i, b, lo, min(lo + block, width), weights[i - 1], values[i - 1]


@njit(nogil=True, cache=True, inline="always")
def _target(state, above, c, w, v):
    """max(T[i-1][c], T[i-1][c - w] + v), the row above starting at ``above``."""
    keep = atomic_load(state, above + c)
    if c >= w:
        return max(keep, atomic_load(state, above + c - w) + v)
    return keep


@njit(nogil=True, cache=True)
def _report_below(inst, i, b, out):
    """The indices of row i + 1 that read block b of row i (b itself, then the take blocks)."""
    weights, width, block, nblocks = inst[0], inst[2], inst[3], inst[4]
    items = weights.shape[0]
    first, last = _taken_by(b, weights[min(i, items - 1)], width, block)
    k = 0
    if i < items:
        out[0] = i * nblocks + b
        k = 1
        for s in range(first, last + 1):
            if s != b:
                out[k] = i * nblocks + s
                k += 1
    return k


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    i, b, lo, hi, w, v = _locate(inst, j)
    width = inst[2]
    low = False
    for c in range(lo, hi):
        low |= _target(state, (i - 1) * width, c, w, v) > atomic_load(state, i * width + c)
    return low


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    """Raise the block's low cells (one writer per index: the scanning solvers partition
    the indices) and report the blocks below that read it."""
    i, b, lo, hi, w, v = _locate(inst, j)
    width = inst[2]
    raised = False
    for c in range(lo, hi):
        t = _target(state, (i - 1) * width, c, w, v)
        if t > atomic_load(state, i * width + c):
            atomic_store_release(state, i * width + c, t)
            raised = True
    ctr[ADVANCES] += raised
    return _report_below(inst, i, b, out)


@njit(nogil=True, cache=True, inline="always")
def _write_block(state, above, row, lo, hi, w, v):
    """Cells [lo, hi) of the row at ``row`` from the final row above at ``above``.

    Views indexed from 0: numba then emits no negative-index check and the loops vectorise
    (indexing ``state`` at an offset instead ran 2x slower than the 1-D DP)."""
    split = min(max(w, lo), hi)  # cells below w cannot take the item
    dst = state[row + lo : row + hi]
    keep = state[above + lo : above + hi]
    for p in range(split - lo):
        dst[p] = keep[p]
    dst, keep = dst[split - lo :], keep[split - lo :]
    take = state[above + split - w : above + hi - w]
    for p in range(hi - split):
        dst[p] = max(keep[p], take[p] + v)


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    """Block j's blocks above have settled: write it, report the blocks below it settles."""
    width = inst[2]
    counts = (inst[0].shape[0] + 1) * width
    i, b, lo, hi, w, v = _locate(inst, j)
    _write_block(state, (i - 1) * width, i * width, lo, hi, w, v)
    ctr[ADVANCES] += 1
    # the table's stores above are published by the decrements' full fences
    reads = _report_below(inst, i, b, out)
    k = 0
    for r in range(reads):
        below = out[r]
        if atomic_fetch_add(state, counts + below, -1) == 1:
            out[k] = below
            k += 1
    return k


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return j // inst[4]  # the row: a row before the rows that read it


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    return False


# --- instances -----------------------------------------------------------------------------


def _counts_above(weights: np.ndarray, width: int, block: int, nblocks: int) -> np.ndarray:
    """For each index (row i >= 1, block b): how many distinct blocks of row i - 1 it reads
    (0 for row 1, which reads the fixed row 0)."""
    n = weights.shape[0]
    counts = np.zeros((n, nblocks), dtype=np.int64)
    if n <= 1:
        return counts.ravel()
    b = np.arange(nblocks, dtype=np.int64)[None, :]
    lo, hi = b * block, np.minimum(b * block + block, width)
    w = weights[1:, None]  # rows 2..n
    takes = hi - 1 >= w
    first = (np.maximum(lo, w) - w) // block
    last = (hi - 1 - w) // block
    own_outside = (b < first) | (b > last)
    counts[1:] = np.where(takes, last - first + 1 + own_outside, 1)
    return counts.ravel()


def instance(
    weights: np.ndarray,
    values: np.ndarray,
    capacity: int,
    name: str = "custom",
    block: int | None = None,
):
    """The instance of items (``weights``, ``values`` >= 0 integers) and ``capacity``, with
    ``block`` cells of a row per lattice index (default ``BLOCK_CELLS``).

    Raises
    ------
    SpecError
        If the arrays differ in length or hold negative numbers, capacity < 0 or block < 1.
    """
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    values = np.ascontiguousarray(values, dtype=np.int64)
    if weights.ndim != 1 or weights.shape != values.shape or capacity < 0:
        raise SpecError("knapsack: weights and values need one entry per item, capacity >= 0")
    if weights.size and min(weights.min(), values.min()) < 0:
        raise SpecError("knapsack: weights and values must be >= 0")
    if block is not None and block < 1:
        raise SpecError(f"knapsack: block must be >= 1 cell, got {block}")
    n, width = weights.shape[0], int(capacity) + 1
    block = min(int(block or BLOCK_CELLS), width)
    nblocks = -(-width // block)
    counts = _counts_above(weights, width, block, nblocks)
    cells = (n + 1) * width

    def init_state() -> np.ndarray:
        state = np.full(cells + counts.shape[0], 0, dtype=np.int64)  # written: no page faults
        state[cells:] = counts
        return state

    return Instance(
        problem=__name__,
        arrays=(weights, values, np.int64(width), np.int64(block), np.int64(nblocks)),
        n=n * nblocks,
        max_out=3,
        init_state=init_state,
        init_work=np.arange(nblocks if n else 0, dtype=np.int64),
        bucket_width=1,
        meta={
            "name": name, "items": n, "capacity": int(capacity), "integer": True,
            "block": block, "blocks_per_row": nblocks,
        },
        max_rounds=n + 1,  # row i reads only row i - 1: one pass settles one more row
    )


def generate(size: int, seed: int = 0) -> Instance:
    """``size`` items, weights and values uniform in 1..100, capacity 10 * ``size``."""
    if size is None or size < 1:
        raise SpecError(f"knapsack needs a size >= 1, got {size}")
    rng = np.random.default_rng([int(seed), 0x0C0])
    weights = rng.integers(1, MAX_WEIGHT + 1, size)
    values = rng.integers(1, MAX_VALUE + 1, size)
    return instance(weights, values, CAPACITY_PER_ITEM * size, name=f"n{size}-seed{seed}")


def make(graph, size: int | None, seed: int, source=None) -> Instance:
    """Runner entry point: ``generate(size, seed)`` (no graph)."""
    if graph is not None:
        raise SpecError("knapsack takes a size, not a graph")
    return generate(size, seed)


# --- answers, reference, baseline ----------------------------------------------------------


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """The last row: the best value for each capacity 0..C (int64)."""
    width, items = int(inst.arrays[2]), inst.meta["items"]
    return state[items * width : (items + 1) * width].copy()


def reference(inst: Instance) -> np.ndarray:
    """The 1-D DP vectorized over capacities (numpy): ``T[c:] = max(T[c:], T[:-w] + v)``."""
    weights, values, width = inst.arrays[:3]
    best = np.zeros(int(width), dtype=np.int64)
    for w, v in zip(weights.tolist(), values.tolist(), strict=True):
        if w == 0:
            best += v
        elif w < width:
            np.maximum(best[w:], best[:-w] + v, out=best[w:])  # right side is a copy: 0-1
    return best


@njit(nogil=True, cache=True)
def knapsack_dp(weights, values, width):
    """The classic 1-D DP in place, capacities descending for each item (scalar: the
    compiler cannot prove that ``best[c - w]`` is not a value this pass already wrote)."""
    best = np.zeros(width, dtype=np.int64)
    for i in range(weights.shape[0]):
        w, v = weights[i], values[i]
        for c in range(width - 1, w - 1, -1):
            take = best[c - w] + v
            if take > best[c]:
                best[c] = take
    return best


@njit(nogil=True, cache=True)
def knapsack_two_rows(weights, values, width):
    """The 1-D DP with two rows used in turn: each item's row is a pure function of the
    previous one, so the loop vectorises (views indexed from 0; about 4x the in-place DP)."""
    rows = np.zeros((2, width), dtype=np.int64)
    for i in range(weights.shape[0]):
        src, dst = rows[i & 1], rows[(i + 1) & 1]
        split = min(weights[i], width)
        v = values[i]
        for c in range(split):
            dst[c] = src[c]
        keep, take, out = src[split:], src[: width - split], dst[split:]
        for p in range(width - split):
            out[p] = max(keep[p], take[p] + v)
    return rows[weights.shape[0] & 1].copy()


#: The baselines by name, the default first (``--baseline NAME`` picks another).
DP_KERNELS = {"dp-two-rows": knapsack_two_rows, "dp-1d-inplace": knapsack_dp}


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if the best value agrees for every capacity, else a one-line reason."""
    if result.shape != expected.shape:
        return f"answer has {result.shape[0]} capacities, expected {expected.shape[0]}"
    bad = np.flatnonzero(result != expected)
    if bad.size:
        c = int(bad[0])
        return f"{bad.size} capacities differ, first {c}: value {result[c]}, expected {expected[c]}"
    return None


def baseline(inst: Instance, threads: int = 1, kernel: str = "dp-two-rows") -> BaselineResult:
    """The 1-D DP (``threads`` is ignored): ``kernel`` from :data:`DP_KERNELS`, by default
    the vectorised two-row DP; compilation timed apart."""
    fn = DP_KERNELS[kernel]
    args = inst.arrays[:3]
    best, seconds, compile_s = timed_call(fn, *args)
    return BaselineResult(best, seconds, compile_s, kernel, {"threads": 1})


#: The baselines by name, the default first (``--baseline NAME`` picks another).
BASELINES = {name: partial(baseline, kernel=name) for name in DP_KERNELS}


def instance_bytes(size: int, variant: str | None = None) -> int:
    """A lower bound of the instance's peak bytes, checked before it is allocated
    (:func:`llpbench.problems.check_input`): the DP table of (size + 1) rows of
    10 * size + 1 int64 cells."""
    return 8 * (size + 1) * (CAPACITY_PER_ITEM * size + 1)
