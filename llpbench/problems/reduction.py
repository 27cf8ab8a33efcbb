"""Reduction and prefix sums as an LLP problem: Blelloch's up-sweep/down-sweep tree
("Prefix sums and their applications", 1990) stated as a least fixed point that only moves up
(Garg, "Predicate detection to solve combinatorial optimization problems", SPAA 2020;
LLP-FW, Ribeiro Alves and Garg, 2026).

Formulation
    Input: ``a[0..n)`` of int64 (any sign), cut into blocks of ``B`` elements, the blocks
    the leaves of a complete binary tree (heap numbering, ``L`` a power of two, leaf of block
    b = node ``L + b``; padding leaves are empty). Every variable is a monotone function of
    others, so ``x < f(x's inputs)`` is lattice-linear; advancing sets ``x = f`` (atomic max).
    Every variable starts at ``UNSET``, a bottom below any sum, and ``f`` is ``UNSET`` while
    one of its inputs is (a sum is monotone in each input, and ``UNSET`` lies below every
    value, so ``f`` stays monotone): values of any sign then only move up, from ``UNSET`` to
    their final value, with no overflow from adding bottoms.

    - ``U(i)``, subtree sums: ``U(leaf b) = sum a[block b]``, ``U(i) = U(2i) + U(2i+1)``;
    - ``D(i)``, sum of everything left of node i: ``D(1) = 0``, ``D(2i) = D(i)``,
      ``D(2i+1) = D(i) + U(2i)``;
    - ``E(b)``, the offset block b's outputs are written with: ``E(b) = D(leaf b)``.

    The dependencies are acyclic, so the least state with nothing forbidden is the answer:
    the total ``U(1)`` and, for p in block b, ``P[p] = E(b) + a[lo] + ... + a[p]``.
    ``B = 1`` would be the sequential chain; blocks make an index worth a loop, the tree
    gives depth log L.

Outputs
    Advancing ``E(b)`` also *materialises* block b's outputs ``P`` (in the state after the
    lattice variables). They are not lattice variables: an atomic max per element (a
    ``lock cmpxchg`` loop) took 145 ms for 10^7 elements, a release store (a plain move on
    x86) 18 ms, about what ``np.cumsum`` takes. Two workers may write one block (a worklist
    can hold it twice), so a writer claims its offset with an atomic max on ``E(b)``,
    writes, and re-reads ``E(b)`` with an atomic RMW (a full fence); if a larger offset was
    claimed meanwhile it writes again with that one. Every element's last store is then
    made with the final offset (a store made with a smaller one precedes the claim of the
    larger, which precedes its owner's stores), and no writer waits for another: a late
    writer with a smaller offset helps finish the block.

Indices are numbered in a topological order (up-sweep leaves first and root last, then the
down-sweep from the root, then the blocks), so one cyclic pass computes everything; the
priority is that order's level (``U`` by height, ``D`` by depth, blocks last), so the
priority worklists run Blelloch's schedule and write each block once. ``U(i)`` reports its
parent and its right sibling's ``D``; ``D(i)`` its children's ``D``, or at a leaf its block.
The initial work is every leaf ``U``, the root's ``D`` and every block.

State (int64): ``U`` at ``[0, 2L)`` and ``D`` at ``[2L, 4L)`` by node, ``E`` at
``[4L, 4L + blocks)``, then ``P`` (n); padding leaves start at their sum, 0. Reference:
``np.cumsum`` and ``sum``. Baseline: the two-pass blocked parallel scan (reduce, then scan
with offsets) on the same number of OS threads as the LLP solve (one thread: one scan
pass); ``numpy-cumsum`` remains as a named alternative.

Instances (``VARIANTS``): ``nonnegative`` (uniform 0..1000, the default) and ``signed``
(uniform -1000..1000).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError
from llpbench.llp.atomics import atomic_fetch_add, atomic_load, atomic_max, atomic_store_release
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES, RETRIES

NAME = "reduction"
INPUT = "size"
MAX_VALUE = 1000  # generated inputs are uniform in 0..MAX_VALUE (signed: -MAX_VALUE..)
VARIANTS = ("nonnegative", "signed")
UNSET = np.iinfo(np.int64).min  # every variable's bottom: below any sum
MAX_BLOCK = 4096  # elements per leaf block
TARGET_BLOCKS = 256  # small inputs still get this many blocks (block size >= 1)

# --- kernels -------------------------------------------------------------------------------
# inst = (a, block, nblocks, leaves, prio); index j is
#   j < 2L - 1:           U of node 2L - 1 - j      (leaves first, root last)
#   2L - 1 <= j < 4L - 2: D of node j - 2L + 2      (root first)
#   4L - 2 <= j:          block j - 4L + 2


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return inst[4].shape[0]


@njit(nogil=True, cache=True, inline="always")
def _block_sum(a, lo, hi):
    return a[lo:hi].sum()  # a slice: numba vectorises it, unlike a loop from a variable lo


@njit(nogil=True, cache=True)
def _node_slot_target(inst, state, j):
    """For a tree index j: (state slot, f(inputs)) of its variable; ``UNSET`` while an input
    is."""
    a, block, leaves = inst[0], inst[1], inst[3]
    if j < 2 * leaves - 1:
        i = 2 * leaves - 1 - j
        if i >= leaves:
            lo = min((i - leaves) * block, a.shape[0])
            return i, _block_sum(a, lo, min(lo + block, a.shape[0]))
        left, right = atomic_load(state, 2 * i), atomic_load(state, 2 * i + 1)
        unset = (left == UNSET) | (right == UNSET)
        return i, UNSET if unset else left + right
    i = j - 2 * leaves + 2
    if i == 1:
        return 2 * leaves + 1, np.int64(0)
    d = atomic_load(state, 2 * leaves + (i >> 1))
    u = atomic_load(state, i - 1) if i & 1 else np.int64(0)
    return 2 * leaves + i, UNSET if (d == UNSET) | (u == UNSET) else d + u


@njit(nogil=True, cache=True)
def _write_block(inst, state, b, offset):
    """Store block b's outputs for ``offset`` (release stores: plain moves on x86)."""
    a, block, nblocks, leaves = inst[0], inst[1], inst[2], inst[3]
    lo = b * block
    seg = a[lo : min(lo + block, a.shape[0])]
    base = 4 * leaves + nblocks + lo
    s = offset
    for p in range(seg.shape[0]):  # from 0: no negative-index check on seg[p]
        s += seg[p]
        atomic_store_release(state, base + p, s)


