"""One module per LLP problem: formulation, kernels, reference answer and baseline.

:data:`PROBLEMS` maps the CLI spelling of each problem to its module, in one place: the
runner, ``solve``, the self-test, the contract test, the CLI's help (``--problem``) and
``llpbench list problems`` read it, so adding a problem is its module plus one entry here.
This module imports no kernel (numba only where a problem module is imported), so that the
CLI can name the problems in its help without loading the compiler.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import TYPE_CHECKING

from llpbench.errors import NegativeWeightError, SpecError, UnknownNameError

if TYPE_CHECKING:
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


def problem_names() -> str:
    """The problems' CLI spellings as help texts write them: ``sssp | bfs | ...``."""
    return " | ".join(PROBLEMS)


def problem_summary(name: str, limit: int = 72) -> str:
    """One line on problem ``name``: its module docstring's opening phrase (up to the first
    parenthesis, colon or full stop), at most ``limit`` characters."""
    doc = " ".join((problem_module(name).__doc__ or name).strip().split("\n\n")[0].split())
    phrase = re.split(r" \(|: |\. ", doc, maxsplit=1)[0].rstrip(".")
    return phrase if len(phrase) <= limit else phrase[: limit - 3].rstrip() + "..."


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
    check_input(module, graph, size=size if graph is None else None, variant=variant)
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


def check_input(
    module: ModuleType, graph: Graph | None = None, *, size: int | None = None,
    variant: str | None = None,
) -> Graph | None:
    """Refuse, in one line and before anything is allocated (or a run folder exists), an
    input ``module``'s problem cannot take; return ``graph``.

    - A graph whose file weights are negative (read with them set aside, see
      ``ReadOptions.negative``), for a problem that declares ``USES_WEIGHTS`` (SSSP); BFS
      and the others read the arcs only, and take it.
    - A size whose instance would not fit in memory: the module's ``instance_bytes(size,
      variant)`` (a lower bound of the peak) against ``--max-memory`` or the memory
      available (:func:`llpbench.graphs.limits.memory_bound`).
    """
    if graph is not None:
        note = graph.provenance.get("negative_weights")
        if note and getattr(module, "USES_WEIGHTS", False):
            raise NegativeWeightError(
                f"{note}; {module.NAME} needs non-negative weights: pass --weights unit (or "
                "another rule) to replace them (bfs ignores weights)"
            )
        return graph
    estimate = getattr(module, "instance_bytes", None)
    if size is None or size < 1 or estimate is None:
        return None
    from llpbench.graphs.limits import MAX_MEMORY_ENV, human_bytes, memory_bound

    need, (bound, explicit) = estimate(int(size), variant), memory_bound()
    if need > bound:
        source = f"the {MAX_MEMORY_ENV} bound" if explicit else "the memory available"
        raise SpecError(
            f"{module.NAME} --size {int(size):,}: its instance would need at least "
            f"{human_bytes(need)}, more than {source} ({human_bytes(bound)}); give a smaller "
            "--size (or --max-memory SIZE to allow more)"
        )
    return None
