"""GAP's Δ in a sweep: GAP at its own best Δ of the family grid, per thread count, cached.

A baseline measured at a Δ that suits *us* flatters every ratio against it (issue 21: the
family Δ, tuned at one thread, handed GAP 3.7x slower road runs at two threads). So GAP gets
its own Δ, chosen the way our family Δ is chosen but by GAP's clock and at the row's thread
count:

1. **Where**: the family's reference graph of ``configs/delta.toml`` (``[families]``), else
   the graph itself, exported for GAP (:func:`llpbench.baselines.gap.export_for_gap`).
2. **What is timed**: GAP ``sssp -n TRIALS -d Δ -r SOURCE`` at ``OMP_NUM_THREADS`` = the
   row's thread count, for every Δ of the family grid (``[rule]``: median weight x 2^k) and
   every source of ``pick_sources(reference, [gap] sources, [rule] seed)``, in ``[gap]
   rounds`` rounds (each round runs every Δ and source once, so a burst of load hits all Δ
   alike). The times are GAP's own ``Trial Time`` lines; every run's vertex and edge counts
   and reached vertices are checked against ours.
3. **The rule** (:func:`best_delta`): a Δ's statistic is the mean over sources of its fastest
   trial; the smallest statistic wins, the smaller Δ on equal statistics. "Best" means
   fastest here, with no tolerance towards a prior: the point is GAP at its best.
4. **Cache**: ``<datasets cache>/gap-deltas.json``, one entry per family and thread count,
   valid while its key (the GAP binary's digest, both rules, the reference, the machine's
   CPU count) is unchanged. Each entry keeps the whole grid.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import statistics
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from llpbench.baselines.entry_cache import CachedEntry, read_entries, write_entry
from llpbench.baselines.gap import GapError, check_same_graph, export_for_gap, run_gap
from llpbench.errors import SpecError
from llpbench.graphs.graph import Graph
from llpbench.graphs.sources import pick_sources

__all__ = ["GapDeltaRule", "GapDelta", "best_delta", "gap_delta", "load_gap_rule"]

CACHE_NAME = "gap-deltas.json"
CACHE_FORMAT = 1
_CACHE_WHAT = f"a GAP Δ cache of format {CACHE_FORMAT}; delete it"


@dataclass(frozen=True)
class GapDeltaRule:
    """The ``[gap]`` table of ``configs/delta.toml``: how much GAP's grid is timed."""

    sources: int = 2
    rounds: int = 1
    trials: int = 4

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:12]


def load_gap_rule(path: str | os.PathLike[str] | None = None) -> GapDeltaRule:
    """The ``[gap]`` table of ``path`` (default ``<configs>/delta.toml``); absent: defaults.

    Raises
    ------
    SpecError
        An unknown key or a value that is not a positive integer.
    """
    from llpbench import paths

    p = Path(path) if path is not None else paths.config_dir() / "delta.toml"
    try:
        table = tomllib.loads(p.read_text()).get("gap", {})
    except FileNotFoundError:
        raise SpecError(f"{p}: no such Δ rule file") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{p}: not valid TOML ({exc})") from None
    known = set(GapDeltaRule.__dataclass_fields__)
    unknown = sorted(set(table) - known)
    if unknown:
        raise SpecError(f"{p}: unknown key {unknown[0]!r} in [gap]; known: {', '.join(known)}")
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in table.values()):
        raise SpecError(f"{p}: [gap] {', '.join(sorted(known))} must be positive integers")
    return GapDeltaRule(**table)


def best_delta(stats: Sequence[tuple[int, float]]) -> int:
    """The rule: the Δ of the smallest statistic, the smaller Δ on equal statistics.

    Examples
    --------
    >>> best_delta([(1, 5.0), (2, 3.0), (4, 3.0), (8, 9.0)])
    2
    """
    if not stats:
        raise ValueError("best_delta needs at least one grid point")
    return min(stats, key=lambda p: (p[1], p[0]))[0]


@dataclass
class GapDelta(CachedEntry):
    """GAP's Δ for one family at one thread count, and the grid it was chosen from."""

    family: str
    reference: str
    threads: int
    delta: int
    grid: list[tuple[int, float]]  # (Δ, statistic in seconds)
    sources: list[int]
    key: str
    measured: str = ""
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    cached: bool = field(default=False, compare=False)

    @classmethod
    def decode(cls, d: dict[str, Any]) -> dict[str, Any]:
        d["grid"] = [(int(a), float(b)) for a, b in d["grid"]]
        return d


def binary_digest(gap_bin: str | os.PathLike[str]) -> str:
    """A short hash of GAP's ``sssp`` executable: another build retunes."""
    return hashlib.sha256((Path(gap_bin) / "sssp").read_bytes()).hexdigest()[:12]


