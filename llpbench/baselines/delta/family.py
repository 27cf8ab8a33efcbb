"""Δ for the Δ-stepping baseline as a property of the graph family, chosen by a fixed rule.

Tuning Δ on whatever graphs a sweep happens to hold, with wall-clock medians on a shared
machine, gave different Δ for the same family from one sweep to the next (8 in one, 128 in
another). Here the choice depends on nothing but the family:

1. **Where**: the family's fixed reference graph (``configs/delta.toml``, ``[families]``);
   a family without one is tuned on the graph itself.
2. **What is timed**: Δ-stepping over a fixed grid (the median arc weight times ``2**k``),
   from fixed sources, in ``rounds`` interleaved rounds (each round solves every Δ and
   source once, so a burst of load hits all Δ alike), at each thread count a row needs
   (:meth:`DeltaRule.tuned_threads`: the row's own count up to the machine's cores, or the
   rule's stated set). The best Δ moves with the thread count (fewer, wider buckets pay
   fewer barriers: on a road network one thread is flat from 16 to 2048 while two want
   512-2048), so one Δ tuned at one thread handicaps the baseline at every other. The clock
   at one thread is the solving thread's CPU time (``BaselineResult.cpu_seconds``), which
   other processes' load moves far less than wall time; above one thread, wall time.
3. **The rule** (:func:`choose_delta`, deterministic given the timings): a Δ's statistic is
   the mean over sources of its fastest round (load from other processes only adds time, so
   the fastest is the least disturbed; on this shared machine it moved far less from run
   to run than the medians, which are printed beside it); the Δ within
   ``tolerance`` of the best statistic, in the unbroken run of grid points around the best,
   are *tied*; among them the one nearest in log2 to the prior Δ0 = mean weight / mean
   out-degree (Meyer and Sanders' Δ = Θ(1/d)) wins, the larger on a tie. Timing noise moves
   the winner only when it moves a grid point across the tolerance edge on the prior's side.
4. **Cache**: ``<datasets cache>/delta-families.json``, one entry per family and tuned
   thread count (``"kronecker@2"``), valid while its key (llpbench version, the Δ-stepping
   kernel's source digest, the rule, the reference, the thread count) is unchanged; it keeps
   the whole grid so that a run can say how flat it was.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from llpbench.baselines.entry_cache import CachedEntry, read_entries, write_entry
from llpbench.errors import SpecError
from llpbench.graphs.graph import Graph
from llpbench.graphs.sources import pick_sources
from llpbench.io import sha256_hex

__all__ = [
    "DeltaRule",
    "FamilyDelta",
    "GridPoint",
    "GridSolver",
    "choose_delta",
    "delta_grid",
    "family_delta",
    "load_rule",
    "measure_grid",
    "prior_delta",
    "tune_on",
]

CACHE_NAME = "delta-families.json"
CACHE_FORMAT = 1
_CACHE_WHAT = f"a Δ cache of format {CACHE_FORMAT}; delete it to retune"
SWEEP = "sweep"  # the rule's ``threads``: tune at each thread count a row runs at


@dataclass(frozen=True)
class DeltaRule:
    """The fixed tuning rule of ``configs/delta.toml``."""

    k_min: int = -7
    k_max: int = 4
    sources: int = 4
    seed: int = 42
    rounds: int = 7
    #: ``"sweep"``: tune at each thread count a row runs at, up to the machine's cores (above
    #: them the times measure preemption); or a stated tuple of counts, a row at T threads
    #: taking the largest of them <= T (the smallest when none is).
    threads: str | tuple[int, ...] = SWEEP
    tolerance: float = 0.05
    families: dict[str, str] = field(default_factory=dict)

    def tuned_threads(self, threads: int, cores: int | None = None) -> int:
        """The thread count whose Δ a row at ``threads`` threads uses.

        Examples
        --------
        >>> DeltaRule(threads=SWEEP).tuned_threads(16, cores=2)
        2
        >>> DeltaRule(threads=(1, 4)).tuned_threads(3), DeltaRule(threads=(2, 4)).tuned_threads(1)
        (1, 2)
        """
        threads = max(1, int(threads))
        if self.threads == SWEEP:
            if cores is None:
                from llpbench.llp.placement import core_count

                cores = core_count()
            return min(threads, max(1, cores))
        below = [t for t in self.threads if t <= threads]
        return max(below) if below else min(self.threads)

    def default_threads(self, cores: int | None = None) -> list[int]:
        """The thread counts ``tune-delta`` shows by default: the stated set, or for
        ``"sweep"`` 1 and the powers of two up to the cores (a sweep's usual counts)."""
        if self.threads != SWEEP:
            return list(self.threads)
        top = self.tuned_threads(1 << 30, cores)
        return sorted({1, top} | {1 << k for k in range(top.bit_length()) if 1 << k <= top})

    def digest(self) -> str:
        """A short hash of everything that decides Δ (not of the family table)."""
        d = asdict(self)
        d.pop("families")
        return sha256_hex(json.dumps(d, sort_keys=True))[:12]

    def grid(self, graph: Graph) -> list[int | float]:
        return delta_grid(graph, range(self.k_min, self.k_max + 1))


def load_rule(path: str | os.PathLike[str] | None = None) -> DeltaRule:
    """The rule in ``path`` (default ``<configs>/delta.toml``).

    Raises
    ------
    SpecError
        If the file is missing, not TOML, or a value is out of range.
    """
    from llpbench import paths

    p = Path(path) if path is not None else paths.config_dir() / "delta.toml"
    try:
        doc = tomllib.loads(p.read_text())
    except FileNotFoundError:
        raise SpecError(f"{p}: no such Δ rule file") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{p}: not valid TOML ({exc})") from None
    rule = doc.get("rule", {})
    fams = doc.get("families", {})
    known = {f.name for f in DeltaRule.__dataclass_fields__.values()} - {"families"}
    unknown = sorted(set(rule) - known)
    if unknown:
        raise SpecError(f"{p}: unknown key {unknown[0]!r} in [rule]")
    try:
        out = DeltaRule(**{k: rule[k] for k in rule}, families={str(k): str(v) for k, v in
                                                               fams.items()})
    except TypeError as exc:
        raise SpecError(f"{p}: {exc}") from None
    ints = ("k_min", "k_max", "sources", "seed", "rounds")
    if any(isinstance(getattr(out, k), bool) or not isinstance(getattr(out, k), int)
           for k in ints):
        raise SpecError(f"{p}: {', '.join(ints)} must be integers")
    if out.k_min > out.k_max or out.sources < 1 or out.rounds < 1:
        raise SpecError(f"{p}: need k_min <= k_max and sources, rounds >= 1")
    out = replace(out, threads=_threads_of(p, out.threads))
    if not isinstance(out.tolerance, int | float) or not 0 <= out.tolerance < 10:
        raise SpecError(f"{p}: tolerance must be a number in [0, 10)")
    return out


def _threads_of(path: Path, value: Any) -> str | tuple[int, ...]:
    """The rule's ``threads``: ``"sweep"``, or a non-empty list of counts (one number: that
    count alone, the one-thread rule of old files being ``threads = 1``)."""
    if value == SWEEP:
        return SWEEP
    counts = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if (not isinstance(counts, list | tuple) or not counts
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 1 for t in counts)):
        raise SpecError(f'{path}: threads must be "{SWEEP}" or a list of thread counts >= 1')
    return tuple(sorted(set(counts)))


