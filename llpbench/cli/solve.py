"""`llpbench solve`: one LLP solve, its time and counters, verified, answer to a file."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from llpbench.cli.flag_groups import takes
from llpbench.cli.lists import split_list
from llpbench.cli.options import CACHE_DIR
from llpbench.cli.reading import READING
from llpbench.cli.spinner import phase_spinner
from llpbench.errors import VerificationError
from llpbench.graphs.format_table import files_help
from llpbench.graphs.read_options import ReadOptions
from llpbench.llp.solvers import solver_names
from llpbench.llp.worklists import worklist_names
from llpbench.problems import problem_names


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
    app.command("selftest")(selftest_command)


@takes(reading=READING)
def solve_command(
    graph: str = typer.Option(None, "--graph", "-g", help=f"Registry name or {files_help()}."),
    problem: str = typer.Option("sssp", "--problem", "-p", help=f"{problem_names()}."),
    source: int = typer.Option(
        None, "--source", "-s", show_default=False,
        help="Source vertex of graph problems, as the graph file names it (a DIMACS, Matrix "
        "Market or KONECT file's first vertex is 1; `datasets info` states the ids) "
        "(default: the first of the graph's fixed-seed sources, as `run` picks).",
    ),
    size: int = typer.Option(None, "--size", help="Instance size (generated problems)."),
    seed: int = typer.Option(0, "--seed", help="Instance seed (generated problems)."),
    solver: str = typer.Option("worklist", help=f"{solver_names()}."),
    worklist: str = typer.Option(
        None, help=f"{worklist_names()} [the solver's own: `llpbench list solvers`]."
    ),
    threads: int = typer.Option(1, "--threads", "-t", help="Worker threads."),
    output: Path = typer.Option(
        None, "--output", "-o", show_default=False,
        help="Write the answer here: graph problems one 'id value' line per vertex, in the "
        "file's ids, 'unreached' where no path reaches.",
    ),
    verify: bool = typer.Option(True, "--verify/--no-verify", help="Check against reference."),
    cache_dir: Path | None = CACHE_DIR,
    *,
    reading: ReadOptions,
) -> None:
    """Solve one instance with one LLP configuration and print time, counters, verification."""
    from llpbench.graphs.registry import load_graph

    # the graph is read (and a file's claims checked) before the kernels' compiler is
    # imported: a bad file is refused in a fraction of a second
    with phase_spinner():
        loaded = load_graph(graph, cache_dir=cache_dir, options=reading) if graph else None
    from llpbench.api import solve, write_answer
    from llpbench.bench.spec import check_value

    check_value("--seed", seed)

    with phase_spinner():
        sol = solve(
            loaded,
            problem=problem,
            source=source,
            size=size,
            seed=seed,
            solver=solver,
            worklist=worklist,
            threads=threads,
            verify=verify,
            cache_dir=cache_dir,
            options=reading,
            say=Console(stderr=True).print,
        )
    if sol.source_chosen:
        Console(stderr=True, highlight=False).print(f"source: {sol.source_chosen}",
                                                    soft_wrap=True, markup=False)
    table = Table(title=f"{problem} with {solver}/{sol.worklist or '-'} on {threads} thread(s)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    if sol.source is not None:
        table.add_row("source", f"{sol.source} (the file's id)" if loaded.file_ids is not None
                      else str(sol.source))
    table.add_row("time", f"{sol.seconds * 1e3:.3f} ms")
    cache = " (from cache)" if sol.cache_hits else ""
    table.add_row("compile", f"{sol.compile_seconds:.3f} s{cache}")
    if sol.bucket_width is not None:
        table.add_row("bucket width", f"{sol.bucket_width:,}")
    for name, value in sol.counters.items():
        table.add_row(name, f"{value:,}")
    answer = sol.answer
    if getattr(answer, "ndim", 0) == 1 and answer.dtype.kind == "f":  # distances, levels
        table.add_row("reached", f"{int((answer != float('inf')).sum()):,} of {answer.shape[0]:,}")
    status = {True: "yes", False: "NO", None: "skipped"}[sol.verified]
    table.add_row("verified", status)
    Console().print(table)
    if output is not None:
        write_answer(output, sol.answer, sol.file_ids, answer_header(loaded, sol))
        typer.echo(f"answer written to {output}")
    if sol.verified is False:
        raise VerificationError(f"answer differs from the reference: {sol.mismatch}")


def answer_header(graph, sol) -> str:
    """The comment lines above an answer file: what it holds and in which ids."""
    if sol.file_ids is None:
        return f"llpbench {sol.problem}: one value per line"
    from llpbench.graphs.reading import ids_fact

    what = {"sssp": "distance", "bfs": "level"}.get(sol.problem, "value")
    return (f"llpbench {sol.problem} on {graph.name} from vertex {sol.source}\n"
            f"ids: {ids_fact(graph)}\n"
            f"vertex {what} ('unreached': no path from the source)")


def selftest_command(
    count: int = typer.Option(2000, "--count", "-n", help="Random cases to run."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first case."),
    problem: list[str] = typer.Option(None, "--problem", "-p", help="Restrict: a,b or repeat."),
    replay: int = typer.Option(None, "--replay", help="Run only the case of this seed."),
) -> None:
    """Stress the runtime: random solves across solvers, worklists, threads, all checked."""
    from rich.progress import Progress

    from llpbench.bench.selftest import run_case, selftest
    from llpbench.problems import PROBLEMS, problem_module

    problems = split_list(problem) or list(PROBLEMS)
    for name in problems:
        problem_module(name)
    console = Console()
    if replay is not None:
        case, mismatch = run_case(replay, problems)
        console.print(f"{case.describe()}: {mismatch or 'exact'}")
        if mismatch:
            raise VerificationError(f"{case.describe()}: {mismatch}")
        return
    with Progress(console=console) as bar:
        task = bar.add_task("selftest", total=count)

        def tick(case, mismatch) -> None:
            bar.update(task, advance=1, description=case.describe())
            if mismatch:
                console.print(f"[red]MISMATCH[/red] {case.describe()}: {mismatch}")

        failures = selftest(count, seed, problems, tick)
    console.print(f"{count} cases, {len(failures)} mismatches")
    if failures:
        seeds = ", ".join(str(c.seed) for c, _ in failures[:20])
        raise VerificationError(f"{len(failures)} mismatches; replay with --replay SEED ({seeds})")
