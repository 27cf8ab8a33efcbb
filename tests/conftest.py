"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import lzma
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from llpbench.baselines.delta.family import CACHE_NAME as TUNED_DELTA_FILE

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


@pytest.fixture(scope="session")
def tuned_delta_cache(tmp_path_factory) -> Path:
    """The tuned-Δ file of a datasets cache after one real sweep of ``tiny-kron`` at 1 and 2
    threads: Δ-stepping's Δ and the level worklists' width for the kronecker family, tuned
    once for the session on its reference graph (kron-2e16) through the real command.

    Tuning that family takes about 25 s; the CLI tests that only *use* a Δ start from a copy
    of this file (:func:`seed_tuned_delta`) instead of each tuning again in a fresh cache.
    The tests of the tuning itself (``tests/baselines/test_delta_family.py``, the
    CLI tests marked ``empty_cache``) still start from nothing.
    """
    root = tmp_path_factory.mktemp("tuned-delta")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLPBENCH_")}
    env.update(LLPBENCH_DATA_DIR=str(root / "cache"),
               LLPBENCH_SOLVE_TIMEOUT=os.environ["LLPBENCH_SOLVE_TIMEOUT"])  # set above
    proc = subprocess.run(
        [sys.executable, "-m", "llpbench", "run", "--graph", "tiny-kron", "--threads", "1,2",
         "--worklist", "obim", "--reps", "1", "--sources", "1", "--no-progress",
         "--out", str(root / "results")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    tuned = root / "cache" / TUNED_DELTA_FILE
    assert tuned.is_file(), f"the sweep tuned no Δ: {sorted(p.name for p in root.rglob('*'))}"
    return tuned


def seed_tuned_delta(data_dir: Path, tuned: Path) -> Path:
    """Copy the session's tuned-Δ file into the datasets cache ``data_dir``; returns it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(tuned, data_dir / TUNED_DELTA_FILE)
    return data_dir
