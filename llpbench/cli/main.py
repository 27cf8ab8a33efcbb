"""The `llpbench` command: the typer app, its sub-commands, and the one error handler.

Command modules each expose ``register(app)``; this module only wires them together and
turns every :class:`~llpbench.errors.LlpbenchError` into one line on stderr and a non-zero
exit, so that users never see a traceback for bad input.
"""

from __future__ import annotations

import importlib
import sys
import warnings

import typer

from llpbench._version import __version__
from llpbench.errors import LlpbenchError, ReadingWarning, StoreWarning

MARKUP = "markdown"

app = typer.Typer(
    name="llpbench",
    help="Benchmark lock-free LLP solvers (LLP-FW) against tuned baselines.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # help is Markdown: ``--flag`` reads as code and a default written [in brackets] stays
    # (rich markup, typer's default with rich installed, eats every bracketed word)
    rich_markup_mode=MARKUP,
)

COMMAND_MODULES = [
    "llpbench.cli.datasets",
    "llpbench.cli.solve",
    "llpbench.cli.tune",
    "llpbench.cli.sweep",
    "llpbench.cli.cluster",
    "llpbench.cli.report",
    "llpbench.cli.compare",
    "llpbench.cli.catalog",
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
for _group in app.registered_groups:  # sub-command groups (datasets, table, plot) read alike
    if _group.typer_instance is not None:
        _group.typer_instance.rich_markup_mode = MARKUP


def error_line(exc: BaseException) -> str:
    """The one line a user sees for an error."""
    return f"error: {exc}"


def _one_line_warnings() -> None:
    """Show a :class:`ReadingWarning` (it names the deciding flag) or a :class:`StoreWarning`
    (it names the file) as one ``warning:`` line; other warnings keep Python's format."""
    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, (ReadingWarning, StoreWarning)):
            print(f"warning: {message}", file=sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


def run() -> None:
    """Console-script entry point."""
    _one_line_warnings()
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
    except KeyboardInterrupt as exc:  # a message says what was kept (a download's bytes)
        print(f"interrupted: {exc or 'finished results were kept'}", file=sys.stderr)
        sys.exit(130)
    except OSError as exc:
        print(error_line(exc), file=sys.stderr)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        sys.exit(1)
    except Exception as exc:
        line = usage_error_line(exc)
        if line is None:
            raise
        print(line, file=sys.stderr)
        sys.exit(exc.exit_code)  # usage_error_line checked it is an int


def usage_error_line(exc: BaseException) -> str | None:
    """One line for a command-line usage error, or None if ``exc`` is not one.

    Usage errors are recognised by what they do, not by their class: typer up to 0.25 raises
    click's exceptions, typer 0.26 and later its own vendored copy (and installs no click),
    and both give ``format_message()`` and an integer ``exit_code``. Naming either class here
    would break on the other, which is how a fresh install once printed a traceback.
    """
    format_message = getattr(exc, "format_message", None)
    exit_code = getattr(exc, "exit_code", None)
    if not callable(format_message) or not isinstance(exit_code, int):
        return None
    message = " ".join(str(format_message()).split())
    ctx = getattr(exc, "ctx", None)
    command = getattr(ctx, "command_path", None) or "llpbench"
    return f"error: {message} (see '{command} --help')"
