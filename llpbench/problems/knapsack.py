"""0-1 knapsack as an LLP problem over its dynamic-programming table, one lattice index per
block of a row, the table held in a ring of rows (Garg, "A Lattice Linear Predicate Parallel
Algorithm for the Dynamic Programming Problems", ICDCN 2022; LLP-FW, Ribeiro Alves and Garg,
2026).

Formulation
    The table ``T[i][c]``, the best value using items ``< i`` within capacity c, for
    i = 0..n and c = 0..C; row 0 is fixed at 0 and ``T[i][c] = max(T[i-1][c],
    T[i-1][c - w] + v)`` for item i-1's weight w and value v (the second term only if
    c >= w). A lattice *index* is a block of ``block`` consecutive cells of one row (rows
    1..n, ``nblocks`` blocks each, index ``(i - 1) * nblocks + b``). Block (i, b) *reads*
    block b of row i - 1 and the one or two blocks that hold ``c - w`` for its cells: at
    most three.

Bounded memory: a ring of rows
    The state holds ``ring`` rows (row i in slot ``i % ring``), not the table: 10^4 items
    with capacity 10^5 are a 10^9-cell table (8 GB of int64) but a ring of 4 rows is 3.2 MB.
    Writing row i into its slot overwrites row ``i - ring``, so block (i, b) also waits for
    its *gate*: every block of row ``i - ring + 1`` that reads block b of row ``i - ring``
    (the last reader of the cells it overwrites). Each index carries a *settled* mark, the
    row its slot's block holds (``tag``, a word per slot and block; it only grows, so the
    state stays a lattice: the table's row i is settled where ``tag >= i``). Index (i, b) is
    forbidden when it is not settled while everything it reads and its gate are: its value
    (and mark) must then advance in every solution above the state, and the least state with
    nothing forbidden has row n settled, its slot the answer. While some row is unsettled the
    lowest unsettled row's blocks are all forbidden (its reads and gates lie in settled rows
    below it), so the predicate is lattice-linear; ``ring >= n + 1`` holds the whole table
    and no gate ever applies.

Two statements of the same predicate
    *Direct* (``forbidden``/``advance``, the scanning solvers): test the marks of the
    block, of its reads and of its gate (at most seven words); advancing writes the block
    from the settled row above, sets its mark (a release store), and reports the blocks that
    may have become forbidden: those of row i + 1 that read it and the gates it opened
    (row ``i + ring - 1`` at the blocks it read, whose readers it completes).
    *Released* (``work``, the worklist solvers): the same, with each index's reads and gate
    counted down instead of tested: an item is a block whose count reached zero, so
    ``work`` writes it once, in a loop that the compiler vectorises (two reads, one store a
    cell), and takes one off the count of each block below that reads it and of each gate
    it opens (an atomic decrement each); the decrement that reaches zero reports that block.
    The seed is row 1 (its reads are the fixed row 0, its gate none). The wavefront (block b
    of row i runs once the blocks of row i - 1 around b are done and the ring has room)
    gives up to ``nblocks`` blocks to run at once, and a ring of r rows lets r - 1 rows be
    in flight together.

Cost (counters per index = per block): ``items`` 1, ``advances`` 1 (blocks written),
``stale`` 0; what the released form adds to the two-row DP's n * (C + 1) cell updates is a
push, a pop and at most six atomic decrements a block (``block`` = 8192 cells: a few
nanoseconds against microseconds of cell updates). State: ``ring * (C + 1)`` cells, one mark
per slot and block, and one count per index (n * nblocks int64: 1 MB at 10^4 items,
capacity 10^5, blocks of 8192; the only part that grows with n * C, 8192 times slower than
the table). :func:`instance_bytes` states it and :func:`llpbench.problems.check_input`
refuses a size that does not fit before anything is allocated.

Instances: ``generate(size, seed)``: ``size`` items with seeded uniform integer weights and
values 1..100 and capacity ``CAPACITY_PER_ITEM * size`` (about a fifth of the items fit):
``size`` = 10^4 is the 10^9-cell table of configs/problems.toml. Reference: the 1-D DP
vectorised in numpy (its own code, one row). Baselines: the 1-D DP in numba (one thread),
written with two rows used in turn so that it vectorises like the released form's block loop
(``dp-two-rows``; ``dp-1d-inplace``, the in-place descending loop, runs scalar and about 4x
slower), and a C peer of the two-row DP (:mod:`llpbench.baselines.knapsack_c`, where a C
compiler is found).
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

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
BLOCK_CELLS = 8192  # cells of a row per lattice index (64 KiB; see Cost)
RING_ROWS = 4  # rows the state holds (see Bounded memory)


class Items(NamedTuple):
    """The instance as the kernels see it. A row has ``width`` = C + 1 cells in ``nblocks``
    blocks of ``block`` (the last may be shorter); the state is ``ring`` rows of cells, then
    one mark per slot and block (at ``marks``), then one count per index (at ``counts``)."""

    weights: np.ndarray
    values: np.ndarray
    width: np.int64
    block: np.int64
    nblocks: np.int64
    ring: np.int64
    marks: np.int64
    counts: np.int64


# --- kernels -------------------------------------------------------------------------------
# Kernels touch arrays (``inst``'s and ``state``) only on paths every call takes, and branch on
# scalars after: numba increfs each array it binds and decrefs it after its last use, and when
# that last use lies in a branch or before an early return it fails to prune the pair; the two
# atomic operations per array then cost more than a cell update (measured 20x per call).


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return inst.weights.shape[0] * inst.nblocks


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
def _reads(b, w, width, block):
    """The blocks (first, last) of the row above whose cells the take terms of block b read
    for item weight w; first > last if none (every cell of b lies below w)."""
    hi = min(b * block + block, width)
    if hi - 1 < w:
        return np.int64(1), np.int64(0)
    return (max(b * block, w) - w) // block, (hi - 1 - w) // block


@njit(nogil=True, cache=True, inline="always")
def _locate(inst, j):
    """Row i (1..n), block b, its cells [lo, hi), and row i's item (w, v) of index j."""
    i = j // inst.nblocks + 1
    b = j - (i - 1) * inst.nblocks
    lo = b * inst.block
    return i, b, lo, min(lo + inst.block, inst.width), inst.weights[i - 1], inst.values[i - 1]


