"""One module per LLP problem: formulation, kernels, reference answer and baseline.

:data:`PROBLEMS` maps the CLI spelling of each problem to its module, in one place.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from llpbench.errors import SpecError, UnknownNameError
from llpbench.graphs.graph import Graph
from llpbench.llp.contract import Instance

PROBLEMS: dict[str, str] = {
    "sssp": "llpbench.problems.sssp",
    "bfs": "llpbench.problems.bfs",
    "stable-marriage": "llpbench.problems.stable_marriage",
    "job-scheduling": "llpbench.problems.job_scheduling",
    "knapsack": "llpbench.problems.knapsack",
    "transitive-closure": "llpbench.problems.transitive_closure",
    "reduction": "llpbench.problems.reduction",
}


def problem_module(name: str) -> ModuleType:
    """The module of problem ``name`` (CLI spelling), or a clear error."""
    if name not in PROBLEMS:
        raise UnknownNameError("problem", name, sorted(PROBLEMS))
    return importlib.import_module(PROBLEMS[name])


def compared_with_default(name: str) -> bool:
    """Whether tables compare problem ``name``'s LLP rows with its default baseline only
    (``COMPARED_WITH_DEFAULT``), rather than with its fastest baseline."""
    return name in PROBLEMS and bool(getattr(problem_module(name), "COMPARED_WITH_DEFAULT", False))


def build_instance(
    module: ModuleType,
    *,
    graph: Graph | None = None,
    size: int | None = None,
    seed: int = 0,
    source: int = 0,
    variant: str | None = None,
    params: dict | None = None,
) -> Instance:
    """The instance of ``module``'s problem for a graph (and source) or a size (and seed),
    drawn from ``variant`` (one of ``module.VARIANTS``; None: the default), with the tuned
    ``params`` of :mod:`llpbench.problems.tuned` (only problems with ``TUNED`` take them).

    Raises
    ------
    SpecError
        If the problem needs a graph and none was given (or a size and none was given), or the
        source is not a vertex of the graph.
    """
    kind = module.INPUT
    if kind == "graph" and graph is None:
        raise SpecError(f"problem {module.NAME!r} needs a graph (--graph NAME|PATH)")
    if kind == "size" and graph is None and size is None:
        raise SpecError(f"problem {module.NAME!r} needs --size N (or a graph where it takes one)")
    if graph is not None and kind == "graph" and not 0 <= source < graph.n:
        raise SpecError(f"source {source} is not a vertex of {graph.name} (0..{graph.n - 1})")
    options: dict = {}
    if variant is not None:
        options["variant"] = variant
    if params:
        options["params"] = params
    return module.make(graph, size, seed, source, **options)
