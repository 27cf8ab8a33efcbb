"""Fixtures shared by the whole test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATASETS = REPO.parent / "shared" / "datasets"


@pytest.fixture(scope="session")
def datasets_dir() -> Path:
    """The read-only real graphs in ``../shared/datasets`` (a test that needs them fails,
    loudly, when they are absent: they are part of what the suite checks)."""
    if not DATASETS.is_dir():
        pytest.fail(f"real datasets not found at {DATASETS}: clone beside shared/")
    return DATASETS
