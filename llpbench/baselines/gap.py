"""The GAP Benchmark Suite's kernels as an external peer: run a GAP binary on our graph.

GAP (Beamer, Asanović and Patterson, arXiv:1508.03619; github.com/sbeamer/gapbs) is the C++
reference for Δ-stepping with bucket fusion. To compare against it on the *identical* graph,
:func:`export_for_gap` writes the graph with llpbench's own writer as DIMACS ``.gr`` and lets
GAP's own ``converter`` read it into a serialized ``.wsg``; :func:`run_gap` then runs a kernel
(``sssp -f FILE -n TRIALS -d Δ -r SOURCE``) as a subprocess with ``OMP_NUM_THREADS`` set and
parses what GAP prints: the graph's size, each trial's time, ``-v``'s verification and
``-a``'s statistics (for SSSP the number of reached vertices).

Why ``.gr``: GAP picks its reader by suffix. Its ``.wel`` reader is ``while (in >> u >> v)``,
which stops silently at the first comment line (ours start with ``#``), leaving an empty
graph; its ``.gr`` reader takes the ``a u v w`` lines and skips the ``c``/``p`` lines. GAP
numbers vertices by the largest id it sees (trailing vertices without arcs do not exist for
it), drops self-loops and keeps the lightest of parallel arcs, as llpbench does; so GAP's
vertex count is ``1 + the largest endpoint`` and its directed edge count is our ``m``. Both
are checked on every run. GAP's weights and distances are ``int32``: float weights are
refused.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from llpbench.errors import LlpbenchError
from llpbench.graphs.graph import Graph
from llpbench.io import publish, sha256_hex

__all__ = [
    "GapError",
    "GapGraph",
    "GapResult",
    "export_for_gap",
    "find_gap",
    "gap_vertex_count",
    "parse_gap_output",
    "run_gap",
]

INT32_MAX = 2**31 - 1
GAP_DIST_INF = INT32_MAX // 2  # GAP's kDistInf: larger distances would be wrong there

_GRAPH = re.compile(r"Graph has (\d+) nodes and (\d+) (un)?directed edges")
_TRIAL = re.compile(r"^Trial Time:\s+([0-9.]+)\s*$", re.M)
_VERIFY = re.compile(r"^Verification:\s+(PASS|FAIL)\s*$", re.M)
_REACHED = re.compile(r"SSSP Tree reaches (\d+) nodes")


class GapError(LlpbenchError):
    """A GAP binary that is missing, fails, prints what we cannot parse, or read another graph."""


@dataclass
class GapResult:
    """What one GAP run printed.

    ``times``: each trial's seconds as GAP timed it (its ``Trial Time``: the kernel call,
    including its own allocation of the distance and frontier arrays and the OpenMP
    region); ``nodes``/``edges``/``directed``: the graph as GAP built it; ``reached``: the
    ``-a`` statistic (SSSP: vertices with a finite distance, last trial only), None when not
    printed; ``verified``: True if every trial's ``-v`` check said PASS, None without ``-v``.
    """

    kernel: str
    times: list[float]
    nodes: int
    edges: int
    directed: bool
    reached: int | None = None
    verified: bool | None = None
    command: list[str] = field(default_factory=list)
    threads: int = 1
    output: str = ""


@dataclass(frozen=True)
class GapGraph:
    """A graph file GAP reads, with the sizes GAP reported when it built it."""

    path: Path
    nodes: int
    edges: int


def find_gap(gap_bin: str | os.PathLike[str], kernel: str = "sssp") -> Path:
    """The path of GAP's ``kernel`` binary in the build folder ``gap_bin``.

    Raises
    ------
    GapError
        If the folder or an executable ``kernel`` in it does not exist.
    """
    folder = Path(gap_bin).expanduser()
    if not folder.is_dir():
        raise GapError(f"{folder}: no such GAP build folder (build GAP with `make` there)")
    exe = folder / kernel
    if not exe.is_file() or not os.access(exe, os.X_OK):
        raise GapError(f"{folder}: no executable GAP {kernel!r} (run `make` in the GAP checkout)")
    return exe


def parse_gap_output(text: str, kernel: str = "sssp") -> GapResult:
    """Parse a GAP kernel's standard output.

    Raises
    ------
    GapError
        If the output has no graph line or no trial time.
    """
    g = _GRAPH.search(text)
    if g is None:
        raise GapError(f"GAP {kernel}: no 'Graph has N nodes and M edges' line in its output")
    times = [float(t) for t in _TRIAL.findall(text)]
    if not times:
        raise GapError(f"GAP {kernel}: no 'Trial Time' in its output")
    checks = _VERIFY.findall(text)
    reached = _REACHED.findall(text)
    return GapResult(
        kernel=kernel,
        times=times,
        nodes=int(g.group(1)),
        edges=int(g.group(2)),
        directed=g.group(3) is None,
        reached=int(reached[-1]) if reached else None,
        verified=all(c == "PASS" for c in checks) if checks else None,
        output=text,
    )


def run_gap(
    kernel: str,
    path: str | os.PathLike[str],
    source: int | None,
    threads: int,
    trials: int,
    delta: int | None = None,
    symmetric: bool = False,
    *,
    gap_bin: str | os.PathLike[str],
    verify: bool = False,
    analysis: bool = True,
    timeout: float | None = 600,
    env: dict[str, str] | None = None,
) -> GapResult:
    """Run GAP's ``kernel`` on the graph file ``path`` and return its parsed output.

    Parameters
    ----------
    kernel : str
        GAP binary name (``sssp``, ``bfs``, ...).
    path : path
        A graph file GAP reads (``.wsg``, ``.gr``, ``.mtx``...; see :func:`export_for_gap`).
    source : int or None
        ``-r``: the source vertex (None: GAP's own random pick).
    threads : int
        ``OMP_NUM_THREADS`` of the run.
    trials : int
        ``-n``: timed trials in the one process (the graph is loaded once).
    delta : int, optional
        ``-d``: Δ of SSSP (GAP's default is 1).
    symmetric : bool
        ``-s``: let GAP symmetrize the edge list (not needed for our exports, which list
        every arc).
    gap_bin : path
        GAP's build folder.
    verify, analysis : bool
        ``-v`` (GAP checks every trial against its serial Dijkstra) and ``-a`` (statistics of
        the last trial).
    env : dict, optional
        Extra environment for the run (e.g. ``OMP_WAIT_POLICY``).

    Raises
    ------
    GapError
        Missing binary, non-zero exit, a timeout, or output without trial times.
    """
    exe = find_gap(gap_bin, kernel)
    cmd = [str(exe), "-f", str(path), "-n", str(int(trials))]
    if source is not None:
        cmd += ["-r", str(int(source))]
    if delta is not None:
        cmd += ["-d", str(int(delta))]
    if symmetric:
        cmd.append("-s")
    if verify:
        cmd.append("-v")
    if analysis:
        cmd.append("-a")
    full_env = dict(os.environ, **(env or {}), OMP_NUM_THREADS=str(int(threads)))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise GapError(f"GAP {kernel} on {path}: no result within {timeout} s") from None
    if proc.returncode != 0:
        last = (proc.stdout.strip().splitlines() or proc.stderr.strip().splitlines() or [""])[-1]
        raise GapError(f"GAP {kernel} on {path} exited with {proc.returncode}: {last}")
    result = parse_gap_output(proc.stdout, kernel)
    result.command = cmd
    result.threads = int(threads)
    return result


def gap_vertex_count(graph: Graph) -> int:
    """The vertex count GAP gives ``graph``: one more than the largest id with an arc."""
    has = graph.out_degrees() > 0
    if graph.m:
        has[graph.indices] = True
    ids = np.flatnonzero(has)
    return int(ids[-1]) + 1 if ids.size else 0


def check_same_graph(graph: Graph, nodes: int, edges: int, where: str) -> None:
    """Raise :class:`GapError` unless GAP's sizes are those of ``graph``."""
    want_n, want_m = gap_vertex_count(graph), graph.m
    if (nodes, edges) != (want_n, want_m):
        raise GapError(
            f"{where}: GAP built {nodes:,} nodes and {edges:,} directed edges, expected "
            f"{want_n:,} and {want_m:,} for {graph.name}: it did not read the same graph"
        )


def _graph_digest(graph: Graph) -> str:
    arrays = (graph.indptr, graph.indices, graph.weights)
    return sha256_hex(*(np.ascontiguousarray(a).view(np.uint8).data for a in arrays))[:12]


def export_for_gap(
    graph: Graph, folder: str | os.PathLike[str], *, gap_bin: str | os.PathLike[str]
) -> GapGraph:
    """Write ``graph`` where GAP reads it and check that GAP built the same graph.

    The arcs go through llpbench's writer as ``.gr`` and GAP's own ``converter`` turns that
    file into ``<name>-<digest>.wsg`` (fast to load for each run); GAP's reported sizes must
    equal ours. An existing file of the same digest is reused. The ``.wsg`` appears complete
    or not at all (written under a temporary name, then renamed).

    Raises
    ------
    GapError
        Float or too-large weights, a failed conversion, or sizes that differ.
    """
    from llpbench.graphs.formats import write_graph

    if not graph.integer_weights:
        raise GapError(f"{graph.name}: GAP's SSSP takes int32 weights; this graph has floats")
    if graph.m and int(graph.weights.max()) > INT32_MAX:
        raise GapError(f"{graph.name}: a weight exceeds GAP's int32 weights")
    converter = find_gap(gap_bin, "converter")
    out_dir = Path(folder).expanduser()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{graph.name}-{_graph_digest(graph)}.wsg"
    if not target.is_file():
        with tempfile.TemporaryDirectory(dir=out_dir, prefix=".gap-") as tmp:
            gr = Path(tmp) / f"{graph.name}.gr"
            wsg = Path(tmp) / f"{graph.name}.wsg"
            write_graph(graph, gr)
            proc = subprocess.run(
                [str(converter), "-f", str(gr), "-w", "-b", str(wsg)],
                capture_output=True,
                text=True,
            )
            if proc.returncode != 0 or not wsg.is_file():
                raise GapError(f"GAP converter failed on {gr.name} (exit {proc.returncode})")
            sizes = _GRAPH.search(proc.stdout)
            if sizes is None:
                raise GapError("GAP converter printed no 'Graph has ...' line")
            check_same_graph(graph, int(sizes.group(1)), int(sizes.group(2)), "GAP converter")
            publish(wsg, target)
    return GapGraph(target, gap_vertex_count(graph), graph.m)
