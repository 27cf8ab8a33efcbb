"""Fetch Matrix Market files from the SuiteSparse Matrix Collection into the on-disk cache.

:func:`fetch_suitesparse` downloads ``<base>/MM/<group>/<name>.tar.gz``, checks it, extracts
the one member ``<name>/<name>.mtx`` to ``<cache_dir>/<name>.mtx`` and records the archive's
size and sha256 (and the extracted file's) in ``<cache_dir>/<name>.tar.gz.json``. A later call
whose cached ``.mtx`` still matches that record touches no network at all. Any failure raises
:class:`~llpbench.errors.DownloadError` with one line naming the URL and how to place the file
by hand, and leaves no half-written ``.mtx`` or record behind.

Sizes and memory
----------------
The paper's largest downloads (DIMACS10 ``asia_osm``, ``coAuthorsDBLP``) are hundreds of MB
compressed. The archive is streamed to disk in chunks of at most 1 MiB (with a rich progress
bar on stderr), hashed from disk, and extracted by streaming: :mod:`gzip` decompresses the
file as it is read (checking every gzip member's CRC-32 and length at its end, which
:mod:`tarfile`'s own stream mode does not), :mod:`tarfile` walks it in stream mode and the
member is copied to its target in 1 MiB chunks. Neither the compressed nor the decompressed
file is ever held in memory; ``tests/graphs/test_download_resume.py`` bounds a child
process's peak RSS while it fetches a 40 MB archive of the real layout.

Resuming across processes
-------------------------
The archive is downloaded into ``<cache_dir>/.<name>.tar.gz.part`` (always that name), and
before its first byte is written a sidecar ``.<name>.tar.gz.part.json`` (written atomically)
records the URL, the server's validators (``ETag``, ``Last-Modified``) and the total size.
Inside one process a dropped connection or a 5xx answer is retried (:data:`_ATTEMPTS` times
in all) with ``Range: bytes=<kept>-``. When the process ends before the archive is complete
(killed, Ctrl-C, retries exhausted, the disk full), the partial file and its sidecar stay;
the error says how many bytes were kept and that the next run resumes. The next call whose
sidecar names the same URL asks for ``Range: bytes=<size of the partial>-`` with
``If-Range: <strong ETag, else Last-Modified>``:

- a 206 whose ``Content-Range`` starts at that size (same total, same validators) is
  appended to the partial file;
- a 200 (the server ignores ``Range``, or ``If-Range`` found the file changed) truncates the
  partial file, records the new validators and starts again from byte 0; so does a partial
  file longer than the recorded total, a sidecar for another URL or one without a validator
  (resuming a file whose version cannot be checked is not safe); a 416 restarts too, unless
  it says the partial file already has every byte;
- a partial file that already holds the recorded total is checked and extracted with no
  request at all (an earlier run was killed while extracting).

The partial file and its sidecar are deleted once the archive was verified, extracted and
recorded, and also when its sha256 differs from the expected one or it is corrupt (a bad
archive must be fetched from byte 0, not resumed). A download whose server sends no
validator is not kept on failure: nothing could check a resumed copy against it.

The download, check and extraction of one name run under an exclusive lock on
``<cache_dir>/.<name>.tar.gz.lock`` (:func:`llpbench.io.exclusive_beside`, an ``flock``; the
empty lock file stays), so two processes fetching the same matrix do not write into one
partial file at once: the second waits, then finds the first one's ``.mtx`` in the cache.

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
standard library (``urllib``, ``gzip``, ``tarfile``, ``hashlib``) directly, with rich for the
progress bar; ``tests/graphs/test_download.py`` and ``tests/graphs/test_download_resume.py``
exercise it against a real local HTTP server.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import http.client
import json
import os
import re
import socket
import tarfile
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import IO, Any

from llpbench.errors import DownloadError
from llpbench.io import FILE_MODE, atomic_path, exclusive_beside, file_sha256, write_json_atomic

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
        Where ``<name>.mtx`` and its record ``<name>.tar.gz.json`` live (created if needed);
        an unfinished download is kept there as ``.<name>.tar.gz.part`` and resumed.
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
    KeyboardInterrupt
        Ctrl-C during the download; its message says how many bytes were kept to resume.
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

    part = _Partial(cache_dir, name, url)
    try:
        with exclusive_beside(cache_dir / f".{name}.tar.gz"):
            if _cached(target, record_path, expected):  # another process fetched it meanwhile
                return target
            size, digest = _download(part, progress, hint)
            try:
                if expected is not None and digest != expected:
                    raise DownloadError(
                        f"{url}: sha256 of the archive is {digest}, expected {expected}; "
                        f"{hint} if you trust it"
                    )
                with atomic_path(target) as extracted:
                    mtx_size, mtx_digest = _extract(part.path, member, extracted, url, hint)
            except DownloadError:
                part.discard()  # a wrong or corrupt archive is fetched again from byte 0
                raise
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
                raise  # the verified partial file stays: the next run extracts it offline
            part.discard()
    except OSError as exc:  # the disk is full, the cache read-only, ...
        if not part.resumable():
            part.discard()
        raise DownloadError(
            f"cannot write into {cache_dir}: {exc.strerror or exc}{part.note()}; {hint}"
        ) from exc
    return target


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


def _if_range(etag: str | None, modified: str | None) -> str | None:
    """The ``If-Range`` value for these validators: a strong ETag, else Last-Modified."""
    if etag and not etag.startswith("W/"):
        return etag
    return modified or None


class _Partial:
    """The unfinished download of one archive: ``.<name>.tar.gz.part`` and its sidecar.

    ``have`` is the number of bytes in the partial file that belong to the version of the
    archive the validators (``etag``, ``modified``) name, of ``total`` bytes if known.
    """

    def __init__(self, cache_dir: Path, name: str, url: str) -> None:
        self.path = cache_dir / f".{name}.tar.gz.part"
        self.sidecar = cache_dir / f".{name}.tar.gz.part.json"
        self.url = url
        self.have = 0
        self.total: int | None = None
        self.etag: str | None = None
        self.modified: str | None = None

    def load(self) -> None:
        """Take over what an earlier run kept, if its sidecar names this URL and a validator
        and the partial file is no longer than the recorded total; else start from 0."""
        try:
            state: Any = json.loads(self.sidecar.read_text())
            size = self.path.stat().st_size
        except (OSError, ValueError):
            return
        if not isinstance(state, dict) or state.get("url") != self.url:
            return
        etag, modified, total = state.get("etag"), state.get("last_modified"), state.get("total")
        if not all(isinstance(v, str | None) for v in (etag, modified)):
            return
        if _if_range(etag, modified) is None:
            return
        if total is not None and (type(total) is not int or size > total):
            return
        self.have, self.total, self.etag, self.modified = size, total, etag, modified

    @property
    def validator(self) -> str | None:
        return _if_range(self.etag, self.modified)

    @property
    def complete(self) -> bool:
        return self.total is not None and self.have == self.total

    def resumable(self) -> bool:
        """Whether a later run can continue these bytes (there are some, and a validator)."""
        return self.have > 0 and self.validator is not None

    def note(self) -> str:
        """What an error adds about the kept bytes: nothing, or where and how many."""
        if not self.resumable():
            return ""
        return f"; kept {self.have} bytes in {self.path}, the next run resumes from there"

    def restart(self, out: IO[bytes], resp: http.client.HTTPResponse) -> None:
        """Start again from byte 0 with the version ``resp`` (a 200) is sending."""
        out.seek(0)
        out.truncate()
        os.fsync(out.fileno())  # emptied on disk before the sidecar names another version
        length = resp.headers.get("Content-Length")
        self.have = 0
        self.total = int(length) if length and length.isdigit() else None
        self.etag, self.modified = resp.headers.get("ETag"), resp.headers.get("Last-Modified")
        self.save()

    def continues(self, resp: http.client.HTTPResponse) -> bool:
        """Whether ``resp`` is a 206 carrying the bytes after ``have`` of the same version."""
        if not self.have or resp.status != 206:
            return False
        span = _content_range(resp)
        if span is None or span[0] != self.have:
            return False
        total = span[1]
        if total is not None and self.total is not None and total != self.total:
            return False
        for mine, theirs in ((self.etag, "ETag"), (self.modified, "Last-Modified")):
            sent = resp.headers.get(theirs)
            if mine and sent and sent != mine:
                return False
        if self.total is None and total is not None:
            self.total = total
            self.save()
        return True

    def save(self) -> None:
        state = {"url": self.url, "etag": self.etag, "last_modified": self.modified,
                 "total": self.total}
        write_json_atomic(self.sidecar, state, indent=1, sort_keys=False)

    def discard(self) -> None:
        for path in (self.path, self.sidecar):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)


@contextlib.contextmanager
def _writing(part: _Partial, hint: str) -> Iterator[None]:
    """Report a failure to write the partial file or its sidecar as such (not a retry)."""
    try:
        yield
    except OSError as exc:
        raise DownloadError(
            f"cannot write into {part.path.parent}: {exc.strerror or exc}{part.note()}; {hint}"
        ) from exc


def _open_partial(path: Path) -> IO[bytes]:
    """The partial file for reading and writing, created if absent, unbuffered (every byte
    received is in the file, for a later run to resume, even if this process is killed).
    Appending to a kept file cannot go through :mod:`llpbench.io`'s whole-file rewrites."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
    return open(fd, "r+b", buffering=0)


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


