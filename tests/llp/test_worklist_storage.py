"""Ring stores: capacities are powers of two (positions are masks), FIFO order survives
wrap-around and growth from a capacity that was asked for as a non-power of two."""

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
