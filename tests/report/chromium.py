"""Headless Chromium for the report tests: the DOM after the page's scripts ran, and a
screenshot, with no driver package (``--dump-dom`` and ``--screenshot``).

Chromium is Debian's ``chromium`` at :data:`CHROMIUM`; ``.ci/run`` installs it where it is
missing. Where it is absent the browser tests skip with :data:`SKIP_REASON`. Every call gets
a new empty profile and every network feature Chromium has off, so a page that tried to
fetch something would show it, not hide it behind a cache.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SKIP_REASON = (f"headless Chromium is not installed at {CHROMIUM} "
               "(`apt-get install chromium`; .ci/run installs it)")
needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]
TIMEOUT = 120


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="llpbench-chromium-") as profile:
        proc = subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def dump_dom(page: Path) -> str:
    """The page's DOM as Chromium serialises it once loaded and its scripts have run."""
    return _run(["--dump-dom", page.resolve().as_uri()]).stdout


def screenshot(page: Path, png: Path, size: tuple[int, int] = (1280, 4000)) -> Path:
    """A PNG of the page's top ``size`` pixels."""
    _run([f"--screenshot={png}", f"--window-size={size[0]},{size[1]}",
          page.resolve().as_uri()])
    assert png.is_file() and png.stat().st_size > 0
    return png


def with_script(page: Path, script: str, out: Path) -> Path:
    """A copy of ``page`` that runs ``script`` after the page's own (to click headers and
    measure figures in the real browser); the page itself is left as it is."""
    text = page.read_text(encoding="utf-8")
    assert text.count("</body>") == 1
    out.write_text(text.replace("</body>", f"<script>{script}</script></body>"),
                   encoding="utf-8")
    return out
