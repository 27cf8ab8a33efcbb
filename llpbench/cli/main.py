"""The `llpbench` command: the typer app, its sub-commands, and the one error handler.

Command modules each expose ``register(app)``; this module only wires them together and
turns every :class:`~llpbench.errors.LlpbenchError` into one line on stderr and a non-zero
exit, so that users never see a traceback for bad input.
"""

from __future__ import annotations

import importlib
import sys

import typer

from llpbench import __version__
from llpbench.errors import LlpbenchError

app = typer.Typer(
    name="llpbench",
    help="Benchmark lock-free LLP solvers (LLP-FW) against tuned baselines.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

COMMAND_MODULES = [
    "llpbench.cli.datasets",
    "llpbench.cli.solve",
    "llpbench.cli.tune",
    "llpbench.cli.sweep",
    "llpbench.cli.report",
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"llpbench {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Benchmark lock-free LLP solvers (LLP-FW) against tuned baselines."""


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def error_line(exc: BaseException) -> str:
    """The one line a user sees for an error."""
    return f"error: {exc}"


def run() -> None:
    """Console-script entry point."""
    try:
        # Without standalone mode typer *returns* exit codes (a Ctrl-C becomes 130).
        code = app(standalone_mode=False)
        if code == 130:
            raise KeyboardInterrupt
        if isinstance(code, int) and code:
            sys.exit(code)
    except LlpbenchError as exc:
        print(error_line(exc), file=sys.stderr)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        print("interrupted: finished results were kept", file=sys.stderr)
        sys.exit(130)
    except OSError as exc:
        print(error_line(exc), file=sys.stderr)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # click usage errors
        import click

        if isinstance(exc, click.exceptions.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        if isinstance(exc, click.exceptions.Abort):
            print("aborted", file=sys.stderr)
            sys.exit(1)
        raise
