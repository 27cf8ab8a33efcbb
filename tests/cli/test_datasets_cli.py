"""`llpbench datasets ...` through the real entry point (`python -m llpbench`), in subprocesses.

Each test runs the command as a user would, with a private cache (LLPBENCH_DATA_DIR) and the
repository's registry, and checks the exit code, the output figures and that every error is
one line on stderr without a traceback.
"""

from __future__ import annotations

import http.server
import io
import json
import os
import tarfile
import threading
from pathlib import Path

import numpy as np
import pytest

from llpbench.graphs.formats import read_graph
from llpbench.graphs.registry import load_graph
from tests.cli.conftest import assert_one_line_error

# these tests check what the datasets cache holds: they start from an empty cache
pytestmark = pytest.mark.empty_cache

REPO = Path(__file__).resolve().parents[2]
LUXEMBOURG = REPO / "datasets" / "luxembourg_osm.mtx.xz"  # embedded in the repository


def test_list_shows_registry_entries_rules_and_cache_state(cli):
    assert cli("datasets", "generate", "tiny-mesh").returncode == 0
    proc = cli("datasets", "list")
    assert proc.returncode == 0, proc.stderr
    for name in ("kron-2e16", "luxembourg-road", "asia_rand", "cit-hepph", "kron-2e{scale}"):
        assert name in proc.stdout
    row = next(line for line in proc.stdout.splitlines() if "tiny-mesh" in line)
    assert "yes" in row
    row = next(line for line in proc.stdout.splitlines() if "tiny-dag" in line)
    assert "yes" not in row


def test_info_on_the_luxembourg_file_reports_its_vertices_and_arcs(cli):
    path = os.path.relpath(LUXEMBOURG, REPO)  # datasets/luxembourg_osm.mtx.xz
    proc = cli("datasets", "info", path)
    assert proc.returncode == 0, proc.stderr
    assert "114,599" in proc.stdout and "239,332" in proc.stdout and "119,666" in proc.stdout
    stats = json.loads(cli("datasets", "info", path, "--json").stdout)
    assert (stats["n"], stats["m"], stats["undirected_edges"]) == (114_599, 239_332, 119_666)
    assert stats["family"] == "file" and 1 <= stats["weight_min"] <= stats["weight_max"] <= 255


def test_generate_builds_into_the_cache_then_loads_from_it(cli):
    proc = cli("datasets", "generate", "tiny-kron")
    assert proc.returncode == 0, proc.stderr
    assert "tiny-kron: built in" in proc.stdout and "n = 256" in proc.stdout
    assert (cli.cache / "tiny-kron.graph" / "meta.json").is_file()
    again = cli("datasets", "generate", "tiny-kron")
    assert "loaded from cache" in again.stdout


def test_export_to_dimacs_reads_back_as_the_same_graph(cli, tmp_path):
    out = tmp_path / "x.gr"
    proc = cli("datasets", "export", "tiny-kron", str(out))
    assert proc.returncode == 0, proc.stderr
    back = read_graph(out)
    orig = load_graph("tiny-kron", cache_dir=cli.cache)
    assert (back.n, back.m) == (orig.n, orig.m)
    np.testing.assert_array_equal(back.indptr, orig.indptr)
    np.testing.assert_array_equal(back.indices, orig.indices)
    np.testing.assert_array_equal(back.weights, orig.weights)


def test_fetch_of_a_generated_graph_says_it_needs_no_download(cli):
    proc = cli("datasets", "fetch", "tiny-rmat")
    assert proc.returncode == 0, proc.stderr
    assert "needs no download" in proc.stdout


def test_unknown_graph_is_one_line_with_a_close_match(cli):
    proc = cli("datasets", "info", "tiny-kronn")
    assert_one_line_error(proc, "tiny-kronn", "did you mean tiny-kron")


def test_missing_path_and_directory_are_one_line_errors(cli, tmp_path):
    assert_one_line_error(cli("datasets", "info", str(tmp_path / "none.mtx")), "no such graph file")
    assert_one_line_error(cli("datasets", "info", str(tmp_path)), "directory")


def test_malformed_matrix_market_file_is_one_line_naming_the_file(cli, tmp_path):
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\nthree 1\n")
    assert_one_line_error(cli("datasets", "info", str(bad)), "bad.mtx")


def test_negative_weight_in_an_edge_list_is_one_line(cli, tmp_path):
    bad = tmp_path / "neg.wel"
    bad.write_text("0 1 4\n1 2 -3\n")
    line = assert_one_line_error(cli("datasets", "export", str(bad), str(tmp_path / "o.gr")),
                                 warnings=True)  # the file does not say it is directed
    assert "neg.wel:2" in line and "-3" in line and "--weights unit" in line
    assert not (tmp_path / "o.gr").exists()


def test_export_to_an_unknown_suffix_is_refused_before_building(cli, tmp_path):
    assert_one_line_error(cli("datasets", "export", "tiny-mesh", str(tmp_path / "g.xyz")), ".gr")
    assert not cli.cache.exists()


TINY_MTX = b"""%%MatrixMarket matrix coordinate pattern symmetric
5 5 4
2 1
3 2
4 3
5 4
"""


@pytest.fixture
def suitesparse_server():
    """A local SuiteSparse mirror serving MM/TEST/tiny_osm.tar.gz (tiny_osm/tiny_osm.mtx in it)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("tiny_osm/tiny_osm.mtx")
        info.size = len(TINY_MTX)
        tar.addfile(info, io.BytesIO(TINY_MTX))
    payload = buf.getvalue()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's spelling)
            if self.path != "/MM/TEST/tiny_osm.tar.gz":
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_fetch_downloads_a_suitesparse_entry_that_info_then_reads(
    cli, tmp_path, suitesparse_server
):
    conf = tmp_path / "configs"
    conf.mkdir()
    entry = """
[graphs.{name}]
family = "road"
description = "a five-vertex path"
source = "suitesparse"
group = "TEST"
matrix = "{matrix}"
base_url = "{url}"
weights = "uniform-int:1:9"
weight_seed = 3
"""
    (conf / "datasets.toml").write_text(
        entry.format(name="tiny-ss", matrix="tiny_osm", url=suitesparse_server)
        + entry.format(name="gone-ss", matrix="gone_osm", url=suitesparse_server)
    )
    env = {"LLPBENCH_CONFIG_DIR": str(conf)}
    proc = cli("datasets", "fetch", "tiny-ss", "--quiet", **env)
    assert proc.returncode == 0, proc.stderr
    assert "tiny-ss: downloaded" in proc.stdout
    assert (cli.cache / "suitesparse" / "tiny_osm.mtx").read_bytes() == TINY_MTX
    stats = json.loads(cli("datasets", "info", "tiny-ss", "--json", **env).stdout)
    assert (stats["n"], stats["m"], stats["family"]) == (5, 8, "road")
    assert 1 <= stats["weight_min"] <= stats["weight_max"] <= 9
    assert "yes" in cli("datasets", "list", **env).stdout
    assert_one_line_error(cli("datasets", "fetch", "gone-ss", "-q", **env), "HTTP 404", "gone_osm")
