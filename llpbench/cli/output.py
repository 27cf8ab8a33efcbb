"""What `llpbench run`, `reproduce` and the sharded ways print when a sweep ends: the summary
tables, the failed verifications, the one line of totals.

Kept apart from the commands so that :mod:`llpbench.cli.sweep` and
:mod:`llpbench.cli.cluster` both use it without importing each other.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from llpbench.errors import NOT_FINISHED, VerificationError


def run_and_report(sweep, options, shard=None) -> Path:
    """Run ``sweep`` here with ``options`` (a :class:`~llpbench.bench.options.RunOptions`),
    print its summary, and exit non-zero if an answer failed verification."""
    from llpbench import paths
    from llpbench.bench.runner import preflight
    from llpbench.bench.session import run_sweep
    from llpbench.bench.store import check_results_root

    # every input checked before a run folder exists: bad input leaves no folder behind
    if not options.resume:
        check_results_root(paths.results_dir(options.out))
    preflight(sweep, cache_dir=options.cache_dir, only=shard.cells if shard is not None else None)
    console = Console()
    session = run_sweep(sweep, options, shard=shard)
    s = session.summary
    unstable = print_summary(session.store.run_dir, console)
    console.print(
        f"{s.rows_written} solves timed in {session.seconds:.1f} s "
        f"({s.rows_skipped} rows were already stored; {unstable}) -> {session.store.runs_path}"
    )
    raise_on_failures(s.failures, console)
    return session.store.run_dir


def raise_on_failures(failures: list[str], console: Console) -> None:
    """Print the first failed solves and exit non-zero (VerificationError) if any: answers
    that failed verification, and solves that could not finish (the runner starts their
    line with :data:`llpbench.errors.NOT_FINISHED`)."""
    if failures:
        for line in failures[:10]:
            what, rest = "verification failed", line
            if line.startswith(NOT_FINISHED):
                what, rest = NOT_FINISHED, line[len(NOT_FINISHED):].lstrip(": ")
            console.print(f"[red]{what}:[/red] {escape(rest)}")
        raise VerificationError(f"{len(failures)} solve(s) failed verification or did not finish")


def print_summary(run_dir: Path, console: Console) -> str:
    """Per graph: best LLP configuration, the baseline, the speedup (Table 2's shape); then
    the cells whose repetitions were unstable. Returns the count of those, in words."""
    from llpbench.report.instability import instability_table
    from llpbench.report.store import load_runs
    from llpbench.report.tables import problems_table, speedup_table, to_rich

    runs = load_runs(run_dir)
    builds = [(speedup_table, "Summary: fastest LLP configuration vs tuned Δ-stepping")]
    for name in _other_baselines(runs):  # e.g. --baseline gap,delta-stepping: both
        builds.append((lambda r, n=name: speedup_table(r, against=n),
                       f"Summary: fastest LLP configuration vs {name}"))
    builds.append(
        (problems_table, "Summary: fastest LLP configuration vs each problem's baseline"))
    for build, title in builds:
        table = build(runs)
        if len(table):
            console.print(to_rich(table, title))
    flagged = instability_table(runs)
    cells = flagged.attrs["cells"]
    if len(flagged):
        console.print(to_rich(flagged, "Instability warnings: cells to rerun or read with care"))
    return f"{len(flagged)} of {cells} cells unstable"


def _other_baselines(runs) -> list[str]:
    """The baselines a run named (``baseline/NAME``) beside the default of a problem whose
    tables compare with its default (SSSP: e.g. GAP beside Δ-stepping)."""
    from llpbench.baselines.selection import default_baseline
    from llpbench.problems import compared_with_default, problem_module

    if runs.empty or "solver" not in runs:
        return []
    names: set[str] = set()
    for problem, rows in runs.groupby("problem"):
        if compared_with_default(str(problem)):
            named = {s.split("/", 1)[1] for s in rows["solver"].astype(str)
                     if s.startswith("baseline/")}
            names |= named - {default_baseline(problem_module(str(problem)))}
    return sorted(names)
