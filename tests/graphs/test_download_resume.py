"""SuiteSparse downloads that resume across processes, and one of a real archive's size.

Against a real HTTP server on 127.0.0.1 that honours ``Range`` and ``If-Range``, sends
``ETag``, ``Last-Modified`` and ``Content-Length``, and can cut a response off halfway or stall
it after some bytes. The interrupted downloads run in a child process (``python -c``), killed
with SIGKILL or SIGINT once the partial file holds the bytes sent; every wait has a timeout.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from llpbench.errors import DownloadError
from llpbench.graphs import download
from llpbench.graphs.download import fetch_suitesparse
from llpbench.io import atomic_file, file_sha256, write_bytes_atomic, write_text_atomic

REPO = Path(__file__).resolve().parents[2]
GROUP, NAME = "DIMACS10", "asia_osm"
MEMBER = f"{NAME}/{NAME}.mtx"
ROUTE = f"/MM/{GROUP}/{NAME}.tar.gz"
PART, SIDECAR, LOCK = (f".{NAME}.tar.gz.part", f".{NAME}.tar.gz.part.json", f".{NAME}.tar.gz.lock")
STALL = 1_000_003  # bytes a stalled response sends before it waits (not a chunk multiple)
WAIT_S = 30.0  # the longest any test waits for a child or the server
PROXY_VARS = ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")


# --- archives of the real layout: asia_osm/, asia_osm/asia_osm.mtx (coordinate pattern) ---

@dataclasses.dataclass(frozen=True)
class Archive:
    path: Path
    mtx_sha256: str
    mtx_size: int

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def make_archive(path: Path, lines: int, seed: int) -> Archive:
    """``path``: a ``.tar.gz`` (gzip level 1) holding ``asia_osm/asia_osm.mtx``, a Matrix
    Market header and ``lines`` random ``i j`` lines of 8-digit ids, which compress to about
    half (so a 40 MB archive takes ~80 MB of lines); written and hashed chunk by chunk."""
    header = (b"%%MatrixMarket matrix coordinate pattern symmetric\n"
              b"% random edges in the layout of DIMACS10/asia_osm\n"
              + b"99999999 99999999 %d\n" % lines)
    size = len(header) + 18 * lines
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256(header)
    folder = tarfile.TarInfo(NAME)
    folder.type, folder.mode = tarfile.DIRTYPE, 0o755
    info = tarfile.TarInfo(MEMBER)
    info.size, info.mode = size, 0o644
    with (atomic_file(path, "wb") as fh,
          gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=1, mtime=0) as gz):
        gz.write(folder.tobuf() + info.tobuf() + header)
        left = lines
        while left:
            k = min(left, 1 << 18)
            block = rng.integers(48, 58, size=(k, 18), dtype=np.uint8)  # digits
            block[:, [0, 9]] = rng.integers(49, 58, size=(k, 2), dtype=np.uint8)  # no 0 first
            block[:, 8], block[:, 17] = 32, 10  # "i j\n"
            chunk = block.tobytes()
            gz.write(chunk)
            digest.update(chunk)
            left -= k
        gz.write(b"\0" * (-size % 512) + b"\0" * 1024)  # padding, end-of-archive blocks
    return Archive(path, digest.hexdigest(), size)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Archive:
    """A 2.4 MB archive of the real layout (4.5 MB of lines)."""
    return make_archive(tmp_path_factory.mktemp("archives") / "v1.tar.gz", 250_000, 1)


@pytest.fixture(scope="module")
def small_v2(tmp_path_factory) -> Archive:
    """Another version of it, a little different in size."""
    return make_archive(tmp_path_factory.mktemp("archives") / "v2.tar.gz", 250_000, 2)


@pytest.fixture(scope="session")
def real_size(tmp_path_factory) -> Archive:
    """An archive of asia_osm's layout and a comparable size: over 40 MB compressed."""
    archive = make_archive(tmp_path_factory.mktemp("real-size") / f"{NAME}.tar.gz",
                           4_400_000, 7)
    assert archive.size >= 40_000_000
    return archive


