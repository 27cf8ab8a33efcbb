"""Fetch Matrix Market files from the SuiteSparse Matrix Collection into the on-disk cache.

:func:`fetch_suitesparse` downloads ``<base>/MM/<group>/<name>.tar.gz``, checks it, extracts
the one member ``<name>/<name>.mtx`` to ``<cache_dir>/<name>.mtx`` and records the archive's
size and sha256 (and the extracted file's) in ``<cache_dir>/<name>.tar.gz.json``. A later call
whose cached ``.mtx`` still matches that record touches no network at all. Any failure leaves
nothing half-written in the cache directory and raises :class:`~llpbench.errors.DownloadError`
with one line naming the URL and how to place the file by hand.

Why not pooch
-------------
pooch is the scientific-Python standard for fetch + hash + cache, and it does part of this
well: a download streamed to a temporary file, hash-checked, then renamed, with a pluggable
progress bar. It cannot do the rest (checked against the pooch 1.9 sources):

- retries: ``pooch.retrieve`` has none (``retry_if_failed`` exists only on a registry-based
  ``Pooch``), and no download can be resumed: ``HTTPDownloader`` opens its output with
  ``"w+b"`` and never shows the response status, so a ``Range`` request cannot be appended
  safely (a server that ignores ``Range`` answers 200 with the whole file);
- extraction: ``Untar`` calls ``tarfile.extractall`` into ``<archive>.untar/`` in place (not
  atomically), passes the ``data`` safety filter only on Python >= 3.12 (we support 3.11),
  and does not refuse an archive with links or ``..`` members;
- caching: its reuse check hashes the archive, so the archive must be kept next to the
  extracted file; here only the ``.mtx`` is kept and is itself what gets checked.

Working around all three would leave pooch doing one ``requests.get``, so this module uses the
standard library (``urllib``, ``tarfile``, ``hashlib``) directly, with rich for the progress
bar; ``tests/graphs/test_download.py`` exercises it against a real local HTTP server.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import re
import socket
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import zlib
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from llpbench.errors import DownloadError
from llpbench.io import atomic_file, atomic_path, file_sha256, write_json_atomic

__all__ = ["DEFAULT_BASE_URL", "ENV_BASE_URL", "fetch_suitesparse"]

DEFAULT_BASE_URL = "https://sparse.tamu.edu"
ENV_BASE_URL = "LLPBENCH_SUITESPARSE_URL"

_ATTEMPTS = 4  # one try and three retries after a dropped connection or a 5xx answer
_BACKOFF_S = 0.5  # wait before retry k: _BACKOFF_S * 2**(k - 1)
_TIMEOUT_S = 60.0
_CHUNK = 1 << 20
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")


def fetch_suitesparse(
    group: str,
    name: str,
    cache_dir: str | Path,
    *,
    base_url: str | None = None,
    sha256: str | None = None,
    progress: bool = True,
) -> Path:
    """Download SuiteSparse matrix ``group/name`` and return the path of its ``.mtx`` file.

    Parameters
    ----------
    group, name : str
        The collection's group and matrix name, e.g. ``"DIMACS10"``, ``"luxembourg_osm"``.
    cache_dir : str or Path
        Where ``<name>.mtx`` and its record ``<name>.tar.gz.json`` live (created if needed).
    base_url : str, optional
        Server root; default ``$LLPBENCH_SUITESPARSE_URL`` or ``https://sparse.tamu.edu``.
    sha256 : str, optional
        Expected sha256 of the ``.tar.gz`` archive; a cached copy recorded with another
        checksum is fetched again.
    progress : bool
        Show a rich progress bar on stderr while downloading.

    Returns
    -------
    Path
        ``<cache_dir>/<name>.mtx``.

    Raises
    ------
    DownloadError
        The server cannot be reached or answers with an error, the connection keeps dropping,
        the checksum differs, or the archive is corrupt, unsafe or lacks ``<name>/<name>.mtx``.
    """
    for label, value in (("group", group), ("name", name)):
        if not _SAFE_NAME.match(value) or ".." in value:
            raise DownloadError(
                f"invalid SuiteSparse {label} {value!r}: expected letters, "
                "digits, '_', '-', '+' or '.'"
            )
    cache_dir = Path(cache_dir)
    base = (base_url or os.environ.get(ENV_BASE_URL) or DEFAULT_BASE_URL).rstrip("/")
    url = f"{base}/MM/{group}/{name}.tar.gz"
    member = f"{name}/{name}.mtx"
    target = cache_dir / f"{name}.mtx"
    record_path = cache_dir / f"{name}.tar.gz.json"
    hint = f"to place it by hand, download {url} and extract {member} to {target}"
    expected = sha256.lower() if sha256 else None
    if _cached(target, record_path, expected):
        return target
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DownloadError(
            f"cannot create cache directory {cache_dir}: {exc.strerror or exc}; {hint}"
        ) from exc

    temps: list[Path] = []
    try:
        archive = _temp(cache_dir, f"{name}.tar.gz", temps)
        size, digest = _download(url, archive, progress, hint)
        if expected is not None and digest != expected:
            raise DownloadError(
                f"{url}: sha256 of the archive is {digest}, expected {expected}; "
                f"{hint} if you trust it"
            )
        with atomic_path(target) as extracted:
            mtx_size, mtx_digest = _extract(archive, member, extracted, url, hint)
        record = {
            "url": url,
            "member": member,
            "archive_size": size,
            "archive_sha256": digest,
            "mtx_size": mtx_size,
            "mtx_sha256": mtx_digest,
            "fetched": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        try:  # the record last: a target without its record is fetched again
            write_json_atomic(record_path, record, indent=1, sort_keys=False)
        except OSError:
            target.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise DownloadError(
            f"cannot write into {cache_dir}: {exc.strerror or exc}; {hint}"
        ) from exc
    finally:
        for tmp in temps:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
    return target


def _temp(directory: Path, name: str, temps: list[Path]) -> Path:
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".part")
    os.close(fd)
    temps.append(Path(tmp))
    return Path(tmp)


def _cached(target: Path, record_path: Path, expected: str | None) -> bool:
    """Whether ``target`` is a complete earlier download (checked against its record)."""
    try:
        record: Any = json.loads(record_path.read_text())
        if not isinstance(record, dict) or record.get("mtx_size") != target.stat().st_size:
            return False
        if expected is not None and record.get("archive_sha256") != expected:
            return False
        return file_sha256(target) == record.get("mtx_sha256")
    except (OSError, ValueError):
        return False


class _Bar:
    """A rich download bar, or nothing when disabled."""

    def __init__(self, enabled: bool, label: str) -> None:
        self._progress = None
        if enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                DownloadColumn(),
                TransferSpeedColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
            )
            self._task = self._progress.add_task(label, total=None)

    def __enter__(self) -> _Bar:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def set(self, total: int | None, completed: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, total=total, completed=completed)

    def advance(self, step: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, step)


def _content_range(resp: http.client.HTTPResponse) -> tuple[int, int | None] | None:
    """``(first byte, total size)`` of a 206 answer, from ``Content-Range: bytes a-b/total``."""
    match = re.fullmatch(r"bytes (\d+)-\d+/(\d+|\*)", resp.headers.get("Content-Range", ""))
    if not match:
        return None
    return int(match[1]), None if match[2] == "*" else int(match[2])


def _download(url: str, dest: Path, progress: bool, hint: str) -> tuple[int, str]:
    """Stream ``url`` into ``dest``, retrying and resuming; return its size and sha256."""
    have, total, why = 0, None, ""
    headers = {"User-Agent": "llpbench", "Accept-Encoding": "identity"}
    with atomic_file(dest, "wb") as out, _Bar(progress, url.rsplit("/", 1)[-1]) as bar:
        for attempt in range(_ATTEMPTS):
            if attempt:
                time.sleep(_BACKOFF_S * 2 ** (attempt - 1))
            request = urllib.request.Request(url, headers=headers)
            if have:
                request.add_header("Range", f"bytes={have}-")
            try:
                with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as resp:
                    span = _content_range(resp) if resp.status == 206 else None
                    if have and span is not None and span[0] == have:
                        total = span[1]
                    elif resp.status == 200:
                        have, total = 0, None
                        out.seek(0)
                        out.truncate()
                        length = resp.headers.get("Content-Length")
                        total = int(length) if length and length.isdigit() else None
                    else:
                        have, why = 0, f"unexpected answer {resp.status} to a resumed download"
                        continue
                    bar.set(total, have)
                    while chunk := resp.read(_CHUNK):
                        out.write(chunk)
                        have += len(chunk)
                        bar.advance(len(chunk))
                if total is None or have == total:
                    break
                why = f"connection closed after {have} of {total} bytes"
            except urllib.error.HTTPError as exc:
                if exc.code < 500 and exc.code not in (408, 429):
                    raise DownloadError(
                        f"cannot download {url}: HTTP {exc.code} {exc.reason}; {hint}"
                    ) from exc
                why = f"HTTP {exc.code} {exc.reason}"
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, ConnectionRefusedError | socket.gaierror):
                    raise DownloadError(
                        f"cannot download {url}: {exc.reason} (offline?); {hint}"
                    ) from exc
                why = str(exc.reason)
            except (http.client.HTTPException, OSError) as exc:
                why = f"{type(exc).__name__}: {exc}"
        else:
            raise DownloadError(
                f"cannot download {url}: {why} (after {_ATTEMPTS} attempts); {hint}"
            )
    return have, file_sha256(dest)


def _unsafe(info: tarfile.TarInfo) -> str | None:
    """Why extracting this member could write outside its directory, or None."""
    path = PurePosixPath(info.name)
    if path.is_absolute() or info.name.startswith("\\") or re.match(r"[A-Za-z]:", info.name):
        return "has an absolute path"
    if ".." in path.parts:
        return "escapes the archive with '..'"
    if info.issym() or info.islnk():
        return "is a link"
    if not (info.isfile() or info.isdir()):
        return "is not a regular file or directory"
    return None


def _extract(archive: Path, member: str, dest: Path, url: str, hint: str) -> tuple[int, str]:
    """Copy the one expected member of ``archive`` into ``dest``; return its size and sha256.

    The archive is refused as a whole if any member is absolute, contains ``..``, or is a link
    or device, even one that would not be extracted: such an archive is not what the
    collection publishes.
    """
    size, digest, found = 0, hashlib.sha256(), False
    try:
        with tarfile.open(archive, mode="r|gz") as tar, open(dest, "wb") as out:
            for info in tar:
                problem = _unsafe(info)
                if problem:
                    raise DownloadError(
                        f"{url}: archive member {info.name!r} {problem}; "
                        f"refusing the archive; {hint}"
                    )
                if str(PurePosixPath(info.name)) != member:
                    continue
                if found:
                    raise DownloadError(f"{url}: archive holds {member} twice; {hint}")
                found = True
                source = tar.extractfile(info)
                assert source is not None  # a regular file, checked above
                while chunk := source.read(_CHUNK):
                    out.write(chunk)
                    digest.update(chunk)
                    size += len(chunk)
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        raise DownloadError(f"{url}: archive is corrupt or truncated ({exc}); {hint}") from exc
    if not found:
        raise DownloadError(f"{url}: archive has no member {member}; {hint}")
    return size, digest.hexdigest()
