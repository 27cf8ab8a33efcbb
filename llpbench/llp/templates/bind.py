"""Placeholders that :mod:`llpbench.llp.compile` replaces in each generated solver.

A template imports ``PROBLEM`` and ``WORKLIST`` from here; the generated copy imports the
problem module (which provides the LLP contract) and the worklist module instead.
"""

from types import ModuleType

PROBLEM: ModuleType | None = None
WORKLIST: ModuleType | None = None
