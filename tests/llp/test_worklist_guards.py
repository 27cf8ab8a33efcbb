"""The worklists' guards for workers that outnumber the cores: a level pop's scan bounded by
the top level (and the whole ring now and then, so nothing below the hint is lost), a thief
that passes a held lock by, a heap that takes from a stalled owner's smaller keys, and an
idle worker's sleep that lengthens."""

import importlib

import numpy as np
import pytest
from numba import njit

from llpbench.llp import sync
from llpbench.llp.counters import CONTENTION, STEALS, new_counters
from llpbench.llp.worklists import WORKLISTS
from llpbench.llp.worklists.levels import FULL_SCAN_EVERY, TOP
from llpbench.llp.worklists.stealing import PEEK_EVERY, STEAL_MAX, steal
from llpbench.llp.worklists.storage import Stores, heap_pop, heap_push, least_hint, size_hint


def _module(name):
    return importlib.import_module(WORKLISTS[name].module)


def _pops_until_found(pop):
    """``(pops, key, item)``: thread 0 pops until it gets a pair, at most ``limit`` times
    (``(-1, 0, 0)`` if it never does). Compiled in this process: numba caches a worklist's
    ``pop`` against its own file alone, not the modules it inlines (the solver kernels hash
    every source), so a cached ``pop`` could predate an edit of ``levels`` or ``stealing``."""

    @njit
    def pops_until_found(wl, ctr, limit):
        for k in range(limit):
            found, key, item = pop(wl, 0, ctr)
            if found:
                return k + 1, key, item
        return -1, 0, 0

    return pops_until_found


@pytest.mark.parametrize("name", ["bucketed", "obim"])
def test_an_item_left_below_the_hint_by_a_race_is_found_by_the_periodic_whole_ring_scan(name):
    """The race (a pop's compare-and-swap raises the hint past an item another thread just
    pushed) is made by hand: the hint is set above the item's level. A pop's scan from the
    hint up to the top misses it, and the thread's ``FULL_SCAN_EVERY``-th empty pop finds it
    (in another thread's bag, for obim): the bound delays such an item, never loses it."""
    module = _module(name)
    push, pops_until_found = module.push, _pops_until_found(module.pop)
    wl, owner = module.create(100, 2, 64)
    row = new_counters(1)[0]
    control = owner.extra_array()
    try:
        push(wl, 1, 64 * 5 + 3, 7, row.ctypes.data)  # level 5, thread 1's side
        assert control[0] == 5 and control[TOP] == 5
        control[0] = 9  # the hint raised past the item, as the race leaves it
        control[TOP] = 9
        got = pops_until_found(wl, row.ctypes.data, 4 * FULL_SCAN_EVERY)
    finally:
        owner.close()
    assert got == (FULL_SCAN_EVERY, 64 * 5 + 3, 7)


@pytest.mark.parametrize("name", ["bucketed", "obim"])
def test_a_level_pop_scans_no_further_than_the_top_level_pushed(name):
    """With the top lowered by hand below an item's level, pops before the whole-ring one
    come back empty: the scan really stops at the top (that is what keeps an empty pop of
    32 threads' bags cheap); the item is still handed out in the end."""
    module = _module(name)
    push, pops_until_found = module.push, _pops_until_found(module.pop)
    wl, owner = module.create(100, 1, 64)
    row = new_counters(1)[0]
    control = owner.extra_array()
    try:
        push(wl, 0, 64 * 40, 1, row.ctypes.data)
        push(wl, 0, 64 * 2, 2, row.ctypes.data)
        assert (control[0], control[TOP]) == (2, 40)
        assert pops_until_found(wl, row.ctypes.data, 1) == (1, 64 * 2, 2)
        control[TOP] = 3  # the scan from level 2 now ends at level 3
        got = pops_until_found(wl, row.ctypes.data, 4 * FULL_SCAN_EVERY)
        assert got == (FULL_SCAN_EVERY, 64 * 40, 1)  # 63 empty pops, then the whole ring
    finally:
        owner.close()


