"""Adding a solver, a worklist, a problem or a table is one entry in its table: each test
registers a dummy of each (``tests/dummies/``, what a newcomer writes), for the test only,
and shows it works end to end through the real CLI: it solves and verifies, it is listed,
its table gets its command and is built and written. Nothing else is edited, so nothing
else may need to be (see ``ARCHITECTURE.md``, "Adding an extension")."""

from __future__ import annotations

import pandas as pd
import pytest
import typer
from typer.testing import CliRunner

from llpbench.bench.spec import parse_config
from llpbench.cli.main import app
from llpbench.cli.report import register_tables
from llpbench.llp.solvers import SOLVERS, Solver, launch_one_scan
from llpbench.llp.worklists import WORKLISTS, Worklist
from llpbench.problems import PROBLEMS
from llpbench.report.all import TABLES, TableSpec, build_table

SOLVER, WORKLIST, PROBLEM, TABLE = "reverse-scan", "aliased-bag", "prefix-max", "row-count"


def _rows_per_problem(runs: pd.DataFrame) -> pd.DataFrame:
    return runs.groupby("problem", as_index=False).size().rename(columns={"size": "rows"})


@pytest.fixture
def registered(monkeypatch):
    """The four dummies in their tables (the one line each that a newcomer adds), removed
    again when the test ends."""
    monkeypatch.setitem(SOLVERS, SOLVER, Solver(
        "tests.dummies.reverse_scan_solver", launch_one_scan,
        "one thread scans from the last index to the first", single_threaded=True,
    ))
    monkeypatch.setitem(WORKLISTS, WORKLIST, Worklist(
        "tests.dummies.aliased_bag", "the shared bag under another module",
    ))
    monkeypatch.setitem(PROBLEMS, PROBLEM, "tests.dummies.prefix_max")
    monkeypatch.setitem(TABLES, TABLE, TableSpec(
        _rows_per_problem, "Rows per problem", "no rows", "Rows per problem, timed or not.",
    ))


def _llpbench(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


@pytest.mark.parametrize("config", [
    ("--solver", SOLVER),
    ("--solver", "bag", "--worklist", WORKLIST),
    ("--solver", "worklist", "--worklist", WORKLIST, "--threads", "3"),
])
def test_a_registered_solver_worklist_and_problem_solve_and_verify(registered, config):
    out = _llpbench("solve", "--problem", PROBLEM, "--size", "300", "--seed", "5", *config)
    assert f"{PROBLEM} with" in out
    cells = [[c for c in line.split() if c != "│"] for line in out.splitlines()]
    assert [row for row in cells if "verified" in row] == [["verified", "yes"]]


def test_registered_names_are_listed_and_accepted_by_the_sweep_specs(registered):
    out = _llpbench("list")
    for name, line in ((SOLVER, "one thread scans from the last index to the first"),
                       (WORKLIST, "the shared bag under another module"),
                       (PROBLEM, "Running maximum as an LLP problem"),
                       (TABLE, "Rows per problem")):
        assert any(name in row and line in row for row in out.splitlines()), name
    assert parse_config(SOLVER).label == SOLVER
    assert parse_config(f"worklist/{WORKLIST}").worklist == WORKLIST


def test_a_registered_solver_is_refused_at_another_thread_count(registered):
    result = CliRunner().invoke(app, ["solve", "--problem", PROBLEM, "--size", "10",
                                      "--solver", SOLVER, "--threads", "2"])
    assert result.exit_code != 0
    assert "single-threaded" in str(result.exception)


def test_a_registered_table_gets_its_command_and_is_built_and_written(registered, tmp_path):
    from tests.report import write_run

    run_dir = write_run(tmp_path / "results")
    group = typer.Typer()
    register_tables(group)  # what `llpbench table` does with the tables registered at start
    result = CliRunner().invoke(group, [TABLE, "--results", str(run_dir)],
                                env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0, (result.output, result.exception)
    assert "Rows per problem" in result.output
    written = pd.read_csv(run_dir / "tables" / f"{TABLE}.csv")
    from llpbench.report.store import load_runs

    runs = load_runs(run_dir)
    assert written.to_dict("list") == build_table(TABLE, runs).to_dict("list")
    assert written["rows"].sum() == len(runs)
    help_out = CliRunner().invoke(group, ["--help"], env={"COLUMNS": "200"}).output
    assert "Rows per problem, timed or not." in help_out


def test_the_tables_are_restored_after_a_test_that_registered_dummies():
    assert SOLVER not in SOLVERS and WORKLIST not in WORKLISTS
    assert PROBLEM not in PROBLEMS and TABLE not in TABLES
