"""Choosing Δ for the Δ-stepping baseline: tuned once per graph family, then remembered.

As in the paper, Δ is tuned by a grid search over powers of two around the median arc
weight, once per graph family on the first (representative) graph of that family a run
meets; the choice is stored in ``<results>/delta.json`` and reused by later runs. An explicit
``--delta`` (or ``delta`` in a config) wins over both.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from llpbench.graphs.graph import Graph


class DeltaChooser:
    """Callable ``(graph, source, explicit) -> delta`` that tunes on first use per family."""

    def __init__(self, path: Path, console: Console | None = None, reps: int = 3) -> None:
        self.path = path
        self.console = console
        self.reps = reps
        self.used: dict[str, float] = {}

    def __call__(self, graph: Graph, source: int, explicit: float | None) -> float | None:
        if explicit:
            self.used[graph.family] = explicit
            return explicit
        from llpbench.baselines.delta_tuning import load_tuned, save_tuned, tune_delta

        tuned = load_tuned(self.path).get(graph.family)
        if tuned is None:
            if self.console:
                self.console.print(
                    f"tuning Δ for family {graph.family!r} on {graph.name} (grid search)"
                )
            result = tune_delta(graph, [max(source, 0)], threads=1, reps=self.reps)
            tuned = result.best
            save_tuned(self.path, graph.family, tuned)
        self.used[graph.family] = tuned
        return tuned
