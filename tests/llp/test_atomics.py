"""The atomics hold under real contention: several OS threads hammer one array element."""

import threading

import numpy as np
import pytest
from numba import njit

from llpbench.llp.atomics import (
    atomic_cas,
    atomic_exchange,
    atomic_fetch_add,
    atomic_load,
    atomic_max,
    atomic_min,
    atomic_store,
    prefetch,
)

THREADS = 8
ROUNDS = 20_000


@njit(nogil=True)
def _hammer(a, f, tid, rounds):
    for i in range(rounds):
        atomic_fetch_add(a, 0, 1)
        atomic_min(a, 1, -(i * 8 + tid))
        atomic_max(a, 2, i * 8 + tid)
        while True:  # a CAS loop: every increment must land exactly once
            old = atomic_load(a, 3)
            if atomic_cas(a, 3, old, old + 3):
                break
        atomic_min(f, 0, float(rounds - i) + tid / 16)
        atomic_max(f, 1, float(i) + tid / 16)
    atomic_exchange(a, 4, tid + 1)
    atomic_store(a, 5, tid + 1)
    return 0


def _run(dtype):
    a = np.zeros(6, dtype=dtype)
    f = np.array([np.inf, 0.0])
    _hammer(a, f, 0, 1)  # compile before the threads start
    a[:] = 0
    f[:] = [np.inf, 0.0]
    threads = [
        threading.Thread(target=_hammer, args=(a, f, t, ROUNDS)) for t in range(THREADS)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return a, f


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
def test_integer_atomics_lose_no_update_under_contention(dtype):
    a, _ = _run(dtype)
    assert a[0] == THREADS * ROUNDS
    assert a[1] == -((ROUNDS - 1) * 8 + THREADS - 1)
    assert a[2] == (ROUNDS - 1) * 8 + THREADS - 1
    assert a[3] == 3 * THREADS * ROUNDS
    assert 1 <= a[4] <= THREADS and 1 <= a[5] <= THREADS


def test_float_min_max_through_bit_patterns_are_exact():
    _, f = _run(np.int64)
    assert f[0] == 1.0  # rounds - (rounds - 1) + 0 / 16
    assert f[1] == (ROUNDS - 1) + (THREADS - 1) / 16


def test_atomic_min_returns_the_old_value_and_only_lowers():
    @njit
    def go(a):
        first = atomic_min(a, 0, 5)
        second = atomic_min(a, 0, 9)
        return first, second

    a = np.array([7], dtype=np.int64)
    assert go(a) == (7, 5)
    assert a[0] == 5


def test_cas_fails_when_the_value_moved():
    @njit
    def go(a):
        return atomic_cas(a, 0, 1, 2), atomic_cas(a, 0, 0, 2)

    a = np.array([0], dtype=np.int64)
    assert go(a) == (False, True)
    assert a[0] == 2


def test_unsupported_dtype_is_refused_at_compile_time():
    @njit
    def go(a):
        return atomic_fetch_add(a, 0, 1)

    with pytest.raises(Exception, match="atomics"):
        go(np.zeros(2, dtype=np.float32))


@njit(nogil=True)
def _sum_with_prefetch(a, ahead):
    s = 0
    for i in range(a.shape[0]):
        prefetch(a, i + ahead)  # past the end too: a hint never faults
        s += a[i]
    return s


def test_prefetch_is_a_hint_that_changes_nothing():
    a = np.arange(10_000, dtype=np.int64)
    before = a.copy()
    for ahead in (0, 8, 1 << 20):
        assert _sum_with_prefetch(a, ahead) == int(before.sum())
    np.testing.assert_array_equal(a, before)
    asm = _sum_with_prefetch.inspect_asm(_sum_with_prefetch.signatures[0])
    assert "prefetch" in asm or "prfm" in asm  # x86, arm64
    with pytest.raises(Exception, match="1-D array"):
        njit(lambda x: prefetch(x, 0))(np.zeros((2, 2)))
