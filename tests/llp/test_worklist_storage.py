"""Ring stores: capacities are powers of two (positions are masks), FIFO order survives
wrap-around and growth from a capacity that was asked for as a non-power of two."""

import numpy as np
import pytest

from llpbench.llp.worklists.storage import Stores, ring_capacity, ring_pop, ring_push


@pytest.mark.parametrize("asked, got", [(1, 4), (4, 4), (5, 8), (256, 256), (300, 512)])
def test_ring_capacity_rounds_up_to_a_power_of_two(asked, got):
    assert ring_capacity(asked) == got


def test_ring_keeps_fifo_order_across_wraparound_and_growth():
    stores = Stores(2, 5)  # rounded up to 8
    try:
        expected = []
        for i in range(6):  # fill, then pop some so that the head moves off 0
            ring_push(stores.meta, 1, i, 100 + i)
            expected.append((i, 100 + i))
        for _ in range(4):
            assert ring_pop(stores.meta, 1) == (True, *expected.pop(0))
        for i in range(6, 40):  # wraps past the end, then grows twice
            ring_push(stores.meta, 1, i, 100 + i)
            expected.append((i, 100 + i))
        got = [ring_pop(stores.meta, 1)[1:] for _ in range(len(expected))]
        assert got == expected
        assert ring_pop(stores.meta, 1) == (False, 0, 0)
        assert ring_pop(stores.meta, 0) == (False, 0, 0)  # the other store stayed empty
    finally:
        stores.close()


def test_ring_take_moves_a_batch_in_fifo_order_across_wraparound():
    import numpy as np

    from llpbench.llp.worklists.storage import ring_take

    stores = Stores(1, 8)
    dst = np.zeros(2 * 16, dtype=np.int64)
    try:
        for i in range(6):
            ring_push(stores.meta, 0, i, 100 + i)
        for _ in range(5):  # the head moves to 5: the next pairs wrap past the end
            ring_pop(stores.meta, 0)
        for i in range(6, 12):
            ring_push(stores.meta, 0, i, 100 + i)
        assert ring_take(stores.meta, 0, dst.ctypes.data, 4) == 4
        assert dst[:8].tolist() == [5, 105, 6, 106, 7, 107, 8, 108]
        assert ring_take(stores.meta, 0, dst.ctypes.data, 16) == 3  # what is left
        assert dst[:6].tolist() == [9, 109, 10, 110, 11, 111]
        assert ring_take(stores.meta, 0, dst.ctypes.data, 16) == 0
        ring_push(stores.meta, 0, 12, 112)  # the ring still works after the batches
        assert ring_pop(stores.meta, 0) == (True, 12, 112)
    finally:
        stores.close()


@pytest.mark.parametrize("name", ["bucketed", "obim"])
def test_a_level_worklist_hands_out_a_batch_of_its_lowest_level_alone(name):
    """``pop_batch`` takes up to ``most`` pairs of the lowest non-empty level and never mixes
    in a higher level's (items of one batch are fused against one level)."""
    import importlib

    import numpy as np
    from numba import njit

    from llpbench.llp.counters import new_counters
    from llpbench.llp.worklists import WORKLISTS

    module = importlib.import_module(WORKLISTS[name].module)
    push, pop_batch = module.push, module.pop_batch

    @njit
    def fill_and_take(wl, ctr, dst, most):
        for i in range(5):
            push(wl, 0, 64 * 3 + i, i, ctr)  # level 3 (width 64)
        for i in range(7):
            push(wl, 0, 64 * 1 + i, 10 + i, ctr)  # level 1
        a = pop_batch(wl, 0, ctr, dst, most)
        b = pop_batch(wl, 0, ctr, dst + 8 * 2 * most, most)
        c = pop_batch(wl, 0, ctr, dst + 8 * 4 * most, 16)
        return a, b, c

    wl, owner = module.create(100, 1, 64)
    dst = np.zeros(64, dtype=np.int64)
    row = new_counters(1)[0]
    try:
        got = fill_and_take(wl, row.ctypes.data, dst.ctypes.data, 4)
    finally:
        owner.close()
    assert got == (4, 3, 5)  # level 1 in two batches (4, then the 3 left), then level 3
    assert dst[1:8:2].tolist() == [10, 11, 12, 13]
    assert dst[9:14:2].tolist() == [14, 15, 16]
    assert dst[17:26:2].tolist() == [0, 1, 2, 3, 4]


def test_stores_created_empty_allocate_on_first_push_and_keep_order_as_rings_and_heaps():
    """Capacity 0 (OBIM's bags): no buffer until a store's first push, then growth as usual;
    the stores never pushed to stay without one."""
    from llpbench.llp.sync import PAD
    from llpbench.llp.worklists.storage import ADDR, heap_pop, heap_push

    stores = Stores(3, 0)
    meta = np.ctypeslib.as_array(
        (np.ctypeslib.ctypes.c_int64 * (3 * PAD)).from_address(stores.meta)
    )
    try:
        assert [meta[s * PAD + ADDR] for s in range(3)] == [0, 0, 0]
        assert ring_pop(stores.meta, 0) == (False, 0, 0)  # an empty store without a buffer
        for i in range(20):
            ring_push(stores.meta, 0, i, 100 + i)
            heap_push(stores.meta, 2, 50 - i, i)
        assert [ring_pop(stores.meta, 0)[1] for _ in range(20)] == list(range(20))
        assert [heap_pop(stores.meta, 2)[1] for _ in range(20)] == list(range(31, 51))
        assert meta[1 * PAD + ADDR] == 0 and meta[0 * PAD + ADDR] != 0
    finally:
        stores.close()