def test_a_thief_passes_a_held_lock_by_and_steals_once_it_is_free():
    """A victim's lock that is held (perhaps by a preempted thread) is not waited for: the
    steal comes back empty and counts the contention; with the lock free it takes half."""
    module = _module("ptwb")
    wl, owner = module.create(100, 2, 64)
    meta, locks, scratch = wl[0], wl[1], wl[2]
    row = new_counters(1)[0]
    lock_words = np.ctypeslib.as_array(
        (np.ctypeslib.ctypes.c_int64 * (2 * sync.PAD)).from_address(locks)
    )
    try:
        for k in range(10):
            heap_push(meta, 1, 100 + k, k)
        lock_words[1 * sync.PAD] = 1  # thread 1's lock, held
        assert steal(meta, locks, scratch, 0, 2, row.ctypes.data, True) == (False, 0, 0)
        assert row[CONTENTION] == 1 and row[STEALS] == 0 and size_hint(meta, 1) == 10
        lock_words[1 * sync.PAD] = 0
        assert steal(meta, locks, scratch, 0, 2, row.ctypes.data, True) == (True, 100, 0)
        assert row[STEALS] == 1
        assert size_hint(meta, 1) == 5 and size_hint(meta, 0) == 4  # half, the rest filed
    finally:
        owner.close()


def _ptwb_pair():
    module = _module("ptwb")
    wl, owner = module.create(100, 2, 64)
    clocks = owner.extra_array()[2 * STEAL_MAX * 2 :]  # per thread: pops, a victim's seen
    return module, wl, owner, clocks


@pytest.mark.parametrize("victim_moves", [False, True])
def test_a_heap_takes_the_smaller_keys_of_a_stalled_owner_and_leaves_a_running_one_alone(
    victim_moves,
):
    """Thread 0 holds keys 1000+, thread 1 (the victim) keys 10+. Thread 0 looks at thread 1
    twice, ``PEEK_EVERY`` pops apart: if thread 1 popped nothing in between (preempted), the
    second look takes a batch of its smallest keys; if it popped (running), nothing is taken
    and thread 0 keeps to its own heap."""
    module, wl, owner, clocks = _ptwb_pair()
    meta = wl[0]
    row = new_counters(1)[0]
    pop_one = _pops_until_found(module.pop)
    try:
        for k in range(200):
            heap_push(meta, 0, 1000 + k, k)
        for k in range(20):
            heap_push(meta, 1, 10 + k, 500 + k)
        keys = []
        for _ in range(2 * PEEK_EVERY):  # looks at pops PEEK_EVERY and 2 * PEEK_EVERY
            if victim_moves:
                clocks[sync.PAD] += 1  # thread 1 pops between every two of thread 0's
            keys.append(pop_one(wl, row.ctypes.data, 1)[1])
    finally:
        owner.close()
    if victim_moves:
        assert keys == list(range(1000, 1000 + 2 * PEEK_EVERY)) and row[STEALS] == 0
    else:
        assert keys[: 2 * PEEK_EVERY - 1] == list(range(1000, 1000 + 2 * PEEK_EVERY - 1))
        assert keys[-1] == 10 and row[STEALS] == 1  # the victim's smallest, then its batch


def test_a_heaps_least_hint_is_its_smallest_key_through_pushes_and_pops():
    rng = np.random.default_rng(7)
    stores = Stores(1, 4)  # grows on the way
    held = []
    try:
        for step in range(2000):
            if held and rng.random() < 0.4:
                key = heap_pop(stores.meta, 0)[1]
                assert key == min(held)
                held.remove(key)
            else:
                key = int(rng.integers(0, 500))
                heap_push(stores.meta, 0, key, step)
                held.append(key)
            if held:
                assert least_hint(stores.meta, 0) == min(held)
    finally:
        stores.close()


def test_an_idle_workers_sleep_doubles_from_its_first_up_to_its_cap():
    start = sync.YIELDS_BEFORE_SLEEP
    got = [sync.sleep_length(start + k) for k in range(7)]
    assert got == [50, 100, 200, 400, 800, 800, 800]
    assert sync.sleep_length(start + 10**6) == sync.SLEEP_MAX_US