# --- the server ---

@dataclasses.dataclass
class Resource:
    path: Path
    etag: str | None = None
    modified: str | None = None


def served(archive: Archive, version: int = 1, *, etag: bool = True,
             modified: bool = True) -> Resource:
    return Resource(archive.path,
                    f'"{archive.mtx_sha256[:16]}-{version}"' if etag else None,
                    formatdate(1_700_000_000 + version, usegmt=True) if modified else None)


class Server:
    """An HTTP/1.0 file server that honours ``Range: bytes=N-`` (unless ``ranges`` is off)
    with ``If-Range``, sends validators, and logs each request with what it sent."""

    def __init__(self) -> None:
        self.files: dict[str, Resource] = {}
        self.log: list[dict] = []  # per request: range, if_range, status, sent
        self.ranges = True
        self.drop = 0  # how many of the next responses to cut off halfway
        self.stall_at: int | None = None  # the next response waits for `release` after this
        self.release = threading.Event()
        state = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                entry = {"range": self.headers.get("Range"), "status": 404, "sent": 0,
                         "if_range": self.headers.get("If-Range")}
                state.log.append(entry)
                res = state.files.get(self.path)
                if res is None:
                    self.send_error(404, "Not Found")
                    return
                size = res.path.stat().st_size
                asked = re.fullmatch(r"bytes=(\d+)-", entry["range"] or "")
                partial = bool(asked and state.ranges
                               and entry["if_range"] in (None, res.etag, res.modified))
                start = int(asked[1]) if partial else 0
                if start >= size > 0:
                    entry["status"] = 416
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{size}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                entry["status"] = 206 if partial else 200
                self.send_response(entry["status"])
                if partial:
                    self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
                for key, value in (("ETag", res.etag), ("Last-Modified", res.modified)):
                    if value:
                        self.send_header(key, value)
                self.send_header("Content-Length", str(size - start))
                self.send_header("Accept-Ranges", "bytes")
                self.end_headers()
                cut = size - start
                if state.drop:
                    state.drop -= 1
                    cut //= 2
                stall, state.stall_at = state.stall_at, None
                with contextlib.suppress(OSError), open(res.path, "rb") as fh:
                    fh.seek(start)
                    while entry["sent"] < cut:
                        if stall is not None and entry["sent"] == stall:
                            state.release.wait(WAIT_S)
                        step = min(1 << 18, cut - entry["sent"])
                        if stall is not None and entry["sent"] < stall:
                            step = min(step, stall - entry["sent"])
                        self.wfile.write(fh.read(step))
                        entry["sent"] += step
                    if cut < size - start:  # drop the connection mid-body
                        self.connection.shutdown(socket.SHUT_RDWR)
                        self.close_connection = True

            def log_message(self, *args: object) -> None:
                pass

        class Quiet(ThreadingHTTPServer):
            def handle_error(self, request, client_address) -> None:
                pass  # a client killed mid-body

        self.httpd = Quiet(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(monkeypatch):
    for var in PROXY_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv(download.ENV_BASE_URL, raising=False)
    monkeypatch.setattr(download, "_BACKOFF_S", 0.0)
    srv = Server()
    yield srv
    srv.close()


def fetch(server: Server, cache: Path, **kw) -> Path:
    return fetch_suitesparse(GROUP, NAME, cache, base_url=server.url, progress=False, **kw)


sha = file_sha256


def listing(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir())


def keep_partial(server: Server, cache: Path) -> int:
    """Leave a kept partial download in ``cache`` (every response cut off); its size."""
    server.drop = 99
    with pytest.raises(DownloadError, match="the next run resumes from there"):
        fetch(server, cache)
    server.drop = 0
    server.log.clear()
    kept = (cache / PART).stat().st_size
    assert kept > 0
    return kept


# --- child processes ---

# Memory in KiB. Linux starts a child's ru_maxrss at the RSS its parent (pytest, some 80 MB)
# had when it forked, which would hide the fetch's own peak; the memory map's high-water mark
# (VmHWM) starts again at exec, so it is the peak, and the baseline is VmRSS after imports.
CHILD = """
import json, os, re, sys
from llpbench.graphs.download import fetch_suitesparse

def kib(field):
    if not os.path.exists("/proc/self/status"):
        return None
    with open("/proc/self/status") as fh:
        return int(re.search(field + r":\\s+(\\d+) kB", fh.read())[1])

base = kib("VmRSS")
try:
    path = fetch_suitesparse(*sys.argv[1:4], base_url=sys.argv[4], progress=False)
except KeyboardInterrupt as exc:
    print(json.dumps({"interrupted": str(exc)}))
    sys.exit(130)
print(json.dumps({"path": str(path), "base_kb": base, "peak_kb": kib("VmHWM")}))
"""


@pytest.fixture
def spawn(server):
    """Start a child fetching from ``server`` into a cache; any left running is killed."""
    procs: list[subprocess.Popen] = []

    def start(cache: Path) -> subprocess.Popen:
        env = {k: v for k, v in os.environ.items() if k not in PROXY_VARS}
        env.pop(download.ENV_BASE_URL, None)
        env["PYTHONPATH"] = str(REPO)
        procs.append(subprocess.Popen(
            [sys.executable, "-c", CHILD, GROUP, NAME, str(cache), server.url],
            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            # a parent that ignores SIGINT (a pytest-xdist worker, a shell's background job)
            # passes that on, and Python then installs no KeyboardInterrupt handler
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        ))
        return procs[-1]

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=WAIT_S)


