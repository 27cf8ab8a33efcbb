"""A C peer of the 0-1 knapsack's two-row DP, run in-process through ctypes.

The same loop as :func:`llpbench.problems.knapsack.knapsack_two_rows` (two rows used in
turn, the take term read from the row above, so the inner loop has no dependence and the
compiler vectorises it), compiled by the system C compiler at ``-O3 -march=native``: what
numba's loop is measured against, so that a gap to the LLP rows is not numba's alone.

The shared library is built once per source text into the kernel cache
(:func:`llpbench.llp.compile.kernel_dir`, a name with the source's digest, written through
:func:`llpbench.io.atomic_path`), and loaded beside it; building it is the peer's
"compilation" (timed apart, as numba's is). Without a C compiler (``$CC``, ``cc``, ``gcc``
or ``clang``) :func:`available` is False and the knapsack lists no C peer. ctypes releases
the GIL for the call; ``seconds`` covers the call only (the rows are allocated inside it:
two rows of C + 1 int64, 1.6 MB at capacity 10^5, against a 10^9-cell loop).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import time
from functools import cache
from pathlib import Path

import numpy as np

from llpbench.baselines import BaselineResult
from llpbench.errors import SpecError

NAME = "c-two-rows"

SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* best[c] for c = 0..width-1 after every item: the 0-1 knapsack's last DP row. */
int knapsack_two_rows(const int64_t *weights, const int64_t *values, int64_t items,
                      int64_t width, int64_t *best) {
    int64_t *rows = malloc(2 * (size_t)width * sizeof(int64_t));
    if (!rows) return -1;
    memset(rows, 0, 2 * (size_t)width * sizeof(int64_t));
    for (int64_t i = 0; i < items; i++) {
        const int64_t *restrict src = rows + (i & 1) * width;
        int64_t *restrict dst = rows + ((i + 1) & 1) * width;
        int64_t w = weights[i] < width ? weights[i] : width, v = values[i];
        for (int64_t c = 0; c < w; c++) dst[c] = src[c];
        for (int64_t c = w; c < width; c++) {
            int64_t take = src[c - w] + v, keep = src[c];
            dst[c] = take > keep ? take : keep;
        }
    }
    memcpy(best, rows + (items & 1) * width, (size_t)width * sizeof(int64_t));
    free(rows);
    return 0;
}
"""


def compiler() -> str | None:
    """The C compiler to build with, or None."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


def available() -> bool:
    """Whether the peer can be built here."""
    return compiler() is not None


@cache
def _library() -> tuple[ctypes.CDLL, float]:
    """(the loaded library, seconds spent building it: 0 when it was cached)."""
    from llpbench.io import atomic_path, write_text_atomic
    from llpbench.llp.compile import kernel_dir

    cc = compiler()
    if cc is None:
        raise SpecError("knapsack baseline 'c-two-rows' needs a C compiler (cc, gcc or clang)")
    digest = hashlib.sha256(SOURCE.encode()).hexdigest()[:16]
    lib = Path(kernel_dir()) / f"knapsack_c_{digest}.so"
    built = 0.0
    if not lib.exists():
        src = lib.with_suffix(".c")
        write_text_atomic(src, SOURCE)
        t0 = time.perf_counter()
        with atomic_path(lib) as tmp:
            done = subprocess.run(
                [cc, "-O3", "-march=native", "-shared", "-fPIC", "-o", str(tmp), str(src)],
                capture_output=True, text=True, check=False,
            )
            if done.returncode != 0:
                first = (done.stderr.strip().splitlines() or ["no message"])[0]
                raise SpecError(f"knapsack baseline 'c-two-rows': {cc} failed: {first}")
        built = time.perf_counter() - t0
    handle = ctypes.CDLL(str(lib))
    fn = handle.knapsack_two_rows
    ptr = ctypes.POINTER(ctypes.c_int64)
    fn.argtypes = [ptr, ptr, ctypes.c_int64, ctypes.c_int64, ptr]
    fn.restype = ctypes.c_int
    return handle, built


_BUILT_REPORTED = [False]  # the build's seconds go to the first call's row only


def c_two_rows(weights: np.ndarray, values: np.ndarray, width: int) -> BaselineResult:
    """The last DP row by the C loop (one thread); compile seconds: building the library
    (0 once cached).

    Raises
    ------
    SpecError
        Without a C compiler, or if the compiler fails (one line), or out of memory.
    """
    handle, built = _library()
    built, _BUILT_REPORTED[0] = (0.0 if _BUILT_REPORTED[0] else built), True
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    values = np.ascontiguousarray(values, dtype=np.int64)
    best = np.full(int(width), 0, dtype=np.int64)
    ptr = ctypes.POINTER(ctypes.c_int64)
    args = (weights.ctypes.data_as(ptr), values.ctypes.data_as(ptr), weights.shape[0],
            int(width), best.ctypes.data_as(ptr))
    t0 = time.perf_counter()
    rc = handle.knapsack_two_rows(*args)
    seconds = time.perf_counter() - t0
    if rc != 0:
        raise SpecError(f"knapsack baseline 'c-two-rows': no memory for two rows of {width:,}")
    return BaselineResult(best, seconds, built, NAME, {"threads": 1})
