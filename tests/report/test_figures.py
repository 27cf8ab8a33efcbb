"""Figures 5 and 6 and `write_all_reports` on the synthetic run: files written, whole, named."""

from __future__ import annotations

import pytest

from llpbench.report import write_all_reports
from llpbench.report.figures import NoDataError, plot_scaling, plot_worklists
from tests.report import GRAPHS, THREADS, write_run

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def assert_images(paths, run_dir):
    """PNG and SVG both present, non-empty, with the right header, and no temporary left."""
    assert paths, "nothing written"
    for path in paths:
        assert path.parent == run_dir / "figures"
        assert path.stat().st_size > 1000
        head = path.read_bytes()[:200]
        if path.suffix == ".png":
            assert head.startswith(PNG_MAGIC)
        else:
            assert path.suffix == ".svg" and b"<svg" in path.read_bytes()[:2000]
            assert head.startswith(b"<?xml")
    assert not [p for p in (run_dir / "figures").iterdir() if p.name.startswith(".")]


def test_plot_scaling_writes_one_png_and_svg_per_problem(runs, run_dir):
    paths = plot_scaling(runs, run_dir)
    names = sorted(p.name for p in paths)
    assert names == [
        "scaling-sssp.png",
        "scaling-sssp.svg",
        "scaling-stable-marriage.png",
        "scaling-stable-marriage.svg",
    ]
    assert_images(paths, run_dir)


def test_plot_scaling_draws_every_graph_and_thread_count(runs, run_dir):
    svg = next(p for p in plot_scaling(runs, run_dir, problem="sssp") if p.suffix == ".svg")
    text = svg.read_text()
    for graph in GRAPHS:
        assert graph in text  # panel titles
    for config in ("worklist/ptwb", "worklist/swb", "delta-stepping"):
        assert config in text  # legend


def test_plot_scaling_of_an_unknown_problem_says_so(runs, run_dir):
    with pytest.raises(NoDataError, match="knapsack"):
        plot_scaling(runs, run_dir, problem="knapsack")


def test_plot_worklists_defaults_to_first_graph_at_the_most_threads(runs, run_dir):
    paths = plot_worklists(runs, run_dir)
    first = next(iter(GRAPHS))
    assert sorted(p.name for p in paths) == [
        f"worklists-sssp-{first}-t{max(THREADS)}.png",
        f"worklists-sssp-{first}-t{max(THREADS)}.svg",
    ]
    assert_images(paths, run_dir)


def test_plot_worklists_at_a_chosen_graph_and_thread_count(runs, run_dir):
    paths = plot_worklists(runs, run_dir, threads=2, graph="g-beta")
    assert {p.name for p in paths} == {
        "worklists-sssp-g-beta-t2.png",
        "worklists-sssp-g-beta-t2.svg",
    }
    assert_images(paths, run_dir)


def test_plot_worklists_lists_what_the_run_has_when_the_choice_is_missing(runs, run_dir):
    with pytest.raises(NoDataError, match=r"at 3 threads; it has 1, 2, 4"):
        plot_worklists(runs, run_dir, threads=3)
    with pytest.raises(NoDataError, match=r"g-gamma.*g-alpha, g-beta"):
        plot_worklists(runs, run_dir, graph="g-gamma")


def test_write_all_reports_writes_every_applicable_table_and_figure(run_dir):
    notes: list[str] = []
    paths = write_all_reports(run_dir, echo=notes.append)
    names = {p.relative_to(run_dir).as_posix() for p in paths}
    for table in ("speedup", "overhead", "problems"):
        assert {f"tables/{table}.csv", f"tables/{table}.md"} <= names
    assert {"figures/scaling-sssp.png", "figures/scaling-sssp.svg"} <= names
    for graph in GRAPHS:
        assert f"figures/worklists-sssp-{graph}-t{max(THREADS)}.png" in names
    assert all(p.is_file() and p.stat().st_size > 0 for p in paths)
    # the synthetic graphs are not in the registry: Table 1 is skipped with a note, not a crash
    assert any(n.startswith("note: datasets table skipped") for n in notes)
    # the synthetic run is steady: no instability table, and a note saying why
    assert any(n.startswith("note: instability table skipped: no unstable cell") for n in notes)


def test_write_all_reports_skips_the_speedup_table_without_baselines(tmp_path):
    run_dir = write_run(tmp_path, baseline=False)
    notes: list[str] = []
    paths = write_all_reports(run_dir, echo=notes.append)
    names = {p.name for p in paths}
    assert "speedup.csv" not in names and "overhead.csv" not in names
    assert any(n.startswith("note: speedup table skipped: no SSSP graph") for n in notes)
    assert "scaling-sssp.png" in names
