"""Benchmark (not a test): our SSSP solvers against the GAP Benchmark Suite on identical graphs.

For each graph (registry names) the graph is exported with llpbench's writer and read by
GAP's own converter (see :mod:`llpbench.baselines.gap`; GAP's vertex and edge counts must
equal ours), then, in one process and interleaved round by round:

- GAP ``sssp -f FILE -n TRIALS -d Δ -r SOURCE`` with ``OMP_NUM_THREADS=T``;
- our Δ-stepping with the same Δ (the family's Δ at each thread count, ``llpbench
  tune-delta``; ``--delta`` to force one) from the same source, TRIALS times;
- each LLP worklist solver (``--worklists``), TRIALS times.

Every one of our solves is checked against scipy's Dijkstra on the independently re-read
graph. GAP prints no distances; what is compared is: GAP's vertex/edge counts on every run,
GAP's own ``-v`` check (its serial Dijkstra, PASS on every trial) once per source and thread
count, and the number of vertices GAP's answer reaches (``-a``) on every run, which must
equal the number of finite distances in ours. A configuration's time is the median over
sources of its median over rounds x trials; ``ours/peer`` below 1 means ours is faster;
``fastest/fastest`` divides the median over sources of each side's fastest solve (on a
loaded machine the least disturbed one). With ``--gap-grid``, GAP first scans the family's
Δ grid once per thread count and then also runs at its own fastest Δ, interleaved with the
rest ("GAP at its best Δ"), so that a Δ that suits us but not GAP cannot flatter a ratio;
our Δ-stepping also runs at GAP's Δ (the kernels compared at the Δ GAP prefers). Against GAP
at its best the table gives three statistics: the ratio of the medians, the *paired* ratio
(per round and source, ours over GAP's best measured in the same second; the median and
quartiles of those), and the ratio of the fastest solves. On a shared machine whose slow
phases last seconds, the last two agree and the first does not (see ``paired`` below).
``--csv OUT`` writes the table, and every single time to ``OUT.raw.csv``.

Each batch of TRIALS solves, ours and GAP's alike, starts with two more that are dropped
(a warm-up): a GAP process's first trial runs right after it loaded the graph and faults in
its fresh arrays, and our first solves after a GAP process find cores that were idle; and
within each round and source the two sides take turns at going first.
Measured here, alternating one GAP process of 6 trials and 10 of our solves (road, Δ 1024,
two threads): GAP 2.6-3.4 ms, then 1.7-2.1, then 1.6-1.7; ours 2.2-2.4, then 1.7-1.95, then
1.6-1.7. Kept, the cold trials inflated GAP's medians more than ours (road at one thread:
GAP's median 3.51 ms, its fastest 2.36).

Without ``--gap-bin`` (or with a folder that has no GAP build) it says so in one line and
compares against scipy's single-source Dijkstra (one thread) only.

Run:  python scripts/bench_peer.py --gap-bin ~/gapbs --threads 1,2 --gap-grid --csv peer.csv
      python scripts/bench_peer.py --graphs kron-2e16 --rounds 3   # scipy only
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from llpbench.baselines.arc_sweep import arc_sweep
from llpbench.baselines.delta.family import family_delta
from llpbench.baselines.delta.stepping import delta_stepping
from llpbench.baselines.gap import GapError, check_same_graph, export_for_gap, find_gap, run_gap
from llpbench.bench.spec import parse_threads
from llpbench.graphs.registry import load_graph
from llpbench.graphs.sources import pick_sources
from llpbench.llp.runtime import solve_llp
from llpbench.llp.worklists import WORKLISTS
from llpbench.problems import sssp

GRAPHS = "kron-2e16,graph500-s18-ef16,luxembourg-road"
DS = "delta-stepping"
DS_AT_GAP = "delta-stepping at GAP's best Δ"
FLOOR = "floor/arc-sweep"

WARMUP = 2  # solves dropped at the start of each batch (see the module docstring)


def _med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


class Peer:
    """The GAP side of one graph: its file, and checked runs."""

    def __init__(self, gap_bin: Path, graph, workdir: Path, env: dict[str, str]) -> None:
        self.gap_bin = gap_bin
        self.graph = graph
        self.env = env
        self.file = export_for_gap(graph, workdir, gap_bin=gap_bin)

    def run(self, source: int, threads: int, trials: int, delta: int, reached: int | None,
            verify: bool = False) -> list[float]:
        """``trials`` timed trials of one GAP process, after ``WARMUP`` more that are dropped."""
        r = run_gap("sssp", self.file.path, source, threads, trials + WARMUP, delta,
                    gap_bin=self.gap_bin, verify=verify, env=self.env)
        check_same_graph(self.graph, r.nodes, r.edges, f"GAP sssp on {self.file.path.name}")
        if verify and r.verified is not True:
            raise GapError(f"GAP's own verification failed: source {source}, T={threads}")
        if reached is not None and r.reached != reached:
            raise GapError(f"GAP reaches {r.reached} vertices from {source}, we reach {reached}")
        return r.times[WARMUP:]


def bench_graph(name: str, args, threads: list[int], peer_bin: Path | None, console: Console,
                raw: list[dict], workdir: Path) -> list[dict]:
    graph = load_graph(name)
    fams = {t: family_delta(graph, threads=t, on_tune=lambda f, ref, t=t: console.print(
        f"tuning Δ for family {f!r} on {ref} at {t} thread(s) (llpbench tune-delta rule)"))
        for t in threads}  # Δ per thread count: the best Δ moves with the threads
    deltas = {t: int(args.delta) if args.delta else int(fams[t].delta) for t in threads}
    # the level worklists' width: the same rule timing LLP over obim (tuned apart, cached)
    lvls = {t: int(args.delta) if args.delta else int(family_delta(
        graph, threads=t, solver=sssp.LEVELS, on_tune=lambda f, ref, t=t: console.print(
            f"tuning the level worklists' width for {f!r} on {ref} at {t} thread(s)")).delta)
        for t in threads}
    fam = fams[threads[0]]
    sources = pick_sources(graph, args.sources, 42)
    peer = Peer(peer_bin, graph, workdir, args.gap_env) if peer_bin else None
    base = "GAP" if peer else "scipy"
    console.print(
        f"\n[bold]{name}[/]: n={graph.n:,} arcs={graph.m:,}, Δ "
        f"{', '.join(f'{d} at T={t}' for t, d in deltas.items())} "
        f"({'given' if args.delta else f'family {fam.family!r}, tuned on {fam.reference}'}), "
        f"level worklists' width {', '.join(f'{d} at T={t}' for t, d in lvls.items())}, "
        f"sources {sources}" + (f"; GAP file {peer.file.path.name} "
                                f"({peer.file.nodes:,} nodes, {peer.file.edges:,} edges)"
                                if peer else "")
    )
    insts = {s: sssp.instance(graph, s) for s in sources}  # level worklists' width: Δ at T
    refs = {s: sssp.reference(insts[s]) for s in sources}
    reached = {s: int(np.isfinite(refs[s]).sum()) for s in sources}
    configs = [DS] + [f"worklist/{w}" for w in args.worklists]
    times: dict[tuple[str, int, int], list[float]] = {}
    by_round: dict[tuple[str, int, int, int], float] = {}  # median of a round's trials
    csr = graph.to_scipy() if not peer else None

    def record(config: str, t: int, s: int, rnd: int, secs: list[float]) -> None:
        times.setdefault((config, t, s), []).extend(secs)
        if secs:
            by_round[(config, t, s, rnd)] = _med(secs)
        for i, x in enumerate(secs):
            raw.append(dict(graph=name, config=config, threads=t, source=s, round=rnd, trial=i,
                            seconds=x, delta=deltas[t], load1=os.getloadavg()[0]))

    best_delta: dict[int, int] = {}

    def ours(config: str, t: int, s: int) -> float:
        if config in (DS, DS_AT_GAP):
            d = deltas[t] if config == DS else best_delta[t]
            r = delta_stepping(graph, s, threads=t, delta=d)
            answer, secs = r.answer, r.seconds
        else:
            inst = insts[s]
            inst.bucket_width = sssp.bucket_width(graph, inst.arrays[6], lvls[t])
            r = solve_llp(inst, "worklist", config.split("/")[1], t)
            answer, secs = sssp.answer(insts[s], r.state), r.seconds
        bad = sssp.verify(answer, refs[s])
        if bad:
            raise SystemExit(f"{name} {config} T={t} source {s}: WRONG ANSWER: {bad}")
        return secs

    # warm-up (compile or load from numba's cache) and GAP's own verification
    for t in threads:
        for s in sources:
            for c in configs:
                ours(c, t, s)
            if peer:
                peer.run(s, t, 1, deltas[t], reached[s], verify=True)
    if peer:
        counts = ", ".join(str(reached[s]) for s in sources)
        console.print(f"GAP -v: PASS for every source at T={','.join(map(str, threads))}; "
                      f"reached vertices equal ours ({counts})")
    # GAP's own best Δ per thread count (one quick pass over the family's grid), then run
    # interleaved with everything else, so that a Δ that suits us but not GAP cannot
    # flatter the ratio
    if peer and args.gap_grid:
        for t in threads:
            scan = [(_med([_med(peer.run(s, t, args.trials, int(d), reached[s]))
                           for s in sources]), int(d)) for d in fam_grid(fams[t])]
            best_delta[t] = min(scan)[1]
        console.print("GAP's fastest Δ on the grid: " + ", ".join(
            f"T={t}: {d}" for t, d in best_delta.items()))
    best = "GAP best Δ"
    total = args.rounds * len(threads) * len(sources) * (len(configs) + 1 + 2 * bool(best_delta))

    def peer_side(rnd: int, t: int, s: int) -> None:
        """GAP at the family's Δ and at its own best (scipy's Dijkstra without GAP)."""
        if peer:
            secs = peer.run(s, t, args.trials, deltas[t], reached[s])
        elif t == 1:
            secs = []
            for _ in range(args.trials):
                t0 = time.perf_counter()
                d = _dijkstra(csr, s)
                secs.append(time.perf_counter() - t0)
            if not np.array_equal(d, refs[s]):
                raise SystemExit(f"{name}: scipy's Dijkstra disagrees with itself")
        else:
            secs = []
        record(base, t, s, rnd, secs)
        bar.advance(task)
        if t in best_delta:
            record(best, t, s, rnd, peer.run(s, t, args.trials, best_delta[t], reached[s]))
            bar.advance(task)

    def our_side(rnd: int, t: int, s: int) -> None:
        """The floor (one thread, first thread count), then each of our configurations,
        in the opposite order every other round."""
        if t == threads[0]:
            record(FLOOR, 1, s, rnd, [arc_sweep(graph).seconds for _ in range(args.trials)])
        order = configs + ([DS_AT_GAP] if t in best_delta else [])
        for c in order if rnd % 2 == 0 else order[::-1]:
            secs = [ours(c, t, s) for _ in range(args.trials + WARMUP)]
            record(c, t, s, rnd, secs[WARMUP:])
            bar.advance(task)

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task(name, total=total)
        for rnd in range(args.rounds):
            for t in threads:
                for s in sources:
                    # each side goes first in every other round: whichever runs right after
                    # the switch finds idle cores (see WARMUP), so neither is always that one
                    sides = [peer_side, our_side] if rnd % 2 == 0 else [our_side, peer_side]
                    for side in sides:
                        side(rnd, t, s)

    def median_of(config: str, t: int, stat=_med) -> float:
        return _med([stat(times[(config, t, s)]) for s in sources])

    def paired(config: str, t: int) -> dict[str, float]:
        """Ours over GAP at its best Δ, round by round and source by source (each side's
        median of that round's trials, measured within the same second), then the median and
        quartiles of those ratios: the machine's slow phases, which last seconds and slow
        both sides alike, cancel in each pair instead of landing on whichever configuration
        they happened to hit."""
        r = [by_round[(config, t, s, k)] / by_round[(best, t, s, k)]
             for s in sources for k in range(args.rounds)]
        q25, q50, q75 = np.quantile(r, [0.25, 0.5, 0.75])
        return dict(paired_to_gap_best=q50, paired_q25=q25, paired_q75=q75)

    def against_best(config: str, t: int) -> dict[str, float]:
        """The columns comparing ``config`` at ``t`` threads with GAP at its best Δ."""
        b = median_of(best, t)
        return dict(gap_best_delta=best_delta[t], gap_best_ms=b * 1e3,
                    ratio_to_gap_best=median_of(config, t) / b, gap_best_x_floor=b / floor,
                    fastest_to_gap_best=median_of(config, t, min) / median_of(best, t, min),
                    **paired(config, t))

    floor = median_of(FLOOR, 1)
    console.print(f"one-pass floor (arc sweep, 1 thread): {floor * 1e3:.3f} ms")
    rows = []
    for t in threads:
        rt = t if (peer or t == 1) else 1
        ref, ref_min = median_of(base, rt), median_of(base, rt, min)
        for c in configs:
            mine = median_of(c, t)
            row = dict(graph=name, config=c, threads=t, ours_ms=mine * 1e3,
                       delta=deltas[t] if c == DS else lvls[t],
                       peer_x_floor=ref / floor,
                       peer=base if rt == t else f"{base} (1 thread)", peer_ms=ref * 1e3,
                       ratio=mine / ref, ratio_of_fastest=median_of(c, t, min) / ref_min,
                       load=os.getloadavg()[0], floor_ms=floor * 1e3, x_floor=mine / floor)
            if t in best_delta:
                row.update(against_best(c, t))
            rows.append(row)
        if t in best_delta:
            mine, b = median_of(DS_AT_GAP, t), median_of(best, t)
            rows.append(dict(
                graph=name, config=f"{DS} at GAP's Δ", threads=t, delta=best_delta[t],
                ours_ms=mine * 1e3, peer="GAP", peer_ms=b * 1e3, ratio=mine / b,
                peer_x_floor=b / floor,
                ratio_of_fastest=median_of(DS_AT_GAP, t, min) / median_of(best, t, min),
                load=os.getloadavg()[0], floor_ms=floor * 1e3, x_floor=mine / floor,
                **against_best(DS_AT_GAP, t),
            ))
    return rows


def fam_grid(fam) -> list[int | float]:
    return [p.delta for p in fam.grid]


def _dijkstra(csr, s: int) -> np.ndarray:
    from scipy.sparse.csgraph import dijkstra

    return dijkstra(csr, directed=True, indices=s)


def print_table(rows: list[dict], console: Console) -> None:
    has_best = any("gap_best_ms" in r for r in rows)
    table = Table(title="ours / peer: median times, same graph, sources and Δ",
                  title_justify="left")
    for col in ("graph", "Δ", "threads", "configuration", "ours ms", "peer", "peer ms",
                "ours/peer", "fastest/fastest", "ours x floor", "peer x floor"):
        table.add_column(col, justify="left" if col in ("graph", "configuration", "peer")
                         else "right")
    if has_best:
        table.add_column("GAP at its best Δ: ms", justify="right")
        table.add_column("ours/GAP best", justify="right")
        table.add_column("paired [quartiles]", justify="right")
        table.add_column("fastest/GAP best fastest", justify="right")
    for r in rows:
        cells = [r["graph"], str(r["delta"]), str(r["threads"]), r["config"],
                 f"{r['ours_ms']:.2f}", r["peer"], f"{r['peer_ms']:.2f}", f"{r['ratio']:.2f}",
                 f"{r['ratio_of_fastest']:.2f}", f"{r['x_floor']:.2f}",
                 f"{r['peer_x_floor']:.2f}"]
        if has_best:
            cells += ([f"{r['gap_best_delta']}: {r['gap_best_ms']:.2f}",
                       f"{r['ratio_to_gap_best']:.2f}",
                       f"{r['paired_to_gap_best']:.2f} [{r['paired_q25']:.2f}-"
                       f"{r['paired_q75']:.2f}]", f"{r['fastest_to_gap_best']:.2f}"]
                      if "gap_best_ms" in r else ["", "", "", ""])
        table.add_row(*cells)
    console.print(table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gap-bin", type=Path, help="GAP build folder (holds sssp and converter)")
    ap.add_argument("--graphs", default=GRAPHS, help=f"comma-separated (default {GRAPHS})")
    ap.add_argument("--threads", default="1,2", help="thread counts: 1,2 or 1..16")
    ap.add_argument("--sources", type=int, default=2, help="fixed sources per graph")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    ap.add_argument("--trials", type=int, default=3, help="solves per configuration per round")
    ap.add_argument("--delta", type=int, help="force this Δ (default: the family's tuned Δ)")
    ap.add_argument("--worklists", default=",".join(WORKLISTS), help="LLP worklists to run")
    ap.add_argument("--gap-grid", action="store_true", help="also find GAP's fastest Δ")
    ap.add_argument("--gap-env", action="append", default=[], metavar="KEY=VALUE",
                    help="extra environment for GAP (e.g. OMP_WAIT_POLICY=passive)")
    ap.add_argument("--workdir", type=Path, help="where GAP's graph files go (default: temp)")
    ap.add_argument("--csv", type=Path, help="write the ratio table here (raw times: .raw.csv)")
    args = ap.parse_args()
    args.worklists = [w for w in args.worklists.split(",") if w]
    if any("=" not in kv for kv in args.gap_env):
        sys.exit("error: --gap-env takes KEY=VALUE")
    args.gap_env = dict(kv.split("=", 1) for kv in args.gap_env)
    bad = [w for w in args.worklists if w not in WORKLISTS]
    if bad:
        sys.exit(f"error: unknown worklist {bad[0]!r} (known: {', '.join(WORKLISTS)})")
    try:
        threads = parse_threads(args.threads)
    except Exception as exc:
        sys.exit(f"error: {exc}")
    console = Console(highlight=False, soft_wrap=False, width=max(Console().width, 150))
    peer_bin = None
    if args.gap_bin is None:
        console.print("no GAP build given (--gap-bin): comparing against scipy's Dijkstra only")
    else:
        try:
            find_gap(args.gap_bin, "sssp")
            find_gap(args.gap_bin, "converter")
            peer_bin = args.gap_bin
        except GapError as exc:
            console.print(f"no GAP build ({exc}): comparing against scipy's Dijkstra only")
    load0 = os.getloadavg()
    console.print(f"load average before: {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f} "
                  f"on {os.cpu_count()} CPUs; rounds={args.rounds} trials={args.trials} "
                  f"sources={args.sources} threads={threads}"
                  + (f"; GAP environment {args.gap_env}" if args.gap_env else ""))
    rows: list[dict] = []
    raw: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="llpbench-gap-") as tmp:
        workdir = args.workdir or Path(tmp)
        try:
            for name in [g for g in args.graphs.split(",") if g]:
                rows += bench_graph(name, args, threads, peer_bin, console, raw, workdir)
        except GapError as exc:
            sys.exit(f"error: {exc}")
    load1 = os.getloadavg()
    print_table(rows, console)
    console.print(f"load average after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    if args.csv:
        from llpbench.io import write_text_atomic

        write_text_atomic(args.csv, pd.DataFrame(rows).to_csv(index=False), parents=True)
        write_text_atomic(args.csv.with_suffix(".raw.csv"), pd.DataFrame(raw).to_csv(index=False),
                          parents=True)
        console.print(f"wrote {args.csv} and {args.csv.with_suffix('.raw.csv')}")


if __name__ == "__main__":
    main()