@njit(nogil=True, cache=True)
def _report_below(inst, i, b, out, k):
    """Append to ``out[k:]`` the indices of row i + 1 that read block b of row i (b itself,
    then the take blocks); return the new length."""
    items = inst.weights.shape[0]
    first, last = _taken_by(b, inst.weights[min(i, items - 1)], inst.width, inst.block)
    if i < items:
        out[k] = i * inst.nblocks + b
        k += 1
        for s in range(first, last + 1):
            if s != b:
                out[k] = i * inst.nblocks + s
                k += 1
    return k


@njit(nogil=True, cache=True)
def _report_gates(inst, i, b, w, out, k):
    """Append the gates block (i, b) opens: row ``i + ring - 1`` at each block b reads of
    row i - 1 (it is one of their readers); return the new length."""
    row = i + inst.ring - 1
    if row <= inst.weights.shape[0]:
        base = (row - 1) * inst.nblocks
        out[k] = base + b
        k += 1
        first, last = _reads(b, w, inst.width, inst.block)
        for s in range(first, last + 1):
            if s != b:
                out[k] = base + s
                k += 1
    return k


@njit(nogil=True, cache=True, inline="always")
def _settled(inst, state, i, b):
    """Whether block b of row i is settled (row 0 always is)."""
    return atomic_load(state, inst.marks + (i % inst.ring) * inst.nblocks + b) >= i


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    """Not settled, while the blocks it reads and its gate are."""
    i, b, lo, hi, w, v = _locate(inst, j)
    if _settled(inst, state, i, b) or not _settled(inst, state, i - 1, b):
        return False
    first, last = _reads(b, w, inst.width, inst.block)
    for s in range(first, last + 1):
        if not _settled(inst, state, i - 1, s):
            return False
    r = i - inst.ring
    if r < 0:
        return True
    if not _settled(inst, state, r + 1, b):
        return False
    first, last = _taken_by(b, inst.weights[r], inst.width, inst.block)
    for s in range(first, last + 1):
        if not _settled(inst, state, r + 1, s):
            return False
    return True