# --------------------------------------------------------------------------- the rule


def delta_grid(graph: Graph, ks: Iterable[int]) -> list[int | float]:
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
    from llpbench.baselines.delta.stepping import default_delta

    med = default_delta(graph)
    out: set[int | float] = set()
    for k in ks:
        if graph.integer_weights:
            out.add(max(1, int(round(med * 2.0**k))))
        else:
            out.add(float(med) * 2.0**k)
    return sorted(out)


def prior_delta(graph: Graph) -> float:
    """Δ0 = mean arc weight / mean out-degree of the vertices that have out-arcs."""
    if graph.m == 0:
        return 1.0
    active = int(np.count_nonzero(graph.out_degrees()))
    mean_w = float(np.mean(graph.weights))
    return max(mean_w / (graph.m / active), 1e-300) if mean_w > 0 else 1.0


def choose_delta(
    stats: Sequence[tuple[int | float, float]], tolerance: float, prior: float
) -> tuple[int | float, list[int | float]]:
    """The rule: ``(chosen Δ, tied Δ values)`` from ``(Δ, statistic)`` pairs.

    Deterministic given its inputs: the best is the smallest statistic (the smaller Δ on
    equal statistics); tied are the grid points, in increasing Δ, in the unbroken run around
    the best whose statistic is at most ``(1 + tolerance)`` times the best; the chosen one is
    the tied Δ nearest to ``prior`` in log2, the larger on a tie.

    Examples
    --------
    >>> choose_delta([(1, 10.0), (2, 9.0), (4, 9.5), (8, 20.0)], 0.15, 3.0)
    (4, [1, 2, 4])
    """
    pts = sorted((d, float(s)) for d, s in stats)
    if not pts:
        raise ValueError("choose_delta needs at least one grid point")
    i_best = min(range(len(pts)), key=lambda i: (pts[i][1], pts[i][0]))
    limit = pts[i_best][1] * (1.0 + tolerance)
    lo = hi = i_best
    while lo > 0 and pts[lo - 1][1] <= limit:
        lo -= 1
    while hi + 1 < len(pts) and pts[hi + 1][1] <= limit:
        hi += 1
    tied = [d for d, _ in pts[lo : hi + 1]]
    lp = math.log2(prior)
    chosen = min(tied, key=lambda d: (round(abs(math.log2(d) - lp), 9), -d))
    return chosen, tied


