"""The results store keeps every finished row and nothing half-written."""

from __future__ import annotations

import csv

import pytest

from llpbench.bench.schema import COLUMNS
from llpbench.bench.store import RunStore, resolve_latest
from llpbench.errors import LlpbenchError


def _row(rep: int, **extra):
    row = dict.fromkeys(COLUMNS, 0)
    row.update(graph="g", problem="sssp", kind="llp", solver="worklist", worklist="swb",
               threads=2, source=1, size=-1, seed=42, rep=rep, verified=True, delta=None)
    row.update(extra)
    return row


def test_rows_are_appended_and_known_as_done(tmp_path):
    store = RunStore.create(tmp_path)
    assert resolve_latest(tmp_path) == store.run_dir
    store.append(_row(0))
    store.append(_row(1))
    assert store.count_rows() == 2
    assert RunStore.key_of(_row(1)) in store.done_keys()
    assert RunStore.key_of(_row(2)) not in store.done_keys()
    with open(store.runs_path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["delta"] == "" and rows[1]["rep"] == "1"


def test_resume_drops_a_line_cut_short_by_a_kill(tmp_path):
    store = RunStore.create(tmp_path)
    store.append(_row(0))
    with open(store.runs_path, "a") as fh:
        fh.write("g,kronecker,12,3")  # a kill in the middle of a write
    resumed = RunStore.resume(tmp_path)
    assert resumed.run_dir == store.run_dir
    assert resumed.count_rows() == 1
    assert resumed.runs_path.read_text().endswith("\n")


def test_resume_without_a_run_is_a_clear_error(tmp_path):
    with pytest.raises(LlpbenchError, match="nothing to resume"):
        RunStore.resume(tmp_path)


def test_latest_follows_the_newest_run(tmp_path):
    first = RunStore.create(tmp_path, "a")
    second = RunStore.create(tmp_path, "b")
    assert resolve_latest(tmp_path) == second.run_dir != first.run_dir
    with pytest.raises(LlpbenchError, match="already exists"):
        RunStore.create(tmp_path, "b")


def test_metadata_is_replaced_atomically(tmp_path):
    store = RunStore.create(tmp_path)
    store.write_meta({"status": "running"})
    store.write_meta({"status": "finished", "n": 3})
    assert store.read_meta() == {"status": "finished", "n": 3}
    assert sorted(p.name for p in store.run_dir.iterdir()) == ["meta.json", "runs.csv"]
