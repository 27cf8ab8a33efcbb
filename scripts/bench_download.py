"""SuiteSparse download at real size: straight, and interrupted then resumed, with peak memory.

Builds a ``.tar.gz`` of DIMACS10/asia_osm's layout (``asia_osm/asia_osm.mtx``: a Matrix Market
``coordinate pattern symmetric`` header, then random ``i j`` lines of 8-digit ids, gzip level
1; about 300 MB compressed by default, ``--mb``), serves it from a local HTTP server on
127.0.0.1 (``Range``, ``If-Range``, ``ETag``, ``Last-Modified``) and fetches it with
:func:`llpbench.graphs.download.fetch_suitesparse`, each fetch in a fresh child process:

1. straight, into an empty cache;
2. interrupted: the server stalls after half the archive, the child is killed (SIGKILL) once
   its partial file holds that half, and a second child resumes it from the kept bytes.

For each fetch it prints the wall time inside the child (download, sha256, streamed
extraction, record), the compressed archive's MB over that time (for the resumed fetch, only
the rest is downloaded but all of it is hashed and extracted), the MB actually downloaded,
and the child's peak RSS above its RSS after imports (VmHWM minus VmRSS: Linux starts a
child's ``ru_maxrss`` at its parent's RSS). Both extracted files are checked byte for byte
(sha256) against the generated one.

Usage::

    python scripts/bench_download.py --mb 100

This is a benchmark, not a test: it asserts nothing beyond the checksums; it needs about
3.5x ``--mb`` of free space in the temporary folder (``--tmp``).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GROUP, NAME = "DIMACS10", "asia_osm"
MEMBER = f"{NAME}/{NAME}.mtx"
ROUTE = f"/MM/{GROUP}/{NAME}.tar.gz"
RATIO = 0.524  # compressed / plain size of the random lines at gzip level 1
LINE = 18  # "dddddddd dddddddd\n"
WAIT_S = 600.0


def make_archive(path: Path, mb: float, seed: int = 0) -> tuple[str, int]:
    """Write the archive of about ``mb`` MB compressed to ``path``; return the sha256 and size
    of its ``.mtx`` member (made, compressed and hashed chunk by chunk)."""
    import numpy as np

    from llpbench.io import atomic_file

    lines = int(mb * 1e6 / RATIO / LINE)
    header = (b"%%MatrixMarket matrix coordinate pattern symmetric\n"
              b"% random edges in the layout of DIMACS10/asia_osm\n"
              + b"99999999 99999999 %d\n" % lines)
    size = len(header) + LINE * lines
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
            block = rng.integers(48, 58, size=(k, LINE), dtype=np.uint8)
            block[:, [0, 9]] = rng.integers(49, 58, size=(k, 2), dtype=np.uint8)
            block[:, 8], block[:, 17] = 32, 10
            chunk = block.tobytes()
            gz.write(chunk)
            digest.update(chunk)
            left -= k
        gz.write(b"\0" * (-size % 512) + b"\0" * 1024)
    return digest.hexdigest(), size


class Server:
    """Serves one file at :data:`ROUTE`, honouring ``Range: bytes=N-`` with ``If-Range``;
    the next response stalls after ``stall_at`` bytes until ``release`` is set."""

    def __init__(self, path: Path) -> None:
        self.path, self.size = path, path.stat().st_size
        self.etag = f'"{self.size:x}-1"'
        self.modified = formatdate(1_700_000_000, usegmt=True)
        self.log: list[dict] = []
        self.stall_at: int | None = None
        self.release = threading.Event()
        state = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                entry = {"range": self.headers.get("Range"), "sent": 0, "status": 404}
                state.log.append(entry)
                if self.path != ROUTE:
                    self.send_error(404, "Not Found")
                    return
                asked = re.fullmatch(r"bytes=(\d+)-", entry["range"] or "")
                if_range = self.headers.get("If-Range")
                partial = bool(asked and if_range in (None, state.etag, state.modified))
                start = int(asked[1]) if partial else 0
                entry["status"] = 206 if partial else 200
                self.send_response(entry["status"])
                if partial:
                    self.send_header("Content-Range",
                                     f"bytes {start}-{state.size - 1}/{state.size}")
                self.send_header("ETag", state.etag)
                self.send_header("Last-Modified", state.modified)
                self.send_header("Content-Length", str(state.size - start))
                self.end_headers()
                stall, state.stall_at = state.stall_at, None
                left = state.size - start
                with contextlib.suppress(OSError), open(state.path, "rb") as fh:
                    fh.seek(start)
                    while left:
                        step = min(1 << 20, left)
                        if stall is not None:
                            if entry["sent"] == stall:
                                state.release.wait(WAIT_S)
                            elif entry["sent"] < stall:
                                step = min(step, stall - entry["sent"])
                        self.wfile.write(fh.read(step))
                        entry["sent"] += step
                        left -= step

            def log_message(self, *args: object) -> None:
                pass

        class Quiet(ThreadingHTTPServer):
            def handle_error(self, request, client_address) -> None:
                pass

        self.httpd = Quiet(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def _kib(field: str) -> int:
    with open("/proc/self/status") as fh:
        return int(re.search(field + r":\s+(\d+) kB", fh.read())[1])


def child_main(cache: str, url: str) -> None:
    """In the child: one fetch; print its wall time and peak RSS growth as JSON."""
    from llpbench.graphs.download import fetch_suitesparse

    base = _kib("VmRSS")
    t0 = time.perf_counter()
    path = fetch_suitesparse(GROUP, NAME, cache, base_url=url, progress=False)
    wall = time.perf_counter() - t0
    grew = (_kib("VmHWM") - base) / 1024
    print(json.dumps({"path": str(path), "s": wall, "rss_growth_mb": grew}))


def _spawn(cache: Path, url: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.pop("LLPBENCH_SUITESPARSE_URL", None)
    env["PYTHONPATH"] = str(REPO)
    return subprocess.Popen([sys.executable, __file__, "--child", str(cache), url],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _result(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=WAIT_S)
    if proc.returncode:
        raise SystemExit(f"fetch failed (rc {proc.returncode}): {err.strip()[-2000:]}")
    return json.loads(out.strip().splitlines()[-1])


def _check(path: str, sha: str) -> str:
    from llpbench.io import file_sha256

    return "identical" if file_sha256(path) == sha else "DIFFERENT"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mb", type=float, default=300.0,
                        help="compressed archive size in MB (default 300)")
    parser.add_argument("--tmp", type=Path, default=None,
                        help="folder for the archive and the caches (default: system temp)")
    parser.add_argument("--child", nargs=2, metavar=("CACHE", "URL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main(*args.child)
        return
    if not Path("/proc/self/status").exists():
        raise SystemExit("needs Linux's /proc/self/status for the peak RSS")

    with tempfile.TemporaryDirectory(dir=args.tmp, prefix="bench-download-") as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        archive = root / f"{NAME}.tar.gz"
        sha, mtx_size = make_archive(archive, args.mb)
        size = archive.stat().st_size
        mb = size / 1e6
        print(f"archive: {mb:.1f} MB compressed, {mtx_size / 1e6:.1f} MB .mtx "
              f"({MEMBER}), made in {time.perf_counter() - t0:.1f} s")
        server = Server(archive)
        try:
            straight = _result(_spawn(root / "straight", server.url))
            print(f"straight:  {straight['s']:6.2f} s  {mb / straight['s']:7.1f} MB/s  "
                  f"{server.log[-1]['sent'] / 1e6:6.1f} MB downloaded  "
                  f"peak RSS +{straight['rss_growth_mb']:.1f} MB  "
                  f"(.mtx {_check(straight['path'], sha)})")
            (root / "straight" / f"{NAME}.mtx").unlink()  # room for the next one

            server.log.clear()
            server.stall_at = size // 2
            cache = root / "resumed"
            part = cache / f".{NAME}.tar.gz.part"
            proc = _spawn(cache, server.url)
            deadline = time.monotonic() + WAIT_S
            while not (part.exists() and part.stat().st_size >= size // 2):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the first half never arrived: {proc.stderr.read()}")
                time.sleep(0.05)
            proc.send_signal(signal.SIGKILL)
            proc.communicate(timeout=WAIT_S)
            server.release.set()
            kept = part.stat().st_size
            resumed = _result(_spawn(cache, server.url))
            sent = server.log[-1]
            rest = sent["sent"] / 1e6
            print(f"killed after {kept / 1e6:.1f} MB kept; resumed with {sent['range']} "
                  f"(HTTP {sent['status']}, {rest:.1f} MB sent)")
            print(f"resumed:   {resumed['s']:6.2f} s  {mb / resumed['s']:7.1f} MB/s  "
                  f"{rest:6.1f} MB downloaded  "
                  f"peak RSS +{resumed['rss_growth_mb']:.1f} MB  "
                  f"(.mtx {_check(resumed['path'], sha)})")
        finally:
            server.close()


if __name__ == "__main__":
    main()
