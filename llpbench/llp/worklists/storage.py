"""Growable ring buffers and binary heaps of ``(key, item)`` pairs for the worklists.

A worklist owns several *stores* (one per thread, or one per bucket). Store ``s`` keeps its
pairs in a ``malloc``'ed int64 buffer of a power-of-two capacity (a ring position is a mask);
its head, size, buffer address and capacity are words of the ``meta`` block at ``s * PAD``.
Everything is reached through int64 addresses, never arrays, so that the hot path touches no
shared reference count (see :mod:`llpbench.llp.rawmem`). Every operation here must run under
the store's lock (see :mod:`llpbench.llp.sync`); only :func:`size_hint` may be read without it.
"""

from __future__ import annotations

import weakref

import numpy as np
from numba import njit

from llpbench.llp.counters import CONTENTION
from llpbench.llp.rawmem import alloc, bump, load_relaxed, peek, poke, release, store_release
from llpbench.llp.sync import PAD, lock_acquire, lock_release

HEAD = 0
SIZE = 1
ADDR = 2
CAP = 3
LEAST = 4  # a heap's smallest key, readable without the lock (see least_hint)
INITIAL_CAPACITY = 256
LAZY_CAPACITY = 4  # the first buffer of a store created empty (capacity 0)


@njit(nogil=True, cache=True)
def _alloc_stores(meta, count, capacity):
    if capacity == 0:  # lazy: each store's first push allocates it (see _grow)
        return True
    for s in range(count):
        buf = alloc(2 * capacity)
        if buf == 0:
            return False
        poke(meta, s * PAD + ADDR, buf)
        poke(meta, s * PAD + CAP, capacity)
    return True


@njit(nogil=True, cache=True)
def _free_stores(meta, count):
    for s in range(count):
        release(peek(meta, s * PAD + ADDR))
        poke(meta, s * PAD + ADDR, 0)


def ring_capacity(capacity: int) -> int:
    """``capacity`` rounded up to a power of two (at least 4): a ring position is then a mask,
    not the integer division a ``%`` by a run-time capacity costs on every push and pop."""
    return 1 << (max(int(capacity), 4) - 1).bit_length()


class Stores:
    """``count`` empty stores and their locks; owns the memory until :meth:`close`.

    ``capacity`` 0 allocates no buffer until a store's first push: for OBIM's bag per
    thread and level (32,768 of them at 32 threads), whose mallocs up front took 0.7 ms of
    every 32-thread solve, most of them never used.

    ``meta`` and ``locks`` are the addresses compiled code uses; the numpy arrays behind them
    live as long as this object, and the element buffers are freed by :meth:`close` (or
    when the object is collected).
    """

    def __init__(self, count: int, capacity: int = INITIAL_CAPACITY, extra_words: int = 0):
        capacity = ring_capacity(capacity) if capacity > 0 else 0
        self.count = count
        self._meta = np.zeros(count * PAD, dtype=np.int64)
        self._locks = np.zeros(count * PAD, dtype=np.int64)
        self._extra = np.zeros(max(extra_words, 1), dtype=np.int64)
        self.meta = self._meta.ctypes.data
        self.locks = self._locks.ctypes.data
        self.extra = self._extra.ctypes.data  # worklist-specific words (scratch, control)
        if not _alloc_stores(self.meta, count, capacity):
            _free_stores(self.meta, count)
            raise MemoryError(f"cannot allocate {count} worklist stores")
        self._finalizer = weakref.finalize(self, _free_stores, self.meta, count)
        self._arrays = (self._meta, self._locks, self._extra)  # kept alive with the finalizer
        self._finalizer.atexit = False

    def extra_array(self) -> np.ndarray:
        return self._extra

    def close(self) -> None:
        """Free the element buffers (idempotent)."""
        self._finalizer()


@njit(nogil=True, cache=True, inline="always")
def size_hint(meta, s):
    """The store's size read without its lock: a hint for stealing and for empty checks."""
    return load_relaxed(meta, s * PAD + SIZE)


@njit(nogil=True, cache=True, inline="always")
def least_hint(meta, s):
    """Heap ``s``'s smallest key read without its lock (meaningful while it is non-empty):
    a thief's view of how urgent a victim's work is, without reaching into its buffer
    (which a growing owner may free)."""
    return load_relaxed(meta, s * PAD + LEAST)


@njit(nogil=True, cache=True)
def _grow(meta, s, ring):
    """Double store ``s``'s capacity (a store created empty gets its first buffer); a ring
    is unrolled so that its head moves to 0."""
    base = s * PAD
    old = peek(meta, base + ADDR)
    cap = peek(meta, base + CAP)
    head = peek(meta, base + HEAD) if ring else 0
    new_cap = 2 * cap if cap > 0 else LAZY_CAPACITY
    new = alloc(2 * new_cap)
    if new == 0:
        raise MemoryError("a worklist store could not grow")
    for i in range(peek(meta, base + SIZE)):
        p = (head + i) & (cap - 1)
        poke(new, 2 * i, peek(old, 2 * p))
        poke(new, 2 * i + 1, peek(old, 2 * p + 1))
    release(old)
    poke(meta, base + ADDR, new)
    poke(meta, base + CAP, new_cap)
    poke(meta, base + HEAD, 0)