def _download(part: _Partial, progress: bool, hint: str) -> tuple[int, str]:
    """Stream ``part.url`` into ``part.path``, resuming what an earlier run kept and retrying
    dropped connections; return the archive's size and sha256."""
    url = part.url
    part.load()
    why = ""
    headers = {"User-Agent": "llpbench", "Accept-Encoding": "identity"}
    with contextlib.ExitStack() as stack:
        bar = stack.enter_context(_Bar(progress, url.rsplit("/", 1)[-1]))
        out: IO[bytes] | None = None
        try:
            for attempt in range(_ATTEMPTS):
                if part.complete:  # an earlier run was stopped after its last byte
                    break
                if attempt:
                    time.sleep(_BACKOFF_S * 2 ** (attempt - 1))
                request = urllib.request.Request(url, headers=headers)
                if part.have:
                    request.add_header("Range", f"bytes={part.have}-")
                    if part.validator:
                        request.add_header("If-Range", part.validator)
                try:
                    with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as resp:
                        with _writing(part, hint):
                            if out is None:
                                out = stack.enter_context(_open_partial(part.path))
                            if not part.continues(resp):
                                if resp.status != 200:
                                    why = f"unexpected answer {resp.status} to a resumed download"
                                    part.have = 0  # the next attempt asks for the whole file
                                    continue
                                part.restart(out, resp)
                            out.seek(part.have)
                            out.truncate()
                        bar.set(part.total, part.have)
                        while chunk := resp.read1(_CHUNK):
                            with _writing(part, hint):
                                out.write(chunk)
                            part.have += len(chunk)
                            bar.advance(len(chunk))
                    if part.total is None or part.have == part.total:
                        break
                    why = f"connection closed after {part.have} of {part.total} bytes"
                except urllib.error.HTTPError as exc:
                    if exc.code == 416 and part.have:  # the kept bytes do not fit the file
                        span = re.fullmatch(r"bytes \*/(\d+)", exc.headers.get("Content-Range", ""))
                        if span and int(span[1]) == part.have:
                            part.total = part.have
                            break
                        why, part.have = "the server refused to resume (HTTP 416)", 0
                        continue
                    if exc.code < 500 and exc.code not in (408, 429):
                        raise DownloadError(
                            f"cannot download {url}: HTTP {exc.code} {exc.reason}{part.note()}; "
                            f"{hint}"
                        ) from exc
                    why = f"HTTP {exc.code} {exc.reason}"
                except urllib.error.URLError as exc:
                    if isinstance(exc.reason, ConnectionRefusedError | socket.gaierror):
                        raise DownloadError(
                            f"cannot download {url}: {exc.reason} (offline?){part.note()}; "
                            f"{hint}"
                        ) from exc
                    why = str(exc.reason)
                except (http.client.HTTPException, OSError) as exc:
                    why = f"{type(exc).__name__}: {exc}"
            else:
                raise DownloadError(
                    f"cannot download {url}: {why} (after {_ATTEMPTS} attempts){part.note()}; "
                    f"{hint}"
                )
            if out is not None:
                with _writing(part, hint):
                    os.fsync(out.fileno())
        except BaseException as exc:
            if not part.resumable():
                part.discard()  # nothing a later run could check: leave nothing behind
            elif isinstance(exc, KeyboardInterrupt):
                raise KeyboardInterrupt(
                    f"download of {url} interrupted{part.note()}"
                ).with_traceback(exc.__traceback__) from None
            raise
    return part.have, file_sha256(part.path)


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

    Everything streams: gzip decompresses the file as tarfile (in stream mode) reads it, and
    the member is copied in 1 MiB chunks; the rest of the archive is then read to its end,
    so that gzip checks the CRC-32 and length of the whole decompressed stream (a resumed
    download that spliced two versions of the file fails here).

    The archive is refused as a whole if any member is absolute, contains ``..``, or is a link
    or device, even one that would not be extracted: such an archive is not what the
    collection publishes.
    """
    size, digest, found = 0, hashlib.sha256(), False
    try:
        with (
            open(archive, "rb") as raw,
            gzip.GzipFile(fileobj=raw, mode="rb") as gz,
            tarfile.open(fileobj=gz, mode="r|", bufsize=_CHUNK) as tar,
            open(dest, "wb") as out,  # atomic_path's temporary file
        ):
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
            while gz.read(_CHUNK):  # to the end of the gzip stream, which checks its CRC
                pass
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise DownloadError(f"{url}: archive is corrupt or truncated ({exc}); {hint}") from exc
    if not found:
        raise DownloadError(f"{url}: archive has no member {member}; {hint}")
    return size, digest.hexdigest()
