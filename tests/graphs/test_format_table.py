"""Adding a graph format is one module and one entry in ``FORMATS``: a dummy format
(``tests/dummies/arrow_format.py``, what a newcomer writes) registered for the test only is
read, written (compressed too), re-read by the verifier, solved and verified through the
CLI, exported, listed by ``llpbench datasets formats`` and named in the help of the options
that take a graph file. Nothing else is edited, so nothing else may need to be."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from llpbench.cli.main import app
from llpbench.errors import FormatError
from llpbench.graphs import format_table
from llpbench.graphs.format_table import FORMATS, GraphFormat, format_of, named_format
from llpbench.graphs.formats import read_graph, write_graph
from llpbench.graphs.independent import reading_dispute, reference_input
from llpbench.graphs.registry import GraphNotFoundError, resolve

DUMMY = "tests.dummies.arrow_format"
ENTRY_ARGS = ((".arrows",), f"{DUMMY}:read_arrows", f"{DUMMY}:read_arrows_independently",
              "arrow lines 'u -> v : w', a test's dummy", f"{DUMMY}:arrows_bytes")
#: suffixes, reader, independent reader, description, writer
ENTRY = GraphFormat(*ENTRY_ARGS)
TEXT = "// a dummy\n0 -> 1 : 4\n1 -> 2 : 1\n0 -> 2 : 7\n2 -> 3 : 2\n"


@pytest.fixture
def arrows(monkeypatch, tmp_path):
    """The dummy format in the table (the one line a newcomer adds), and a file of it."""
    monkeypatch.setitem(FORMATS, "arrows", ENTRY)
    path = tmp_path / "g.arrows"
    path.write_text(TEXT)
    return path


def _llpbench(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_a_registered_format_is_read_by_its_reader_and_checked_by_its_verifier(arrows):
    graph = read_graph(arrows)
    assert (graph.n, graph.m, graph.directed) == (4, 4, True)
    assert graph.provenance["reading"]["format"] == "arrows"
    assert reference_input(graph).endswith("re-read independently")
    assert reading_dispute(graph) is None


def test_a_registered_format_is_written_compressed_too_and_read_back(arrows, tmp_path):
    graph = read_graph(arrows)
    for name in ("copy.arrows", "copy.arrows.xz"):
        again = read_graph(write_graph(graph, tmp_path / name))
        assert (again.n, again.m) == (graph.n, graph.m)
        assert np.array_equal(again.indices, graph.indices)
        assert np.array_equal(again.weights, graph.weights)


def test_a_registered_format_solves_verified_and_exports_through_the_cli(arrows, tmp_path):
    out = _llpbench("solve", "--graph", str(arrows), "--problem", "bfs", "--source", "0")
    cells = [[c for c in line.split() if c != "│"] for line in out.splitlines()]
    assert [row for row in cells if "verified" in row] == [["verified", "yes"]]
    _llpbench("datasets", "export", str(arrows), str(tmp_path / "out.arrows"))
    assert "0 -> 1 : 4" in (tmp_path / "out.arrows").read_text()


def test_a_registered_format_is_listed_and_its_suffix_is_a_path(arrows):
    out = _llpbench("datasets", "formats")
    assert any("arrows" in row and ".arrows" in row and "a test's dummy" in row
               for row in out.splitlines())
    with pytest.raises(GraphNotFoundError, match="missing.arrows: no such graph file"):
        resolve("missing.arrows")


def test_the_help_of_graph_file_options_is_generated_from_the_table():
    """Help is made when the CLI is imported: a format registered before is in it."""
    code = (
        "from llpbench.graphs.format_table import FORMATS, GraphFormat\n"
        f"FORMATS['arrows'] = GraphFormat{ENTRY_ARGS!r}\n"
        "from llpbench.cli.main import app\n"
        "from typer.testing import CliRunner\n"
        "for args in (['datasets', 'export', '--help'], ['solve', '--help']):\n"
        "    r = CliRunner().invoke(app, args, env={'COLUMNS': '300', 'NO_COLOR': '1'})\n"
        "    print(r.output)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    export, solve = out.split("Usage:")[1:3]
    assert ".mtx, .gr, .wel or .arrows" in export
    assert ".arrows" in solve and ".arrows" not in _llpbench("solve", "--help")


def test_an_unregistered_suffix_is_read_as_the_default_and_written_by_none(tmp_path):
    assert named_format("g.unknown") is None
    assert format_of("g.unknown")[0] == format_table.DEFAULT
    assert format_of("G.MTX.GZ")[0] == "mtx"
    with pytest.raises(FormatError, match=r"a file name ending in \.mtx, \.gr or \.wel"):
        write_graph(read_graph_from_text(tmp_path), tmp_path / "g.txt")


def read_graph_from_text(tmp_path):
    path = tmp_path / "g.wel"
    path.write_text("0 1 3\n1 0 3\n")
    return read_graph(path)
