"""`llpbench solve`: one LLP solve, its time and counters, verified, answer to a file."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from llpbench.errors import VerificationError


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)


def solve_command(
    graph: str = typer.Option(None, "--graph", "-g", help="Registry name or graph file."),
    problem: str = typer.Option("sssp", "--problem", "-p", help="Problem name."),
    source: int = typer.Option(0, "--source", "-s", help="Source vertex (graph problems)."),
    size: int = typer.Option(None, "--size", help="Instance size (generated problems)."),
    seed: int = typer.Option(0, "--seed", help="Instance seed (generated problems)."),
    solver: str = typer.Option("worklist", help="cyclic | bag | all-indices | worklist."),
    worklist: str = typer.Option(None, help="swb | ptwb | ptcf | bucketed."),
    threads: int = typer.Option(1, "--threads", "-t", help="Worker threads."),
    output: Path = typer.Option(None, "--output", "-o", help="Write the answer here."),
    verify: bool = typer.Option(True, "--verify/--no-verify", help="Check against reference."),
    cache_dir: Path = typer.Option(None, "--cache-dir", help="Dataset cache folder."),
) -> None:
    """Solve one instance with one LLP configuration and print time, counters, verification."""
    from llpbench.api import solve, write_answer

    sol = solve(
        graph,
        problem=problem,
        source=source,
        size=size,
        seed=seed,
        solver=solver,
        worklist=worklist,
        threads=threads,
        verify=verify,
        cache_dir=cache_dir,
    )
    table = Table(title=f"{problem} with {solver}/{sol.worklist or '-'} on {threads} thread(s)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("time", f"{sol.seconds * 1e3:.3f} ms")
    cache = " (from cache)" if sol.cache_hits else ""
    table.add_row("compile", f"{sol.compile_seconds:.3f} s{cache}")
    for name, value in sol.counters.items():
        table.add_row(name, f"{value:,}")
    status = {True: "yes", False: "NO", None: "skipped"}[sol.verified]
    table.add_row("verified", status)
    Console().print(table)
    if output is not None:
        write_answer(output, sol.answer)
        typer.echo(f"answer written to {output}")
    if sol.verified is False:
        raise VerificationError(f"answer differs from the reference: {sol.mismatch}")
