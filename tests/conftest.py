"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import lzma
import os
from pathlib import Path

import pytest
from hypothesis import settings

# A solve that runs this long in a test is a bug (a livelock): it fails with a clear error
# instead of hanging the suite (llpbench.llp.watchdog). Subprocesses inherit it.
os.environ.setdefault("LLPBENCH_SOLVE_TIMEOUT", "60")

# The README's test line is reproducible: hypothesis draws the same examples on every run
# ("ci", the default). `HYPOTHESIS_PROFILE=random pytest ...` explores new ones, each
# failure printed with the `@reproduce_failure` line that replays it.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("random", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parents[1]
EMBEDDED = REPO / "datasets"  # the real graphs embedded in the repository, as .xz
EMBEDDED_FILES = ("luxembourg_osm.mtx", "delaunay_n16.mtx", "cit-HepPh.txt")


@pytest.fixture(scope="session")
def datasets_dir(tmp_path_factory) -> Path:
    """A folder holding the embedded real graphs (``datasets/*.xz``) decompressed, byte for
    byte as published, for the tests that read, mutate or archive the plain files."""
    out = tmp_path_factory.mktemp("real-graphs")
    for name in EMBEDDED_FILES:
        (out / name).write_bytes(lzma.decompress((EMBEDDED / f"{name}.xz").read_bytes()))
    return out
