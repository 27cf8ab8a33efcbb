"""Δ tuning for the Δ-stepping baseline, as in the LLP-FW evaluation, and a small store of
tuned values.

The paper compares its LLP solvers against Δ-stepping *with Δ tuned per graph*: Δ is swept
over powers of two around the median arc weight and the fastest is kept. :func:`tune_delta`
runs that sweep (each Δ timed as the median of ``reps`` repetitions over the given sources,
compilation excluded); :func:`save_tuned` / :func:`load_tuned` keep the winner per graph
family in a small JSON file so that a runner can reuse it instead of tuning again.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from llpbench.baselines.delta_stepping import default_delta, delta_stepping, resolve_delta
from llpbench.errors import FormatError
from llpbench.graphs.graph import Graph

__all__ = ["DeltaTuning", "delta_grid", "tune_delta", "load_tuned", "save_tuned", "K_RANGE"]

K_RANGE = range(-4, 5)  # Δ = median * 2**k


@dataclass
class DeltaTuning:
    """The outcome of a Δ sweep.

    ``grid`` lists ``(delta, median_seconds)`` in increasing Δ; ``best`` is the Δ with the
    smallest median (the smaller Δ on a tie); ``threads``, ``sources`` and ``reps`` say how
    it was measured.
    """

    grid: list[tuple[int | float, float]]
    best: int | float
    threads: int = 1
    sources: list[int] = field(default_factory=list)
    reps: int = 1

    def seconds(self, delta: int | float) -> float:
        """The median time measured for ``delta``."""
        for d, sec in self.grid:
            if d == delta:
                return sec
        raise KeyError(delta)


def delta_grid(graph: Graph, ks: Iterable[int] = K_RANGE) -> list[int | float]:
    """Candidate Δ values: the median arc weight times ``2**k``, increasing, no duplicates.

    Integer weights give integers of at least 1 (so small ``k`` may collapse onto 1); float
    weights give floats.

    Examples
    --------
    >>> import numpy as np
    >>> g = Graph.from_edges(2, np.array([0]), np.array([1]), np.array([8]))
    >>> delta_grid(g, range(-4, 2))
    [1, 2, 4, 8, 16]
    """
    med = default_delta(graph)
    out: set[int | float] = set()
    for k in ks:
        if graph.integer_weights:
            out.add(max(1, int(round(med * 2.0**k))))
        else:
            out.add(float(med) * 2.0**k)
    return sorted(out)


def tune_delta(
    graph: Graph,
    sources: int | Sequence[int],
    *,
    threads: int = 1,
    reps: int = 3,
    grid: Sequence[int | float] | None = None,
) -> DeltaTuning:
    """Time Δ-stepping for every Δ of ``grid`` and return the fastest.

    Parameters
    ----------
    graph : Graph
    sources : int or sequence of int
        Source vertices; one repetition solves from each of them in turn.
    threads : int
        Worker threads of the timed solves.
    reps : int
        Repetitions per Δ; a Δ's time is the median over repetitions of the summed solve
        times (compilation excluded, one untimed warm-up solve first). Each repetition
        goes once round the whole grid.
    grid : sequence, optional
        Δ values to try; default :func:`delta_grid`.

    Returns
    -------
    DeltaTuning
        ``best`` is one of the grid's Δ values (as :func:`resolve_delta` turns it for the
        graph's weights: integers for integer weights).

    Raises
    ------
    ValueError
        On an empty grid or source list, ``reps < 1``, or a Δ that is not positive.
    """
    if isinstance(sources, int | np.integer):
        srcs = [int(sources)]
    else:
        srcs = [int(s) for s in sources]
    if not srcs:
        raise ValueError("tune_delta needs at least one source")
    if reps < 1:
        raise ValueError(f"reps must be at least 1, got {reps}")
    deltas = delta_grid(graph) if grid is None else list(grid)
    if not deltas:
        raise ValueError("tune_delta needs a non-empty grid")
    # the Δ values actually used (integer weights: floor, at least 1), without duplicates
    used: list[int | float] = []
    for d in deltas:
        u = resolve_delta(graph, d)
        if u not in used:
            used.append(u)
    # warm-up: compile (or load from the cache) and touch the graph once
    delta_stepping(graph, srcs[0], threads=threads, delta=used[0])
    # repetitions go round the whole grid, so that a burst of load from other processes
    # slows every Δ alike instead of all the repetitions of one
    times: dict[int | float, list[float]] = {d: [] for d in used}
    for _ in range(reps):
        for d in used:
            times[d].append(
                sum(delta_stepping(graph, s, threads=threads, delta=d).seconds for s in srcs)
            )
    rows = sorted((d, statistics.median(t)) for d, t in times.items())
    best = min(rows, key=lambda r: (r[1], r[0]))[0]
    return DeltaTuning(grid=rows, best=best, threads=threads, sources=srcs, reps=reps)


# --------------------------------------------------------------------------- remembered Δ


def load_tuned(path: str | os.PathLike[str]) -> dict[str, int | float]:
    """The tuned Δ per graph family stored at ``path`` (empty if the file does not exist).

    Raises
    ------
    FormatError
        If the file is not a JSON object mapping names to positive numbers.
    """
    p = Path(path)
    try:
        text = p.read_text()
    except FileNotFoundError:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(p, exc.lineno, f"invalid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise FormatError(p, None, "expected a JSON object mapping graph families to Δ")
    out: dict[str, int | float] = {}
    for key, value in data.items():
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value <= 0
        ):
            raise FormatError(p, None, f"Δ of {key!r} must be a positive number, got {value!r}")
        out[str(key)] = value
    return out


def save_tuned(path: str | os.PathLike[str], family: str, delta: int | float) -> None:
    """Record ``delta`` for ``family`` in the JSON file at ``path``, keeping other entries.

    The file is replaced atomically (a temporary file in the same folder, then
    ``os.replace``), so a reader never sees a half-written file and no temporary is left.
    """
    if isinstance(delta, bool) or not math.isfinite(float(delta)) or delta <= 0:
        raise ValueError(f"delta must be a positive number, got {delta!r}")
    p = Path(path)
    data = load_tuned(p)
    data[str(family)] = int(delta) if isinstance(delta, int | np.integer) else float(delta)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        os.chmod(tmp, 0o644)
        with os.fdopen(fd, "w") as fh:
            json.dump(dict(sorted(data.items())), fh, indent=2)
            fh.write("\n")
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
