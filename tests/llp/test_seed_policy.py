"""The seed policies of the worklist solver (``Instance.seed_policy``): ``deal`` pushes the
seed round-robin before the start, ``in-order`` hands it out through a shared counter, one
item at a time, in ``init_work``'s order. Either way every index is worked exactly once and
the answer is the reference's, at any thread count and on every worklist."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from llpbench.errors import SpecError
from llpbench.llp.contract import SEED_POLICIES
from llpbench.llp.runtime import solve_llp
from llpbench.llp.worklists import WORKLISTS
from tests.dummies import prefix_max, seed_stamps

ORDER = np.random.default_rng(7).permutation(301)  # not a multiple of any thread count


def _stamps(inst, result) -> np.ndarray:
    return result.state[: inst.n]


@pytest.mark.parametrize("worklist", list(WORKLISTS))
def test_in_order_seed_is_worked_in_its_order_at_one_thread(worklist):
    inst = seed_stamps.instance(ORDER, "in-order")
    result = solve_llp(inst, "worklist", worklist, 1, timeout=30)
    stamps = _stamps(inst, result)
    assert list(stamps[ORDER]) == list(range(1, ORDER.size + 1))  # the seed's order
    c = result.counters
    assert c["items"] == c["pushes"] == c["advances"] == ORDER.size and c["stale"] == 0


def test_a_dealt_seed_follows_the_worklist_order_instead():
    inst = seed_stamps.instance(ORDER, "deal")
    stamps = _stamps(inst, solve_llp(inst, "worklist", "ptwb", 1, timeout=30))
    assert list(stamps) == list(range(1, ORDER.size + 1))  # by priority: index order


@pytest.mark.parametrize("threads", [2, 3, 4, 8])
@pytest.mark.parametrize("worklist", list(WORKLISTS))
def test_in_order_seed_hands_every_item_out_once_at_many_threads(worklist, threads):
    inst = seed_stamps.instance(ORDER, "in-order")
    result = solve_llp(inst, "worklist", worklist, threads, timeout=30)
    assert sorted(_stamps(inst, result)) == list(range(1, ORDER.size + 1))
    c = result.counters
    # each item taken once: none popped twice (stale) and no claim lost (retries)
    assert c["items"] == c["pushes"] == c["advances"] == ORDER.size, c
    assert c["stale"] == 0 and c["retries"] == 0, c


@pytest.mark.parametrize("policy", list(SEED_POLICIES))
@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("worklist", list(WORKLISTS))
def test_a_problem_that_reports_work_is_exact_under_each_policy(worklist, threads, policy):
    for size in (0, 1, 2, 257):
        inst = dataclasses.replace(prefix_max.make(None, size, 3, None), seed_policy=policy)
        result = solve_llp(inst, "worklist", worklist, threads, timeout=30)
        got = prefix_max.answer(inst, result.state)
        assert prefix_max.verify(got, prefix_max.reference(inst)) is None, (size, policy)
        c = result.counters
        assert c["items"] == c["pushes"] >= size, c  # every push (seed too) popped once


def test_the_bag_solver_takes_an_in_order_seed_too():
    inst = seed_stamps.instance(ORDER, "in-order")
    result = solve_llp(inst, "bag", "swb", 1, timeout=30)
    assert list(_stamps(inst, result)[ORDER]) == list(range(1, ORDER.size + 1))  # FIFO


def test_an_unknown_policy_is_one_clear_error():
    inst = seed_stamps.instance(ORDER[:5], "shuffled")
    with pytest.raises(SpecError, match="unknown seed_policy 'shuffled'; known: deal, in-order"):
        solve_llp(inst, "worklist", "ptwb", 2, timeout=30)
