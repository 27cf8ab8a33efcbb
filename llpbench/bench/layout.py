"""The results store's layout on disk, defined once for its writer and its readers.

::

    <results>/
        latest              -> <run-id>   (a relative symlink, or a text file naming it)
        <run-id>/
            runs.csv        one row per timed solve (:data:`llpbench.bench.schema.COLUMNS`)
            meta.json       the sweep, its plan hash, the machine, each session, the status
            writer.lock     held (``flock``) by the one session writing the run

The writer (:mod:`llpbench.bench.store`) and the report (:mod:`llpbench.report.store`) both
read these names, ``latest`` and the torn-row rule from here, so the two cannot drift apart.

A *torn* last row is what a crash, a kill or a full disk leaves when a row was being
appended: no trailing newline, or fewer (or more) fields than the header. Rows are appended
whole and fsync'ed one at a time, so only the last line can be torn; readers leave it out
with a warning and ``--resume`` drops it and times that solve again.
"""

from __future__ import annotations

import csv
import os
import time
from dataclasses import dataclass
from pathlib import Path

from llpbench.io import atomic_symlink

RUNS = "runs.csv"
META = "meta.json"
LATEST = "latest"
LOCK = "writer.lock"


def new_run_id() -> str:
    """A sortable, unique-enough run id: UTC time to the second plus the process id."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + f"-{os.getpid() % 100000:05d}"


def is_run_dir(path: Path) -> bool:
    """Whether ``path`` is a run's folder (it holds ``runs.csv``)."""
    return (Path(path) / RUNS).is_file()


def point_latest(root: Path, run_dir: Path) -> None:
    """Make ``root/latest`` name ``run_dir``: a relative symlink, or a text file where
    symlinks are not allowed. Replaced atomically."""
    atomic_symlink(run_dir.name, root / LATEST)


def follow_latest(latest: Path) -> tuple[Path | None, str]:
    """The run a ``latest`` symlink, text file or copied folder names, and why not if none:
    ``(run folder, "")`` or ``(None, reason)``."""
    if latest.is_symlink():
        target = latest.resolve()
        if not target.exists():
            return None, f"`latest` points to {os.readlink(latest)}, gone"
    elif latest.is_file():
        try:
            text = latest.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            return None, f"cannot read `latest`: {exc}"
        if not text:
            return None, "`latest` is empty"
        named = Path(text.splitlines()[0].strip()).expanduser()
        target = named if named.is_absolute() else latest.parent / named
    elif latest.is_dir():
        target = latest  # a folder called latest (a copied symlink)
    else:
        return None, "no `latest` there"
    if not is_run_dir(target):
        return None, "the newest run has no runs.csv yet"
    return target, ""


@dataclass(frozen=True)
class TornRow:
    """A last row cut short: its line number, its fields against the header's, and how
    many bytes of the file come before it (what is kept)."""

    line: int
    fields: int
    expected: int
    keep_bytes: int

    def describe(self, path: Path) -> str:
        what = (f"{self.fields} of {self.expected} fields" if self.fields != self.expected
                else "no line end")
        return f"{path}:{self.line}: last row torn ({what}), as a crash or a full disk leaves it"


def torn_last_row(data: bytes) -> TornRow | None:
    """The torn last row of a ``runs.csv``'s bytes, or None if the last row is whole.

    A row is whole when it ends in a newline and has as many fields as the header.
    """
    if not data:
        return None
    body = data.rstrip(b"\n") if data.endswith(b"\n") else data
    cut = body.rfind(b"\n")
    if cut < 0:  # the header alone
        return None
    header = next(csv.reader([data[: data.find(b"\n")].decode("utf-8", "replace")]), [])
    last = body[cut + 1:].decode("utf-8", "replace")
    fields = len(next(csv.reader([last]), []))
    if data.endswith(b"\n") and fields == len(header):
        return None
    return TornRow(body.count(b"\n") + 1, fields, len(header), cut + 1)
