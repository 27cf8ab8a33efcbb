"""Choosing Δ for the Δ-stepping baseline: tuned once per graph family, then remembered.

As in the paper, Δ is tuned by a grid search over powers of two around the median arc
weight, once per graph family on a representative graph: the largest graph of that family in
the sweep (tuning on a tiny graph would pick a Δ for the wrong scale). The choice is stored in
``<results>/delta.json`` under the representative's name and reused by later runs; an explicit
``--delta`` (or ``delta`` in a config) wins over both.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console

from llpbench.graphs.graph import Graph


class DeltaChooser:
    """Callable ``(graph, source, explicit) -> delta``; tunes on first use per family."""

    def __init__(self, path: Path, console: Console | None = None, reps: int = 3) -> None:
        self.path = path
        self.console = console
        self.reps = reps
        self.representatives: dict[str, Graph] = {}
        self.used: dict[str, dict[str, object]] = {}
        self._offered: dict[str, list[str]] = {}  # family -> graph names not yet loaded
        self._load: Callable[[str], Graph] | None = None

    def consider(self, graph: Graph) -> None:
        """Offer ``graph`` as its family's representative (the largest one wins)."""
        best = self.representatives.get(graph.family)
        if best is None or graph.m > best.m:
            self.representatives[graph.family] = graph

    def offer(self, name: str, load: Callable[[str], Graph]) -> None:
        """Offer the graph ``name`` without loading it: it is loaded (by ``load``) and
        considered only when Δ is first needed for its family. A shard of a sweep thereby
        loads no graph of a family it runs no baseline on, yet picks the same
        representative as the whole sweep would."""
        from llpbench.graphs.registry import resolve

        self._offered.setdefault(resolve(name).family, []).append(name)
        self._load = load

    def __call__(self, graph: Graph, source: int, explicit: float | None) -> float | None:
        if explicit:
            self.used[graph.name] = {"delta": explicit, "from": "given"}
            return explicit
        from llpbench.baselines.delta_tuning import load_tuned, save_tuned, tune_delta
        from llpbench.bench.runner import pick_sources

        for name in self._offered.pop(graph.family, []):
            assert self._load is not None
            self.consider(self._load(name))
        rep = self.representatives.get(graph.family, graph)
        tuned = load_tuned(self.path).get(rep.name)
        if tuned is None:
            with _exclusive(self.path):  # shards of one sweep share the file: tune once
                tuned = load_tuned(self.path).get(rep.name)
                if tuned is None:
                    if self.console:
                        self.console.print(
                            f"tuning Δ for family {graph.family!r} on {rep.name} (grid search)"
                        )
                    result = tune_delta(rep, pick_sources(rep, 1, 42), threads=1,
                                        reps=self.reps)
                    tuned = result.best
                    save_tuned(self.path, rep.name, tuned)
        self.used[graph.name] = {"delta": tuned, "tuned_on": rep.name}
        return tuned


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``<path>.lock`` (created beside it).

    The shards of a sweep (processes on this machine, or nodes sharing the results folder)
    need Δ for the same families: the first to need one tunes it while the others wait, then
    read it, so every shard's baseline runs with the Δ a whole run would have used once.
    Where the filesystem has no locks, each tunes on its own (the rows record each Δ).
    """
    lock = path.with_name(path.name + ".lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fh = open(lock, "a")  # closed below, which releases the lock
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        fh.close()  # closing releases the lock
