"""The project's promises about itself: the README's two lines, CI, style, the entry point."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def quickstart_lines() -> list[str]:
    text = (REPO / "README.md").read_text()
    section = text.split("## Quickstart", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, "README's Quickstart has no bash block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_quickstart_has_exactly_two_lines_install_run_and_test():
    lines = quickstart_lines()
    assert len(lines) == 2
    assert lines[0].startswith("pip install") and "llpbench reproduce" in lines[0]
    assert lines[1].startswith("pip install") and "pytest" in lines[1]


def test_ci_runs_the_readme_test_line():
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert quickstart_lines()[1] in ci


def test_tree_is_ruff_clean():
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(REPO)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_help_lists_every_command_with_one_line_help():
    proc = subprocess.run(
        [sys.executable, "-m", "llpbench", "--help"], capture_output=True, text=True, cwd=REPO
    )
    assert proc.returncode == 0
    for command in ("datasets", "solve", "run", "reproduce", "table", "plot", "tune-delta",
                    "compare"):
        assert re.search(rf"│ {re.escape(command)}\s+\S", proc.stdout), command


def test_version_flag():
    proc = subprocess.run(
        [sys.executable, "-m", "llpbench", "--version"], capture_output=True, text=True
    )
    assert proc.returncode == 0 and proc.stdout.startswith("llpbench ")


def test_ci_installs_into_a_fresh_virtual_environment():
    ci = (REPO / ".ci" / "run").read_text()
    venv = ci.index("python3 -m venv .ci/venv")
    assert ci.index("rm -rf .ci/venv") < venv < ci.index("source .ci/venv/bin/activate")
    assert ci.index("source .ci/venv/bin/activate") < ci.index(quickstart_lines()[1])
