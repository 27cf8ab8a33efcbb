"""Stable marriage (men proposing) as an LLP problem (Garg, "Predicate detection to solve
combinatorial optimization problems", SPAA 2020; Gale and Shapley, "College admissions and
the stability of marriage", 1962; LLP-FW, Ribeiro Alves and Garg, 2026).

Formulation
    State: ``G[m]``, the position of man m's current choice in his preference list, starting
    at 0 and advancing by one. Man m is forbidden when the woman w he points at has a man
    she prefers pointing at her too. The least state in which no man is forbidden is the
    man-optimal stable matching, the one Gale-Shapley's men-proposing algorithm finds.

Auxiliary data in the state
    Testing "some man w prefers points at w" by scanning all men would make ``forbidden``
    O(n). Instead the state vector carries, after the n men's positions, one slot per woman
    holding the best proposal she has received, packed as ``rank << 32 | man`` so that an
    atomic min on the slot keeps the best proposer *and* names him:
    ``state = [G[0..n) | best[0..n)]`` and ``num_indices`` is n. Man m is forbidden iff
    ``rank_w(best[w]) < rank_w(m)`` for w = his current choice: O(1). Keeping it in the state
    (not in the instance) gives every solve a fresh copy from ``init_state``.

Why this is exact under concurrency (any thread may advance any man)
    (I0) A man has one writer at a time. A worklist holds at most one item for him: he is
    seeded only if forbidden at the start, and pushed again only by the call that displaced
    him, which needs him held (named in a ``best``), and a man is held only after the last
    write of the call that moved him; the scanning solvers advance only their own static
    share of the men. So a proposal (``advance``) moves ``G[m]`` from g to g + 1 with a
    plain release store, and only after re-testing that m is forbidden at g; then it lowers
    ``best[w]`` with an atomic min, a full fence that publishes the store. (A CAS on
    ``G[m]``, which (I0) makes unnecessary, cost 40% of the time on identical lists: one
    locked operation more per proposal.) (I1) The man named in
    ``best[w]`` points at w: he moved there before lowering the slot and can leave only when
    the slot names someone better, i.e. after he stopped being named. So a man seen
    forbidden through ``best`` is forbidden in the true LLP sense, and forbidden stays true
    while he stays (``best`` only falls): the re-test never moves a man who may stay, so no man
    passes his man-optimal wife. (I2) The atomic min returns the previous best: if it was
    better, the proposer himself is forbidden at once and the same call proposes on (Gale-
    Shapley's inner loop: no push and pop per rejection); else the man it named is displaced
    and ``advance`` reports him. Every man who stops being the best of his woman is thus
    advanced or reported by the thread that made him so, so a worklist solver that has run out of
    work has left no man forbidden. The scanning solvers test ``forbidden`` on a state in
    which every advance of the previous round has finished (barrier). Hence every solver
    ends at the least state with no forbidden man: the man-optimal stable matching.

Priority: the rank the man's current woman gives him (stronger proposals first: they are
the likelier to stick). Any order is correct; with a constant key PTWB's heap pops ties
last-in first-out, which on identical lists displaces every man once per later man (about
n^2 / 2 items instead of n).

Instances (``VARIANTS``)
    ``random``: n men and n women with uniformly random complete preference lists (about
    n ln n proposals). ``identical``: every man ranks the women 0..n-1 and every woman ranks
    the men 0..n-1, so man k is rejected k times: n(n+1)/2 proposals, the adversarial case.
Reference: Gale-Shapley with a stack of free men (numba, one thread). Baseline: at one
thread the same sequential Gale-Shapley; at T > 1 threads the parallel McVitie-Wilson
algorithm (below), on the runtime's OS threads. ``gale-shapley`` (sequential at every thread
count) remains by name.

Parallel McVitie-Wilson ("The stable marriage problem", CACM 1971)
    McVitie and Wilson let each man in turn propose until he is held, and a man displaced
    on the way propose at once, before the next man starts; any order of proposals gives
    the man-optimal matching. In parallel, the men are dealt to T threads and a woman's
    best proposal is one word (``rank << 32 | man``) lowered with an atomic min, as in the
    LLP state: the min's old value says who was rejected (the proposer if it was better,
    else the man it named, whom the same thread then moves on). A man is active in one
    thread at a time (he becomes active again only by being displaced), so his next-choice
    counter needs no atomics. This is what a hand-written lock-free parallel Gale-Shapley
    does: the LLP solve of this module with the worklist and its counters taken out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError
from llpbench.llp import sync
from llpbench.llp.atomics import atomic_load, atomic_min, atomic_store_release
from llpbench.llp.contract import Instance
from llpbench.llp.contract import no_prefetch as prefetch  # noqa: F401 (contract kernel)
from llpbench.llp.counters import ADVANCES
from llpbench.llp.launch import launch_workers, timed_call

NAME = "stable-marriage"
INPUT = "size"
VARIANTS = ("random", "identical")
NO_PROPOSAL = np.iinfo(np.int64).max  # best[w] before any man proposed to w
MAN_MASK = (1 << 32) - 1

# --- kernels -------------------------------------------------------------------------------
# inst = (men_pref, women_rank): men_pref[m, k] = m's k-th choice; women_rank[w, m] = w's rank
# of m (0 = best); both int32 n x n. state = [G[0..n) | best[0..n)] int64. Arrays are used on
# paths every call takes, never last in a branch: numba cannot prune the atomic incref/decref
# pair of an array whose last use is conditional, and it costs more than a proposal (see
# knapsack.py).


@njit(nogil=True, cache=True)
def num_indices(inst, state):
    return inst[0].shape[0]


@njit(nogil=True, cache=True)
def forbidden(inst, state, m):
    n = inst[0].shape[0]
    w = inst[0][m, atomic_load(state, m)]
    key = (np.int64(inst[1][w, m]) << 32) | m
    return atomic_load(state, n + w) < key


@njit(nogil=True, cache=True, inline="always")
def _propose(inst, state, m, out, ctr):
    """While m is forbidden, move him to his next choice (his one writer: see (I0)) and
    propose (atomic min).
    Returns -1 if m was not forbidden at first, else how many men it reported (0 or 1)."""
    men_pref, women_rank = inst[0], inst[1]
    n = men_pref.shape[0]
    k = -1
    going = True
    while going:
        g = atomic_load(state, m)
        w = men_pref[m, g]
        nxt = men_pref[m, min(g + 1, n - 1)]
        key = (np.int64(women_rank[w, m]) << 32) | m
        key_next = (np.int64(women_rank[nxt, m]) << 32) | m
        # re-test at g: m leaves position g only if forbidden there
        going = (g + 1 < n) & (atomic_load(state, n + w) < key)
        if going:
            atomic_store_release(state, m, g + 1)
            k = 0
            ctr[ADVANCES] += 1
            old = atomic_min(state, n + nxt, key_next)
            # old < key_next: nxt holds a better proposal, m is forbidden again: propose on
            going = old < key_next
            if old > key_next and old != NO_PROPOSAL:  # m displaces the man nxt held
                out[0] = old & MAN_MASK
                k = 1
    return k


@njit(nogil=True, cache=True)
def advance(inst, state, m, out, ctr):
    return max(_propose(inst, state, m, out, ctr), 0)


@njit(nogil=True, cache=True)
def work(inst, state, m, out, ctr):
    return _propose(inst, state, m, out, ctr)


@njit(nogil=True, cache=True)
def priority(inst, state, m):
    w = inst[0][m, atomic_load(state, m)]
    return np.int64(inst[1][w, m])


@njit(nogil=True, cache=True)
def stale(inst, state, m, key):
    return False


# --- instances -----------------------------------------------------------------------------


def instance(men_pref: np.ndarray, women_pref: np.ndarray, name: str = "custom") -> Instance:
    """The instance of complete preference lists (row i: person i's choices, best first).

    Raises
    ------
    SpecError
        If the lists are not two n x n arrays whose rows are permutations of 0..n-1.
    """
    men_pref = np.ascontiguousarray(men_pref, dtype=np.int32)
    women_pref = np.ascontiguousarray(women_pref, dtype=np.int32)
    n = men_pref.shape[0]
    for who, pref in (("men", men_pref), ("women", women_pref)):
        if pref.shape != (n, n) or n == 0:
            raise SpecError(f"stable-marriage: {who}' lists must be n x n with n >= 1")
        if not (np.sort(pref, axis=1) == np.arange(n, dtype=np.int32)).all():
            raise SpecError(f"stable-marriage: each of the {who}' lists must rank all 0..{n - 1}")
    women_rank = np.empty_like(women_pref)
    np.put_along_axis(women_rank, women_pref, np.arange(n, dtype=np.int32)[None, :], axis=1)
    men = np.arange(n, dtype=np.int64)
    first = men_pref[:, 0].astype(np.int64)
    first_keys = (women_rank[first, men].astype(np.int64) << 32) | men
    best = np.full(n, NO_PROPOSAL, dtype=np.int64)
    np.minimum.at(best, first, first_keys)
    init_work = np.flatnonzero(best[first] < first_keys).astype(np.int64)

    def init_state() -> np.ndarray:
        return np.concatenate([np.zeros(n, dtype=np.int64), best])

    return Instance(
        problem=__name__,
        arrays=(men_pref, women_rank),
        n=n,
        max_out=1,
        init_state=init_state,
        init_work=init_work,
        bucket_width=1,
        meta={"name": name, "integer": True},
        max_rounds=n * n + 1,  # each pass but the last moves a man; n^2 moves at most
    )


def generate(size: int, seed: int = 0, variant: str = "random") -> Instance:
    """``size`` men and women with preference lists of ``variant`` (see ``VARIANTS``)."""
    if size is None or size < 1:
        raise SpecError(f"stable-marriage needs a size >= 1, got {size}")
    n = int(size)
    if variant == "random":
        rng = np.random.default_rng(seed)
        rows = np.broadcast_to(np.arange(n, dtype=np.int32), (n, n))
        men_pref = rng.permuted(rows, axis=1)
        women_pref = rng.permuted(rows, axis=1)
    elif variant == "identical":
        men_pref = women_pref = np.broadcast_to(np.arange(n, dtype=np.int32), (n, n))
    else:
        raise SpecError(f"stable-marriage: unknown variant {variant!r}; known: {VARIANTS}")
    return instance(men_pref, women_pref, name=f"{variant}-n{n}-seed{seed}")


def make(graph, size: int | None, seed: int, source=None, variant: str = "random") -> Instance:
    """Runner entry point: ``generate(size, seed, variant)`` (no graph)."""
    if graph is not None:
        raise SpecError("stable-marriage takes a size, not a graph")
    return generate(size, seed, variant)


# --- answers, reference, baseline ----------------------------------------------------------


def answer(inst: Instance, state: np.ndarray) -> np.ndarray:
    """The wife of each man (int64 array of women)."""
    men_pref = inst.arrays[0]
    n = men_pref.shape[0]
    return men_pref[np.arange(n), state[:n]].astype(np.int64)


@njit(nogil=True, cache=True)
def gale_shapley(men_pref, women_rank):
    """Men-proposing Gale-Shapley with a stack of free men: the man-optimal wives."""
    n = men_pref.shape[0]
    nxt = np.zeros(n, dtype=np.int64)
    husband = np.full(n, -1, dtype=np.int64)
    free = np.arange(n - 1, -1, -1).astype(np.int64)
    top = n
    while top > 0:
        m = free[top - 1]
        w = men_pref[m, nxt[m]]
        nxt[m] += 1
        h = husband[w]
        if h < 0:
            husband[w] = m
            top -= 1
        elif women_rank[w, m] < women_rank[w, h]:
            husband[w] = m
            free[top - 1] = h
    wife = np.empty(n, dtype=np.int64)
    for m in range(n):
        wife[m] = men_pref[m, nxt[m] - 1]
    return wife


def reference(inst: Instance) -> np.ndarray:
    """The man-optimal matching by Gale-Shapley."""
    return gale_shapley(*inst.arrays)


def is_stable(inst: Instance, wife: np.ndarray) -> bool:
    """True if ``wife`` is a perfect matching with no blocking pair (O(n^2))."""
    men_pref, women_rank = inst.arrays
    n = men_pref.shape[0]
    if np.unique(wife).size != n:
        return False
    husband = np.empty(n, dtype=np.int64)
    husband[wife] = np.arange(n)
    my_rank = np.argsort(men_pref, axis=1)[np.arange(n), wife]  # rank of his wife, for each man
    for m in range(n):
        better = men_pref[m, : my_rank[m]]  # women m prefers to his wife
        if (women_rank[better, m] < women_rank[better, husband[better]]).any():
            return False
    return True


def verify(result: np.ndarray, expected: np.ndarray) -> str | None:
    """None if every man has the same wife, else a one-line reason."""
    if result.shape != expected.shape:
        return f"answer has {result.shape[0]} men, expected {expected.shape[0]}"
    bad = np.flatnonzero(result != expected)
    if bad.size:
        m = int(bad[0])
        return f"{bad.size} men differ, first {m}: wife {result[m]}, expected {expected[m]}"
    return None


@njit(nogil=True, cache=True)
def _mcvitie_wilson_worker(tid, nthreads, men_pref, women_rank, nxt, best, ctl):
    """Thread ``tid``: men tid, tid + T, ... propose, and every man they displace after
    them (``nxt[m]``: m's current choice; ``best[w]``: w's best proposal, packed)."""
    n = men_pref.shape[0]
    sync.start_barrier(ctl)
    for first in range(tid, n, nthreads):
        m = first
        while m >= 0:
            w = men_pref[m, nxt[m]]
            key = (np.int64(women_rank[w, m]) << 32) | m
            old = atomic_min(best, w, key)
            if old < key:  # w holds a better proposal: m moves on
                nxt[m] += 1
            elif old == NO_PROPOSAL:  # w was free: m is held, the chain ends
                m = -1
            else:  # m displaced the man w held: he moves on, in this thread
                m = old & MAN_MASK
                nxt[m] += 1
    return sync.finish(ctl, 0)


def parallel_mcvitie_wilson(inst: Instance, threads: int = 1) -> BaselineResult:
    """Man-optimal wives by parallel McVitie-Wilson on ``threads`` OS threads (one thread:
    sequential Gale-Shapley, which needs no atomics)."""
    if threads == 1:
        result = gale_shapley_baseline(inst, 1)
        result.name = "parallel-gale-shapley"
        return result
    men_pref, women_rank = inst.arrays
    n = men_pref.shape[0]
    nxt = np.full(n, 0, dtype=np.int64)
    best = np.full(n, NO_PROPOSAL, dtype=np.int64)
    ctl = sync.new_control()
    args = (men_pref, women_rank, nxt, best, ctl)
    seconds, compile_s = launch_workers(_mcvitie_wilson_worker, threads, args, ctl)
    wife = men_pref[np.arange(n), nxt].astype(np.int64)
    return BaselineResult(wife, seconds, compile_s, "parallel-gale-shapley", {"threads": threads})


def gale_shapley_baseline(inst: Instance, threads: int = 1) -> BaselineResult:
    """Sequential Gale-Shapley (``threads`` is ignored), compilation timed apart."""
    wife, seconds, compile_s = timed_call(gale_shapley, *inst.arrays)
    return BaselineResult(wife, seconds, compile_s, "gale-shapley", {"threads": 1})


baseline = parallel_mcvitie_wilson

#: The baselines by name, the default first (``--baseline NAME`` picks another).
BASELINES = {
    "parallel-gale-shapley": parallel_mcvitie_wilson,
    "gale-shapley": gale_shapley_baseline,
}


def instance_bytes(size: int, variant: str | None = None) -> int:
    """A lower bound of the instance's peak bytes, checked before it is allocated
    (:func:`llpbench.problems.check_input`): the men's and women's preference matrices and
    the women's rank matrix, ``size`` x ``size`` int32 each."""
    return 3 * 4 * size * size
