"""Reduction and prefix sums as an LLP problem: a chain of blocks whose offsets are found by
looking back over the blocks before them (the single-pass "decoupled look-back" scan of
Merrill and Garland, "Single-pass parallel prefix scan with decoupled look-back", 2016),
stated as a least fixed point that only moves up (Garg, "Predicate detection to solve
combinatorial optimization problems", SPAA 2020; LLP-FW, Ribeiro Alves and Garg, 2026).

Formulation
    Input: ``a[0..n)`` of int64 (any sign), cut into ``nb`` blocks of ``B`` elements; one
    lattice index per block. Its variables are monotone functions of others, so
    ``x < f(x's inputs)`` is lattice-linear; advancing sets ``x = f`` (atomic max). Every
    variable starts at ``UNSET``, a bottom below any sum, and ``f`` is ``UNSET`` while one of
    its inputs is (a sum is monotone in each input, and ``UNSET`` lies below every value), so
    values of any sign only move up, from ``UNSET`` straight to their final value.

    - ``A(b) = sum a[block b]``, the block's aggregate;
    - ``I(b) = A(0) + ... + A(b)``, its inclusive prefix, found by *look-back*: walking
      ``k = b - 1, b - 2, ...`` over aggregates that are set until an ``I(k)`` that is
      (``I(b) = I(k) + A(k+1) + ... + A(b)``; at ``k = -1`` the sum starts at 0), at most
      ``LOOKBACK`` blocks; ``UNSET`` if the walk meets an unset aggregate first or runs out.
      The walk ``work`` makes after the block's own sum may instead sum up to ``HELPS``
      blocks whose aggregate is unset from their values itself (*helping*: that block's
      holder has not summed it yet, because it is descheduled or scanning it fused); those
      sums are used, not published. That ``f`` is monotone: a state above one where the
      walk succeeded makes it stop at the same ``I`` or a nearer one, with the same value,
      needing no more helping sums.

    Block b is forbidden while ``A(b)`` is unset or ``I(b) < f``. ``work(b)`` sums the block,
    looks back, and if that found the offset ``E(b) = I(b) - A(b)`` claims ``I(b)`` (atomic
    max from ``UNSET``: one winner), reports ``b + 1`` if its aggregate is already set (its
    own look-back failed, or will find ``I(b)``), and writes the block's outputs
    ``P[p] = E(b) + a[lo] + ... + a[p]``. Nothing waits: a block whose look-back fails
    leaves its aggregate for the blocks after it and is pushed again by the claim of
    ``I(b - 1)``. (The claim and the aggregate store are locked RMWs, full fences: of block
    b's look-back reading ``I(b - 1)`` and the claim of ``I(b - 1)`` reading ``A(b)``, at
    least one sees the other's store, so no block is left forbidden.) ``P`` is not a lattice
    variable: it is written once, by the winner of the claim, with plain stores, and read
    only after the solve.

Cost
    The block is summed and then scanned while it is still in the core's cache (``B`` =
    8192 values, 64 KiB), so a block whose look-back succeeds at once costs one read of its
    values from memory and one write of its outputs: the traffic of a one-pass copy, where
    the blocked baseline (reduce, then scan) reads the array twice. One worklist item per
    block (``items/index`` 1, ``advances/index`` 2: ``A`` and ``I``); a block pushed again
    (``items/index`` above 1) is one whose offset came late, and its second visit reads its
    values from memory again. At one thread, in block order, every offset is known before
    its block is read, so every block takes the fused pass: the sequential scan's traffic
    plus one worklist item per 8192 values.

    At two threads and more, three things keep a block's offset from coming late. The seed
    is ``seed_policy="in-order"`` (:mod:`llpbench.llp.contract`): block IDs are handed out
    in order through a shared counter to whichever worker is free, the way the decoupled
    look-back's blocks are, so no worker runs ahead of the others by more than the blocks
    in flight (dealt round-robin into per-thread worklists, a worker whose partner fell
    behind found no offset for block after block: ``items/index`` 1.84, about 1.6 copy
    floors). A worker whose look-back, after its own sum, meets a block that another worker
    holds but has not summed (descheduled on a shared core, or scanning it fused, which
    publishes its aggregate only at the end) sums that block itself (``HELPS``, counted in
    ``RETRIES``: one extra read of 64 KiB) instead of leaving its own block to be read again
    later (on this 2-core VM with the other core busy, the in-order seed alone still gave
    ``items/index`` 1.6-1.9: a descheduled worker held its block for a whole time slice).
    And a block fuses only when ``I(b - 1)`` itself is set: an offset that comes through a
    published ``A(b - 1)`` means b - 1's worker is right behind, still scanning, so b sums
    first and publishes ``A(b)`` before its (cached) scan, and the worker that takes b + 1
    need not sum b. Nothing here waits (a bounded spin on the neighbour's aggregate was
    tried before and measured no faster). Measured at 10^8, 2026-12-07, on the 2-core VM
    shared with other engineers' runs, same-process A/B, medians of 3, in copy floors: at 2
    threads 1.40-1.62 dealt, 1.41-1.90 in order without helping, 0.97-1.09 in order with it
    (``items/index`` 1.0-1.4: the extra visits are mostly stale pops, which read nothing);
    at 8 threads 1.58 dealt, 1.02-1.07 in order; one thread unchanged (the fused pass).
    ``scripts/bench_problems.py`` figures are in docs/problems.md. The earlier formulation
    (Blelloch's up-sweep/down-sweep tree over the same blocks) read the array twice, like
    the blocked scan, and ran at about 2x the scan's time at one thread.

State (int64): ``A`` at ``[0, nb)``, ``I`` at ``[nb, 2 nb)``, then ``P`` (n). Priority: the
block number (earlier blocks first). Reference: ``np.cumsum`` and ``sum``. Baseline: the
two-pass blocked parallel scan (reduce, then scan with offsets) on the same number of OS
threads as the LLP solve (one thread: one scan pass); ``numpy-cumsum`` and ``numba-cumsum``
(``np.cumsum`` compiled by numba) are the in-process peers. Floor (``FLOORS``): a one-pass
copy of the values on the machine's cores (:func:`copy_floor`), the memory traffic every
scan must make.

Instances (``VARIANTS``): ``nonnegative`` (uniform 0..1000, the default) and ``signed``
(uniform -1000..1000).
"""