@njit(nogil=True, cache=True)
def ring_push(meta, s, key, item):
    """Append ``(key, item)`` at the back of ring ``s``."""
    base = s * PAD
    size = peek(meta, base + SIZE)
    if size == peek(meta, base + CAP):
        _grow(meta, s, True)
    p = (peek(meta, base + HEAD) + size) & (peek(meta, base + CAP) - 1)
    addr = peek(meta, base + ADDR)
    poke(addr, 2 * p, key)
    poke(addr, 2 * p + 1, item)
    store_release(meta, base + SIZE, size + 1)


@njit(nogil=True, cache=True)
def ring_pop(meta, s):
    """Remove the front pair of ring ``s``: ``(found, key, item)``."""
    base = s * PAD
    size = peek(meta, base + SIZE)
    if size == 0:
        return False, 0, 0
    head = peek(meta, base + HEAD)
    addr = peek(meta, base + ADDR)
    key = peek(addr, 2 * head)
    item = peek(addr, 2 * head + 1)
    poke(meta, base + HEAD, (head + 1) & (peek(meta, base + CAP) - 1))
    store_release(meta, base + SIZE, size - 1)
    return True, key, item


@njit(nogil=True, cache=True)
def ring_take(meta, s, dst, most):
    """Move up to ``most`` front pairs of ring ``s`` to the words at address ``dst`` (key,
    item, key, item, ...) with one update of the ring's head and size; return how many."""
    base = s * PAD
    size = peek(meta, base + SIZE)
    n = min(size, most)
    if n <= 0:
        return 0
    head = peek(meta, base + HEAD)
    last = peek(meta, base + CAP) - 1
    addr = peek(meta, base + ADDR)
    for i in range(n):
        p = (head + i) & last
        poke(dst, 2 * i, peek(addr, 2 * p))
        poke(dst, 2 * i + 1, peek(addr, 2 * p + 1))
    poke(meta, base + HEAD, (head + n) & last)
    store_release(meta, base + SIZE, size - n)
    return n


@njit(nogil=True, cache=True)
def heap_push(meta, s, key, item):
    """Insert ``(key, item)`` into min-heap ``s``."""
    base = s * PAD
    size = peek(meta, base + SIZE)
    if size == peek(meta, base + CAP):
        _grow(meta, s, False)
    addr = peek(meta, base + ADDR)
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        pkey = peek(addr, 2 * parent)
        if pkey <= key:
            break
        poke(addr, 2 * i, pkey)
        poke(addr, 2 * i + 1, peek(addr, 2 * parent + 1))
        i = parent
    poke(addr, 2 * i, key)
    poke(addr, 2 * i + 1, item)
    if i == 0:
        store_release(meta, base + LEAST, key)
    store_release(meta, base + SIZE, size + 1)


@njit(nogil=True, cache=True)
def heap_pop(meta, s):
    """Remove the smallest-key pair of min-heap ``s``: ``(found, key, item)``."""
    base = s * PAD
    size = peek(meta, base + SIZE)
    if size == 0:
        return False, 0, 0
    addr = peek(meta, base + ADDR)
    key = peek(addr, 0)
    item = peek(addr, 1)
    size -= 1
    last_key = peek(addr, 2 * size)
    last_item = peek(addr, 2 * size + 1)
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        ckey = peek(addr, 2 * child)
        if child + 1 < size:
            rkey = peek(addr, 2 * child + 2)
            if rkey < ckey:
                child += 1
                ckey = rkey
        if ckey >= last_key:
            break
        poke(addr, 2 * i, ckey)
        poke(addr, 2 * i + 1, peek(addr, 2 * child + 1))
        i = child
    if size > 0:
        poke(addr, 2 * i, last_key)
        poke(addr, 2 * i + 1, last_item)
        store_release(meta, base + LEAST, peek(addr, 0))
    store_release(meta, base + SIZE, size)
    return True, key, item


@njit(nogil=True, cache=True, inline="always")
def locked_ring_push(meta, locks, s, key, item, shared, ctr):
    """:func:`ring_push` under store ``s``'s lock (no lock when not ``shared``)."""
    if shared:
        bump(ctr, CONTENTION, lock_acquire(locks, s * PAD))
    ring_push(meta, s, key, item)
    if shared:
        lock_release(locks, s * PAD)


@njit(nogil=True, cache=True, inline="always")
def locked_ring_take(meta, locks, s, dst, most, shared, ctr):
    """:func:`ring_take` under store ``s``'s lock (no lock when not ``shared``)."""
    if shared:
        bump(ctr, CONTENTION, lock_acquire(locks, s * PAD))
    n = ring_take(meta, s, dst, most)
    if shared:
        lock_release(locks, s * PAD)
    return n
