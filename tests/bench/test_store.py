"""The results store keeps every finished row and nothing half-written, with one writer."""

from __future__ import annotations

import csv
import os
import re
import socket

import pandas as pd
import pytest

from llpbench.bench.layout import torn_last_row
from llpbench.bench.schema import COLUMNS
from llpbench.bench.store import (
    DISK_FULL_ENV,
    RunBusyError,
    RunStore,
    StoreWriteError,
    resolve_latest,
)
from llpbench.errors import LlpbenchError


def _row(rep: int, **extra):
    row = dict.fromkeys(COLUMNS, 0)
    row.update(graph="g", problem="sssp", kind="llp", solver="worklist", worklist="swb",
               threads=2, source=1, size=-1, seed=42, rep=rep, verified=True, delta=None)
    row.update(extra)
    return row


def test_rows_are_appended_and_known_as_done(tmp_path):
    store = RunStore.create(tmp_path)
    store.append(_row(0))
    store.append(_row(1))
    assert store.count_rows() == store.rows == 2
    assert RunStore.key_of(_row(1)) in store.done_keys()
    assert RunStore.key_of(_row(2)) not in store.done_keys()
    with open(store.runs_path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["delta"] == "" and rows[1]["rep"] == "1"


def test_a_run_becomes_latest_with_its_first_row_not_before(tmp_path):
    old = RunStore.create(tmp_path, "a")
    old.append(_row(0))
    old.close()
    new = RunStore.create(tmp_path, "b")
    assert resolve_latest(tmp_path) == old.run_dir
    new.append(_row(0))
    assert resolve_latest(tmp_path) == new.run_dir
    with pytest.raises(LlpbenchError, match="already exists"):
        RunStore.create(tmp_path, "b")


def test_discard_removes_a_new_folder_without_rows_and_keeps_one_with_rows(tmp_path):
    empty = RunStore.create(tmp_path, "empty")
    empty.discard()
    assert not empty.run_dir.exists()
    kept = RunStore.create(tmp_path, "kept")
    kept.append(_row(0))
    kept.discard()
    assert kept.count_rows() == 1


@pytest.mark.parametrize("tail", ["g,kronecker,12,3", "g,kronecker,12,3\n"])
def test_resume_drops_a_torn_last_row(tmp_path, tail):
    store = RunStore.create(tmp_path)
    store.append(_row(0))
    store.close()
    with open(store.runs_path, "a") as fh:
        fh.write(tail)  # a kill, or a full disk, in the middle of a write
    assert torn_last_row(store.runs_path.read_bytes()).line == 3
    resumed = RunStore.resume(tmp_path)
    assert resumed.run_dir == store.run_dir
    assert resumed.count_rows() == resumed.rows == 1
    assert torn_last_row(resumed.runs_path.read_bytes()) is None


def test_a_whole_last_row_is_not_torn(tmp_path):
    store = RunStore.create(tmp_path)
    assert torn_last_row(store.runs_path.read_bytes()) is None  # the header alone
    store.append(_row(0, config="a,b"))  # a quoted comma is one field
    assert torn_last_row(store.runs_path.read_bytes()) is None


def test_resume_without_a_run_is_a_clear_error(tmp_path):
    with pytest.raises(LlpbenchError, match="nothing to resume"):
        RunStore.resume(tmp_path)


def test_a_second_writer_is_refused_naming_the_holder(tmp_path):
    store = RunStore.create(tmp_path)
    store.append(_row(0))
    holder = re.escape(f"is being written by pid {os.getpid()} on {socket.gethostname()} (")
    with pytest.raises(RunBusyError, match=f"^{re.escape(str(store.run_dir))} {holder}"):
        RunStore.open(store.run_dir)
    store.close()
    with RunStore.open(store.run_dir) as again:  # free once the first lets go
        assert again.rows == 1


def test_a_failed_write_keeps_whole_rows_and_names_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv(DISK_FULL_ENV, "2")
    store = RunStore.create(tmp_path)
    store.append(_row(0))
    store.append(_row(1))
    kept = f"{store.runs_path}: No space left on device; 2 rows kept, resume with --resume"
    with pytest.raises(StoreWriteError, match=f"^{re.escape(kept)}$"):
        store.append(_row(2))
    assert store.count_rows() == 2
    assert torn_last_row(store.runs_path.read_bytes()) is None


def test_a_full_disk_still_turns_the_status_to_failed_in_place(tmp_path, monkeypatch):
    store = RunStore.create(tmp_path)
    store.write_meta({"status": "running", "rows": 3})
    monkeypatch.setattr("llpbench.bench.store.write_json_atomic",
                        lambda *a: (_ for _ in ()).throw(OSError(28, "No space left")))
    assert store.save_meta_best_effort({"status": "failed"})
    assert store.read_meta() == {"status": "failed", "rows": 3}


def test_metadata_is_replaced_atomically(tmp_path):
    store = RunStore.create(tmp_path)
    store.write_meta({"status": "running"})
    store.write_meta({"status": "finished", "n": 3})
    assert store.read_meta() == {"status": "finished", "n": 3}
    assert sorted(p.name for p in store.run_dir.iterdir()) == [
        "meta.json", "runs.csv", "writer.lock"
    ]


def _schema_1_run(tmp_path):
    """A runs.csv as schema 1 wrote it: one ``delta`` column for Δ-stepping's Δ (baseline
    rows, weight units) and the level worklists' width (LLP rows, priority units)."""
    old = [c for c in COLUMNS if c != "bucket_width"]
    rows = [
        _row(0, kind="baseline", solver="baseline", worklist="", config="delta-stepping",
             delta=8),
        _row(0, worklist="obim", config="worklist/obim", delta=4096),
        _row(0, worklist="swb", config="worklist/swb"),
    ]
    run = tmp_path / "old-run"
    run.mkdir()
    with open(run / "runs.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(old)
        for r in rows:
            writer.writerow(["" if r.get(c) is None else r[c] for c in old])
    return run


def test_a_schema_1_store_reads_its_level_widths_as_bucket_width(tmp_path):
    from llpbench.report.store import load_runs

    runs = load_runs(_schema_1_run(tmp_path))
    assert list(runs.columns) == list(COLUMNS)
    by_config = runs.set_index("config")
    assert by_config.loc["delta-stepping", "delta"] == 8
    assert pd.isna(by_config.loc["delta-stepping", "bucket_width"])
    assert by_config.loc["worklist/obim", "bucket_width"] == 4096
    assert pd.isna(by_config.loc["worklist/obim", "delta"])
    assert by_config.loc[["worklist/swb"], ["delta", "bucket_width"]].isna().all(axis=None)


def test_rows_keep_delta_and_bucket_width_in_their_own_columns(tmp_path):
    store = RunStore.create(tmp_path)
    store.append(_row(0, worklist="obim", bucket_width=512))
    store.append(_row(1, kind="baseline", worklist="", delta=8, bucket_width=None))
    with open(store.runs_path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["delta"], r["bucket_width"]) for r in rows] == [("", "512"), ("8", "")]


def test_a_schema_1_store_is_not_resumed_into_mixed_columns(tmp_path):
    run = _schema_1_run(tmp_path)
    with pytest.raises(LlpbenchError, match="columns differ from this version's"):
        RunStore.open(run)
