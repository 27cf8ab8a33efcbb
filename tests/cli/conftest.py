"""Fixtures of the CLI tests: the real entry point in a subprocess, and the one-line check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import seed_tuned_delta

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli(tmp_path, request, tuned_delta_cache):
    """Run `python -m llpbench ARGS` from the repository root with a private cache.

    The cache starts with the session's tuned Δ of the kronecker family (see
    ``tuned_delta_cache``), unless the test is marked ``empty_cache``: a test of the tuning
    or of what the cache holds starts from an empty cache, as a new user does.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLPBENCH_")}
    env.update(LLPBENCH_DATA_DIR=str(tmp_path / "cache"), COLUMNS="200", NO_COLOR="1")
    if request.node.get_closest_marker("empty_cache") is None:
        seed_tuned_delta(tmp_path / "cache", tuned_delta_cache)

    def run(*args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "llpbench", *args],
            cwd=REPO,
            env={**env, **extra_env},
            capture_output=True,
            text=True,
            timeout=300,
        )

    run.cache = tmp_path / "cache"
    return run


def assert_one_line_error(
    proc: subprocess.CompletedProcess[str], *needles: str, warnings: bool = False
) -> str:
    """The error line of a failed command: non-zero exit, no traceback, stderr exactly one
    ``error:`` line (after ``warning:`` lines only where ``warnings`` allows them), holding
    every needle."""
    assert proc.returncode != 0, proc.stdout
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    if warnings:
        lines = [ln for ln in lines if not ln.startswith("warning: ")]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    for needle in needles:
        assert needle in lines[0]
    return lines[0]
