"""Usage errors through the real entry point, with whatever typer the install resolved.

typer 0.26+ installs no click; a handler that imported click printed a traceback for every
bad flag on a fresh machine. These run the console script's code path as a user would.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from llpbench.cli.main import usage_error_line

REPO = Path(__file__).resolve().parents[2]


def llpbench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "llpbench", *args], capture_output=True, text=True, cwd=REPO
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["solve", "--graph", "tiny-kron", "--bogus"], "--bogus"),
        (["solve", "--graph", "tiny-kron", "--threads", "x"], "--threads"),
        (["run", "--reps", "abc"], "--reps"),
        (["run", "--threads", "abc"], "bad thread spec 'abc'"),
        (["run", "--graph", "tiny-kron", "--threads", "0..4"], "thread"),
        (["no-such-command"], "No such command"),
        (["table", "no-such-table"], "no-such-table"),
    ],
)
def test_usage_error_is_one_line_exit_2_no_traceback(args, expected):
    proc = llpbench(*args)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert expected in lines[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_usage_error_line_names_the_subcommand_help():
    proc = llpbench("plot", "scaling", "--bogus")
    assert proc.returncode == 2
    assert "llpbench plot scaling --help')" in proc.stderr


def test_console_script_itself_reports_a_bad_flag_in_one_line():
    script = Path(sys.executable).with_name("llpbench")
    assert script.is_file(), "llpbench is not installed beside this python (pip install -e .)"
    proc = subprocess.run([str(script), "solve", "--bogus"], capture_output=True, text=True)
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    assert line.startswith("error: No such option") and "--bogus" in line
    assert line.endswith("(see 'llpbench solve --help')")


def test_usage_error_line_recognises_click_style_exceptions_by_shape():
    class OldClickUsageError(Exception):  # the shape click's and typer's exceptions share
        exit_code = 2

        def format_message(self) -> str:
            return "No such option: --x"

    assert usage_error_line(OldClickUsageError()) == (
        "error: No such option: --x (see 'llpbench --help')"
    )
    assert usage_error_line(ValueError("not a usage error")) is None


def test_installed_typer_is_inside_the_tested_range():
    import re
    import tomllib
    from importlib.metadata import version

    spec = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    typer_spec = next(d for d in spec if d.startswith("typer"))
    low, high = re.fullmatch(r"typer>=([\d.]+),<([\d.]+)", typer_spec).groups()

    def key(v: str) -> tuple[int, ...]:
        return tuple(int(x) for x in v.split(".")[:3])

    assert key(low) <= key(version("typer")) < key(high)