@njit(nogil=True, cache=True)
def _advance_block(inst, state, b, ctr):
    """Claim ``E(b) = D(leaf b)`` and write the block (see Outputs); -1 if not forbidden."""
    leaves = inst[3]
    slot = 4 * leaves + b
    offset = atomic_load(state, 3 * leaves + b)
    if atomic_load(state, slot) >= offset:
        return -1
    if atomic_max(state, slot, offset) >= offset:
        ctr[RETRIES] += 1  # another worker claimed this offset (or a larger one) first
        return -1
    while True:
        _write_block(inst, state, b, offset)
        claimed = atomic_fetch_add(state, slot, 0)  # a full fence, then the latest claim
        if claimed == offset:
            break
        offset = claimed
        ctr[RETRIES] += 1
    ctr[ADVANCES] += 1
    return 0


@njit(nogil=True, cache=True)
def _dependents(inst, j, out):
    """The indices whose target reads index j's variable."""
    nblocks, leaves = inst[2], inst[3]
    top = 2 * leaves - 1
    if j < top:  # U(i): parent U, and the right sibling's D if i is a left child
        i = top - j
        if i == 1:
            return 0
        out[0] = top - (i >> 1)
        if i & 1:
            return 1
        out[1] = top + i  # D(i + 1)
        return 2
    if j < 2 * top:  # D(i): its children's D, or at a leaf its block
        i = j - top + 1
        if i < leaves:
            out[0] = top + 2 * i - 1
            out[1] = top + 2 * i
            return 2
        if i - leaves < nblocks:
            out[0] = 2 * top + i - leaves
            return 1
    return 0


