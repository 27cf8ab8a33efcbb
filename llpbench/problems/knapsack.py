"""0-1 knapsack as an LLP problem over its dynamic-programming table (Garg, "A Lattice Linear
Predicate Parallel Algorithm for the Dynamic Programming Problems", ICDCN 2022; LLP-FW,
Ribeiro Alves and Garg, 2026).

Formulation
    State: the table ``T[i][c]``, the best value using items ``< i`` within capacity c, for
    i = 0..n and c = 0..C, flattened row-major (index ``i * (C + 1) + c``), starting at 0
    and advancing up. Row 0 is fixed at 0. Cell (i, c), i >= 1, is forbidden when
    ``T[i][c] < max(T[i-1][c], T[i-1][c - w] + v)`` for item i-1's weight w and value v
    (the second term only if c >= w). Advancing it raises it to that max with an atomic max
    and reports the cells of row i+1 that read it: (i+1, c) and (i+1, c + w_i). The least
    state with nothing forbidden is the DP table; its last row is the answer.

``work`` is the direct ``ensure`` (a cell reads exactly two cells, as cheap as pushing), and
the seed is the cells forbidden at the bottom: (i, c) with c >= w_{i-1}. Priority: the row,
so that ordered worklists finish a row before reading it.

Cost: every one of the n * (C + 1) cells is advanced at least once, with an atomic max, in a
table far larger than the cache, where the 1-D DP sweeps one row in cache: the scanning
solvers run 20-50x the baseline (cyclic makes one pass that computes the table in row-major,
i.e. topological, order, and one that finds nothing). FIFO worklists pop seeded cells before
the rows they read are final and advance each cell about 5 times; PTWB (by row) once.

Instances: ``generate(size, seed)``: ``size`` items with seeded uniform integer weights and
values 1..100 and capacity ``CAPACITY_PER_ITEM * size`` (about a fifth of the items fit).
The state holds (size + 1) * (10 size + 1) int64 cells: 80 MB at 1000 items, 720 MB at 3000.
Reference: the 1-D DP vectorized in numpy. Baseline: the classic 1-D DP in numba (one thread).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, typeof

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError
from llpbench.llp.atomics import atomic_load, atomic_max
from llpbench.llp.contract import Instance
from llpbench.llp.counters import ADVANCES, RETRIES

NAME = "knapsack"
INPUT = "size"
CAPACITY_PER_ITEM = 10
MAX_WEIGHT = 100
MAX_VALUE = 100

# --- kernels -------------------------------------------------------------------------------
# inst = (weights, values, width, inv_width): item i has weights[i], values[i]; width = C + 1
# (one row) and inv_width = 1 / width, so that a cell's row costs a multiply, not a 64-bit
# division.
#
# Kernels touch arrays (``inst``'s and ``state``) only on paths every call takes, and branch on
# scalars after: numba increfs each array it binds and decrefs it after its last use, and when
# that last use lies in a branch or before an early return it fails to prune the pair; the two
# atomic operations per array then cost more than the cell update (measured 20x per call).


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return state.shape[0]


@njit(nogil=True, cache=True)
def _row(width, inv_width, j):
    """j // width, by the float reciprocal and one correction step (exact for j < 2**52)."""
    i = np.int64(j * inv_width)
    if i * width > j:
        i -= 1
    elif (i + 1) * width <= j:
        i += 1
    return i


@njit(nogil=True, cache=True)
def _best(state, j, c, width, w, v):
    """max(T[i-1][c], T[i-1][c - w] + v) for cell j = (i, c), item i-1 = (w, v); for row 0
    (j < width) a meaningless value, read in bounds."""
    above = atomic_load(state, max(j - width, 0))
    take = atomic_load(state, max(j - width - w, 0)) + v
    return max(above, take) if c >= w else above


