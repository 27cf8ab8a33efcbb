"""Issue 33's targets for knapsack and transitive closure, measured in one process.

Not a test: prints ratios. For each instance it times the default baseline, the peers and
the LLP worklists at 1 and 2 threads, interleaved round by round after a verified warm-up,
and prints medians as multiples of the baseline at one thread (closure LLP rows also with
the condensation they are solved over added: ``+cond``). ``--runs 3`` repeats the whole
measurement (the 2-thread ratios of a loaded machine move between runs).

    python scripts/bench_problems_issue33.py --rounds 5 --runs 3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from llpbench.graphs.registry import load_graph
from llpbench.llp.runtime import solve_llp
from llpbench.problems import knapsack as ks
from llpbench.problems import transitive_closure as tc

sys.path.insert(0, str(Path(__file__).parent))
from bench_llp import parallel_capacity  # noqa: E402

WORKLISTS = ("ptcf", "ptwb", "swb")


def cases(quick: bool):
    """(label, module, instance) of issue 33's sizes (small ones with ``quick``)."""
    yield "knapsack n=10^4 C=10^5", ks, ks.generate(60 if quick else 10_000, 42)
    graph = load_graph("tiny-kron" if quick else "cit-hepph")
    yield f"closure {graph.name}", tc, tc.instance(graph)
    yield "closure uniform n=10^5", tc, tc.generate(500 if quick else 100_000, 42)


def measure(module, inst, rounds: int) -> dict[str, float]:
    expected = module.reference(inst)
    runs = {name: (lambda f=f: f(inst, 1)) for name, f in module.BASELINES.items()
            if name != "dp-1d-inplace"}
    for wl in WORKLISTS:
        for t in (1, 2):
            runs[f"{wl} x{t}"] = lambda wl=wl, t=t: solve_llp(inst, "worklist", wl, t)
    for name, fn in runs.items():
        out = fn()
        got = module.answer(inst, out.state) if " x" in name else out.answer
        if bad := module.verify(got, expected):
            raise SystemExit(f"{name}: wrong: {bad}")
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            times[name].append(fn().seconds)
    return {k: float(np.median(v)) for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    for label, module, inst in cases(args.quick):
        base = next(iter(module.BASELINES))
        cond = inst.meta.get("condense_seconds", 0.0)
        for run in range(args.runs):
            cap = parallel_capacity()
            med = measure(module, inst, args.rounds)
            b = med[base]
            print(f"{label} run {run + 1}: {base} {b * 1e3:.1f} ms, machine {cap:.2f}x")
            for name, m in med.items():
                extra = f"  +cond {(m + cond) / b:.3f}x" if cond and " x" in name else ""
                print(f"    {name:18s} {m / b:6.3f}x{extra}")


if __name__ == "__main__":
    main()
