"""Big graphs: every phase of a solve's set-up, its wall time and peak memory, next to GAP.

For each graph, a fresh child process (so that peaks do not carry over) times the phases a
``llpbench run`` goes through, in its order: generate (edges, CSR, weights), cache write,
cache load (memory-mapped), sources, the verifier's matrix, Δ (the median weight),
statistics, the instance, the reference Dijkstra (after which the runner lets the verifier's
matrix go), the timed solve (sssp, worklist ptwb, after a warm-up compile) against the
one-pass floor (one sweep over every arc, :mod:`llpbench.baselines.arc_sweep`), and the
verification of the answer. Memory
is ``ru_maxrss`` after each phase minus the process's start-up footprint (interpreter, numba,
scipy, llpbench imported), per arc. GAP (``$LLPBENCH_GAP_BIN``, a folder holding gapbs's
``sssp``) generates and builds a Kronecker graph of the same scale and edge factor
(``sssp -g S -k EF -n 1``); its generate, build and trial times and peak memory are printed
beside ours. GAP has no road generator: that row has no GAP figures.

Usage::

    LLPBENCH_GAP_BIN=/tmp/gapbs31 python scripts/bench_big_graphs.py \\
        kron-2e16 kron-2e18 graph500-s16-ef16 --threads 2 --out docs/big-graphs-table.md

This is a benchmark, not a test: it asserts nothing and takes minutes at scale 22 and up.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PHASES = ("generate", "cache_write", "cache_load", "sources", "verifier_matrix", "delta",
          "stats", "instance", "reference", "solve", "floor", "verify")


def _child(name: str, threads: int, data_dir: str) -> dict:
    """Run in the child: time each phase of one graph, return the figures."""
    import numpy as np

    from llpbench.baselines.arc_sweep import arc_sweep
    from llpbench.graphs import registry
    from llpbench.graphs.cache import cache_folder, load_cached_graph, save_cached_graph
    from llpbench.graphs.independent import reference_matrix, release_reference_matrix
    from llpbench.graphs.limits import peak_rss_bytes
    from llpbench.graphs.sources import pick_sources
    from llpbench.graphs.stats import graph_stats
    from llpbench.llp.runtime import solve_llp
    from llpbench.problems import sssp

    start_rss = peak_rss_bytes()
    rows: dict[str, dict] = {}

    def phase(label, fn):
        t0 = time.perf_counter()
        out = fn()
        rows[label] = {"s": time.perf_counter() - t0, "peak": peak_rss_bytes() - start_rss}
        return out

    spec = registry.resolve(name)
    graph = phase("generate", lambda: registry.build_graph(spec, cache_dir=Path(data_dir)))
    folder = cache_folder(Path(data_dir), spec.name)
    phase("cache_write", lambda: save_cached_graph(graph, folder))
    del graph
    graph = phase("cache_load", lambda: load_cached_graph(folder))
    source = phase("sources", lambda: pick_sources(graph, 1, 42))[0]
    phase("verifier_matrix", lambda: reference_matrix(graph))
    phase("delta", lambda: graph.weight_median)
    phase("stats", lambda: graph_stats(graph, bfs_samples=1))
    inst = phase("instance", lambda: sssp.instance(graph, source))
    # the runner's order: the reference first, then the verifier's matrix goes, then solves
    expected = phase("reference", lambda: sssp.reference(inst))
    release_reference_matrix(graph)
    solve_llp(inst, "worklist", "ptwb", threads)  # warm-up: compile apart
    res = phase("solve", lambda: solve_llp(inst, "worklist", "ptwb", threads))
    rows["solve"]["s"] = float(res.seconds)
    arc_sweep(graph)
    floor = phase("floor", lambda: arc_sweep(graph))
    rows["floor"]["s"] = float(floor.seconds)
    bad = phase("verify", lambda: sssp.verify(sssp.answer(inst, res.state), expected))
    return {"name": name, "n": graph.n, "m": graph.m, "start_rss": start_rss,
            "verified": bad is None, "why": bad, "phases": rows,
            "bytes_per_arc": max(r["peak"] for r in rows.values()) / max(graph.m, 1),
            "ok": bool(np.isfinite(expected).any())}


_GAP_TIMES = {k: re.compile(rf"^{k} Time:\s+([0-9.]+)", re.M)
              for k in ("Generate", "Build", "Trial")}


def _gap(name: str, threads: int) -> dict | None:
    """GAP's generate, build and trial times for a Kronecker graph of ``name``'s scale."""
    from llpbench.graphs import registry

    gap_dir = os.environ.get("LLPBENCH_GAP_BIN")
    spec = registry.resolve(name)
    if not gap_dir or spec.generator != "kronecker":
        return None
    scale, ef = int(spec.params["scale"]), int(spec.params.get("edge_factor", 16))
    cmd = ["/usr/bin/time", "-v", str(Path(gap_dir) / "sssp"), "-g", str(scale), "-k", str(ef),
           "-n", "1"]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False,
                          env=dict(os.environ, OMP_NUM_THREADS=str(threads)))
    out = {k: float(m[1]) if (m := rx.search(proc.stdout)) else None
           for k, rx in _GAP_TIMES.items()}
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    edges = re.search(r"Graph has \d+ nodes and (\d+) undirected edges", proc.stdout)
    out["peak"] = int(rss[1]) * 1024 if rss else None
    out["arcs"] = 2 * int(edges[1]) if edges else None
    return out


def _table(results: list[dict]) -> str:
    head = ["graph", "n", "m (arcs)", *PHASES, "set-up s", "peak B/arc", "verified",
            "GAP gen s", "GAP build s", "GAP trial s", "GAP B/arc", "set-up / GAP"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        ph = r["phases"]
        setup = sum(ph[p]["s"] for p in PHASES if p not in ("solve", "floor"))
        gap = r.get("gap") or {}
        gap_setup = (gap.get("Generate") or 0) + (gap.get("Build") or 0)
        cells = [r["name"], f"{r['n']:,}", f"{r['m']:,}"]
        cells += [f"{ph[p]['s']:.3f}" for p in PHASES]
        cells += [f"{setup:.2f}", f"{r['bytes_per_arc']:.1f}", "yes" if r["verified"] else "NO"]
        cells += [f"{gap[k]:.3f}" if gap.get(k) is not None else "-"
                  for k in ("Generate", "Build", "Trial")]
        cells.append(f"{gap['peak'] / gap['arcs']:.1f}" if gap.get("peak") and gap.get("arcs")
                     else "-")
        cells.append(f"{setup / gap_setup:.2f}" if gap_setup else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Parse arguments; the parent runs one child per graph and prints the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, help="also write the table (Markdown) here")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--data-dir", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.graphs[0], args.threads, args.data_dir)))
        return 0
    results = []
    for name in args.graphs:
        with tempfile.TemporaryDirectory(prefix="bigbench-") as data:
            proc = subprocess.run(
                [sys.executable, __file__, name, "--child", "--threads", str(args.threads),
                 "--data-dir", data], capture_output=True, text=True, check=False)
        if proc.returncode:
            print(f"error: {name}: {proc.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            continue
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        result["gap"] = _gap(name, args.threads)
        results.append(result)
        print(json.dumps(result), file=sys.stderr, flush=True)
    table = _table(results)
    print(table)
    if args.out:
        from llpbench.io import write_text_atomic

        write_text_atomic(args.out, table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
