"""Growable ring buffers and binary heaps of ``(key, item)`` pairs for the worklists.

A worklist owns several *stores* (one per thread, or one per bucket). Store ``s`` keeps its
pairs in an int64 buffer owned by ``bufs[s]`` (a numba typed ``List``, so that a full buffer
can be replaced by one twice as large) and reached through its address (see
:mod:`llpbench.llp.rawmem`); head, size, address and capacity live in ``meta`` at
``s * PAD``. Every operation here must run under the store's lock (see
:mod:`llpbench.llp.sync`); only :func:`size_hint` may be read without it.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.typed import List

from llpbench.llp.atomics import atomic_load, atomic_store_release
from llpbench.llp.rawmem import address_of, peek, poke
from llpbench.llp.sync import PAD

HEAD = 0
SIZE = 1
ADDR = 2
CAP = 3
INITIAL_CAPACITY = 256


def new_stores(count: int, capacity: int = INITIAL_CAPACITY):
    """``count`` empty stores: ``(bufs, meta, locks)``."""
    capacity = max(int(capacity), 4)
    bufs = List()
    meta = np.zeros(count * PAD, dtype=np.int64)
    for s in range(count):
        buf = np.empty(2 * capacity, dtype=np.int64)
        bufs.append(buf)
        meta[s * PAD + ADDR] = buf.ctypes.data
        meta[s * PAD + CAP] = capacity
    locks = np.zeros(count * PAD, dtype=np.int64)
    return bufs, meta, locks


@njit(nogil=True, cache=True, inline="always")
def size_hint(meta, s):
    """The store's size read without its lock: a hint for stealing and for empty checks."""
    return atomic_load(meta, s * PAD + SIZE)


@njit(nogil=True, cache=True)
def _grow(bufs, meta, s, ring):
    """Double store ``s``'s capacity; a ring is unrolled so that its head moves to 0."""
    base = s * PAD
    old = meta[base + ADDR]
    cap = meta[base + CAP]
    head = meta[base + HEAD] if ring else 0
    new = np.empty(4 * cap, dtype=np.int64)
    for i in range(meta[base + SIZE]):
        p = (head + i) % cap
        new[2 * i] = peek(old, 2 * p)
        new[2 * i + 1] = peek(old, 2 * p + 1)
    bufs[s] = new  # the list keeps the new buffer alive and releases the old one
    meta[base + ADDR] = address_of(new)
    meta[base + CAP] = 2 * cap
    meta[base + HEAD] = 0


@njit(nogil=True, cache=True)
def ring_push(bufs, meta, s, key, item):
    """Append ``(key, item)`` at the back of ring ``s``."""
    base = s * PAD
    size = meta[base + SIZE]
    if size == meta[base + CAP]:
        _grow(bufs, meta, s, True)
    p = (meta[base + HEAD] + size) % meta[base + CAP]
    addr = meta[base + ADDR]
    poke(addr, 2 * p, key)
    poke(addr, 2 * p + 1, item)
    atomic_store_release(meta, base + SIZE, size + 1)


@njit(nogil=True, cache=True)
def ring_pop(bufs, meta, s):
    """Remove the front pair of ring ``s``: ``(found, key, item)``."""
    base = s * PAD
    size = meta[base + SIZE]
    if size == 0:
        return False, 0, 0
    head = meta[base + HEAD]
    addr = meta[base + ADDR]
    key = peek(addr, 2 * head)
    item = peek(addr, 2 * head + 1)
    meta[base + HEAD] = (head + 1) % meta[base + CAP]
    atomic_store_release(meta, base + SIZE, size - 1)
    return True, key, item


@njit(nogil=True, cache=True)
def heap_push(bufs, meta, s, key, item):
    """Insert ``(key, item)`` into min-heap ``s``."""
    base = s * PAD
    size = meta[base + SIZE]
    if size == meta[base + CAP]:
        _grow(bufs, meta, s, False)
    addr = meta[base + ADDR]
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
    atomic_store_release(meta, base + SIZE, size + 1)


@njit(nogil=True, cache=True)
def heap_pop(bufs, meta, s):
    """Remove the smallest-key pair of min-heap ``s``: ``(found, key, item)``."""
    base = s * PAD
    size = meta[base + SIZE]
    if size == 0:
        return False, 0, 0
    addr = meta[base + ADDR]
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
    atomic_store_release(meta, base + SIZE, size)
    return True, key, item
