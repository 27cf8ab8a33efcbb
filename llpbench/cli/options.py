"""Options that several commands declare, defined once so that they read and behave the same
everywhere (the graph-file flags are in :mod:`llpbench.cli.reading`).

typer takes each option as a parameter default, so a command still names the parameter;
what is shared is its flag, default, environment variable and help.
"""

from __future__ import annotations

import typer

CACHE_DIR = typer.Option(
    None,
    "--cache-dir",
    envvar="LLPBENCH_DATA_DIR",
    help="Datasets cache folder (default: $LLPBENCH_DATA_DIR, else <repo>/datasets).",
    show_default=False,
)

# The run options of `llpbench run` and `llpbench reproduce` (fields of RunOptions).
OUT = typer.Option(None, "--out", help="Results folder [results/].")
RESUME = typer.Option(False, "--resume", help="Continue the latest run.")
PROGRESS = typer.Option(True, "--progress/--no-progress", help="Progress bar.")
