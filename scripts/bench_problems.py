"""Every problem's LLP solve against its baseline, measured side by side in one process.

Not a test: times on shared machines are noisy, so this prints figures, it asserts nothing.

    python scripts/bench_problems.py                  # the sizes of configs/problems.toml
    python scripts/bench_problems.py --quick          # small sizes, a smoke run
    python scripts/bench_problems.py --problems knapsack,job-scheduling --reps 15

For each problem (and adversarial variant) and thread count it times the problem's default
baseline and each LLP worklist, interleaved rep by rep (baseline, then every worklist, then
again), after one warm-up of each (compilation excluded), and checks the first answer of each
against the problem's independent reference. It prints the median of the reps of the fastest
worklist and of the fastest baseline at up to that many threads (``xT`` names its thread
count: T threads can always run the sequential one), their speed ratio (baseline / LLP:
above 1, LLP wins), the
LLP-to-baseline time at one thread, and the counters of the fastest worklist per index of the
state (items popped, advances, stale pops). ``--csv FILE`` also writes every median.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from rich.console import Console
from rich.table import Table

from llpbench.baselines.selection import baselines_of, default_baseline
from llpbench.graphs.registry import load_graph
from llpbench.llp.runtime import solve_llp
from llpbench.problems import build_instance, problem_module

sys.path.insert(0, str(Path(__file__).parent))
from bench_llp import parallel_capacity  # noqa: E402

WORKLISTS = ("ptcf", "ptwb", "swb", "bucketed")


@dataclass(frozen=True)
class Case:
    problem: str
    size: int | None = None  # generated problems
    graph: str | None = None  # graph problems
    variant: str | None = None

    def label(self, quick: bool) -> str:
        if self.graph:
            what = "tiny-kron" if quick else self.graph
        else:
            what = f"n={QUICK[self.problem] if quick else self.size}"
        return f"{what} {self.variant}" if self.variant else what


#: The instances of configs/problems.toml (the same sizes and variants).
CASES = (
    Case("sssp", graph="kron-2e14"),
    Case("bfs", graph="kron-2e14"),
    Case("stable-marriage", 2000),
    Case("stable-marriage", 1000, variant="identical"),
    Case("job-scheduling", 100_000),
    Case("job-scheduling", 100_000, variant="layered"),
    Case("transitive-closure", 2000),
    Case("reduction", 1_000_000),
    Case("reduction", 1_000_000, variant="signed"),
    Case("knapsack", 400),
)
QUICK = {"stable-marriage": 300, "job-scheduling": 5000,
         "transitive-closure": 300, "reduction": 20_000, "knapsack": 60}  # fmt: skip


def build(case: Case, quick: bool):
    module = problem_module(case.problem)
    if case.graph:
        graph = load_graph("tiny-kron" if quick else case.graph)
        source = int(np.argmax(graph.out_degrees()))
        return module, build_instance(module, graph=graph, source=source)
    size = QUICK[case.problem] if quick else case.size
    return module, build_instance(module, size=size, seed=42, variant=case.variant)


def bench_case(case: Case, threads: list[int], reps: int, quick: bool) -> list[dict]:
    module, inst = build(case, quick)
    expected = module.reference(inst)
    base_name = default_baseline(module)
    run_base = baselines_of(module)[base_name]
    rows = []
    best_base: tuple[float, str, int] | None = None  # fastest baseline at up to t threads
    for t in threads:
        runs = {"baseline": lambda t=t: run_base(inst, t)}
        for wl in WORKLISTS:
            runs[wl] = lambda wl=wl, t=t: solve_llp(inst, "worklist", wl, t)
        times: dict[str, list[float]] = {k: [] for k in runs}
        last = {}
        for name, fn in runs.items():  # warm-up (compile or load from cache), then check
            out = fn()
            answer = out.answer if name == "baseline" else module.answer(inst, out.state)
            bad = module.verify(answer, expected)
            if bad:
                raise SystemExit(f"{case.problem} {case.label(quick)} {name} x{t}: wrong: {bad}")
        for _ in range(reps):
            for name, fn in runs.items():
                out = fn()
                times[name].append(out.seconds)
                last[name] = out
        med = {k: float(np.median(v)) for k, v in times.items()}
        best = min(WORKLISTS, key=lambda wl: med[wl])
        c = last[best].counters
        here = (med["baseline"], last["baseline"].name, t)
        best_base = here if best_base is None or here[0] < best_base[0] else best_base
        rows.append({
            "problem": case.problem, "instance": case.label(quick), "threads": t,
            "best_llp": f"worklist/{best}", "llp_ms": med[best] * 1e3,
            "baseline": f"{best_base[1]} x{best_base[2]}", "baseline_ms": best_base[0] * 1e3,
            "speedup": best_base[0] / med[best],
            "items/index": c["items"] / inst.n, "advances/index": c["advances"] / inst.n,
            "stale/index": c["stale"] / inst.n,
            **{f"{wl}_ms": med[wl] * 1e3 for wl in WORKLISTS},
        })
    return rows


def print_table(df: pd.DataFrame) -> None:
    table = Table(title="LLP vs each problem's baseline (medians, same process, interleaved)")
    cols = ["problem", "instance", "threads", "best_llp", "llp_ms", "baseline", "baseline_ms",
            "speedup", "items/index", "advances/index", "stale/index"]
    for col in cols:
        table.add_column(col.replace("_", " "), justify="left" if df[col].dtype == object
                         else "right")
    for _, row in df.iterrows():
        table.add_row(*(f"{row[c]:.3g}" if isinstance(row[c], float) else str(row[c])
                        for c in cols))
    Console(width=200).print(table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--problems", default="", help="comma-separated (default: all)")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    ap.add_argument("--csv", type=Path, help="also write the medians here")
    args = ap.parse_args()
    wanted = {p for p in args.problems.split(",") if p}
    threads = [int(t) for t in args.threads.split(",")]
    print(f"machine: 2 threads of a pure compute loop did {parallel_capacity():.2f}x the work "
          "of 1 in the same time (2.00 = two free cores; ~1 = one core's worth right now)")
    rows = []
    for case in CASES:
        if not wanted or case.problem in wanted:
            rows += bench_case(case, threads, args.reps, args.quick)
    df = pd.DataFrame(rows)
    print_table(df)
    print(f"machine after: {parallel_capacity():.2f}x (the 2-thread rows mean little below ~1.7)")
    one = df[df["threads"] == 1]
    for _, row in one.iterrows():
        print(f"  1 thread, {row['problem']} {row['instance']}: LLP takes "
              f"{1 / row['speedup']:.2f}x the baseline's time")
    if args.csv:
        df.to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()