@njit(nogil=True, cache=True)
def forbidden(inst, state, j):
    leaves = inst[3]
    top = 2 * leaves - 1
    if j >= 2 * top:
        b = j - 2 * top
        return atomic_load(state, 4 * leaves + b) < atomic_load(state, 3 * leaves + b)
    slot, target = _node_slot_target(inst, state, j)
    return atomic_load(state, slot) < target


@njit(nogil=True, cache=True)
def work(inst, state, j, out, ctr):
    """ensure(j) in one pass: raise j's variable to its target, report its dependents."""
    top = 2 * inst[3] - 1
    if j >= 2 * top:
        return _advance_block(inst, state, j - 2 * top, ctr)
    slot, target = _node_slot_target(inst, state, j)
    if atomic_load(state, slot) >= target:
        return -1
    if atomic_max(state, slot, target) >= target:
        ctr[RETRIES] += 1
        return -1
    ctr[ADVANCES] += 1
    return _dependents(inst, j, out)


@njit(nogil=True, cache=True)
def advance(inst, state, j, out, ctr):
    work(inst, state, j, out, ctr)
    return _dependents(inst, j, out)


@njit(nogil=True, cache=True)
def priority(inst, state, j):
    return inst[4][j]


@njit(nogil=True, cache=True)
def stale(inst, state, j, key):
    return False


# --- instances, answers, reference ---------------------------------------------------------


