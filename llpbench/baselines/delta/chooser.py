"""Choosing Δ for the Δ-stepping baseline (and the bucketed worklist's bucket width) in a sweep.

Δ is a property of the graph family and the thread count, not of the sweep (see
:mod:`llpbench.baselines.delta.family`): each family is tuned on its fixed reference graph
from ``configs/delta.toml``, by a fixed rule, once per thread count, and cached in the
datasets cache with the llpbench version; a sweep only looks it up (tuning it if the cache
has no valid entry). An explicit ``--delta`` (or ``delta`` in a config) wins. Every row
records the Δ it used in its ``delta`` column; the run's ``meta.json`` records where each
came from (``deltas``, by ``graph@threads``).
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console

from llpbench.graphs.graph import Graph


class DeltaChooser:
    """Callable ``(graph, source, explicit, threads=1) -> delta``; looks up (or tunes) per
    family and thread count."""

    def __init__(
        self, cache_dir: Path | None = None, console: Console | None = None
    ) -> None:
        self.cache_dir = cache_dir
        self.console = console
        self.used: dict[str, dict[str, object]] = {}
        self._by_graph: dict[tuple[str, int], int | float] = {}

    def __call__(
        self, graph: Graph, source: int, explicit: float | None, threads: int = 1
    ) -> float | None:
        name = f"{graph.name}@{threads}"
        if explicit:
            self.used[name] = {"delta": explicit, "from": "given"}
            return explicit
        if (graph.name, threads) in self._by_graph:
            return self._by_graph[graph.name, threads]
        from llpbench.baselines.delta.family import cache_path, family_delta

        def say(family: str, reference: str) -> None:
            if self.console:
                self.console.print(
                    f"tuning Δ for family {family!r} on {reference} for {threads} thread(s) "
                    "(fixed rule, configs/delta.toml; cached afterwards)"
                )

        # Shards of one sweep (processes here, or nodes sharing the cache) need Δ for the
        # same families: the first to need one tunes it while the others wait, then read it.
        with _exclusive(cache_path(self.cache_dir)):
            fam = family_delta(graph, cache_dir=self.cache_dir, on_tune=say, threads=threads)
        self._by_graph[graph.name, threads] = fam.delta
        self.used[name] = {
            "delta": fam.delta,
            "family": fam.family,
            "tuned_on": fam.reference,
            "tuned_threads": fam.threads,
            "tied": fam.tied,
            "key": fam.key,
            "measured": fam.measured,
        }
        return fam.delta


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``<path>.lock`` (created beside it) while Δ is looked up or
    tuned, so that one process tunes a family and the others reuse its cached Δ. Where the
    filesystem has no locks, each tunes on its own (the rows record each Δ)."""
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
        fh.close()