def finish(proc: subprocess.Popen) -> tuple[int, dict]:
    try:
        out, err = proc.communicate(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=WAIT_S)
        raise
    lines = out.strip().splitlines()
    assert lines, f"child printed nothing (rc {proc.returncode}): {err[-2000:]}"
    return proc.returncode, json.loads(lines[-1])


def wait_for(what: str, ready, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + WAIT_S
    while not ready():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"child ended (rc {proc.returncode}) before {what}: "
                                 f"{proc.stderr.read()[-2000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return -1


def start_stalled(server: Server, spawn, cache: Path) -> subprocess.Popen:
    """A child fetching into ``cache`` whose response stalls after :data:`STALL` bytes,
    returned once its partial file holds all of them."""
    server.stall_at = STALL
    proc = spawn(cache)
    wait_for(f"{STALL} bytes in the partial file", lambda: size_of(cache / PART) >= STALL, proc)
    return proc


def blocked_on_a_lock(pid: int) -> bool:
    """Whether Linux lists ``pid`` as waiting for an flock (``->`` in /proc/locks)."""
    waiting = re.compile(rf"\d+: -> FLOCK\s+\S+\s+\S+\s+{pid}\s")
    return any(waiting.match(line) for line in Path("/proc/locks").read_text().splitlines())


# --- the tests ---

def test_killed_download_resumes_from_the_kept_bytes(server, spawn, small, tmp_path):
    server.files[ROUTE] = res = served(small)
    cache = tmp_path / "cache"
    proc = start_stalled(server, spawn, cache)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=WAIT_S)
    server.release.set()
    kept = (cache / PART).stat().st_size
    assert kept == STALL
    state = json.loads((cache / SIDECAR).read_text())
    assert state == {"url": server.url + ROUTE, "etag": res.etag,
                     "last_modified": res.modified, "total": small.size}

    path = fetch(server, cache)
    assert sha(path) == small.mtx_sha256 and path.stat().st_size == small.mtx_size
    assert len(server.log) == 2
    resumed = server.log[1]
    assert resumed["range"] == f"bytes={kept}-" and resumed["if_range"] == res.etag
    assert resumed["status"] == 206 and resumed["sent"] == small.size - kept
    assert listing(cache) == [LOCK, f"{NAME}.mtx", f"{NAME}.tar.gz.json"]
    assert json.loads((cache / f"{NAME}.tar.gz.json").read_text())["archive_sha256"] == sha(
        small.path)


