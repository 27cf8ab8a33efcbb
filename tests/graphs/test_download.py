"""SuiteSparse downloads against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import hashlib
import io
import json
import re
import socket
import tarfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from llpbench.errors import DownloadError
from llpbench.graphs import download
from llpbench.graphs.download import fetch_suitesparse

NAME = "luxembourg_osm"
MEMBER = f"{NAME}/{NAME}.mtx"
ROUTE = f"/MM/DIMACS10/{NAME}.tar.gz"
LOCK = f".{NAME}.tar.gz.lock"  # the empty flock file of one name's download; it stays


def make_tar(*members: tuple[tarfile.TarInfo, bytes | None]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=1) as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()


@pytest.fixture(scope="module")
def mtx_bytes(datasets_dir) -> bytes:
    return (datasets_dir / f"{NAME}.mtx").read_bytes()


@pytest.fixture(scope="module")
def archive(mtx_bytes) -> bytes:
    readme = tarfile.TarInfo(f"{NAME}/README")
    return make_tar(
        (tarfile.TarInfo(f"{NAME}"), None),
        (readme, b"hello\n"),
        (tarfile.TarInfo(MEMBER), mtx_bytes),
    )


class Server:
    """A tiny HTTP/1.0 file server that counts requests and can drop connections mid-body."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[tuple[str, str | None]] = []
        self.drop = 0  # how many of the next responses to cut off halfway
        self.ranges = True  # honour "Range: bytes=N-"
        state = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                rng = self.headers.get("Range")
                state.requests.append((self.path, rng))
                body = state.files.get(self.path)
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                start = 0
                if rng and state.ranges:
                    start = int(re.fullmatch(r"bytes=(\d+)-", rng)[1])
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                part = body[start:]
                self.send_header("Content-Length", str(len(part)))
                self.end_headers()
                if state.drop:
                    state.drop -= 1
                    self.wfile.write(part[: len(part) // 2])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self.wfile.write(part)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(monkeypatch):
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv(download.ENV_BASE_URL, raising=False)
    monkeypatch.setattr(download, "_BACKOFF_S", 0.0)
    srv = Server()
    yield srv
    srv.close()


def fetch(server: Server, cache: Path, **kw) -> Path:
    return fetch_suitesparse("DIMACS10", NAME, cache, base_url=server.url, progress=False, **kw)


def assert_empty(cache: Path) -> None:
    """Nothing in ``cache`` but the empty lock files of the downloads tried there."""
    left = sorted(p.name for p in cache.iterdir()) if cache.exists() else []
    locks = [n for n in left if n.startswith(".") and n.endswith(".tar.gz.lock")]
    assert left == locks and all((cache / n).stat().st_size == 0 for n in locks)


def test_success_then_reuse_without_network(server, archive, mtx_bytes, tmp_path):
    server.files[ROUTE] = archive
    cache = tmp_path / "cache"
    sha = hashlib.sha256(archive).hexdigest()
    path = fetch(server, cache, sha256=sha.upper())
    assert path == cache / f"{NAME}.mtx"
    assert path.read_bytes() == mtx_bytes
    assert sorted(p.name for p in cache.iterdir()) == [LOCK, f"{NAME}.mtx", f"{NAME}.tar.gz.json"]
    record = json.loads((cache / f"{NAME}.tar.gz.json").read_text())
    assert record["archive_size"] == len(archive) and record["archive_sha256"] == sha
    assert record["mtx_sha256"] == hashlib.sha256(mtx_bytes).hexdigest()
    assert record["url"] == server.url + ROUTE
    assert len(server.requests) == 1

    server.close()  # the second call must not need the server at all
    assert fetch(server, cache, sha256=sha) == path
    assert len(server.requests) == 1


def test_changed_cache_file_is_fetched_again(server, archive, mtx_bytes, tmp_path):
    server.files[ROUTE] = archive
    path = fetch(server, tmp_path)
    path.write_bytes(mtx_bytes[:-10] + b"0000000000")
    assert fetch(server, tmp_path).read_bytes() == mtx_bytes
    assert len(server.requests) == 2


def test_dropped_connection_is_resumed(server, archive, mtx_bytes, tmp_path):
    server.files[ROUTE] = archive
    server.drop = 1
    assert fetch(server, tmp_path).read_bytes() == mtx_bytes
    assert len(server.requests) == 2
    assert server.requests[0][1] is None
    assert server.requests[1][1] == f"bytes={len(archive) // 2}-"


def test_dropped_connection_restarts_without_range_support(server, archive, mtx_bytes, tmp_path):
    server.files[ROUTE] = archive
    server.drop, server.ranges = 2, False
    assert fetch(server, tmp_path).read_bytes() == mtx_bytes
    assert len(server.requests) == 3


def test_connection_that_keeps_dropping_fails_cleanly(server, archive, tmp_path):
    server.files[ROUTE] = archive
    server.drop = 99
    with pytest.raises(DownloadError, match="connection closed after .* attempts"):
        fetch(server, tmp_path / "c")
    assert len(server.requests) == download._ATTEMPTS
    assert_empty(tmp_path / "c")  # no ETag or Last-Modified: nothing kept to resume


def test_corrupt_archive(server, tmp_path):
    server.files[ROUTE] = b"this is not gzip data\n" * 100
    with pytest.raises(DownloadError, match="corrupt or truncated"):
        fetch(server, tmp_path / "c")
    assert_empty(tmp_path / "c")


def test_truncated_archive(server, archive, tmp_path):
    server.files[ROUTE] = archive[: len(archive) // 2]
    with pytest.raises(DownloadError, match="corrupt or truncated"):
        fetch(server, tmp_path / "c")
    assert_empty(tmp_path / "c")


def test_wrong_sha256(server, archive, tmp_path):
    server.files[ROUTE] = archive
    with pytest.raises(
        DownloadError, match="sha256 of the archive is [0-9a-f]{64}, expected 0{64};"
    ):
        fetch(server, tmp_path / "c", sha256="0" * 64)
    assert_empty(tmp_path / "c")


def test_not_found_names_url_and_manual_step(server, tmp_path):
    cache = tmp_path / "c"
    not_found = re.escape(f"cannot download {server.url}{ROUTE}: HTTP 404")
    with pytest.raises(DownloadError, match=not_found) as err:
        fetch(server, cache)
    message = str(err.value)
    assert "\n" not in message
    assert f"download {server.url}{ROUTE} and extract {MEMBER} to {cache / NAME}.mtx" in message
    assert_empty(cache)


def test_connection_refused(monkeypatch, tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv(download.ENV_BASE_URL, f"http://127.0.0.1:{port}")
    with pytest.raises(DownloadError, match=rf"cannot download http://127.0.0.1:{port}/MM/G/x"):
        fetch_suitesparse("G", "x", tmp_path / "c", progress=False)
    assert_empty(tmp_path / "c")


def test_environment_variable_sets_the_server(server, archive, mtx_bytes, tmp_path, monkeypatch):
    server.files[ROUTE] = archive
    monkeypatch.setenv(download.ENV_BASE_URL, server.url + "/")
    path = fetch_suitesparse("DIMACS10", NAME, tmp_path, progress=True)
    assert path.read_bytes() == mtx_bytes


@pytest.mark.parametrize(
    ("evil", "words"),
    [
        (("../evil", b"owned\n"), "escapes the archive"),
        (("/tmp/llpbench-evil", b"owned\n"), "absolute path"),
        ((MEMBER, None, "/etc/passwd"), "is a link"),
        ((f"{NAME}/other.mtx", b"x"), "has no member"),
    ],
)
def test_unsafe_or_wrong_archives_are_refused(server, mtx_bytes, tmp_path, evil, words):
    info = tarfile.TarInfo(evil[0])
    if len(evil) == 3:
        info.type, info.linkname = tarfile.SYMTYPE, evil[2]
        members = [(info, None)]
    else:
        members = [(info, evil[1])]
        if words != "has no member":
            members.append((tarfile.TarInfo(MEMBER), mtx_bytes[:5000]))
    server.files[ROUTE] = make_tar(*members)
    cache = tmp_path / "a" / "c"
    with pytest.raises(DownloadError, match=words):
        fetch(server, cache)
    assert_empty(cache)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["c"]
    assert not Path("/tmp/llpbench-evil").exists()


def test_invalid_names_are_refused(tmp_path):
    with pytest.raises(DownloadError, match="invalid SuiteSparse name"):
        fetch_suitesparse("G", "../x", tmp_path, progress=False)