# --------------------------------------------------------------------------- measuring


@dataclass
class GridPoint:
    """One Δ of the grid: the rule's statistic and the spread of the rounds (seconds)."""

    delta: int | float
    fastest: float  # mean over sources of the fastest round: the rule's statistic
    median: float  # median over rounds of the mean over sources
    low: float  # interval of the round means: the 2nd fastest and 2nd slowest of 7 rounds
    high: float  # (min and max with fewer than 5 rounds)
    wall_median: float  # the same median in wall-clock time

    @property
    def spread(self) -> float:
        return self.high / self.low if self.low > 0 else float("inf")


@dataclass(frozen=True)
class GridSolver:
    """What a grid times, when it is not the Δ-stepping baseline.

    ``solve(graph, source, threads, delta) -> (answer, clock, wall)``: float64 distances
    (``inf`` unreached), the seconds the rule compares (at one thread a CPU time where the
    solver has one) and the wall seconds. ``digest()`` hashes the solver's code: a cached Δ
    stands while it is unchanged. Its entries are ``family@T/name``. SSSP tunes the bucket
    width of its level worklists this way (``llpbench.problems.sssp``), as Galois tunes its
    OBIM shift per input: the width LLP wants is not the Δ Δ-stepping wants.
    """

    name: str
    solve: Callable[[Graph, int, int, int | float], tuple[np.ndarray, float, float]]
    digest: Callable[[], str]
    what: str = ""  # what is tuned, in words ("the level worklists' width"); default "Δ for NAME"


def _delta_stepping_solve(
    graph: Graph, source: int, threads: int, delta: int | float
) -> tuple[np.ndarray, float, float]:
    from llpbench.baselines.delta.stepping import delta_stepping

    r = delta_stepping(graph, source, threads=threads, delta=delta)
    return r.answer, (r.cpu_seconds if r.cpu_seconds is not None else r.seconds), r.seconds


def _interval(values: Sequence[float]) -> tuple[float, float]:
    v = sorted(values)
    k = 1 if len(v) >= 5 else 0
    return v[k], v[-1 - k]


