"""The reading flags (`--directed/--undirected`, `--index-base`, `--weights`) through the real
entry point: what they change, what the commands print about the reading, what they refuse."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.cli.conftest import assert_one_line_error
from tests.graphs.test_reading import ca_hepph_like


def reached(stdout: str) -> tuple[int, int]:
    line = next(ln for ln in stdout.splitlines() if "reached" in ln)
    words = line.replace("│", " ").split()
    i = words.index("reached")
    return int(words[i + 1].replace(",", "")), int(words[i + 3].replace(",", ""))


def test_solve_undirected_bfs_reaches_the_whole_component(cli, tmp_path):
    path, n, _ = ca_hepph_like(tmp_path)
    source = str(n - 1)  # the last vertex: its edges are all listed towards it, never from it
    proc = cli("solve", "--graph", str(path), "--undirected", "-p", "bfs", "--source", source)
    assert proc.returncode == 0, proc.stderr
    assert reached(proc.stdout) == (n, n)
    assert "yes" in next(ln for ln in proc.stdout.splitlines() if "verified" in ln)
    assert "does not say whether it is directed" not in proc.stderr


def test_solve_without_the_flag_warns_in_one_line_naming_it(cli, tmp_path):
    path, n, _ = ca_hepph_like(tmp_path)
    proc = cli("solve", "--graph", str(path), "--problem", "bfs", "--source", str(n - 1))
    assert proc.returncode == 0, proc.stderr
    warns = [ln for ln in proc.stderr.splitlines() if ln.startswith("warning:")]
    assert any("--undirected" in w for w in warns)
    assert all(ln.startswith("warning:") for ln in proc.stderr.strip().splitlines())
    got, total = reached(proc.stdout)
    assert (got, total) == (1, n)  # read one way, the last vertex reaches nobody


def test_datasets_info_prints_the_assumptions(cli, tmp_path):
    path, n, edges = ca_hepph_like(tmp_path)
    proc = cli("datasets", "info", str(path), "--undirected", "--weights", "unit", "--json")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert (info["n"], info["m"]) == (n, 2 * edges)
    assert info["reading: directed"] == "False (--undirected)"
    assert info["reading: index base"].startswith("1 ")
    header = f"line 1 (n = {n}): it counts the {edges} lines after it"
    assert info["reading: count header"] == header
    assert info["reading: weights"] == "unit"


def test_run_records_the_reading_in_every_row(cli, tmp_path):
    path, _, _ = ca_hepph_like(tmp_path)
    out = tmp_path / "res"
    proc = cli(
        "run", "--graph", str(path), "--undirected", "--index-base", "1", "--weights", "unit",
        "--worklist", "ptwb", "--threads", "1,2", "--reps", "1", "--out", str(out),
        "--no-progress",
    )
    assert proc.returncode == 0, proc.stderr
    with open(out / "latest" / "runs.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and {r["verified"] for r in rows if r["kind"] != "floor"} == {"True"}
    assert {r["reading"] for r in rows} == {
        "snap undirected base=1 header=line1 weights=unit loops=0 merged=0"
    }


def test_reading_flags_on_a_registry_name_are_refused(cli):
    proc = cli("solve", "--graph", "tiny-kron", "--undirected")
    assert_one_line_error(proc, "tiny-kron", "--undirected", "graph files only")


def test_bad_index_base_is_refused(cli, tmp_path):
    path, _, _ = ca_hepph_like(tmp_path)
    proc = cli("datasets", "info", str(path), "--index-base", "2")
    assert_one_line_error(proc, "--index-base", "'2'")


def test_job_depending_on_itself_is_one_line_error(cli, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text("# Directed\n0 1\n1 1\n1 2\n")
    proc = cli("solve", "--graph", str(path), "--problem", "job-scheduling", "--weights", "unit")
    assert_one_line_error(proc, "job 1 is its own prerequisite")


@pytest.mark.parametrize(
    ("name", "n", "edges", "weights"),
    [("out.ucidata-zachary", 34, 78, "unit"), ("out.moreno_lesmis_lesmis", 77, 254, "file")],
)
def test_datasets_info_reads_real_konect_files_under_their_own_names(cli, name, n, edges, weights):
    """KONECT's unweighted and weighted files (tests/data, real copies): n and the edge count
    from the '% m n n' line, undirected by the 'sym' tag, named by the part after 'out.'."""
    path = Path(__file__).resolve().parents[1] / "data" / name
    proc = cli("datasets", "info", str(path), "--weights", weights, "--json")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert (info["name"], info["n"], info["m"], info["directed"]) == (name[4:], n, 2 * edges, False)
    assert info["reading: stated"].startswith(f"the KONECT line '% {edges} {n} {n}'")
    assert info["reading: weights"] == weights
