"""The Δ a run uses for a graph: its family's, from the cache or tuned by the fixed rule.

Δ is a property of the graph family and the thread count, not of the sweep (see
:mod:`llpbench.baselines.delta.family`): each family is tuned on its fixed reference graph
from ``configs/delta.toml``, by a fixed rule, once per thread count, and cached in the
datasets cache with the llpbench version. SSSP declares :func:`family_delta_for` as the rule
of its tuned parameter ``delta`` (``llpbench.problems.sssp.TUNED``), so that ``llpbench run``
and ``llpbench solve`` look Δ up alike; an explicit ``--delta`` (or ``delta`` in a config)
wins. Every row records the Δ it used in its ``delta`` column; the run's ``meta.json``
records where each came from (``deltas``, by ``graph@threads``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from llpbench.graphs.graph import Graph
from llpbench.io import exclusive_beside

if TYPE_CHECKING:
    from llpbench.baselines.delta.family import GridSolver

__all__ = ["family_delta_for"]


def family_delta_for(
    graph: Graph,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    say: Callable[[str], None] | None = None,
    threads: int = 1,
    solver: GridSolver | None = None,
) -> tuple[int | float, dict[str, Any]]:
    """Δ of ``graph``'s family at ``threads`` (cached, else tuned now) and where it came from:
    Δ-stepping's, or ``solver``'s (the same rule timing another solver).

    Shards of one sweep (processes here, or nodes sharing the cache) need Δ for the same
    families: the first to need one tunes it while the others wait, then read it.
    """
    from llpbench.baselines.delta.family import cache_path, family_delta

    what = "Δ" if solver is None else (solver.what or f"Δ for {solver.name}")

    def on_tune(family: str, reference: str) -> None:
        if say is not None:
            say(f"tuning {what} for family {family!r} on {reference} for {threads} thread(s) "
                "(fixed rule, configs/delta.toml; cached afterwards)")

    with exclusive_beside(cache_path(cache_dir)):
        fam = family_delta(
            graph, cache_dir=cache_dir, on_tune=on_tune, threads=threads, solver=solver
        )
    return fam.delta, {
        "family": fam.family,
        "tuned_on": fam.reference,
        "tuned_threads": fam.threads,
        "tied": fam.tied,
        "key": fam.key,
        "measured": fam.measured,
        **({"solver": fam.solver} if fam.solver else {}),
    }
