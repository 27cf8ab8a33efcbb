"""GAP's SSSP as a sweep baseline (``--baseline gap``, ``baseline/gap`` in a config).

The GAP build is an external program, never part of llpbench: its folder comes from
``--gap-bin`` (which sets :data:`GAP_BIN_ENV` for the run and its shard jobs) or from
:data:`GAP_BIN_ENV` itself. Without a usable build the sweep is refused before any solve,
in one line that says how to build one.

One solve is one GAP process (``sssp -f FILE.wsg -n 3 -d Δ -r SOURCE -a``, with
``OMP_NUM_THREADS`` = the row's threads) and the row's time is GAP's own ``Trial Time`` of
the third trial: the first two warm the process (its page faults, its idle cores), as our
warm-up solve warms ours; process start and graph loading are in neither. Measured on this
2-core VM (road, Δ 1024, two threads, one GAP process of 6 trials after 10 of our solves,
six times): first trials 2.6-3.4 ms, second 1.7-2.1, then 1.6-1.7. GAP prints no distances,
so a row is checked as ``scripts/bench_peer.py`` checks GAP: GAP's vertex and edge counts
on every run, GAP's own ``-v`` verification (its serial Dijkstra) on the first run of each
graph, source, thread count and Δ, and the number of vertices GAP reaches (``-a``), which
the runner compares with the independent reference's finite distances.

Δ: a Δ given to the sweep (``--delta``) is used as given; otherwise GAP's best Δ of the
family grid at the row's thread count (:mod:`llpbench.baselines.gap_delta`), tuned once and
cached. The row's ``delta`` column records it.
"""

from __future__ import annotations

import os
from pathlib import Path

from llpbench.baselines import BaselineResult
from llpbench.baselines.gap import GapError, GapGraph, check_same_graph, export_for_gap, find_gap
from llpbench.baselines.gap import run_gap as _run_gap
from llpbench.graphs.graph import Graph

__all__ = ["BUILD_HINT", "GAP_BIN_ENV", "NAME", "gap_build", "run"]

NAME = "gap"
GAP_BIN_ENV = "LLPBENCH_GAP_BIN"
BUILD_HINT = (
    "build it: git clone https://github.com/sbeamer/gapbs && make -C gapbs sssp converter, "
    "then --gap-bin gapbs (or LLPBENCH_GAP_BIN=gapbs)"
)
WARM_TRIALS = 2  # trials GAP runs before the one whose time is the row's (see the docstring)

_files: dict[int, tuple[Graph, GapGraph]] = {}  # id(graph) -> its export, one at a time
_verified: set[tuple[str, int, int, int]] = set()  # (file, source, threads, Δ) that passed -v


def gap_build() -> Path:
    """The GAP build folder named by :data:`GAP_BIN_ENV`, with ``sssp`` and ``converter``.

    Raises
    ------
    GapError
        No folder named, or one without both executables; the message says how to build.
    """
    folder = os.environ.get(GAP_BIN_ENV)
    if not folder:
        raise GapError(f"baseline 'gap' needs a GAP build (--gap-bin DIR or {GAP_BIN_ENV}); "
                       + BUILD_HINT)
    try:
        find_gap(folder, "sssp")
        find_gap(folder, "converter")
    except GapError as exc:
        raise GapError(f"baseline 'gap': {exc}; {BUILD_HINT}") from None
    return Path(folder).expanduser()


def _exported(graph: Graph, gap_bin: Path) -> GapGraph:
    from llpbench import paths

    hit = _files.get(id(graph))
    if hit is None or hit[0] is not graph:
        try:
            exported = export_for_gap(graph, paths.data_dir() / "gap", gap_bin=gap_bin)
        except GapError as exc:
            raise GapError(f"{exc}; is the GAP build at {gap_bin} broken? {BUILD_HINT}") from None
        _files.clear()
        _files[id(graph)] = (graph, exported)
    return _files[id(graph)][1]


def _delta_for(graph: Graph, threads: int, gap_bin: Path) -> int:
    from rich.console import Console

    from llpbench.baselines.gap_delta import CACHE_NAME, gap_delta
    from llpbench.io import exclusive_beside
    from llpbench.paths import data_dir

    def say(family: str, reference: str, t: int) -> None:
        Console(stderr=True).print(
            f"tuning GAP's Δ for family {family!r} on {reference} at {t} thread(s) "
            "(its fastest on the family grid; cached afterwards)"
        )

    # shards of one sweep tune a family once: the others wait, then read the cache
    with exclusive_beside(data_dir() / CACHE_NAME):
        return gap_delta(graph, threads, gap_bin=gap_bin, on_tune=say).delta


def run(inst, threads: int = 1, delta: float | None = None) -> BaselineResult:
    """One checked GAP SSSP solve of ``inst`` (an SSSP instance) at ``threads``.

    Raises
    ------
    GapError
        No usable build, a GAP run that fails, builds another graph or fails its ``-v``.
    """
    gap_bin = gap_build()
    graph, source = inst.meta["graph"], int(inst.meta["source"])
    exported = _exported(graph, gap_bin)
    if delta is not None and float(delta) != int(delta):
        raise GapError(f"GAP's Δ is an integer; {delta} was given")
    d = int(delta) if delta is not None else _delta_for(graph, threads, gap_bin)
    key = (str(exported.path), source, int(threads), d)
    verify = key not in _verified
    r = _run_gap("sssp", exported.path, source, threads, WARM_TRIALS + 1, d,
                 gap_bin=gap_bin, verify=verify)
    check_same_graph(graph, r.nodes, r.edges, f"GAP sssp on {exported.path.name}")
    if verify:
        if r.verified is not True:
            raise GapError(f"GAP's own verification (-v) failed on {graph.name} from {source} "
                           f"at {threads} thread(s), Δ {d}")
        _verified.add(key)
    if r.reached is None:
        raise GapError("GAP sssp printed no 'SSSP Tree reaches N nodes' line (-a)")
    return BaselineResult(
        answer=None, seconds=r.times[-1], compile_seconds=0.0, name=NAME,
        params={"delta": d, "threads": int(threads), "gap_bin": str(gap_bin)},
        reached=r.reached,
    )