from __future__ import annotations

import os
import time
from typing import NamedTuple

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError
from llpbench.llp.atomics import atomic_load, atomic_max
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES, RETRIES
from llpbench.llp.launch import timed_call

NAME = "reduction"
INPUT = "size"
MAX_VALUE = 1000  # generated inputs are uniform in 0..MAX_VALUE (signed: -MAX_VALUE..)
VARIANTS = ("nonnegative", "signed")
UNSET = np.iinfo(np.int64).min  # every variable's bottom: below any sum
MAX_BLOCK = 8192  # values per block: 64 KiB, summed and then scanned in the core's cache
TARGET_BLOCKS = 256  # small inputs still get this many blocks (block size >= 1)
LOOKBACK = 64  # blocks a look-back walks at most before it gives up
HELPS = 4  # unset aggregates a look-back after the block's own sum may sum itself


class Blocks(NamedTuple):
    """The instance as the kernels see it: the values in ``nblocks`` blocks of ``block``
    (the last may be shorter); the state's prefix sums start at ``prefix`` (= 2 nblocks);
    a look-back after a block's own sum sums up to ``helps`` unset aggregates itself."""

    values: np.ndarray
    block: np.int64
    nblocks: np.int64
    prefix: np.int64
    helps: np.int64


# --- kernels -------------------------------------------------------------------------------
# state = [A(0..nb) | I(0..nb) | P(0..n)]. Arrays are used on paths every call takes: numba
# cannot prune the atomic incref/decref pair of an array whose last use is conditional (see
# knapsack.py).


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return inst.nblocks


