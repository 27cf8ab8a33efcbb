"""Benchmark of the LLP runtime (issue: "Speed"), ratios measured side by side in one process.

Not a test: times on shared machines are noisy, so this prints figures, it asserts nothing.

    python scripts/bench_llp.py                 # kron-2e16, then kron-2e18 for 2 vs 1 thread
    python scripts/bench_llp.py --graph kron-2e14 --reps 3 --skip-large

For each worklist it prints, on SSSP from fixed sources (median of --reps solves per source,
compilation excluded): time at 1, 2 and 32 threads, the ratio to scipy's single-source
Dijkstra at 1 thread, the work per reached vertex (expansions = non-stale pops, each
"vertex advanced, relax its out-arcs"; Dijkstra expands every reached vertex once; pops =
all items taken from the worklist; lowerings = successful atomic mins), the 2-over-1 thread
speedup, and 32 over 2 threads. Finally a second process runs one solve to show that it
loads every kernel from numba's cache instead of compiling.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time

import numpy as np
from numba import njit
from scipy.sparse.csgraph import dijkstra

from llpbench.graphs.registry import load_graph
from llpbench.graphs.sources import pick_sources
from llpbench.llp.runtime import solve_llp
from llpbench.llp.worklists import WORKLISTS
from llpbench.problems import sssp


@njit(nogil=True, cache=True)
def _spin(n):
    s = 0.0
    for i in range(n):
        s += (i % 7) * 0.5
    return s


def parallel_capacity(threads: int = 2, n: int = 100_000_000) -> float:
    """How much faster ``threads`` copies of a pure compute loop finish than one, run now.

    On a shared or virtual machine the second core is not always there; this says whether
    it was, in the same process and minute as the solver figures it sits beside.
    """
    _spin(10)

    def run(k: int) -> float:
        ts = [threading.Thread(target=_spin, args=(n,)) for _ in range(k)]
        t0 = time.perf_counter()
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return time.perf_counter() - t0

    one, many = min(run(1) for _ in range(3)), min(run(threads) for _ in range(3))
    return threads * one / many


def median_time(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        times.append(fn())
    return float(np.median(times))


def bench_graph(name: str, reps: int, sources: int, threads: list[int]) -> None:
    graph = load_graph(name)
    csr = graph.to_scipy()
    srcs = pick_sources(graph, sources, 42)
    print(f"\n{name}: n={graph.n:,} arcs={graph.m:,} sources={srcs} reps={reps}")
    scipy_t, work = [], {}
    results: dict[tuple[str, int], list[float]] = {}
    for src in srcs:
        inst = sssp.instance(graph, src)
        ref = None

        def run_scipy(src=src):
            nonlocal ref
            t0 = time.perf_counter()
            ref = dijkstra(csr, indices=src)
            return time.perf_counter() - t0

        scipy_t.append(median_time(run_scipy, reps))
        reached = int(np.isfinite(ref).sum())
        for wl in WORKLISTS:
            for t in threads:
                solve_llp(inst, "worklist", wl, t)  # warm-up: compile or load from cache
                times = []
                for _ in range(reps):
                    res = solve_llp(inst, "worklist", wl, t)
                    bad = sssp.verify(sssp.answer(inst, res.state), ref)
                    if bad:
                        raise SystemExit(f"{name} {wl} x{t}: WRONG ANSWER: {bad}")
                    times.append(res.seconds)
                results.setdefault((wl, t), []).append(float(np.median(times)))
                if t == 1:
                    c = res.counters
                    work.setdefault(wl, []).append((
                        (c["items"] - c["stale"]) / reached, c["items"] / reached,
                        c["advances"] / reached,
                    ))
    base = float(np.mean(scipy_t))
    print(f"scipy dijkstra (1 thread): {base * 1e3:.2f} ms (mean over sources of medians)")
    head = " ".join(f"{f'{t}T ms':>9}" for t in threads)
    print(f"{'worklist':9} {head} {'1T/scipy':>9} {'expand/v':>9} {'pops/v':>7} "
          f"{'lower/v':>8} {'2T speedup':>10} {'32T/2T':>7}")
    for wl in WORKLISTS:
        ms = {t: float(np.mean(results[(wl, t)])) for t in threads}
        e, p, lo = np.mean(work[wl], axis=0)
        cols = " ".join(f"{ms[t] * 1e3:9.2f}" for t in threads)
        sp = ms[1] / ms[2] if 2 in ms else float("nan")
        hi = ms[32] / ms[2] if 32 in ms and 2 in ms else float("nan")
        print(f"{wl:9} {cols} {ms[1] / base:9.2f} {e:9.2f} {p:7.2f} {lo:8.2f} {sp:10.2f} "
              f"{hi:7.2f}")


def cache_check(name: str) -> None:
    code = (
        "from llpbench.graphs.registry import load_graph; from llpbench.problems import sssp;"
        "from llpbench.llp.runtime import solve_llp;"
        f"inst = sssp.instance(load_graph({name!r}), 0);"
        "r = solve_llp(inst, 'worklist', 'ptwb', 2);"
        "print(f'{r.compile_seconds:.3f} {r.cache_hits}')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    secs, hits = out.stdout.split()
    print(f"\nsecond process: compile/cache-load {float(secs) * 1e3:.0f} ms, "
          f"{hits} kernels loaded from numba's cache (0 would mean it recompiled)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graph", default="kron-2e16")
    ap.add_argument("--large", default="kron-2e18", help="graph for the 2-vs-1 thread figure")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--sources", type=int, default=3)
    ap.add_argument("--skip-large", action="store_true")
    args = ap.parse_args()
    print(f"machine: 2 threads of a pure compute loop did {parallel_capacity():.2f}x the work "
          "of 1 in the same time (2.00 = two free cores; ~1 = one core's worth right now)")
    bench_graph(args.graph, args.reps, args.sources, [1, 2, 32])
    if not args.skip_large:
        bench_graph(args.large, args.reps, 2, [1, 2])
    cache_check(args.graph)


if __name__ == "__main__":
    main()