def measure_gap_grid(
    graph: Graph,
    gap_bin: str | os.PathLike[str],
    threads: int,
    sources: Sequence[int],
    grid: Sequence[int],
    rule: GapDeltaRule,
    folder: str | os.PathLike[str],
) -> list[tuple[int, float]]:
    """``(Δ, statistic)`` for every Δ of ``grid``: GAP's fastest trial from each source,
    averaged over the sources, over ``rule.rounds`` interleaved rounds.

    Raises
    ------
    GapError
        A failed GAP run, or one that built another graph or reached other vertices.
    """
    from scipy.sparse.csgraph import dijkstra

    exported = export_for_gap(graph, folder, gap_bin=gap_bin)
    mat = graph.to_scipy()
    reached = {s: int(np.isfinite(dijkstra(mat, directed=True, indices=s)).sum())
               for s in sources}
    fastest: dict[tuple[int, int], float] = {}
    for _ in range(rule.rounds):
        for d in grid:
            for s in sources:
                r = run_gap("sssp", exported.path, s, threads, rule.trials, d, gap_bin=gap_bin)
                check_same_graph(graph, r.nodes, r.edges, f"GAP sssp on {exported.path.name}")
                if r.reached != reached[s]:
                    raise GapError(f"GAP reaches {r.reached} vertices of {graph.name} from {s}"
                                   f" at Δ {d}, the reference {reached[s]}")
                key = (d, s)
                fastest[key] = min([fastest.get(key, float("inf")), *r.times])
    return [(int(d), statistics.fmean(fastest[d, s] for s in sources)) for d in grid]


def _integer_grid(graph: Graph, grid: Sequence[int | float]) -> list[int]:
    if not graph.integer_weights:
        raise GapError(f"{graph.name}: GAP's SSSP takes int32 weights; this graph has floats")
    return sorted({max(1, int(d)) for d in grid})


def gap_delta(
    graph: Graph,
    threads: int,
    *,
    gap_bin: str | os.PathLike[str],
    cache_dir: str | os.PathLike[str] | None = None,
    load: Callable[[str], Graph] | None = None,
    on_tune: Callable[[str, str, int], None] | None = None,
) -> GapDelta:
    """GAP's Δ for ``graph``'s family at ``threads``: cached if its key holds, else tuned.

    ``on_tune(family, reference, threads)`` is called before a measurement starts.
    """
    from llpbench import paths
    from llpbench.baselines.delta.family import load_rule, reference_for
    from llpbench.graphs.registry import load_graph

    rule = load_rule()
    grule = load_gap_rule()
    ref_name = reference_for(graph, rule)
    family = graph.family if ref_name else f"{graph.family}:{graph.name}"
    reference = ref_name or graph.name
    machine = f"{platform.machine()}-{os.cpu_count()}cpu"
    key = (f"{binary_digest(gap_bin)}/{rule.digest()}/{grule.digest()}/{reference}/"
           f"{machine}/T{int(threads)}")
    entry_name = f"{family}@T{int(threads)}"
    data = paths.data_dir(cache_dir)
    path = data / CACHE_NAME
    entry = _read_cache(path).get(entry_name)
    if entry is not None and entry.get("key") == key:
        return GapDelta.from_json(entry)
    if on_tune is not None:
        on_tune(family, reference, int(threads))
    if ref_name is None or ref_name == graph.name:
        ref_graph = graph
    else:
        ref_graph = (load or (lambda n: load_graph(n, cache_dir=cache_dir)))(ref_name)
    starts = max(1, int((ref_graph.out_degrees() > 0).sum()))  # a small graph: all of them
    sources = pick_sources(ref_graph, min(grule.sources, starts), rule.seed)
    grid = _integer_grid(ref_graph, rule.grid(ref_graph))
    stats = measure_gap_grid(ref_graph, gap_bin, threads, sources, grid, grule, data / "gap")
    result = GapDelta(
        family=family, reference=reference, threads=int(threads), delta=best_delta(stats),
        grid=stats, sources=[int(s) for s in sources], key=key,
        measured=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        load=tuple(round(x, 2) for x in os.getloadavg()),
    )
    _write_cache(path, entry_name, result)
    return result


def _read_cache(path: Path) -> dict[str, dict[str, Any]]:
    return read_entries(path, CACHE_FORMAT, "entries", _CACHE_WHAT)


def _write_cache(path: Path, name: str, result: GapDelta) -> None:
    write_entry(path, CACHE_FORMAT, "entries", _CACHE_WHAT, name, result.to_json())
