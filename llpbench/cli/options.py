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
    help="Datasets cache folder [$LLPBENCH_DATA_DIR, else a source checkout's datasets/, "
    "else the user's cache folder: ~/.cache/llpbench/datasets on Linux].",
    show_default=False,
)

# The run options of `llpbench run` and `llpbench reproduce` (fields of RunOptions).
OUT = typer.Option(
    None, "--out", show_default=False,
    help="Results folder [$LLPBENCH_RESULTS_DIR, else ./results].",
)
RESUME = typer.Option(False, "--resume", help="Continue the latest run.")
PROGRESS = typer.Option(True, "--progress/--no-progress", help="Progress bar.")
