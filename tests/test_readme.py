"""The README's promises: every command it shows runs, it stays short, and its links resolve.

The README is the first thing a user runs. Its `llpbench ...` lines are run here, in the order
written (later ones read what earlier ones stored), in a temporary folder with a temporary
results store and datasets cache, so a flag that was renamed or a command that broke fails
here rather than in a user's terminal. The Quickstart's two lines are checked by
``test_project.py``; a line that ends in ``# (long)`` (the paper's whole evaluation) is not run.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import seed_tuned_delta

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"
LONG_MARK = "# (long)"
MAX_LINES = 250


def fenced_blocks(text: str, language: str) -> list[tuple[str, str]]:
    """Each ``language`` fenced block of ``text`` as (the heading above it, its body)."""
    blocks = []
    for match in re.finditer(rf"^```{language}\n(.*?)^```", text, re.S | re.M):
        headings = re.findall(r"^#+ (.*)$", text[: match.start()], re.M)
        blocks.append((headings[-1] if headings else "", match.group(1)))
    return blocks


def readme_commands(text: str) -> list[str]:
    """The `llpbench ...` lines of the README's bash blocks, outside the Quickstart, in order,
    without the lines marked ``# (long)``."""
    commands = []
    for heading, body in fenced_blocks(text, "bash"):
        if heading == "Quickstart":
            continue
        for line in body.splitlines():
            line = line.strip()
            if line.startswith("llpbench ") and not line.endswith(LONG_MARK):
                commands.append(line)
    return commands


def isolated_env(tmp_path: Path) -> dict[str, str]:
    """This checkout's llpbench, a results store and a datasets cache of the test's own."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["LLPBENCH_RESULTS_DIR"] = str(tmp_path / "results")
    env["LLPBENCH_DATA_DIR"] = str(tmp_path / "datasets")
    env["COLUMNS"] = "120"
    return env


def test_readme_commands_are_found_and_the_long_ones_are_few():
    text = README.read_text()
    commands = readme_commands(text)
    assert len(commands) >= 10, commands
    assert text.count(LONG_MARK) <= 3
    assert any(c.startswith("llpbench run ") for c in commands)
    assert any(c.startswith("llpbench compare ") for c in commands)


def test_every_readme_command_runs_in_order_in_a_fresh_folder(tmp_path, tuned_delta_cache):
    env = isolated_env(tmp_path)
    # the session's tuned Δ (tuned through the real command once, tests/conftest.py): what
    # is checked here is that each command runs, not the 25 s tuning again
    seed_tuned_delta(tmp_path / "datasets", tuned_delta_cache)
    for command in readme_commands(README.read_text()):
        argv = shlex.split(command, comments=True)
        proc = subprocess.run(
            [sys.executable, "-m", "llpbench", *argv[1:]],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
        )
        assert proc.returncode == 0, f"{command}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        assert "Traceback" not in proc.stderr, f"{command}\n{proc.stderr[-3000:]}"
    runs = list((tmp_path / "results").glob("*/runs.csv"))
    assert runs, "the README's runs stored no rows in the results folder they were given"


def test_readme_python_example_runs_and_verifies(tmp_path):
    blocks = [body for _, body in fenced_blocks(README.read_text(), "python")]
    assert blocks, "README has no Python example"
    for body in blocks:
        proc = subprocess.run(
            [sys.executable, "-c", body], cwd=tmp_path, env=isolated_env(tmp_path),
            capture_output=True, text=True, timeout=600,
        )
        assert proc.returncode == 0, f"{body}\n{proc.stdout}\n{proc.stderr[-3000:]}"


def test_readme_is_short():
    assert len(README.read_text().splitlines()) < MAX_LINES


def relative_links(path: Path) -> list[str]:
    """The targets of the Markdown links and images of ``path`` that are not URLs or anchors."""
    targets = re.findall(r"\]\(([^)\s]+)\)", path.read_text())
    return [t.split("#")[0] for t in targets if not re.match(r"[a-z]+:|#", t)]


def test_every_docs_link_of_the_readme_exists_and_every_docs_page_is_linked():
    links = [t for t in relative_links(README) if t.startswith("docs/")]
    assert links
    for target in links:
        assert (REPO / target).is_file(), target
    pages = {f"docs/{p.name}" for p in DOCS.glob("*.md") if not p.name.startswith("notes-")}
    assert pages - set(links) == set(), "docs pages the README does not link"


def test_docs_pages_links_resolve_and_nothing_points_outside_the_repository():
    for page in DOCS.glob("*.md"):
        assert "../shared" not in page.read_text(), page.name
        for target in relative_links(page):
            resolved = (page.parent / target).resolve()
            assert resolved.exists(), f"{page.name}: {target}"
            assert resolved.is_relative_to(REPO), f"{page.name}: {target}"


def test_readme_points_nowhere_outside_the_repository():
    assert "../shared" not in README.read_text()
    for target in relative_links(README):
        assert (REPO / target).resolve().is_relative_to(REPO), target
