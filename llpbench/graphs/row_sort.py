"""Sorting one row of a CSR being built, by head and then weight, in place: the step after
the arcs have been placed in their tails' rows (:mod:`llpbench.graphs.csr_parallel`).

A row placed in file order is often sorted already (a file written sorted, as GAP's and ours
are) or made of a few sorted runs (a sorted file read as undirected: the twins of smaller
tails, its own arcs, the twins of larger ones), so it is checked first, merged where it
holds a few runs, and sorted only otherwise.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def _before(h1, w1, h2, w2):
    return h1 < h2 or (h1 == h2 and w1 < w2)


@njit(cache=True, nogil=True)
def _merge_runs(heads, ws, lo, hi):
    """Sort a row made of a few sorted runs by merging them (linear per merge round); False,
    touching nothing, when it holds more than 8. A sorted file read as undirected gives rows
    of three runs: the twins of smaller tails, its own arcs, the twins of larger ones."""
    bounds = np.empty(10, np.int64)
    runs = 0
    bounds[0] = lo
    for q in range(lo + 1, hi):
        if _before(heads[q], ws[q], heads[q - 1], ws[q - 1]):
            runs += 1
            if runs >= 8:
                return False
            bounds[runs] = q
    runs += 1
    bounds[runs] = hi
    tmp_h = np.empty(hi - lo, heads.dtype)
    tmp_w = np.empty(hi - lo, ws.dtype)
    while runs > 1:
        merged = 0
        for r in range(0, runs, 2):
            a, mid = bounds[r], bounds[r + 1]
            b = bounds[r + 2] if r + 1 < runs else mid
            i, j, d = a, mid, a - lo
            while i < mid and j < b:
                if _before(heads[j], ws[j], heads[i], ws[i]):
                    tmp_h[d], tmp_w[d] = heads[j], ws[j]
                    j += 1
                else:
                    tmp_h[d], tmp_w[d] = heads[i], ws[i]
                    i += 1
                d += 1
            while i < mid:
                tmp_h[d], tmp_w[d] = heads[i], ws[i]
                i += 1
                d += 1
            while j < b:
                tmp_h[d], tmp_w[d] = heads[j], ws[j]
                j += 1
                d += 1
            bounds[merged] = a
            merged += 1
        bounds[merged] = hi
        runs = merged
        heads[lo:hi] = tmp_h
        ws[lo:hi] = tmp_w
    return True


@njit(cache=True, nogil=True)
def sort_row(heads, ws, lo, hi, pack):
    """Sort ``heads[lo:hi]`` (and ``ws`` alongside) by head, then weight: insertion sort for a
    short row; for a long one one sort of ``head << 31 | weight`` keys where ``pack`` (weights
    integers in 0 .. 2^31 - 1), else two stable merge sorts; nothing for a row already sorted."""
    ordered = True
    for q in range(lo + 1, hi):
        if heads[q] < heads[q - 1] or (heads[q] == heads[q - 1] and ws[q] < ws[q - 1]):
            ordered = False
            break
    if ordered:
        return
    if hi - lo > 32 and _merge_runs(heads, ws, lo, hi):
        return
    if hi - lo <= 32:
        for q in range(lo + 1, hi):
            h, w = heads[q], ws[q]
            r = q - 1
            while r >= lo and (heads[r] > h or (heads[r] == h and ws[r] > w)):
                heads[r + 1] = heads[r]
                ws[r + 1] = ws[r]
                r -= 1
            heads[r + 1] = h
            ws[r + 1] = w
        return
    if pack:
        keys = np.empty(hi - lo, np.int64)
        for q in range(hi - lo):
            keys[q] = (np.int64(heads[lo + q]) << 31) | np.int64(ws[lo + q])
        keys.sort()
        for q in range(hi - lo):
            heads[lo + q] = keys[q] >> 31
            ws[lo + q] = keys[q] & 0x7FFFFFFF
        return
    by_weight = np.argsort(ws[lo:hi], kind="mergesort")  # then by head, stably
    seg_h = heads[lo:hi][by_weight]
    seg_w = ws[lo:hi][by_weight]
    order = np.argsort(seg_h, kind="mergesort")
    for q in range(hi - lo):
        heads[lo + q] = seg_h[order[q]]
        ws[lo + q] = seg_w[order[q]]


@njit(cache=True, nogil=True)
def first_of_each_head(heads, ws, lo, hi):
    """In a row sorted by head then weight, move the first (lightest) arc to each head to the
    row's front; their count."""
    d = lo
    for q in range(lo, hi):
        if q == lo or heads[q] != heads[q - 1]:
            heads[d] = heads[q]
            ws[d] = ws[q]
            d += 1
    return d - lo


@njit(cache=True, nogil=True)
def sorted_unique(row, lo, hi):
    """Sort the ids ``row[lo:hi]`` in place (insertion for a short row, numba's sort for a
    long one) and move its distinct values to its front; their count."""
    if hi - lo <= 16:
        for q in range(lo + 1, hi):
            x = row[q]
            r = q - 1
            while r >= lo and row[r] > x:
                row[r + 1] = row[r]
                r -= 1
            row[r + 1] = x
    else:
        row[lo:hi].sort()
    d = lo
    for q in range(lo, hi):
        if q == lo or row[q] != row[q - 1]:
            row[d] = row[q]
            d += 1
    return d - lo