def test_ctrl_c_keeps_the_partial_and_says_so(server, spawn, small, tmp_path):
    server.files[ROUTE] = served(small)
    cache = tmp_path / "cache"
    proc = start_stalled(server, spawn, cache)
    proc.send_signal(signal.SIGINT)
    rc, out = finish(proc)
    server.release.set()
    assert rc == 130
    assert out["interrupted"] == (
        f"download of {server.url}{ROUTE} interrupted; kept {STALL} bytes in {cache / PART}, "
        "the next run resumes from there")
    assert listing(cache) == [LOCK, PART, SIDECAR]
    assert (cache / PART).stat().st_size == STALL


def test_two_processes_fetching_one_name_share_one_download(server, spawn, small, tmp_path):
    server.files[ROUTE] = served(small)
    cache = tmp_path / "cache"
    first = start_stalled(server, spawn, cache)
    second = spawn(cache)
    try:
        if Path("/proc/locks").exists():
            wait_for("the second child to wait for the lock",
                     lambda: blocked_on_a_lock(second.pid), second)
        else:
            time.sleep(1.0)
    finally:
        server.release.set()
    (rc1, out1), (rc2, out2) = finish(first), finish(second)
    assert rc1 == rc2 == 0
    assert out1["path"] == out2["path"] == str(cache / f"{NAME}.mtx")
    assert sha(cache / f"{NAME}.mtx") == small.mtx_sha256
    assert [e["status"] for e in server.log] == [200]  # the second found the first one's file
    assert listing(cache) == [LOCK, f"{NAME}.mtx", f"{NAME}.tar.gz.json"]


def test_changed_file_restarts_from_zero(server, small, small_v2, tmp_path):
    server.files[ROUTE] = old = served(small)
    kept = keep_partial(server, tmp_path)
    server.files[ROUTE] = served(small_v2, 2)
    path = fetch(server, tmp_path)
    assert sha(path) == small_v2.mtx_sha256
    assert len(server.log) == 1
    assert server.log[0]["range"] == f"bytes={kept}-" and server.log[0]["if_range"] == old.etag
    assert server.log[0]["status"] == 200 and server.log[0]["sent"] == small_v2.size
    assert listing(tmp_path) == [LOCK, f"{NAME}.mtx", f"{NAME}.tar.gz.json"]


def test_server_ignoring_range_restarts_cleanly(server, small, tmp_path):
    server.files[ROUTE] = served(small)
    kept = keep_partial(server, tmp_path)
    server.ranges = False
    assert sha(fetch(server, tmp_path)) == small.mtx_sha256
    assert [(e["range"], e["status"]) for e in server.log] == [(f"bytes={kept}-", 200)]


@pytest.mark.parametrize("validators", ["etag", "last-modified", "none"])
def test_exhausted_retries_keep_the_partial(server, small, tmp_path, validators):
    server.files[ROUTE] = res = served(small, etag=validators == "etag",
                                         modified=validators == "last-modified")
    server.drop = 99
    url = re.escape(server.url + ROUTE)
    resumes = validators != "none"
    said = r"; kept (\d+) bytes in \S+, the next run resumes from there" if resumes else ""
    with pytest.raises(DownloadError, match=rf"cannot download {url}: connection closed after "
                                            rf"\d+ of {small.size} bytes \(after 4 attempts\)"
                                            rf"{said}; to place it by hand") as err:
        fetch(server, tmp_path)
    assert "\n" not in str(err.value)
    assert len(server.log) == download._ATTEMPTS
    if not resumes:  # nothing could check a resumed copy: nothing kept
        assert listing(tmp_path) == [LOCK]
        return
    kept = int(re.search(said, str(err.value))[1])
    assert (tmp_path / PART).stat().st_size == kept
    assert server.log[-1]["if_range"] == (res.etag or res.modified)

    server.drop, server.log[:] = 0, []
    assert sha(fetch(server, tmp_path)) == small.mtx_sha256
    assert [(e["range"], e["status"]) for e in server.log] == [(f"bytes={kept}-", 206)]
    assert listing(tmp_path) == [LOCK, f"{NAME}.mtx", f"{NAME}.tar.gz.json"]