def block_size(n: int) -> int:
    """Elements per leaf: ``ceil(n / 256)``, at most 4096 (so ``n = 10^7`` has 2442 blocks)."""
    return max(1, min(MAX_BLOCK, -(-n // TARGET_BLOCKS)))


def _priorities(leaves: int, nblocks: int) -> np.ndarray:
    """Level of every index: U by height (leaves 0), D by depth after them, blocks last."""
    nodes = np.arange(1, 2 * leaves, dtype=np.int64)
    depth = np.floor(np.log2(nodes)).astype(np.int64)
    height = int(np.log2(leaves))
    up = (height - depth)[::-1]  # U indices run from node 2L - 1 down to 1
    down = height + 1 + depth
    blocks = np.full(nblocks, 2 * height + 2, dtype=np.int64)
    return np.ascontiguousarray(np.concatenate([up, down, blocks]))


def instance(values: np.ndarray, block: int | None = None) -> Instance:
    """The prefix-sum instance of ``values`` (integers of any sign), in blocks of ``block``.

    Raises
    ------
    SpecError
        If ``values`` is empty or not 1-D.
    """
    a = np.ascontiguousarray(values, dtype=np.int64)
    if a.ndim != 1 or a.shape[0] == 0:
        raise SpecError(f"reduction needs a non-empty 1-D array, got shape {a.shape}")
    a.setflags(write=False)
    n = a.shape[0]
    block = block or block_size(n)
    nblocks = -(-n // block)
    leaves = 1 << max(0, (nblocks - 1).bit_length())
    prio = _priorities(leaves, nblocks)
    blocks = np.arange(nblocks, dtype=np.int64)
    # every leaf U, the root's D (0) and every block (E starts below any offset)
    init_work = np.concatenate([leaves - 1 - blocks, [2 * leaves - 1], 4 * leaves - 2 + blocks])
    nodes = np.arange(1, 2 * leaves, dtype=np.int64)
    first_leaf = nodes << (int(np.log2(leaves)) - np.floor(np.log2(nodes)).astype(np.int64))
    padding = nodes[first_leaf - leaves >= nblocks]  # nodes whose leaves are all padding

    def init_state() -> np.ndarray:
        state = np.full(4 * leaves + nblocks + n, 0, dtype=np.int64)  # written: no page faults
        state[: 4 * leaves + nblocks] = UNSET
        state[padding] = 0  # subtrees of padding leaves: empty sums, never advanced
        return state

    return Instance(
        problem=__name__,
        arrays=(a, np.int64(block), np.int64(nblocks), np.int64(leaves), prio),
        n=prio.shape[0],
        max_out=2,
        init_state=init_state,
        init_work=init_work,
        bucket_width=1,
        meta={"values": a, "block": block, "blocks": nblocks, "leaves": leaves},
        max_rounds=prio.shape[0] + 1,  # acyclic: a chain of inputs is at most n long
    )


def generate(size: int, seed: int, variant: str = "nonnegative") -> Instance:
    """``size`` values uniform in ``0..1000`` (``signed``: ``-1000..1000``) from numpy's PCG64
    seeded with ``seed``."""
    if size < 1:
        raise SpecError(f"reduction: size must be at least 1, got {size}")
    if variant not in VARIANTS:
        raise SpecError(f"reduction: unknown variant {variant!r}; known: {VARIANTS}")
    rng = np.random.default_rng(seed)
    low = -MAX_VALUE if variant == "signed" else 0
    return instance(rng.integers(low, MAX_VALUE + 1, size=size, dtype=np.int64))


def make(
    graph, size: int | None, seed: int, source: int | None, variant: str = "nonnegative"
) -> Instance:
    """Runner entry point: prefix sums of ``size`` generated values (a graph is not used)."""
    if size is None:
        raise SpecError("reduction needs --size N (it takes no graph)")
    return generate(int(size), seed, variant)


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """Inclusive prefix sums followed by the total: int64, length n + 1."""
    start = 4 * inst.meta["leaves"] + inst.meta["blocks"]
    return np.append(state[start:], state[1])


def reference(inst: Instance) -> np.ndarray:
    """``np.cumsum`` and an independent ``sum`` of the values."""
    a = inst.meta["values"]
    return np.append(np.cumsum(a), int(a.sum()))


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if prefix sums and total agree exactly, else a one-line reason."""
    if result.shape != expected.shape:
        return f"answer has {result.shape[0]} entries, expected {expected.shape[0]}"
    bad = np.flatnonzero(result != expected)
    if bad.size:
        p = int(bad[0])
        what = "total" if p == result.shape[0] - 1 else f"prefix {p}"
        return f"{bad.size} entries differ, first {what}: got {result[p]}, expected {expected[p]}"
    return None


def baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """The two-pass blocked parallel scan on ``threads`` OS threads (see
    :mod:`llpbench.baselines.parallel_scan`)."""
    from llpbench.baselines.parallel_scan import parallel_prefix_sums

    return parallel_prefix_sums(inst.meta["values"], threads)


def numpy_cumsum(inst: Instance, threads: int = 1) -> BaselineResult:
    """``np.cumsum`` into a preallocated array (sequential), the total its last entry."""
    a = inst.meta["values"]
    out = np.full(a.shape[0], 0, dtype=np.int64)  # touched, like the solvers' initial state
    t0 = time.perf_counter()
    np.cumsum(a, out=out)
    total = out[-1]
    seconds = time.perf_counter() - t0
    return BaselineResult(
        answer=np.append(out, total),
        seconds=seconds,
        compile_seconds=0.0,
        name="numpy-cumsum",
        params={"threads": 1},
    )


#: The baselines by name, the default first (``--baseline NAME`` picks another).
BASELINES = {"parallel-scan": baseline, "numpy-cumsum": numpy_cumsum}


def instance_bytes(size: int, variant: str | None = None) -> int:
    """A lower bound of the instance's peak bytes, checked before it is allocated
    (:func:`llpbench.problems.check_input`): the values and the state's prefix sums, int64."""
    return 2 * 8 * size
