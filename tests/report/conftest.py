"""The synthetic run every report test starts from (:func:`tests.report.write_run`)."""

from __future__ import annotations

import pytest

from llpbench.report.store import load_runs
from tests.report import write_run


@pytest.fixture
def run_dir(tmp_path):
    """A fresh synthetic run folder (its own results store) for one test."""
    return write_run(tmp_path / "results")


@pytest.fixture
def runs(run_dir):
    """That run's rows, typed."""
    return load_runs(run_dir)
