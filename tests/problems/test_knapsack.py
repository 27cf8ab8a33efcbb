"""0-1 knapsack: every LLP solver computes the DP table's last row exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.errors import SpecError
from llpbench.problems import knapsack as ks
from llpbench.problems import problem_module
from tests.problems.conftest import solve_and_verify

INSTANCES = {
    "single": lambda: ks.instance([3], [7], 5),
    "generated": lambda: ks.generate(25, 2),
    "heavier-than-capacity": lambda: ks.instance([50, 4, 80, 3], [9, 5, 100, 2], 10),
    "zero-capacity": lambda: ks.instance([1, 2], [3, 4], 0),
    "zero-weight-and-value": lambda: ks.instance([0, 2, 3, 2], [5, 0, 4, 3], 6),
    # several blocks a row: take terms that read one or two blocks above, or none
    "blocks-of-4": lambda: ks.instance(*_items(30, 7), 57, block=4),
    "blocks-of-1": lambda: ks.instance([0, 2, 3, 9, 1], [5, 1, 4, 3, 2], 7, block=1),
    "blocks-heavier-than-capacity": lambda: ks.instance([40, 2, 99], [5, 1, 4], 20, block=6),
    "blocks-zero-capacity": lambda: ks.instance([0, 1], [3, 4], 0, block=4),
    "no-items": lambda: ks.instance([], [], 9, block=2),
    # a ring of rows smaller than the table: blocks wait for the readers of the slot's row
    "ring-of-2": lambda: ks.instance(*_items(30, 5), 57, block=4, ring=2),
    "ring-of-3-blocks-of-1": lambda: ks.instance([0, 2, 3, 9, 1, 4], [5, 1, 4, 3, 2, 6], 9,
                                                 block=1, ring=3),
    "ring-wider-take-than-block": lambda: ks.instance(*_items(20, 8), 40, block=3, ring=2),
}


def _items(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 25, n), rng.integers(0, 30, n)


def test_every_solver_computes_the_last_row(solver_config):
    for make in INSTANCES.values():
        solve_and_verify(ks, make(), *solver_config)


def test_released_form_writes_each_block_once():
    inst = ks.instance(*_items(40, 3), 200, block=16)
    for threads in (1, 2, 8):
        c = solve_and_verify(ks, inst, "worklist", "ptcf", threads).counters
        assert c["advances"] == c["items"] == inst.n and c["stale"] == 0


def _blocks(b: int, block: int, width: int) -> range:
    return range(b * block, min(b * block + block, width))


def test_counts_match_the_blocks_each_block_reads_and_its_gate():
    weights = np.array([3, 0, 9, 4, 25, 1, 7])
    width, block, ring = 22, 4, 3
    nblocks = -(-width // block)
    counts = ks._counts(weights, width, block, nblocks, ring).reshape(len(weights), nblocks)

    def read(i: int, b: int) -> set[int]:  # the blocks of row i - 1 that block (i, b) reads
        w = weights[i - 1]
        cells = _blocks(b, block, width)
        return {c // block for c in cells} | {(c - w) // block for c in cells if c >= w}

    for i in range(1, len(weights) + 1):
        for b in range(nblocks):
            want = len(read(i, b)) if i >= 2 else 0
            if i >= ring:  # the readers in row i - ring + 1 of block b of row i - ring
                want += sum(b in read(i - ring + 1, s) for s in range(nblocks))
            assert counts[i - 1, b] == want, (i, b)


def test_state_holds_a_ring_of_rows_not_the_table():
    inst = ks.generate(300, 1, block=256, ring=3)
    width = ks.CAPACITY_PER_ITEM * 300 + 1
    nblocks = -(-width // 256)
    assert inst.meta["ring"] == 3
    assert inst.init_state().shape[0] == 3 * width + 3 * nblocks + 300 * nblocks  # no table
    for threads in (1, 2):
        c = solve_and_verify(ks, inst, "worklist", "ptwb", threads).counters
        assert c["advances"] == c["items"] == inst.n  # each block written once
    assert ks.instance([1], [2], 5, ring=9).meta["ring"] == 2  # never more than the table


def test_a_size_that_does_not_fit_is_refused_before_allocation(monkeypatch):
    from llpbench.problems import check_input

    monkeypatch.setenv("LLPBENCH_MAX_MEMORY", "64M")
    check_input(ks, size=10_000)  # 10^9 cells of table, a few MB of state: fits
    with pytest.raises(SpecError, match=r"knapsack --size 1,000,000: .* at least [\d.]+ GB"):
        check_input(ks, size=1_000_000)  # the counts alone: 10^6 rows of 1221 blocks


def test_reference_matches_a_hand_solved_instance():
    inst = ks.instance([2, 3, 4], [3, 4, 5], 5)
    assert list(ks.reference(inst)) == [0, 0, 3, 4, 5, 7]


def test_baseline_equals_reference():
    inst = ks.generate(200, 5)
    result = ks.baseline(inst, threads=2)
    assert ks.verify(result.answer, ks.reference(inst)) is None
    assert result.name == "dp-two-rows" and result.params == {"threads": 1}  # sequential DP
    for make in INSTANCES.values():
        inst = make()
        for kernel in ks.DP_KERNELS:
            assert ks.verify(ks.baseline(inst, 1, kernel).answer, ks.reference(inst)) is None


def test_generate_follows_the_capacity_rule_and_seed():
    a, b = ks.generate(40, 3), ks.generate(40, 3)
    assert problem_module("knapsack") is ks
    assert a.meta["capacity"] == ks.CAPACITY_PER_ITEM * 40
    width = ks.CAPACITY_PER_ITEM * 40 + 1
    assert a.n == 40 * -(-width // min(ks.BLOCK_CELLS, width))  # one index per block of a row
    assert np.array_equal(a.arrays.weights, b.arrays.weights)
    assert np.array_equal(a.arrays.values, b.arrays.values)


def test_bad_items_are_rejected():
    with pytest.raises(SpecError, match="weights and values need one entry per item"):
        ks.instance([1, 2], [3], 4)
    with pytest.raises(SpecError, match="weights and values must be >= 0"):
        ks.instance([1], [-1], 4)
    with pytest.raises(SpecError, match="knapsack needs a size >= 1, got None"):
        ks.make(None, None, 0, None)
    with pytest.raises(SpecError, match="the ring must hold >= 2 rows, got 1"):
        ks.instance([1], [2], 3, ring=1)


@settings(max_examples=12, deadline=None)
@given(
    items=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=12),
    capacity=st.integers(0, 60),
    block=st.sampled_from([1, 3, 8, 1024]),
    ring=st.sampled_from([2, 3, 64]),
    config=st.sampled_from(
        [("worklist", "ptcf", 3), ("worklist", "ptwb", 2), ("all-indices", None, 3)]
    ),
)
def test_random_items_match_the_dp(items, capacity, block, ring, config):
    weights, values = zip(*items, strict=True)
    solve_and_verify(ks, ks.instance(weights, values, capacity, block=block, ring=ring), *config)


def test_c_peer_equals_reference_where_a_compiler_is_found():
    from llpbench.baselines import knapsack_c

    assert ("c-two-rows" in ks.BASELINES) == knapsack_c.available()
    if knapsack_c.available():
        for make in INSTANCES.values():
            inst = make()
            result = ks.BASELINES["c-two-rows"](inst, 2)
            assert ks.verify(result.answer, ks.reference(inst)) is None
            assert result.name == "c-two-rows" and result.params == {"threads": 1}
