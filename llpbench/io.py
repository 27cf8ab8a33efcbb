"""Atomic file writes and digests: the ground floor every package of llpbench writes through.

A reader (a second shard, ``llpbench report`` during a run, a later session after a crash)
must never see a half-written file. Every writer therefore writes a temporary file in the
target's own folder (a rename across file systems is not atomic), flushes and fsyncs it,
gives it the mode a plain ``open`` would, and renames it onto the target with
``os.replace``; on any failure the temporary file is removed and the target is left as it
was. This was written out by hand in nine modules before; it is written once here, in one
function (:func:`atomic_path`) that every other writer here goes through:

- :func:`write_bytes_atomic`, :func:`write_text_atomic`, :func:`write_json_atomic`: a whole
  file at once;
- :func:`atomic_file`: a file handle to stream into (a download, ``np.savez``, a CSV writer);
- :func:`atomic_path`: a temporary path, for a writer that wants a name (``savefig``);
- :func:`publish`: a file another program finished, moved onto its target.

``parents=True`` makes the target's folder first (a run's ``tables/``, a script's output).
Appending to a file (a run's ``runs.csv``, one fsync'ed row at a time) is not a rewrite and
is left to its owner, :mod:`llpbench.bench.store`.

Imports only the standard library, so any package may use it (see ``ARCHITECTURE.md``).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = [
    "FILE_MODE",
    "atomic_file",
    "atomic_path",
    "atomic_symlink",
    "file_sha256",
    "publish",
    "sha256_hex",
    "write_bytes_atomic",
    "write_json_atomic",
    "write_text_atomic",
]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: Mode of every file written: what a plain ``open`` gives under the umask (0644 under the
#: usual 022), not ``mkstemp``'s 0600: caches and results are shared.
FILE_MODE = 0o666 & ~_umask()

_CHUNK = 1 << 20


def _temp_beside(path: Path) -> Path:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    os.close(fd)
    return Path(tmp)


def _fsync(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


def publish(finished: str | os.PathLike[str], path: str | os.PathLike[str]) -> Path:
    """Rename the complete file ``finished`` onto ``path`` (same file system), durably.

    For a file another program wrote (GAP's converter, an extractor); ``finished`` is
    fsync'ed and made :data:`FILE_MODE` first. Returns ``path``.
    """
    path = Path(path)
    _fsync(Path(finished))
    os.chmod(finished, FILE_MODE)
    os.replace(finished, path)
    return path


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, parents: bool = False) -> Iterator[Path]:
    """A temporary path beside ``path`` to write by name (``savefig``, a converter); when
    the block ends cleanly it is fsync'ed and renamed onto ``path``, else removed.
    ``parents``: make ``path``'s folder (and its parents) first."""
    path = Path(path)
    if parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temp_beside(path)
    try:
        yield tmp
        publish(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


@contextlib.contextmanager
def atomic_file(
    path: str | os.PathLike[str],
    mode: str = "wb",
    *,
    encoding: str | None = None,
    newline: str | None = None,
    parents: bool = False,
) -> Iterator[IO[Any]]:
    """An open temporary file beside ``path`` (``mode`` ``"wb"`` or ``"w"``) to stream into;
    renamed onto ``path`` when the block ends cleanly, else removed (see :func:`atomic_path`
    for ``parents``)."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_file writes a new file: mode 'w' or 'wb', not {mode!r}")
    with (atomic_path(path, parents=parents) as tmp,
          open(tmp, mode, encoding=encoding, newline=newline) as fh):
        yield fh


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes, *,
                       parents: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically; return ``path``."""
    with atomic_file(path, "wb", parents=parents) as fh:
        fh.write(data)
    return Path(path)


def write_text_atomic(path: str | os.PathLike[str], text: str, *,
                      parents: bool = False) -> Path:
    """Write ``text`` (UTF-8, newlines as given) to ``path`` atomically; return ``path``."""
    with atomic_file(path, "w", encoding="utf-8", newline="", parents=parents) as fh:
        fh.write(text)
    return Path(path)


def write_json_atomic(
    path: str | os.PathLike[str], data: Any, *, indent: int = 2, sort_keys: bool = True
) -> Path:
    """Write ``data`` as JSON (non-JSON values as ``str``, one final newline) atomically."""
    text = json.dumps(data, indent=indent, sort_keys=sort_keys, default=str)
    return write_text_atomic(path, text + "\n")


def atomic_symlink(target: str, link: str | os.PathLike[str]) -> Path:
    """Make ``link`` a symlink to ``target`` (or, where symlinks are refused, a text file
    holding it), replacing what was there in one rename."""
    link = Path(link)
    tmp = link.parent / f".{link.name}.{os.getpid()}"
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    try:
        os.symlink(target, tmp)
    except OSError:
        tmp.write_text(target + "\n")
    os.replace(tmp, link)
    return link


def json_default(value: Any) -> Any:
    """``json.dumps``'s ``default=`` for what llpbench writes: numpy scalars and arrays (by
    their ``tolist``, so numpy is not imported here) and paths."""
    if isinstance(value, Path):
        return str(value)
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def sha256_hex(*parts: str | bytes | memoryview) -> str:
    """SHA-256 (hex) of ``parts`` in order; text is UTF-8."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
    return digest.hexdigest()


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 (hex) of the file at ``path``, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


@contextlib.contextmanager
def exclusive_beside(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold an exclusive lock on ``<path>.lock`` (created beside it) while ``path`` is looked
    up or rebuilt, so that one process tunes (Δ, GAP's Δ) and the others reuse its cache.
    Where the filesystem has no locks, each goes on its own (rows record what each used)."""
    path = Path(path)
    lock = path.with_name(path.name + ".lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        fh = open(lock, "a")  # closed below, which releases the lock
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        fh.close()