@njit(nogil=True, cache=True, inline="always")
def _write_block(state, above, row, lo, hi, w, v):
    """Cells [lo, hi) of the row at ``row`` from the settled row above at ``above``.

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


@njit(nogil=True, cache=True, inline="always")
def _settle(inst, state, j, ctr):
    """Write block j from the row above into its slot and mark it settled; (i, b, w)."""
    i, b, lo, hi, w, v = _locate(inst, j)
    width, ring = inst.width, inst.ring
    _write_block(state, ((i - 1) % ring) * width, (i % ring) * width, lo, hi, w, v)
    atomic_store_release(state, inst.marks + (i % ring) * inst.nblocks + b, i)
    ctr[ADVANCES] += 1
    return i, b, w


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    """Settle block j (one writer per index: the scanning solvers partition the indices)
    and report the blocks below that read it and the gates it opens."""
    i, b, w = _settle(inst, state, j, ctr)
    return _report_gates(inst, i, b, w, out, _report_below(inst, i, b, out, 0))


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    """Block j's reads and gate have settled: settle it, report the blocks it releases."""
    i, b, w = _settle(inst, state, j, ctr)
    # the stores above are published by the decrements' full fences
    reads = _report_gates(inst, i, b, w, out, _report_below(inst, i, b, out, 0))
    k = 0
    for r in range(reads):
        below = out[r]
        if atomic_fetch_add(state, inst.counts + below, -1) == 1:
            out[k] = below
            k += 1
    return k


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return j // inst.nblocks  # the row: a row before the rows that read it


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    return False


# --- instances -----------------------------------------------------------------------------


def _readers_below(weights_next: np.ndarray, width: int, block: int, nblocks: int) -> np.ndarray:
    """For each row r (item weight ``weights_next[r]`` in row r + 1) and block b: how many
    distinct blocks of row r + 1 read block b of row r."""
    b = np.arange(nblocks, dtype=np.int64)[None, :]
    w = weights_next[:, None]
    first = b * block + w
    none = first > width - 1
    lo_blk = first // block
    hi_blk = np.minimum(b * block + block - 1 + w, width - 1) // block
    own_outside = (b < lo_blk) | (b > hi_blk)
    return np.where(none, 1, hi_blk - lo_blk + 1 + own_outside)


def _counts(weights: np.ndarray, width: int, block: int, nblocks: int, ring: int) -> np.ndarray:
    """For each index (row i >= 1, block b): the distinct blocks of row i - 1 it reads (0
    for row 1, which reads the fixed row 0), plus, for i >= ring, its gate: the readers of
    block b of row i - ring."""
    n = weights.shape[0]
    counts = np.zeros((n, nblocks), dtype=np.int64)
    if n == 0:
        return counts.ravel()
    b = np.arange(nblocks, dtype=np.int64)[None, :]
    lo, hi = b * block, np.minimum(b * block + block, width)
    w = weights[1:, None]  # rows 2..n
    takes = hi - 1 >= w
    first = (np.maximum(lo, w) - w) // block
    last = (hi - 1 - w) // block
    own_outside = (b < first) | (b > last)
    counts[1:] = np.where(takes, last - first + 1 + own_outside, 1)
    if n >= ring:  # rows ring..n wait for the readers of rows 0..n - ring (items 0..)
        counts[ring - 1 :] += _readers_below(weights[: n - ring + 1], width, block, nblocks)
    return counts.ravel()


