"""`llpbench list`: the names each extension point accepts, with one line on each.

Read from the extension points' own tables (solvers, worklists, problems, tables), never
spelled here: a solver, worklist, problem or table added to its table is listed with no
change to this module.
"""

from __future__ import annotations

from collections.abc import Callable

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from llpbench.errors import UnknownNameError


def _solvers() -> list[tuple[str, str]]:
    from llpbench.llp.solvers import SOLVERS

    def line(s) -> str:
        notes = [n for n in ("one thread" if s.single_threaded else "",
                             f"worklist, default {s.default_worklist}" if s.uses_worklist
                             else "") if n]
        return s.description + (f" [{'; '.join(notes)}]" if notes else "")

    return [(name, line(s)) for name, s in SOLVERS.items()]


def _worklists() -> list[tuple[str, str]]:
    from llpbench.llp.worklists import WORKLISTS

    return [(name, w.description + ("" if w.paper else " [run when named]"))
            for name, w in WORKLISTS.items()]


def _problems() -> list[tuple[str, str]]:
    from llpbench.problems import PROBLEMS, problem_summary

    return [(name, problem_summary(name)) for name in PROBLEMS]


def _tables() -> list[tuple[str, str]]:
    from llpbench.report.all import TABLES

    return [(name, t.title) for name, t in TABLES.items()]


#: What ``llpbench list`` can list: the extension points, in the order it prints them.
CATALOGS: dict[str, Callable[[], list[tuple[str, str]]]] = {
    "solvers": _solvers,
    "worklists": _worklists,
    "problems": _problems,
    "tables": _tables,
}


def register(app: typer.Typer) -> None:
    app.command("list")(list_command)


def list_command(
    what: list[str] = typer.Argument(
        None, help=f"What to list: {' | '.join(CATALOGS)} (default: all).", show_default=False,
    ),
) -> None:
    """List the solvers, worklists, problems and tables, each with one line on it."""
    names = what or list(CATALOGS)
    for name in names:
        if name not in CATALOGS:
            raise UnknownNameError("list", name, list(CATALOGS))
    console = Console(highlight=False)
    for name in names:
        table = Table(title=name, title_justify="left")
        table.add_column("name")
        table.add_column("what it is")
        for key, line in CATALOGS[name]():
            table.add_row(Text(key), Text(line))  # a [note] is text, not markup
        console.print(table)
