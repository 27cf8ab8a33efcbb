"""The splitmix64 finaliser (Steele, Lea and Flood 2014) and its constants: the counter-based
hash from which the generators draw graphs and :mod:`.weights` draws arc weights, written
once so that both draw from the same function.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
S27, S30, S31 = np.uint64(27), np.uint64(30), np.uint64(31)


@njit(cache=True, inline="always")
def mix(z):
    """The splitmix64 finaliser on a uint64."""
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)