def measure_grid(
    graph: Graph,
    sources: Sequence[int],
    grid: Sequence[int | float],
    rounds: int,
    threads: int = 1,
    on_solve: Callable[[], None] | None = None,
    solver: GridSolver | None = None,
) -> list[GridPoint]:
    """Time Δ-stepping (or ``solver``) at every Δ of ``grid`` from every source, ``rounds``
    times round-robin.

    One thread uses the solving thread's CPU time, more threads wall time. Every answer is
    compared with scipy's Dijkstra (a wrong one raises ``AssertionError``: a tuned Δ
    measured on wrong answers would be meaningless).
    """
    from scipy.sparse.csgraph import dijkstra

    from llpbench.baselines.delta.stepping import resolve_delta

    solve = solver.solve if solver is not None else _delta_stepping_solve
    what = solver.name if solver is not None else "Δ-stepping"
    used: list[int | float] = []
    for d in grid:
        u = resolve_delta(graph, d)
        if u not in used:
            used.append(u)
    mat = graph.to_scipy()
    expected = {s: dijkstra(mat, directed=True, indices=s) for s in sources}
    solve(graph, sources[0], threads, used[0])  # compile / warm
    cpu = {(d, s): [] for d in used for s in sources}
    wall = {(d, s): [] for d in used for s in sources}
    for _ in range(rounds):
        for d in used:
            for s in sources:
                answer, clock, seconds = solve(graph, s, threads, d)
                if not np.array_equal(answer, expected[s]):
                    raise AssertionError(f"{what} Δ={d} from {s} on {graph.name}: wrong")
                cpu[d, s].append(clock)
                wall[d, s].append(seconds)
                if on_solve is not None:
                    on_solve()
    points = []
    for d in used:
        per_round = [statistics.fmean(cpu[d, s][r] for s in sources) for r in range(rounds)]
        wall_round = [statistics.fmean(wall[d, s][r] for s in sources) for r in range(rounds)]
        low, high = _interval(per_round)
        points.append(GridPoint(
            delta=d,
            fastest=statistics.fmean(min(cpu[d, s]) for s in sources),
            median=statistics.median(per_round),
            low=low,
            high=high,
            wall_median=statistics.median(wall_round),
        ))
    return sorted(points, key=lambda p: p.delta)


@dataclass
class FamilyDelta(CachedEntry):
    """A family's Δ, how it was chosen, and the grid it was chosen from."""

    family: str
    reference: str
    delta: int | float
    tied: list[int | float]
    prior: float
    grid: list[GridPoint]
    sources: list[int]
    key: str
    measured: str = ""
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    threads: int = 1  # the thread count the grid was timed at
    solver: str = ""  # what was timed: "" the Δ-stepping baseline, else a GridSolver's name
    cached: bool = False

    @classmethod
    def decode(cls, d: dict[str, Any]) -> dict[str, Any]:
        d["grid"] = [GridPoint(**p) for p in d["grid"]]
        return d


def cache_key(
    rule: DeltaRule, reference: str, threads: int = 1, solver: GridSolver | None = None
) -> str:
    """What must be unchanged for a cached Δ to stand: version, kernel (the solver's code),
    rule, reference and the thread count it was tuned at."""
    from llpbench._version import __version__
    from llpbench.baselines.delta.stepping import KERNEL_MODULES
    from llpbench.graphs.registry import _module_digest

    kernel = "".join(_module_digest(m) for m in ("llpbench.baselines.delta.stepping",
                                                 *KERNEL_MODULES))
    key = f"{__version__}/{kernel}/{rule.digest()}/{reference}/{int(threads)}t"
    return key if solver is None else f"{key}/{solver.name}:{solver.digest()}"


def entry_name(family: str, threads: int, solver: str = "") -> str:
    """A cache entry's name: the family and the thread count it was tuned at (and what was
    timed, when not Δ-stepping)."""
    return f"{family}@{int(threads)}" + (f"/{solver}" if solver else "")


