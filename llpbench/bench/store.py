"""The results store's writer: one run's folder (layout: :mod:`llpbench.bench.layout`),
written by one session at a time.

Why each rule:

- *One writer.* Two sessions appending to one ``runs.csv`` (two ``--resume`` at once) each
  time the cells the other is timing: duplicates every table would use, one session lost from
  ``meta.json``. A session holds an exclusive ``flock`` on ``writer.lock`` inside the folder
  for as long as it writes (the kernel lets go when the process dies, even by ``kill -9``);
  a second is refused with the holder's pid and host.
- *Every finished row kept, nothing half-written kept.* Rows are appended one timed solve at a
  time, flushed and fsync'ed. A write that fails (a full disk, a quota, any ``OSError``) is
  cut back to the last whole row and reported in one line naming the file and how many rows
  are kept; a row torn by a crash is dropped when the run is resumed (under the lock).
  ``meta.json`` is replaced atomically, never half-written.
- *``latest`` names a result.* A new run's folder becomes ``latest`` with its first row; a
  session that ends before its first row removes the folder it made (:meth:`RunStore.discard`).
"""

from __future__ import annotations

import contextlib
import csv
import errno
import fcntl
import io
import json
import os
import shutil
import socket
import time
from pathlib import Path
from typing import Any

from llpbench.bench.layout import (
    LOCK,
    META,
    RUNS,
    follow_latest,
    new_run_id,
    point_latest,
    torn_last_row,
)
from llpbench.bench.schema import CELL_KEY, COLUMNS
from llpbench.errors import LlpbenchError, SpecError
from llpbench.io import atomic_file, write_json_atomic

#: Test only: fail the append after this many rows of a session with ``ENOSPC``, after
#: writing half of the row, as a full disk does (see :func:`disk_full_after`).
DISK_FULL_ENV = "LLPBENCH_TEST_DISK_FULL_AFTER_ROWS"


class RunBusyError(LlpbenchError):
    """Another session is writing this run (it holds the run's lock)."""


class StoreWriteError(LlpbenchError):
    """Writing a row or the metadata failed (a full disk, a quota, ...); earlier rows kept."""

    exit_code = 1


def resolve_latest(root: Path) -> Path | None:
    """The run ``root/latest`` points at, or None."""
    return follow_latest(Path(root) / "latest")[0]


