"""Benchmark (not a test): Δ-stepping against scipy's Dijkstra on one Kronecker graph.

Graph: ``--graph`` from the registry (default ``kron-2e16``: Kronecker scale 16, weights
``uniform-int:1:255``).
Sources: 5 fixed vertices, drawn with a fixed seed among those that reach at least a quarter
of the graph. Δ is the graph family's, chosen by the fixed rule of ``configs/delta.toml``
(:func:`llpbench.baselines.delta.family.family_delta`: cached, tuned first if the cache has no
valid entry), as every sweep uses it; Δ-stepping is also run with the default Δ (the median
weight). Every configuration then runs ``--reps`` times per source (default 5),
round-robin with the others so that load from other processes hits all alike; a
configuration's time is the median over sources of the per-source median. ``scipy/this`` above
1 means Δ-stepping is faster. scipy gets a prebuilt float64 CSR matrix; Δ-stepping's wall
times exclude compilation and are taken from the moment its threads are ready. On a shared
machine the one-thread rows also show thread CPU time (``time.thread_time`` around the whole
call, Python overhead included), which other processes' load disturbs much less than wall
time.

Run:  python scripts/bench_delta.py [--graph kron-2e16] [--reps 5] [--threads 1,2,4]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from scipy.sparse.csgraph import dijkstra

from llpbench.baselines.delta.family import family_delta
from llpbench.baselines.delta.stepping import default_delta, delta_stepping
from llpbench.graphs.registry import load_graph

N_SOURCES = 5
SOURCE_SEED = 12345


def pick_sources(graph, matrix) -> list[int]:
    rng = np.random.default_rng(SOURCE_SEED)
    candidates = np.flatnonzero(graph.out_degrees() > 0)
    sources: list[int] = []
    for s in rng.permutation(candidates):
        reach = np.isfinite(dijkstra(matrix, indices=int(s))).sum()
        if reach >= graph.n // 4:
            sources.append(int(s))
        if len(sources) == N_SOURCES:
            break
    return sources


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", default="1,2,4")
    ap.add_argument("--graph", default="kron-2e16")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]

    graph = load_graph(args.graph)
    matrix = graph.to_scipy().astype(np.float64)
    sources = pick_sources(graph, matrix)
    expected = {s: dijkstra(matrix, indices=s) for s in sources}
    print(f"graph {graph.name}: n={graph.n} m={graph.m} weights {graph.provenance.get('weights')}")
    print(f"sources {sources}; median of {args.reps} runs per source, median over sources")

    configs: list[tuple[str, int, int | float | None]] = []
    for t in threads:
        fam = family_delta(graph, threads=t)  # the family's Δ at this thread count
        print(f"Δ of family {fam.family!r} at T={t}: {fam.delta:g} (fixed rule, tuned on "
              f"{fam.reference} at {fam.threads} thread(s){', cached' if fam.cached else ''})")
        configs.append((f"delta-stepping T={t} Δ={fam.delta:g} (family)", t, fam.delta))
        configs.append((f"delta-stepping T={t} Δ={default_delta(graph):g} (default)", t, None))

    labels = ["scipy dijkstra"] + [label for label, _, _ in configs]
    wall: dict[str, dict[int, list[float]]] = {x: {s: [] for s in sources} for x in labels}
    cpu: dict[str, dict[int, list[float]]] = {x: {s: [] for s in sources} for x in labels}
    for s in sources:
        for _ in range(args.reps):
            c0, t0 = time.thread_time(), time.perf_counter()
            dijkstra(matrix, directed=True, indices=s)
            wall["scipy dijkstra"][s].append(time.perf_counter() - t0)
            cpu["scipy dijkstra"][s].append(time.thread_time() - c0)
            for label, t, delta in configs:
                c0 = time.thread_time()
                r = delta_stepping(graph, s, threads=t, delta=delta)
                cpu[label][s].append(time.thread_time() - c0)
                if not np.array_equal(r.answer, expected[s]):
                    raise SystemExit(f"wrong answer: {label}, source {s}")
                wall[label][s].append(r.seconds)

    def med(table: dict[int, list[float]]) -> float:
        return statistics.median(statistics.median(v) for v in table.values())

    base_wall, base_cpu = med(wall["scipy dijkstra"]), med(cpu["scipy dijkstra"])
    print(f"{'solver':<44}{'wall ms':>9}{'scipy/this':>12}{'cpu ms':>9}{'scipy/this':>12}")
    for label, t in [("scipy dijkstra", 1)] + [(x, t) for x, t, _ in configs]:
        w = med(wall[label])
        row = f"{label:<44}{w * 1e3:>9.2f}{base_wall / w:>12.2f}"
        if t == 1:
            c = med(cpu[label])
            row += f"{c * 1e3:>9.2f}{base_cpu / c:>12.2f}"
        print(row)


if __name__ == "__main__":
    main()