@njit(nogil=True, cache=True)
def _report(j, c, i, items, width, w_next, out):
    """Write the cells of row i+1 that read cell j = (i, c) into ``out``; return how many
    (the last row is read by nobody). Both slots are written whatever the count."""
    out[0] = j + width
    out[1] = j + width + w_next
    return 0 if i >= items else (2 if c + w_next < width else 1)


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    width = inst[2]
    i = _row(width, inst[3], j)
    best = _best(state, j, j - i * width, width, inst[0][i - 1], inst[1][i - 1])
    return (i > 0) & (best > atomic_load(state, j))  # row 0 is fixed


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    width, items = inst[2], inst[0].shape[0]
    i = _row(width, inst[3], j)
    c = j - i * width
    best = _best(state, j, c, width, inst[0][i - 1], inst[1][i - 1])
    raised = best > atomic_max(state, j, best)
    ctr[ADVANCES] += raised
    ctr[RETRIES] += not raised
    return _report(j, c, i, items, width, inst[0][min(i, items - 1)], out)


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    width, items = inst[2], inst[0].shape[0]
    i = _row(width, inst[3], j)
    c = j - i * width
    best = _best(state, j, c, width, inst[0][i - 1], inst[1][i - 1])
    k = _report(j, c, i, items, width, inst[0][min(i, items - 1)], out)
    raised = False
    if (i > 0) & (best > atomic_load(state, j)):
        raised = best > atomic_max(state, j, best)
        ctr[RETRIES] += not raised
    ctr[ADVANCES] += raised
    atomic_load(state, j)  # a last use of state on every path (see above)
    return k if raised else -1


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return _row(inst[2], inst[3], j)


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    return False


# --- instances -----------------------------------------------------------------------------


def instance(weights: np.ndarray, values: np.ndarray, capacity: int, name: str = "custom"):
    """The instance of items (``weights``, ``values`` >= 0 integers) and ``capacity``.

    Raises
    ------
    SpecError
        If the arrays differ in length or hold negative numbers, or capacity < 0.
    """
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    values = np.ascontiguousarray(values, dtype=np.int64)
    if weights.ndim != 1 or weights.shape != values.shape or capacity < 0:
        raise SpecError("knapsack: weights and values need one entry per item, capacity >= 0")
    if weights.size and min(weights.min(), values.min()) < 0:
        raise SpecError("knapsack: weights and values must be >= 0")
    n, width = weights.shape[0], int(capacity) + 1
    # seed: cells (i, c), i >= 1, with c >= w_{i-1} (T[i-1][c - w] + v > 0 = T[i][c] if v > 0)
    rows = [
        np.arange(i * width + min(w, width), (i + 1) * width, dtype=np.int64)
        for i, w in enumerate(weights.tolist(), start=1)
        if values[i - 1] > 0
    ]
    seed = np.concatenate(rows) if rows else np.empty(0, dtype=np.int64)
    return Instance(
        problem=__name__,
        arrays=(weights, values, np.int64(width), 1.0 / width),
        n=(n + 1) * width,
        max_out=2,
        init_state=lambda: np.zeros((n + 1) * width, dtype=np.int64),
        init_work=seed,
        bucket_width=1,
        meta={"name": name, "items": n, "capacity": int(capacity), "integer": True},
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
    width = int(inst.arrays[2])
    return state[-width:].copy()


def reference(inst: Instance) -> np.ndarray:
    """The 1-D DP vectorized over capacities (numpy): ``T[c:] = max(T[c:], T[:-w] + v)``."""
    weights, values, width, _ = inst.arrays
    best = np.zeros(int(width), dtype=np.int64)
    for w, v in zip(weights.tolist(), values.tolist(), strict=True):
        if w == 0:
            best += v
        elif w < width:
            np.maximum(best[w:], best[:-w] + v, out=best[w:])  # right side is a copy: 0-1
    return best


@njit(nogil=True, cache=True)
def knapsack_dp(weights, values, width):
    """The classic 1-D 0-1 knapsack DP, capacities descending for each item."""
    best = np.zeros(width, dtype=np.int64)
    for i in range(weights.shape[0]):
        w, v = weights[i], values[i]
        for c in range(width - 1, w - 1, -1):
            take = best[c - w] + v
            if take > best[c]:
                best[c] = take
    return best


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if the best value agrees for every capacity, else a one-line reason."""
    if result.shape != expected.shape:
        return f"answer has {result.shape[0]} capacities, expected {expected.shape[0]}"
    bad = np.flatnonzero(result != expected)
    if bad.size:
        c = int(bad[0])
        return f"{bad.size} capacities differ, first {c}: value {result[c]}, expected {expected[c]}"
    return None


def baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """The 1-D DP (``threads`` is ignored), compilation timed apart."""
    args = inst.arrays[:3]
    t0 = time.perf_counter()
    knapsack_dp.compile(tuple(typeof(a) for a in args))
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    best = knapsack_dp(*args)
    seconds = time.perf_counter() - t0
    return BaselineResult(best, seconds, compile_s, "dp-1d", {"threads": 1})