def disk_full_after() -> int | None:
    """The row count of :data:`DISK_FULL_ENV` (None when unset).

    Raises
    ------
    SpecError
        If it is set to anything but a count >= 0.
    """
    text = os.environ.get(DISK_FULL_ENV, "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise SpecError(f"{DISK_FULL_ENV}={text!r}: expected a row count >= 0")
    return int(text)


def _key(row: dict[str, Any]) -> tuple[str, ...]:
    return tuple("" if row[c] is None else str(row[c]) for c in (*CELL_KEY, "rep"))


class RunStore:
    """One run's folder: append rows, know which are done, keep the metadata.

    :meth:`create` and :meth:`open` take the run's lock; :meth:`close` (or leaving a ``with``
    block) lets it go. A store built directly (``RunStore(path)``) only reads.
    """

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.runs_path = self.run_dir / RUNS
        self.meta_path = self.run_dir / META
        self.created = False  # made by this session: removed if it ends before a row
        self.rows = 0  # rows in runs.csv (kept up to date while this session writes)
        self._latest_root: Path | None = None  # point root/latest here at the first row
        self._lock: int | None = None
        self._fail_after: int | None = None
        self._appended = 0

    @classmethod
    def create(cls, root: Path, run_id: str | None = None, *, latest: bool = True) -> RunStore:
        """A new, empty run folder under ``root``, locked; it becomes ``root/latest`` with its
        first row unless ``latest=False`` (a shard of a sweep is not a whole result)."""
        root = Path(root)
        check_results_root(root)
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SpecError(f"results folder {root} (--out or $LLPBENCH_RESULTS_DIR): cannot "
                            f"create it ({exc.strerror or exc}); give another --out") from None
        run_dir = root / (run_id or new_run_id())
        try:
            run_dir.mkdir()
        except FileExistsError:
            raise LlpbenchError(f"run folder {run_dir} already exists") from None
        store = cls(run_dir)
        store.created = True
        store._latest_root = root if latest else None
        try:
            store._acquire()
            with atomic_file(store.runs_path, "w", newline="") as fh:  # header; rows append
                csv.writer(fh).writerow(COLUMNS)
        except BaseException:
            store.discard()
            raise
        return store

    @classmethod
    def resume(cls, root: Path) -> RunStore:
        """The latest run under ``root``, locked, its torn last row (if any) dropped."""
        run_dir = resolve_latest(Path(root))
        if run_dir is None:
            raise LlpbenchError(f"nothing to resume: no run in {root} (run without --resume)")
        return cls.open(run_dir)

    @classmethod
    def open(cls, run_dir: Path) -> RunStore:
        """An existing run folder, to continue: locked, its torn last row (if any) dropped."""
        store = cls(run_dir)
        store._acquire()
        try:
            store._repair()
        except BaseException:
            store.close()
            raise
        store.rows = store.count_rows()
        return store

    # -- the one-writer lock ------------------------------------------------------------

    def _acquire(self) -> None:
        """Take the run's lock, or refuse naming the session that holds it."""
        self._fail_after = disk_full_after()
        fd = os.open(self.run_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 4096).decode("utf-8", "replace")
            os.close(fd)
            raise RunBusyError(f"{self.run_dir} is being written by {_describe(holder)}: "
                               "wait for it to end, or give another --out") from None
        except BaseException:
            os.close(fd)
            raise
        if not _still_the_lock_file(fd, self.run_dir / LOCK):  # removed by a writer that just
            os.close(fd)  # finished (close): this lock guards nothing; take the new file's
            return self._acquire()
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(_holder()).encode(), 0)
        self._lock = fd

    def close(self) -> None:
        """Let go of the run's lock (idempotent), removing ``writer.lock``: a finished run
        folder holds its results only. Removed while still held, so a session that opened
        the file meanwhile finds it gone once it gets the flock, and opens a new one."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._lock, 0)
            with contextlib.suppress(OSError):
                (self.run_dir / LOCK).unlink()
            os.close(self._lock)  # closing the descriptor releases the flock
            self._lock = None

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def discard(self) -> None:
        """Remove the folder this session created, before any row was written into it."""
        self.close()
        if self.created and self.rows == 0:
            shutil.rmtree(self.run_dir, ignore_errors=True)

    # -- rows ---------------------------------------------------------------------------

    def _repair(self) -> None:
        """Drop a torn last row (a kill, a crash or a full disk in the middle of a write)."""
        with open(self.runs_path, "rb+") as fh:
            torn = torn_last_row(fh.read())
            if torn is not None:
                fh.truncate(torn.keep_bytes)
                fh.flush()
                os.fsync(fh.fileno())
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
        """Append one row and push it to disk before returning.

        Raises
        ------
        StoreWriteError
            If the write fails: the file is cut back to its last whole row first, and the
            message names the file and the rows kept.
        """
        buf = io.StringIO()
        csv.writer(buf).writerow(["" if row.get(c) is None else row.get(c) for c in COLUMNS])
        data = buf.getvalue().encode()
        # Unbuffered: a buffered file retries a short write at close, outside any handler,
        # and cannot be cut back while it still holds bytes the disk refused.
        fd = os.open(self.runs_path, os.O_WRONLY | os.O_APPEND)
        try:
            size = os.fstat(fd).st_size
            if self._fail_after is not None and self._appended >= self._fail_after:
                os.write(fd, data[: len(data) // 2])  # the part a full disk still takes
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)  # the torn row goes, and frees what it took
            raise self._write_error(self.runs_path, exc) from None
        finally:
            os.close(fd)
        self.rows += 1
        self._appended += 1
        if self._latest_root is not None:
            try:
                point_latest(self._latest_root, self.run_dir)
            except OSError as exc:
                raise self._write_error(self._latest_root / "latest", exc) from None
            self._latest_root = None

    def _write_error(self, path: Path, exc: OSError) -> StoreWriteError:
        return StoreWriteError(f"{path}: {exc.strerror or exc}; {self.rows} rows kept, "
                               "resume with --resume")

    # -- metadata -----------------------------------------------------------------------

    def read_meta(self) -> dict[str, Any]:
        try:
            return json.loads(self.meta_path.read_text())
        except (OSError, ValueError):
            return {}

    def write_meta(self, meta: dict[str, Any]) -> None:
        """Replace ``meta.json`` atomically.

        Raises
        ------
        StoreWriteError
            Naming ``meta.json`` and the rows kept, if it cannot be written.
        """
        try:
            write_json_atomic(self.meta_path, meta)
        except OSError as exc:
            raise self._write_error(self.meta_path, exc) from None

    def save_meta_best_effort(self, meta: dict[str, Any]) -> bool:
        """Write ``meta`` if the disk lets us; else at least turn the status on disk from
        ``running`` into ``meta["status"]``, in place, in the bytes it already has (a full
        disk has none to spare). Returns whether either worked."""
        try:
            write_json_atomic(self.meta_path, meta)
            return True
        except OSError:
            pass
        try:
            with open(self.meta_path, "r+b") as fh:
                text = fh.read()
                old = b'"status": "running"'
                new = f'"status": "{meta.get("status", "failed")}"'.encode()
                if old not in text or len(new) > len(old):
                    return False
                fh.seek(0)
                fh.write(text.replace(old, new.ljust(len(old)), 1))
                fh.flush()
                os.fsync(fh.fileno())
            return True
        except OSError:
            return False

    @staticmethod
    def key_of(row: dict[str, Any]) -> tuple[str, ...]:
        return _key(row)


def _holder() -> dict[str, Any]:
    return {"pid": os.getpid(), "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def check_results_root(root: Path) -> None:
    """Refuse, in one line and before anything is timed, a results folder (``--out`` or
    ``$LLPBENCH_RESULTS_DIR``) that is a file, or that cannot be created or written here.

    Raises
    ------
    SpecError
        Naming the folder and what is wrong with it.
    """
    root = Path(root)
    what = f"results folder {root} (--out or $LLPBENCH_RESULTS_DIR)"
    if root.exists() and not root.is_dir():
        raise SpecError(f"{what}: a file is there, not a folder; give a folder to --out")
    existing = root
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise SpecError(f"{what}: {existing} is a file, so no folder can be made there")
    if not os.access(existing, os.W_OK | os.X_OK):
        verb = "write in it" if existing == root else f"create it in {existing}"
        raise SpecError(f"{what}: cannot {verb} (permission denied); give another --out")


def _still_the_lock_file(fd: int, path: Path) -> bool:
    """Whether the locked descriptor ``fd`` is still the file at ``path`` (not one a
    finishing writer removed between our open and our flock)."""
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def _describe(text: str) -> str:
    """``pid 123 on host h since ...`` from a lock file's contents."""
    try:
        info = json.loads(text)
        return f"pid {info['pid']} on {info['host']} (since {info['since']})"
    except (ValueError, KeyError, TypeError):
        return "another session"