def _layout(n: int, width: int, block: int | None, ring: int | None) -> tuple[int, int, int]:
    """(block, nblocks, ring) as an instance uses them."""
    block = min(int(block or BLOCK_CELLS), width)
    ring = max(2, min(int(ring or RING_ROWS), n + 1))
    return block, -(-width // block), ring


def state_words(n: int, capacity: int, block: int | None = None, ring: int | None = None) -> int:
    """The int64 words of the state: ``ring`` rows, a mark per slot and block, a count per
    index."""
    width = int(capacity) + 1
    block, nblocks, ring = _layout(n, width, block, ring)
    return ring * width + ring * nblocks + n * nblocks


def instance(
    weights: np.ndarray,
    values: np.ndarray,
    capacity: int,
    name: str = "custom",
    block: int | None = None,
    ring: int | None = None,
):
    """The instance of items (``weights``, ``values`` >= 0 integers) and ``capacity``, with
    ``block`` cells of a row per lattice index (default ``BLOCK_CELLS``) and ``ring`` rows
    held (default ``RING_ROWS``; at least 2, at most the whole table).

    Raises
    ------
    SpecError
        If the arrays differ in length or hold negative numbers, capacity < 0, block < 1 or
        ring < 2.
    """
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    values = np.ascontiguousarray(values, dtype=np.int64)
    if weights.ndim != 1 or weights.shape != values.shape or capacity < 0:
        raise SpecError("knapsack: weights and values need one entry per item, capacity >= 0")
    if weights.size and min(weights.min(), values.min()) < 0:
        raise SpecError("knapsack: weights and values must be >= 0")
    if block is not None and block < 1:
        raise SpecError(f"knapsack: block must be >= 1 cell, got {block}")
    if ring is not None and ring < 2:
        raise SpecError(f"knapsack: the ring must hold >= 2 rows, got {ring}")
    n, width = weights.shape[0], int(capacity) + 1
    block, nblocks, ring = _layout(n, width, block, ring)
    counts = _counts(weights, width, block, nblocks, ring)
    marks_at = ring * width
    counts_at = marks_at + ring * nblocks

    def init_state() -> np.ndarray:
        state = np.full(counts_at + counts.shape[0], 0, dtype=np.int64)  # written: no faults
        state[marks_at + nblocks : counts_at] = -1  # slot 0 holds the settled row 0
        state[counts_at:] = counts
        return state

    arrays = Items(weights, values, np.int64(width), np.int64(block), np.int64(nblocks),
                   np.int64(ring), np.int64(marks_at), np.int64(counts_at))
    return Instance(
        problem=__name__,
        arrays=arrays,
        n=n * nblocks,
        max_out=6,
        init_state=init_state,
        init_work=np.arange(nblocks if n else 0, dtype=np.int64),
        bucket_width=1,
        meta={
            "name": name, "items": n, "capacity": int(capacity), "integer": True,
            "block": block, "blocks_per_row": nblocks, "ring": ring,
        },
        max_rounds=n + 1,  # each pass settles at least the lowest unsettled row
    )


def generate(size: int, seed: int = 0, block: int | None = None,
             ring: int | None = None) -> Instance:
    """``size`` items, weights and values uniform in 1..100, capacity 10 * ``size``."""
    if size is None or size < 1:
        raise SpecError(f"knapsack needs a size >= 1, got {size}")
    rng = np.random.default_rng([int(seed), 0x0C0])
    weights = rng.integers(1, MAX_WEIGHT + 1, size)
    values = rng.integers(1, MAX_VALUE + 1, size)
    return instance(weights, values, CAPACITY_PER_ITEM * size, name=f"n{size}-seed{seed}",
                    block=block, ring=ring)


def make(graph, size: int | None, seed: int, source=None) -> Instance:
    """Runner entry point: ``generate(size, seed)`` (no graph)."""
    if graph is not None:
        raise SpecError("knapsack takes a size, not a graph")
    return generate(size, seed)


# --- answers, reference, baseline ----------------------------------------------------------


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """The last row (in slot ``items % ring``): the best value for each capacity 0..C."""
    width, items = int(inst.arrays.width), inst.meta["items"]
    slot = items % int(inst.arrays.ring)
    return state[slot * width : (slot + 1) * width].copy()


def reference(inst: Instance) -> np.ndarray:
    """The 1-D DP vectorized over capacities (numpy): ``T[c:] = max(T[c:], T[:-w] + v)``."""
    weights, values, width = inst.arrays.weights, inst.arrays.values, inst.arrays.width
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
    args = (inst.arrays.weights, inst.arrays.values, inst.arrays.width)
    best, seconds, compile_s = timed_call(fn, *args)
    return BaselineResult(best, seconds, compile_s, kernel, {"threads": 1})


def c_baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """The two-row DP in C (:mod:`llpbench.baselines.knapsack_c`; ``threads`` is ignored)."""
    from llpbench.baselines.knapsack_c import c_two_rows

    return c_two_rows(inst.arrays.weights, inst.arrays.values, int(inst.arrays.width))


def _baselines() -> dict:
    from llpbench.baselines.knapsack_c import NAME as C_NAME
    from llpbench.baselines.knapsack_c import available

    out = {name: partial(baseline, kernel=name) for name in DP_KERNELS}
    if available():
        out[C_NAME] = c_baseline
    return out


#: The baselines by name, the default first (``--baseline NAME`` picks another); the C peer
#: only where a C compiler is found.
BASELINES = _baselines()


def instance_bytes(size: int, variant: str | None = None) -> int:
    """A lower bound of the instance's peak bytes, checked before it is allocated
    (:func:`llpbench.problems.check_input`): the state (:func:`state_words`: the ring, the
    marks and a count per index) and the reference's row."""
    capacity = CAPACITY_PER_ITEM * size
    return 8 * (state_words(size, capacity) + 2 * (capacity + 1))
