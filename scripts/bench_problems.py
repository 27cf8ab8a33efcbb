"""Every problem's LLP solve against its baseline, measured side by side in one process.

Not a test: times on shared machines are noisy, so this prints figures, it asserts nothing.

    python scripts/bench_problems.py                  # the studies of configs/problems.toml
    python scripts/bench_problems.py --quick          # small sizes, a smoke run
    python scripts/bench_problems.py --problems knapsack,job-scheduling --reps 15

The cases are the studies of ``--config`` (default ``configs/problems.toml``): every study's
problem, graphs or sizes, variant and LLP worklists (its ``worklist/...`` configs; all four
where it names none), so a study added there is benchmarked here too. For each case and
thread count it times the problem's default baseline and each LLP worklist, interleaved rep
by rep (baseline, then every worklist, then again), after one warm-up of each (compilation
excluded), and checks the first answer of each against the problem's independent reference.
It prints the median of the reps of the fastest worklist and of the fastest baseline at up
to that many threads (``xT`` names its thread count: T threads can always run the
sequential one), their speed ratio (baseline / LLP: above 1, LLP wins), the problem's floors
(``FLOORS``, timed in the same loop; ``llp/floor`` is LLP's time in floors, so 1.25 is 80%
of the floor's bandwidth), and the counters of the fastest worklist per index of the state
(items popped, advances, stale pops). Then one line per target of issue 33 (:data:`TARGETS`)
met or missed at the sizes run. ``--csv FILE`` also writes every median.
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
from llpbench.bench.spec import load_sweep
from llpbench.errors import LlpbenchError
from llpbench.graphs.registry import load_graph
from llpbench.llp.runtime import solve_llp
from llpbench.problems import build_instance, problem_module

sys.path.insert(0, str(Path(__file__).parent))
from bench_llp import parallel_capacity  # noqa: E402

WORKLISTS = ("ptcf", "ptwb", "swb", "bucketed")
CONFIG = Path(__file__).resolve().parents[1] / "configs" / "problems.toml"


@dataclass(frozen=True)
class Case:
    problem: str
    size: int | None = None  # generated problems
    graph: str | None = None  # graph problems
    variant: str | None = None
    worklists: tuple[str, ...] = WORKLISTS

    def label(self, quick: bool) -> str:
        if self.graph:
            what = "tiny-kron" if quick else self.graph
        else:
            what = f"n={quick_size(self) if quick else self.size}"
        return f"{what} {self.variant}" if self.variant else what


#: Smoke-run sizes (``--quick``); a problem not named takes min(size, 1000).
QUICK = {"stable-marriage": 300, "job-scheduling": 5000,
         "transitive-closure": 300, "reduction": 20_000, "knapsack": 60}  # fmt: skip

#: Issue 33's targets: (problem, variant or None for the default, threads) -> (what, bound).
#: ``baseline``: LLP time / baseline time at most ``bound``; ``floor``: LLP time / floor time
#: at most ``bound`` (1.25: at least 80% of the floor's bandwidth).
TARGETS = {
    ("stable-marriage", None, 1): ("baseline", 1.3),
    ("stable-marriage", "identical", 1): ("baseline", 2.0),
    ("reduction", None, 1): ("baseline", 1.3),
    ("reduction", None, 2): ("floor", 1.25),
    ("job-scheduling", None, 1): ("baseline", 1.0),
    ("job-scheduling", "layered", 1): ("baseline", 1.0),
}


def quick_size(case: Case) -> int | None:
    return QUICK.get(case.problem, min(case.size or 1000, 1000)) if case.size else None


def cases_from(config: Path) -> list[Case]:
    """One case per study, graph and size of the sweep in ``config``."""
    out = []
    for study in load_sweep(config).studies:
        wls = tuple(c.worklist for c in study.configs if c.solver == "worklist") or WORKLISTS
        out += [Case(study.problem, graph=g, variant=study.variant, worklists=wls)
                for g in study.graphs]
        out += [Case(study.problem, size, variant=study.variant, worklists=wls)
                for size in study.sizes]
    return out


def build(case: Case, quick: bool):
    module = problem_module(case.problem)
    if case.graph:
        graph = load_graph("tiny-kron" if quick else case.graph)
        source = int(np.argmax(graph.out_degrees()))
        return module, build_instance(module, graph=graph, source=source)
    size = quick_size(case) if quick else case.size
    return module, build_instance(module, size=size, seed=42, variant=case.variant)


def _runs(case: Case, module, inst, t: int) -> dict:
    """The solves of one thread count, by name: the baseline, each worklist, each floor."""
    run_base = baselines_of(module)[default_baseline(module)]
    runs = {"baseline": lambda: run_base(inst, t)}
    for wl in case.worklists:
        runs[wl] = lambda wl=wl: solve_llp(inst, "worklist", wl, t)
    for name, floor in getattr(module, "FLOORS", {}).items():
        runs[f"floor/{name}"] = lambda floor=floor: floor(inst)
    return runs


def _warm_and_check(case: Case, module, inst, runs: dict, expected, t: int, quick: bool):
    """One solve of each (compiled or loaded from cache), every answer verified."""
    for name, fn in runs.items():
        out = fn()
        if name.startswith("floor/"):
            continue  # a floor solves nothing
        answer = out.answer if name == "baseline" else module.answer(inst, out.state)
        bad = module.verify(answer, expected)
        if bad:
            raise SystemExit(f"{case.problem} {case.label(quick)} {name} x{t}: wrong: {bad}")


def bench_case(case: Case, threads: list[int], reps: int, quick: bool) -> list[dict]:
    module, inst = build(case, quick)
    expected = module.reference(inst)
    rows = []
    best_base: tuple[float, str, int] | None = None  # fastest baseline at up to t threads
    for t in threads:
        runs = _runs(case, module, inst, t)
        _warm_and_check(case, module, inst, runs, expected, t, quick)
        times: dict[str, list[float]] = {k: [] for k in runs}
        last = {}
        for _ in range(reps):
            for name, fn in runs.items():
                out = fn()
                times[name].append(out.seconds)
                last[name] = out
        med = {k: float(np.median(v)) for k, v in times.items()}
        best = min(case.worklists, key=lambda wl: med[wl])
        c = last[best].counters
        here = (med["baseline"], last["baseline"].name, t)
        best_base = here if best_base is None or here[0] < best_base[0] else best_base
        floors = [k for k in runs if k.startswith("floor/")]
        floor_s = min((med[k] for k in floors), default=float("nan"))
        rows.append({
            "problem": case.problem, "instance": case.label(quick), "variant": case.variant or "",
            "size": quick_size(case) if quick else case.size,
            "threads": t, "best_llp": f"worklist/{best}", "llp_ms": med[best] * 1e3,
            "baseline": f"{best_base[1]} x{best_base[2]}", "baseline_ms": best_base[0] * 1e3,
            "speedup": best_base[0] / med[best], "floor_ms": floor_s * 1e3,
            "llp/floor": med[best] / floor_s,
            "items/index": c["items"] / inst.n, "advances/index": c["advances"] / inst.n,
            "stale/index": c["stale"] / inst.n, "retries/index": c["retries"] / inst.n,
            **{f"{wl}_ms": med[wl] * 1e3 for wl in case.worklists},
        })
    return rows


COLUMNS = ["problem", "instance", "threads", "best_llp", "llp_ms", "baseline", "baseline_ms",
           "speedup", "floor_ms", "llp/floor", "items/index", "advances/index", "stale/index",
           "retries/index"]  # fmt: skip


def print_table(df: pd.DataFrame) -> None:
    table = Table(title="LLP vs each problem's baseline (medians, same process, interleaved)")
    for col in COLUMNS:
        table.add_column(col.replace("_", " "), justify="left" if df[col].dtype == object
                         else "right")
    for _, row in df.iterrows():
        table.add_row(*(f"{row[c]:.3g}" if isinstance(row[c], float) else str(row[c])
                        for c in COLUMNS))
    Console(width=220).print(table)


def target_lines(df: pd.DataFrame) -> list[str]:
    """One line per target of :data:`TARGETS` whose case was run: met, or the gap and the
    counters beside it."""
    out = []
    for _, row in df.iterrows():
        key = (row["problem"], row["variant"] or None, int(row["threads"]))
        if key not in TARGETS:
            continue
        what, bound = TARGETS[key]
        got = 1 / row["speedup"] if what == "baseline" else row["llp/floor"]
        verdict = "met" if got <= bound else f"NOT met (gap {got / bound:.2f}x)"
        out.append(f"  target {row['problem']} {row['instance']} x{row['threads']}: LLP / "
                   f"{what} {got:.2f} <= {bound}: {verdict}; items/index "
                   f"{row['items/index']:.3g}, advances/index {row['advances/index']:.3g}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", type=Path, default=CONFIG, help="the sweep whose studies run")
    ap.add_argument("--problems", default="", help="comma-separated (default: all)")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    ap.add_argument("--csv", type=Path, help="also write the medians here")
    args = ap.parse_args()
    wanted = {p for p in args.problems.split(",") if p}
    threads = [int(t) for t in args.threads.split(",")]
    try:
        cases = [c for c in cases_from(args.config) if not wanted or c.problem in wanted]
    except LlpbenchError as exc:
        raise SystemExit(f"error: {exc}") from None
    print(f"machine: 2 threads of a pure compute loop did {parallel_capacity():.2f}x the work "
          "of 1 in the same time (2.00 = two free cores; ~1 = one core's worth right now)")
    rows = []
    for case in cases:
        try:
            rows += bench_case(case, threads, args.reps, args.quick)
        except LlpbenchError as exc:  # a size that does not fit, refused before allocating
            raise SystemExit(f"error: {exc}") from None
    df = pd.DataFrame(rows)
    print_table(df)
    print(f"machine after: {parallel_capacity():.2f}x (the 2-thread rows mean little below ~1.7)")
    one = df[df["threads"] == 1]
    for _, row in one.iterrows():
        print(f"  1 thread, {row['problem']} {row['instance']}: LLP takes "
              f"{1 / row['speedup']:.2f}x the baseline's time")
    for line in target_lines(df):
        print(line)
    if args.csv:
        df.to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()
