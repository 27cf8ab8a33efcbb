"""Flags that several commands take for one value are declared once (a FlagGroup) and reach
the command whole: the graph-file flags as a ReadOptions, the sweep's as a RunOptions."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

from llpbench.cli.flag_groups import Flag, FlagGroup, takes
from llpbench.cli.main import app
from llpbench.cli.options import RUNNING
from llpbench.cli.reading import READING

CLI = Path(__file__).resolve().parents[2] / "llpbench" / "cli"
GRAPH_FILE_FLAGS = {"--directed", "--index-base", "--weights", "--compact-ids", "--max-memory"}
#: Every command that reads a graph file.
READERS = (("solve",), ("run",), ("tune-delta",), ("datasets", "info"), ("datasets", "export"))


def _command(path: tuple[str, ...]):
    cmd = get_command(app)
    for name in path:
        cmd = cmd.commands[name]
    return cmd


def _flags(cmd) -> set[str]:
    return {opt for p in cmd.params for opt in p.opts}


def test_each_graph_file_flag_is_declared_in_one_module_only():
    declared = {flag: [p.name for p in sorted(CLI.glob("*.py")) if f'"{flag}' in p.read_text()]
                for flag in GRAPH_FILE_FLAGS}
    assert declared == {flag: ["reading.py"] for flag in GRAPH_FILE_FLAGS}


@pytest.mark.parametrize("path", READERS, ids=" ".join)
def test_every_command_that_reads_a_file_takes_the_whole_group(path):
    assert GRAPH_FILE_FLAGS <= _flags(_command(path))


def test_run_takes_every_run_option_and_reproduce_its_part():
    run, reproduce = _flags(_command(("run",))), _flags(_command(("reproduce",)))
    every = {d.split("/")[0] for f in RUNNING.flags for d in f.option.param_decls}
    assert every <= run
    assert {"--out", "--resume", "--order", "--pin"} <= reproduce
    assert not {"--shard", "--executor", "--partition"} & reproduce


def test_a_group_reaches_the_command_as_one_built_value():
    seen = []
    group = FlagGroup(
        flags=(Flag("low", int, typer.Option(1, "--low")),
               Flag("high", int, typer.Option(9, "--high"))),
        build=lambda low, high: range(low, high),
    )
    probe = typer.Typer()

    @probe.command()
    @takes(span=group)
    def show(name: str = typer.Option("x", "--name"), *, span: range) -> None:
        seen.append((name, span))

    result = CliRunner().invoke(probe, ["--high", "4", "--name", "y"])
    assert result.exit_code == 0, result.output
    assert seen == [("y", range(1, 4))]


def test_a_group_whose_flag_clashes_with_the_command_is_refused():
    with pytest.raises(TypeError, match="clash"):

        @takes(reading=READING)
        def command(weights: str = "x", *, reading=None) -> None:  # --weights twice
            pass