@njit(nogil=True, cache=True, inline="always")
def _look_back(state, nb, b, a, block, helps):
    """``(E(b), k, summed)``: the sum of every block before b, from the nearest set ``I(k)``
    within ``LOOKBACK`` blocks and the aggregates between (``k = -1``: from the array's
    start); or ``(UNSET, k)`` when the aggregate of block k on the way is unset (``k = -1``:
    the walk ran out). Up to
    ``helps`` unset aggregates on the way are summed from the values ``a`` (blocks of
    ``block``) instead of stopping there (``summed`` says how many): a block taken by a
    worker that has not summed it yet (descheduled, or scanning it fused) no longer stops
    the walk. Those sums are not published: ``A(k)`` stays its holder's, so what reports
    k, and who writes its outputs, is unchanged."""
    total = np.int64(0)
    summed = np.int64(0)
    k = b - 1
    while k >= 0 and b - k <= LOOKBACK:
        inclusive = atomic_load(state, nb + k)
        if inclusive != UNSET:
            return inclusive + total, k, summed
        agg = atomic_load(state, k)
        if agg == UNSET:
            if summed >= helps:
                return UNSET, k, summed
            summed += 1
            lo = k * block
            agg = a[lo : min(lo + block, a.shape[0])].sum()
        total += agg
        k -= 1
    return (total, np.int64(-1), summed) if k < 0 else (UNSET, np.int64(-1), summed)


@njit(nogil=True, cache=True)
def forbidden(inst, state, b):
    nb = inst.nblocks
    if atomic_load(state, b) == UNSET:
        return True
    if atomic_load(state, nb + b) != UNSET:
        return False
    return _look_back(state, nb, b, inst.values, inst.block, 0)[0] != UNSET


@njit(nogil=True, cache=True, inline="always")
def _sum_and_look_back(inst, state, b, seg, ctr):
    """Publish ``A(b)`` (a locked RMW: a full fence before the look-back), then look back
    once more (the previous block may have finished meanwhile), summing up to ``helps``
    (:data:`HELPS`) unset aggregates on the way itself. Nothing waits: a failed look-back
    leaves b to the claim of ``I(b - 1)``, which pushes it again."""
    agg = seg.sum()  # a slice: numba vectorises it
    atomic_max(state, b, agg)
    ctr[ADVANCES] += 1
    offset, _, summed = _look_back(state, inst.nblocks, b, inst.values, inst.block,
                                   inst.helps)
    ctr[RETRIES] += summed + (offset == UNSET)  # blocks read again; left for I(b - 1)
    return agg, offset


@njit(nogil=True, cache=True)
def work(inst, state, b, out, ctr):
    """ensure(b). Offset known before the sum from ``I(b - 1)`` (the previous block is
    done): one fused pass scans the block from it, then claims ``I(b)`` and sets ``A(b)``.
    Else sum the block, look back, and if the offset is found claim ``I(b)`` and scan the
    cached block. The claimer reports ``b + 1`` where its aggregate is set."""
    a, nb = inst.values, inst.nblocks
    lo = b * inst.block
    seg = a[lo : min(lo + inst.block, a.shape[0])]
    dst = state[inst.prefix + lo : inst.prefix + lo + seg.shape[0]]
    agg = atomic_load(state, b)
    offset = UNSET
    near = np.int64(-2)
    if atomic_load(state, nb + b) == UNSET:
        offset, near, _ = _look_back(state, nb, b, a, inst.block, 0)
    k = -1
    # Fused only when I(b - 1) itself is set. An offset through A(b - 1) means b - 1's worker
    # is still scanning it, right behind: then publish A(b) first (sum, then scan the cached
    # block), since a fused pass publishes it only at its end and the worker that takes
    # b + 1 meanwhile would have to sum b itself (see Cost).
    fused = (agg == UNSET) & (offset != UNSET) & (near == b - 1)  # no other worker holds b
    won = False
    if agg == UNSET and not fused:
        agg, offset = _sum_and_look_back(inst, state, b, seg, ctr)
        k = 0
    if offset != UNSET and not fused:
        won = atomic_max(state, nb + b, offset + agg) == UNSET  # the one claim of I(b)
        ctr[ADVANCES] += won
        ctr[RETRIES] += not won  # another worker claimed it first
    m = seg.shape[0] if fused or won else 0
    s = offset
    for p in range(m):  # from 0: no negative-index check, the loop stays tight
        s += seg[p]
        dst[p] = s
    if fused:
        won = atomic_max(state, nb + b, s) == UNSET  # before A(b): see Formulation
        atomic_max(state, b, s - offset)
        ctr[ADVANCES] += 2
    if won:
        k = 0
        if b + 1 < nb and atomic_load(state, b + 1) != UNSET:  # after the claim's fence
            out[0] = b + 1
            k = 1
    return k


@njit(nogil=True, cache=True)
def advance(inst, state, b, out, ctr):
    return max(work(inst, state, b, out, ctr), 0)


