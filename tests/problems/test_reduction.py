"""Reduction and prefix sums: every LLP solver computes the prefix sums and the total exactly."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.errors import SpecError
from llpbench.llp.runtime import solve_llp
from llpbench.problems import problem_module
from llpbench.problems import reduction as rd
from tests.problems.conftest import solve_and_verify

INSTANCES = {
    "size-one": lambda: rd.instance([42]),
    "zeros": lambda: rd.instance(np.zeros(300, dtype=np.int64)),
    "zeros-then-values": lambda: rd.instance(np.r_[np.zeros(50, np.int64), np.arange(30)], 4),
    "not-a-power-of-two": lambda: rd.generate(1000, 3),
    "odd-blocks-with-padding": lambda: rd.instance(np.arange(1, 12), block=2),
    "one-element-blocks": lambda: rd.instance(np.arange(37) % 5, block=1),
    "large-values": lambda: rd.instance(np.full(70, 2**40), block=8),
    "generated": lambda: rd.generate(5000, 1),
    "negative-one": lambda: rd.instance([-7]),
    "negative-numbers": lambda: rd.instance([-5, 3, -2, 0, -9, 4, 1], block=2),
    "all-negative-padded": lambda: rd.instance(-np.arange(1, 40), block=3),
    "signed-generated": lambda: rd.generate(3000, 5, "signed"),
    "signed-large": lambda: rd.instance(np.resize([2**40, -(2**41), 3], 50), block=4),
}


def test_every_solver_computes_prefix_sums_and_total(solver_config):
    for make in INSTANCES.values():
        solve_and_verify(rd, make(), *solver_config)


def test_reference_is_cumsum_then_total():
    assert list(rd.reference(rd.instance([3, 0, 4, 1]))) == [3, 3, 7, 8, 8]


def test_one_index_per_block_follows_the_block_size():
    inst = rd.instance(np.ones(11), block=2)
    assert inst.n == inst.meta["blocks"] == 6  # the last block holds one value
    assert list(inst.init_work) == list(range(6))  # every block, in order
    assert rd.block_size(10**8) == rd.MAX_BLOCK
    assert rd.block_size(100) == 1


def test_one_thread_in_order_visits_each_block_once_and_looks_back_one_block():
    inst = rd.generate(50_000, 3)
    result = solve_and_verify(rd, inst, "worklist", "ptwb", 1)
    assert result.counters["items"] == inst.n  # no block pushed again
    assert result.counters["advances"] == 2 * inst.n  # A(b) and I(b), once each
    assert result.counters["retries"] == 0  # every look-back found its offset


def test_look_back_stops_at_an_unset_aggregate_and_sums_set_ones():
    inst = rd.instance(np.arange(12), block=3)  # blocks 0+1+2, 3+4+5, ...: 3, 12, 21, 30
    state = inst.init_state()
    nb = inst.meta["blocks"]
    state[1], state[2] = 12, 21  # A(1), A(2) set; A(0) and every I unset
    a, block = inst.arrays.values, inst.arrays.block
    assert rd._look_back(state, nb, 3, a, block, 0)[0] == rd.UNSET  # stops at A(0)
    state[nb + 0] = 3  # I(0) set: E(3) = I(0) + A(1) + A(2)
    assert rd._look_back(state, nb, 3, a, block, 0)[0] == 36
    assert rd.forbidden(inst.arrays, state, 3)  # A(3) unset


def test_copy_floor_times_a_copy_and_solves_nothing():
    floor = rd.FLOORS["copy"](rd.generate(10_000, 1))
    assert floor.answer.size == 0 and floor.seconds > 0 and floor.params["threads"] >= 1


def test_baseline_equals_reference():
    inst = rd.generate(20_000, 4)
    result = rd.baseline(inst, threads=2)
    assert rd.verify(result.answer, rd.reference(inst)) is None
    assert result.name == "parallel-scan" and result.params["threads"] == 2
    assert set(rd.BASELINES) == {"parallel-scan", "numpy-cumsum", "numba-cumsum"}


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_every_baseline_equals_reference_at_each_thread_count(threads):
    for make in INSTANCES.values():
        inst = make()
        for name, run in rd.BASELINES.items():
            result = run(inst, threads)
            assert rd.verify(result.answer, rd.reference(inst)) is None, name
    assert rd.baseline(rd.instance([1, 2]), 8).params["threads"] == 8  # more threads than items


def test_signed_variant_draws_negative_values():
    values = rd.generate(1000, 2, "signed").meta["values"]
    assert values.min() < 0 < values.max() and abs(values).max() <= rd.MAX_VALUE


def test_verify_names_prefix_or_total():
    expected = rd.reference(rd.instance([1, 2, 3]))
    assert "prefix 1" in rd.verify(np.array([1, 4, 6, 6]), expected)
    assert "total" in rd.verify(np.array([1, 3, 6, 7]), expected)


def test_generate_is_seeded_and_registered():
    a, b = rd.generate(500, 8), rd.generate(500, 8)
    assert problem_module("reduction") is rd
    assert np.array_equal(a.meta["values"], b.meta["values"])
    assert a.meta["values"].min() >= 0 and a.meta["values"].max() <= rd.MAX_VALUE
    assert np.array_equal(rd.make(None, 500, 8, None).meta["values"], a.meta["values"])


def test_bad_inputs_are_rejected():
    with pytest.raises(SpecError, match="unknown variant 'complex'"):
        rd.generate(10, 1, "complex")
    with pytest.raises(SpecError, match=re.escape("a non-empty 1-D array, got shape (0,)")):
        rd.instance([])
    with pytest.raises(SpecError, match="size must be at least 1, got 0"):
        rd.generate(0, 1)
    with pytest.raises(SpecError, match="reduction needs --size N"):
        rd.make(None, None, 0, None)


@settings(max_examples=15, deadline=None)
@given(
    values=st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=300),
    block=st.integers(1, 9),
    config=st.sampled_from(
        [("worklist", "ptcf", 3), ("worklist", "swb", 2), ("all-indices", None, 3)]
    ),
)
def test_random_arrays_match_cumsum(values, block, config):
    solve_and_verify(rd, rd.instance(values, block), *config)


def test_a_size_that_does_not_fit_is_refused_before_anything_is_allocated(monkeypatch):
    from llpbench.problems import build_instance

    monkeypatch.setenv("LLPBENCH_MAX_MEMORY", "1G")
    with pytest.raises(SpecError, match=r"reduction --size 100,000,000: .* at least 2\.2 GB"):
        build_instance(rd, size=10**8, seed=1)


def test_the_instance_asks_for_an_in_order_seed():
    assert rd.generate(100, 1).seed_policy == "in-order"
    assert rd.generate(100, 1).arrays.helps == rd.HELPS > 0


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("worklist", ["ptwb", "ptcf", "swb", "bucketed"])
def test_each_seed_policy_and_helping_match_cumsum(worklist, threads):
    """Sizes that are no multiple of the block, dealt or in order, with and without the
    look-back's helping sums: every answer is np.cumsum's."""
    cases = [rd.generate(10_007, 2, "signed"), rd.instance(np.arange(1000) - 500, 7),
             rd.instance(np.ones(64), 64), rd.instance([5, -3, 2], 2)]
    for base in cases:
        for policy in ("deal", "in-order"):
            for helps in (0, 1, rd.HELPS):
                inst = dataclasses.replace(base, seed_policy=policy,
                                           arrays=base.arrays._replace(helps=np.int64(helps)))
                result = solve_llp(inst, "worklist", worklist, threads, timeout=30)
                got = rd.answer(inst, result.state)
                expected = np.append(np.cumsum(inst.meta["values"]), inst.meta["values"].sum())
                assert rd.verify(got, expected) is None, (policy, helps, inst.n)


def test_a_helping_look_back_sums_an_unset_aggregate_itself():
    inst = rd.instance(np.arange(12), block=3)  # block sums 3, 12, 21, 30
    a, block, nb = inst.arrays.values, inst.arrays.block, inst.meta["blocks"]
    state = inst.init_state()
    state[nb + 0] = 3  # I(0) set
    state[2] = 21  # A(2) set; A(1) unset (its holder has not summed it yet)
    assert rd._look_back(state, nb, 3, a, block, 0)[:2] == (rd.UNSET, 1)  # stops at A(1)
    assert rd._look_back(state, nb, 3, a, block, 1) == (36, 0, 1)  # sums block 1 itself
    assert state[1] == rd.UNSET  # ... without publishing it
    state[2] = rd.UNSET  # two unset aggregates on the way, one help allowed
    assert rd._look_back(state, nb, 3, a, block, 1)[:2] == (rd.UNSET, 1)
    assert rd._look_back(state, nb, 3, a, block, 2) == (36, 0, 2)


def test_at_one_thread_in_order_nothing_helps_and_nothing_is_read_twice():
    inst = rd.generate(50_000, 3)
    result = solve_and_verify(rd, inst, "worklist", "ptcf", 1)
    assert result.counters["items"] == inst.n and result.counters["retries"] == 0