def tune_on(
    graph: Graph,
    rule: DeltaRule,
    family: str | None = None,
    on_solve: Callable[[], None] | None = None,
    threads: int = 1,
    solver: GridSolver | None = None,
) -> FamilyDelta:
    """Apply ``rule`` on ``graph`` at ``threads`` threads (measure its grid, choose Δ) to
    Δ-stepping or ``solver``; nothing is cached."""
    # a small graph has fewer vertices with an out-arc than the rule's sources: time all of
    # them (the user never asked for the rule's count, so it is no error)
    starts = max(1, int((graph.out_degrees() > 0).sum()))
    sources = pick_sources(graph, min(rule.sources, starts), rule.seed)
    grid = measure_grid(
        graph, sources, rule.grid(graph), rule.rounds, threads, on_solve, solver
    )
    prior = prior_delta(graph)
    chosen, tied = choose_delta([(p.delta, p.fastest) for p in grid], rule.tolerance, prior)
    return FamilyDelta(
        family=family or graph.family,
        reference=graph.name,
        delta=chosen,
        tied=tied,
        prior=prior,
        grid=grid,
        sources=sources,
        key=cache_key(rule, graph.name, threads, solver),
        measured=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        load=tuple(round(x, 2) for x in os.getloadavg()),
        threads=int(threads),
        solver=solver.name if solver is not None else "",
    )


# --------------------------------------------------------------------------- the cache


def cache_path(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    from llpbench import paths

    return paths.data_dir(cache_dir) / CACHE_NAME


def read_cache(path: Path) -> dict[str, dict[str, Any]]:
    """The cached entries by family ({} if there is no file).

    Raises
    ------
    FormatError
        If the file is not a cache this version wrote.
    """
    return read_entries(path, CACHE_FORMAT, "families", _CACHE_WHAT)


def write_cache(path: Path, result: FamilyDelta) -> None:
    """Record ``result`` under its family and thread count, keeping the other entries (atomic
    replace)."""
    name = entry_name(result.family, result.threads, result.solver)
    write_entry(path, CACHE_FORMAT, "families", _CACHE_WHAT, name, result.to_json())


def reference_for(graph: Graph, rule: DeltaRule) -> str | None:
    """The registry name of ``graph``'s family reference, or None (tune on the graph)."""
    return rule.families.get(graph.family)


def family_delta(
    graph: Graph,
    *,
    rule: DeltaRule | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    load: Callable[[str], Graph] | None = None,
    retune: bool = False,
    on_tune: Callable[[str, str], None] | None = None,
    threads: int = 1,
    cores: int | None = None,
    solver: GridSolver | None = None,
) -> FamilyDelta:
    """The Δ of ``graph``'s family for a solve at ``threads`` threads: cached if its key
    still holds, else tuned (at :meth:`DeltaRule.tuned_threads`) and cached. Δ-stepping's,
    or ``solver``'s (cached apart, under ``family@T/name``).

    A family without a reference in the rule is tuned on ``graph`` itself and cached under
    ``"<family>:<graph name>"``. ``load`` builds the reference graph (default the registry);
    ``on_tune(family, reference)`` is called before a measurement starts; ``cores`` caps the
    ``"sweep"`` rule's thread count (default: this machine's).
    """
    from llpbench.graphs.registry import load_graph

    rule = rule or load_rule()
    ref_name = reference_for(graph, rule)
    family = graph.family if ref_name else f"{graph.family}:{graph.name}"
    reference = ref_name or graph.name
    tuned = rule.tuned_threads(threads, cores)
    path = cache_path(cache_dir)
    key = cache_key(rule, reference, tuned, solver)
    if not retune:
        entry = read_cache(path).get(entry_name(family, tuned, solver.name if solver else ""))
        if entry is not None and entry.get("key") == key:
            return FamilyDelta.from_json(entry)
    if on_tune is not None:
        on_tune(family, reference)
    if ref_name is None or ref_name == graph.name:
        ref_graph = graph
    else:
        ref_graph = (load or (lambda n: load_graph(n, cache_dir=cache_dir)))(ref_name)
    result = tune_on(ref_graph, rule, family, threads=tuned, solver=solver)
    write_cache(path, result)
    return result