@pytest.mark.parametrize("stale", ["other-url", "longer-than-total", "no-sidecar", "bad-json"])
def test_partial_that_does_not_fit_restarts(server, small, tmp_path, stale):
    server.files[ROUTE] = served(small)
    keep_partial(server, tmp_path)
    sidecar = tmp_path / SIDECAR
    if stale == "other-url":
        state = json.loads(sidecar.read_text())
        write_text_atomic(sidecar, json.dumps({**state, "url": "http://elsewhere" + ROUTE}))
    elif stale == "longer-than-total":
        write_bytes_atomic(tmp_path / PART, small.path.read_bytes() + b"more")
    elif stale == "no-sidecar":
        sidecar.unlink()
    else:
        write_text_atomic(sidecar, "{")
    assert sha(fetch(server, tmp_path)) == small.mtx_sha256
    assert [(e["range"], e["status"]) for e in server.log] == [(None, 200)]


def test_complete_partial_is_extracted_without_network(server, small, tmp_path):
    server.files[ROUTE] = served(small)
    keep_partial(server, tmp_path)
    write_bytes_atomic(tmp_path / PART, small.path.read_bytes())  # killed after the last byte
    server.close()
    assert sha(fetch(server, tmp_path)) == small.mtx_sha256
    assert server.log == []
    assert listing(tmp_path) == [LOCK, f"{NAME}.mtx", f"{NAME}.tar.gz.json"]


@pytest.mark.parametrize("bad", ["crc", "sha256"])
def test_bad_archive_is_fetched_again_from_zero(server, small, tmp_path, bad):
    server.files[ROUTE] = res = served(small)
    keep_partial(server, tmp_path)
    if bad == "crc":  # the rest spliced from a copy whose gzip CRC-32 is wrong, same ETag
        data = bytearray(small.path.read_bytes())
        data[-8] ^= 0xFF
        spoilt = tmp_path / "spoilt.tar.gz"
        write_bytes_atomic(spoilt, bytes(data))
        server.files[ROUTE] = dataclasses.replace(res, path=spoilt)
        with pytest.raises(DownloadError, match="archive is corrupt or truncated .*CRC"):
            fetch(server, tmp_path)
        server.files[ROUTE] = res
    else:
        with pytest.raises(DownloadError, match="sha256 of the archive is [0-9a-f]{64}, "
                                                "expected 0{64}"):
            fetch(server, tmp_path, sha256="0" * 64)
    assert server.log[0]["status"] == 206
    assert listing(tmp_path) == sorted([LOCK, *(["spoilt.tar.gz"] if bad == "crc" else [])])
    server.log.clear()
    assert sha(fetch(server, tmp_path)) == small.mtx_sha256
    assert [(e["range"], e["status"]) for e in server.log] == [(None, 200)]


def test_real_size_archive_streams_in_bounded_memory(server, spawn, real_size, tmp_path):
    server.files[ROUTE] = served(real_size)
    cache = tmp_path / "cache"
    rc, out = finish(spawn(cache))
    assert rc == 0
    path = Path(out["path"])
    assert path.stat().st_size == real_size.mtx_size and sha(path) == real_size.mtx_sha256
    assert [e["status"] for e in server.log] == [200]
    assert listing(cache) == [LOCK, f"{NAME}.mtx", f"{NAME}.tar.gz.json"]
    if out["base_kb"] is None:
        pytest.skip("the peak RSS needs Linux's /proc/self/status")
    grew_mb = (out["peak_kb"] - out["base_kb"]) / 1024
    assert grew_mb < 32, f"peak RSS grew by {grew_mb:.1f} MB for a {real_size.size} B archive"
