"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

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
