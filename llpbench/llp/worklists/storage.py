"""Growable ring buffers and binary heaps of ``(key, item)`` pairs for the worklists.

A worklist owns several *stores* (one per thread, or one per bucket). Store ``s`` keeps its
pairs in ``bufs[s]``, a ``(capacity, 2)`` int64 array held in a numba typed ``List`` so that
it can be replaced by a larger one when full; its head and size live in ``meta`` at
``s * PAD``. Every operation here must run under the store's lock (see
:mod:`llpbench.llp.sync`); only :func:`size_hint` may be read without it.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.typed import List

from llpbench.llp.atomics import atomic_load, atomic_store_release
from llpbench.llp.sync import PAD

HEAD = 0
SIZE = 1
INITIAL_CAPACITY = 256


def new_stores(count: int, capacity: int = INITIAL_CAPACITY):
    """``count`` empty stores: ``(bufs, meta, locks)``."""
    bufs = List()
    for _ in range(count):
        bufs.append(np.empty((max(capacity, 4), 2), dtype=np.int64))
    meta = np.zeros(count * PAD, dtype=np.int64)
    locks = np.zeros(count * PAD, dtype=np.int64)
    return bufs, meta, locks


@njit(nogil=True, cache=True, inline="always")
def size_hint(meta, s):
    """The store's size read without its lock: a hint for stealing and for empty checks."""
    return atomic_load(meta, s * PAD + SIZE)


@njit(nogil=True, cache=True)
def _grow_ring(bufs, meta, s):
    buf = bufs[s]
    cap = buf.shape[0]
    head = meta[s * PAD + HEAD]
    size = meta[s * PAD + SIZE]
    new = np.empty((cap * 2, 2), dtype=np.int64)
    for i in range(size):
        p = (head + i) % cap
        new[i, 0] = buf[p, 0]
        new[i, 1] = buf[p, 1]
    bufs[s] = new
    meta[s * PAD + HEAD] = 0


@njit(nogil=True, cache=True)
def ring_push(bufs, meta, s, key, item):
    """Append ``(key, item)`` at the back of ring ``s``."""
    buf = bufs[s]
    size = meta[s * PAD + SIZE]
    if size == buf.shape[0]:
        _grow_ring(bufs, meta, s)
        buf = bufs[s]
    p = (meta[s * PAD + HEAD] + size) % buf.shape[0]
    buf[p, 0] = key
    buf[p, 1] = item
    atomic_store_release(meta, s * PAD + SIZE, size + 1)


@njit(nogil=True, cache=True)
def ring_pop(bufs, meta, s):
    """Remove the front pair of ring ``s``: ``(found, key, item)``."""
    size = meta[s * PAD + SIZE]
    if size == 0:
        return False, 0, 0
    buf = bufs[s]
    head = meta[s * PAD + HEAD]
    key = buf[head, 0]
    item = buf[head, 1]
    meta[s * PAD + HEAD] = (head + 1) % buf.shape[0]
    atomic_store_release(meta, s * PAD + SIZE, size - 1)
    return True, key, item


@njit(nogil=True, cache=True)
def heap_push(bufs, meta, s, key, item):
    """Insert ``(key, item)`` into min-heap ``s``."""
    size = meta[s * PAD + SIZE]
    buf = bufs[s]
    if size == buf.shape[0]:
        new = np.empty((buf.shape[0] * 2, 2), dtype=np.int64)
        new[:size] = buf[:size]
        bufs[s] = new
        buf = new
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if buf[parent, 0] <= key:
            break
        buf[i, 0] = buf[parent, 0]
        buf[i, 1] = buf[parent, 1]
        i = parent
    buf[i, 0] = key
    buf[i, 1] = item
    atomic_store_release(meta, s * PAD + SIZE, size + 1)


@njit(nogil=True, cache=True)
def heap_pop(bufs, meta, s):
    """Remove the smallest-key pair of min-heap ``s``: ``(found, key, item)``."""
    size = meta[s * PAD + SIZE]
    if size == 0:
        return False, 0, 0
    buf = bufs[s]
    key = buf[0, 0]
    item = buf[0, 1]
    size -= 1
    last_key = buf[size, 0]
    last_item = buf[size, 1]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and buf[child + 1, 0] < buf[child, 0]:
            child += 1
        if buf[child, 0] >= last_key:
            break
        buf[i, 0] = buf[child, 0]
        buf[i, 1] = buf[child, 1]
        i = child
    if size > 0:
        buf[i, 0] = last_key
        buf[i, 1] = last_item
    atomic_store_release(meta, s * PAD + SIZE, size)
    return True, key, item
