"""The Δ a run uses for a graph: its family's, from the cache or tuned by the fixed rule.

Δ is a property of the graph family, not of the sweep (see
:mod:`llpbench.baselines.delta.family`): each family is tuned once, on its fixed reference
graph from ``configs/delta.toml``, by a fixed rule, and cached in the datasets cache with the
llpbench version. SSSP declares :func:`family_delta_for` as the rule of its tuned parameter
``delta`` (``llpbench.problems.sssp.TUNED``), so that ``llpbench run`` and ``llpbench solve``
look Δ up alike; an explicit ``--delta`` (or ``delta`` in a config) wins. Every row records
the Δ it used in its ``delta`` column; the run's ``meta.json`` records where each came from.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from llpbench.graphs.graph import Graph

__all__ = ["family_delta_for"]


def family_delta_for(
    graph: Graph,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    say: Callable[[str], None] | None = None,
) -> tuple[int | float, dict[str, Any]]:
    """Δ of ``graph``'s family (cached, else tuned now) and where it came from.

    Shards of one sweep (processes here, or nodes sharing the cache) need Δ for the same
    families: the first to need one tunes it while the others wait, then read it.
    """
    from llpbench.baselines.delta.family import cache_path, family_delta

    def on_tune(family: str, reference: str) -> None:
        if say is not None:
            say(f"tuning Δ for family {family!r} on {reference} (fixed rule, "
                "configs/delta.toml; cached afterwards)")

    with _exclusive(cache_path(cache_dir)):
        fam = family_delta(graph, cache_dir=cache_dir, on_tune=on_tune)
    return fam.delta, {
        "family": fam.family,
        "tuned_on": fam.reference,
        "tied": fam.tied,
        "key": fam.key,
        "measured": fam.measured,
    }


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
