"""One module per LLP problem: formulation, kernels, reference answer and baseline.

:data:`PROBLEMS` maps the CLI spelling of each problem to its module, in one place.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from llpbench.errors import UnknownNameError

PROBLEMS: dict[str, str] = {
    "sssp": "llpbench.problems.sssp",
    "bfs": "llpbench.problems.bfs",
}


def problem_module(name: str) -> ModuleType:
    """The module of problem ``name`` (CLI spelling), or a clear error."""
    if name not in PROBLEMS:
        raise UnknownNameError("problem", name, sorted(PROBLEMS))
    return importlib.import_module(PROBLEMS[name])
