"""The results store: ``<results>/<run-id>/`` with ``runs.csv``, ``meta.json``, and
``<results>/latest`` pointing at the newest run.

Rows are appended one timed solve at a time, flushed and fsync'ed, so an interrupted sweep
(Ctrl-C, kill, a full disk) keeps every finished row; a line cut short by a kill is dropped
when the run is resumed. ``meta.json`` is replaced atomically, never half-written.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from llpbench.bench.schema import CELL_KEY, COLUMNS
from llpbench.errors import LlpbenchError

RUNS = "runs.csv"
META = "meta.json"
LATEST = "latest"


def new_run_id() -> str:
    """A sortable, unique-enough run id: UTC time to the second plus the process id."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + f"-{os.getpid() % 100000:05d}"


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to ``path`` through a temporary file and a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh, indent=2, sort_keys=True, default=str)
            os.fchmod(fh.fileno(), 0o644)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def point_latest(root: Path, run_dir: Path) -> None:
    """Make ``root/latest`` name ``run_dir``: a relative symlink, or a text file where
    symlinks are not allowed. Replaced atomically."""
    link = root / LATEST
    tmp = root / f".{LATEST}.{os.getpid()}"
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    try:
        os.symlink(run_dir.name, tmp)
    except OSError:
        tmp.write_text(run_dir.name + "\n")
    os.replace(tmp, link)


def resolve_latest(root: Path) -> Path | None:
    """The run ``root/latest`` points at, or None."""
    link = root / LATEST
    if link.is_symlink():
        target = root / os.readlink(link)
    elif link.is_file():
        target = root / link.read_text().strip()
    else:
        return None
    return target if (target / RUNS).is_file() else None


def _key(row: dict[str, Any]) -> tuple[str, ...]:
    return tuple("" if row[c] is None else str(row[c]) for c in (*CELL_KEY, "rep"))


class RunStore:
    """One run's folder: append rows, know which are done, keep the metadata."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.runs_path = self.run_dir / RUNS
        self.meta_path = self.run_dir / META

    @classmethod
    def create(cls, root: Path, run_id: str | None = None, *, latest: bool = True) -> RunStore:
        """A new, empty run folder under ``root`` (which becomes ``latest`` unless
        ``latest=False``: a shard of a sweep is not a whole result)."""
        root.mkdir(parents=True, exist_ok=True)
        run_dir = root / (run_id or new_run_id())
        if run_dir.exists():
            raise LlpbenchError(f"run folder {run_dir} already exists")
        run_dir.mkdir()
        store = cls(run_dir)
        with open(store.runs_path, "w", newline="") as fh:
            csv.writer(fh).writerow(COLUMNS)
            fh.flush()
            os.fsync(fh.fileno())
        if latest:
            point_latest(root, run_dir)
        return store

    @classmethod
    def resume(cls, root: Path) -> RunStore:
        """The latest run under ``root``, its last partial line (if any) dropped."""
        run_dir = resolve_latest(root)
        if run_dir is None:
            raise LlpbenchError(f"nothing to resume: no run in {root} (run without --resume)")
        return cls.open(run_dir)

    @classmethod
    def open(cls, run_dir: Path) -> RunStore:
        """An existing run folder, to continue: its last partial line (if any) dropped."""
        store = cls(run_dir)
        store._repair()
        return store

    def _repair(self) -> None:
        """Drop a last line cut short by a kill (no trailing newline)."""
        with open(self.runs_path, "rb+") as fh:
            data = fh.read()
            if data and not data.endswith(b"\n"):
                fh.truncate(data.rfind(b"\n") + 1)
        header = self.runs_path.read_text().split("\n", 1)[0]
        if header.split(",") != list(COLUMNS):
            raise LlpbenchError(f"{self.runs_path}: columns differ from this version's; start anew")

    def done_keys(self) -> set[tuple[str, ...]]:
        """Cell keys (with the repetition) of every row already stored."""
        with open(self.runs_path, newline="") as fh:
            return {_key(row) for row in csv.DictReader(fh)}

    def count_rows(self) -> int:
        with open(self.runs_path, newline="") as fh:
            return sum(1 for _ in csv.DictReader(fh))

    def append(self, row: dict[str, Any]) -> None:
        """Append one row and push it to disk before returning."""
        buf = io.StringIO()
        csv.writer(buf).writerow(["" if row.get(c) is None else row.get(c) for c in COLUMNS])
        with open(self.runs_path, "a", newline="") as fh:
            fh.write(buf.getvalue())
            fh.flush()
            os.fsync(fh.fileno())

    def read_meta(self) -> dict[str, Any]:
        try:
            return json.loads(self.meta_path.read_text())
        except (OSError, ValueError):
            return {}

    def write_meta(self, meta: dict[str, Any]) -> None:
        write_json_atomic(self.meta_path, meta)

    @staticmethod
    def key_of(row: dict[str, Any]) -> tuple[str, ...]:
        return _key(row)