@njit(nogil=True, cache=True)
def priority(inst, state, b):
    return np.int64(b)


@njit(nogil=True, cache=True)
def stale(inst, state, b, key):
    return False


# --- instances, answers, reference ---------------------------------------------------------


def block_size(n: int) -> int:
    """Values per block: ``ceil(n / 256)``, at most ``MAX_BLOCK`` (``n = 10^8``: 12,208
    blocks)."""
    return max(1, min(MAX_BLOCK, -(-n // TARGET_BLOCKS)))


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

    def init_state() -> np.ndarray:
        state = np.full(2 * nblocks + n, 0, dtype=np.int64)  # written: no page faults
        state[: 2 * nblocks] = UNSET
        return state

    return Instance(
        problem=__name__,
        arrays=Blocks(a, np.int64(block), np.int64(nblocks), np.int64(2 * nblocks),
                      np.int64(HELPS)),
        n=nblocks,
        max_out=1,
        init_state=init_state,
        init_work=np.arange(nblocks, dtype=np.int64),
        bucket_width=max(1, nblocks // 512),  # in order: the bucket ring has 1024 slots
        meta={"values": a, "block": block, "blocks": nblocks},
        max_rounds=nblocks + 1,  # a pass that is not the last claims at least one I
        seed_policy="in-order",  # block IDs in order, to whichever worker is free (see Cost)
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
    nb = inst.meta["blocks"]
    return np.append(state[2 * nb :], state[2 * nb - 1])


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
    """``np.cumsum`` into a fresh array (sequential, its allocation timed), the total its
    last entry."""
    from llpbench.baselines.parallel_scan import touched_output

    a = inst.meta["values"]
    out, setup = touched_output(a.shape[0])  # timed, as the solvers' state is
    t0 = time.perf_counter()
    np.cumsum(a, out=out)
    total = out[-1]
    seconds = time.perf_counter() - t0 + setup
    return BaselineResult(
        answer=np.append(out, total),
        seconds=seconds,
        compile_seconds=0.0,
        name="numpy-cumsum",
        params={"threads": 1, "setup_seconds": setup},
    )


@njit(nogil=True, cache=True)
def _numba_scan_loop(a, out):
    s = np.int64(0)
    for p in range(a.shape[0]):
        s += a[p]
        out[p] = s
    return s


def numba_cumsum(inst: Instance, threads: int = 1) -> BaselineResult:
    """The sequential scan loop compiled by numba into a fresh array, its allocation timed
    (``threads`` is ignored): what a numba user writes for a prefix sum."""
    from llpbench.baselines.parallel_scan import touched_output

    a = inst.meta["values"]
    out, setup = touched_output(a.shape[0])  # timed, as the solvers' state is
    total, seconds, compile_s = timed_call(_numba_scan_loop, a, out)
    return BaselineResult(np.append(out, total), seconds + setup, compile_s, "numba-cumsum",
                          {"threads": 1, "setup_seconds": setup})


#: The baselines by name, the default first (``--baseline NAME`` picks another).
BASELINES = {"parallel-scan": baseline, "numpy-cumsum": numpy_cumsum,
             "numba-cumsum": numba_cumsum}


def copy_floor(inst: Instance) -> BaselineResult:
    """A one-pass copy of the values into a fresh array on 1 and on every core's OS
    thread (:func:`llpbench.baselines.parallel_scan.parallel_copy`), the faster: the memory
    traffic of any scan (one read, one write per value), at the bandwidth the machine gives
    a copy. ``params["threads"]`` names the thread count that reached it."""
    from llpbench.baselines.parallel_scan import parallel_copy

    cores = max(1, len(os.sched_getaffinity(0)))
    runs = [parallel_copy(inst.meta["values"], t) for t in sorted({1, cores})]
    best = min(runs, key=lambda r: r.seconds)
    best.name = "copy"
    return best


#: The floor timed beside every reduction sweep (rows ``floor/copy``).
FLOORS = {"copy": copy_floor}


def instance_bytes(size: int, variant: str | None = None) -> int:
    """A lower bound of the instance's peak bytes, checked before it is allocated
    (:func:`llpbench.problems.check_input`): the values, the state's prefix sums and the
    reference's, int64."""
    return 3 * 8 * size
