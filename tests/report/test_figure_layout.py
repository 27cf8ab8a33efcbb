"""Every figure's titles, axis labels and legends lie inside its canvas, measured, not eyed;
and the thread counts above the machine's cores are shaded, with the core count drawn."""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.legend import Legend
from matplotlib.text import Text

from llpbench.report.figures import scaling_figures, worklist_figure
from llpbench.report.layout import wrap_label
from llpbench.report.store import load_runs
from tests.report import GRAPHS, LLP_CONFIGS, META_CORES, THREADS, write_run

LONG_GRAPHS = {
    "g-alpha": "/home/someone/datasets/suitesparse/DIMACS10/luxembourg_osm_full_road_network.mtx",
    "g-beta": "kron-2e14-with-a-descriptive-suffix-that-is-much-wider-than-one-panel-of-the-figure",
}
EXTRA_CONFIGS = 8  # more configurations than a legend row holds


def _extents(fig) -> list[tuple[str, object]]:
    """(what, window extent) of every title, axis label, tick label, text and legend shown."""
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found = []
    suptitle = fig.get_suptitle()
    for text in fig.findobj(Text):
        if text.get_text() and text.get_text() == suptitle:
            found.append(("suptitle", text.get_window_extent(renderer)))
    for legend in fig.legends:
        found.append(("figure legend", legend.get_window_extent(renderer)))
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        texts = [("title", ax.title), ("x label", ax.xaxis.label), ("y label", ax.yaxis.label)]
        texts += [("tick label", t) for t in _shown_tick_labels(ax)]
        texts += [("text", t) for t in ax.texts if not t.get_clip_on()]
        for what, text in texts:
            if text.get_visible() and text.get_text():
                found.append((f"{what} {text.get_text()!r}", text.get_window_extent(renderer)))
        legend = ax.get_legend()
        if isinstance(legend, Legend):
            found.append(("axes legend", legend.get_window_extent(renderer)))
    return found


def _shown_tick_labels(ax) -> list[Text]:
    """The major tick labels within the axes' view (matplotlib keeps, undrawn, some beyond)."""
    shown = []
    for axis in (ax.xaxis, ax.yaxis):
        low, high = sorted(axis.get_view_interval())
        shown += [t.label1 for t in axis.get_major_ticks() if low <= t.get_loc() <= high]
    return shown


def assert_inside_canvas(fig) -> None:
    box = fig.bbox
    extents = _extents(fig)
    assert any(what == "suptitle" for what, _ in extents)
    assert any("legend" in what for what, _ in extents)
    outside = [
        f"{what}: x {e.x0:.0f}..{e.x1:.0f}, y {e.y0:.0f}..{e.y1:.0f}"
        for what, e in extents
        if e.x0 < box.x0 - 0.5 or e.x1 > box.x1 + 0.5 or e.y0 < box.y0 - 0.5 or e.y1 > box.y1 + 0.5
    ]
    assert not outside, f"canvas {box.width:.0f}x{box.height:.0f}: " + "; ".join(outside)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return load_runs(write_run(tmp_path_factory.mktemp("results")))


@pytest.fixture(scope="module")
def crowded(runs):
    """The synthetic run with long graph names (a path among them) and many configurations."""
    out = runs.copy()
    out["graph"] = out["graph"].map(lambda g: LONG_GRAPHS.get(g, g))
    llp = out[(out["config"] == LLP_CONFIGS[0])]
    extra = []
    for k in range(EXTRA_CONFIGS):
        more = llp.copy()
        more["config"] = f"{LLP_CONFIGS[0]}-with-a-long-configuration-label-{k}"
        more["seconds"] = more["seconds"] * (1 + 0.1 * (k + 1))
        extra.append(more)
    return pd.concat([out, *extra], ignore_index=True)


def _one_graph_two_threads(runs):
    """The reported case: one graph, threads 1 and 2, five configurations."""
    mine = runs[(runs["graph"] == next(iter(GRAPHS))) & (runs["threads"] <= 2)]
    llp = mine[mine["config"] == LLP_CONFIGS[0]]
    extra = [llp.assign(config=f"worklist/{name}", worklist=name) for name in ("ptcf", "bucketed")]
    return pd.concat([mine, *extra], ignore_index=True)


def test_the_one_panel_scaling_figure_holds_its_title_and_legend(runs):
    (fig,) = scaling_figures(_one_graph_two_threads(runs), problem="sssp")
    assert_inside_canvas(fig)
    legend = fig.legends[0]
    assert len(legend.get_texts()) == 5  # which line is which can be told: every entry shown


@pytest.mark.parametrize("which", ["synthetic", "crowded"])
def test_every_scaling_figure_fits_its_canvas(runs, crowded, which):
    data = runs if which == "synthetic" else crowded
    figs = scaling_figures(data)
    assert [f.get_label() for f in figs] == ["scaling-sssp", "scaling-stable-marriage"]
    for fig in figs:
        assert_inside_canvas(fig)


def test_long_graph_names_wrap_in_panel_titles_and_every_line_is_in_the_legend(crowded):
    fig = scaling_figures(crowded, problem="sssp")[0]
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert all("\n" in t for t in titles)  # both names are wider than a panel
    assert [t.replace("\n", "") for t in titles] == list(LONG_GRAPHS.values())
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert set(crowded.loc[crowded["problem"] == "sssp", "config"]) <= set(labels)


@pytest.mark.parametrize("which", ["synthetic", "crowded"])
@pytest.mark.parametrize("threads", [None, 1])
def test_every_worklist_figure_fits_its_canvas(runs, crowded, which, threads):
    data = runs if which == "synthetic" else crowded
    for graph in dict.fromkeys(data.loc[data["problem"] == "sssp", "graph"]):
        assert_inside_canvas(worklist_figure(data, threads=threads, graph=graph))


def _core_lines(ax) -> list[float]:
    return [ln.get_xdata()[0] for ln in ax.get_lines() if ln.get_linestyle() == ":"]


def test_scaling_figure_shades_the_threads_above_the_cores_and_draws_the_core_count(runs):
    fig = scaling_figures(runs, problem="sssp")[0]
    assert max(THREADS) > META_CORES
    for ax in fig.axes:
        assert _core_lines(ax) == [META_CORES]
        assert f" {META_CORES} cores" in [t.get_text() for t in ax.texts]
        shaded = [p for p in ax.patches if p.get_x() == META_CORES]
        assert len(shaded) == 1 and shaded[0].get_x() + shaded[0].get_width() >= max(THREADS)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert f"oversubscribed (> {META_CORES} threads)" in labels


def test_scaling_figure_draws_no_core_line_where_no_thread_count_exceeds_the_cores(runs):
    enough = runs.assign(cores=max(THREADS))
    fig = scaling_figures(enough, problem="sssp")[0]
    assert all(_core_lines(ax) == [] and not ax.texts for ax in fig.axes)
    assert not any("oversubscribed" in t.get_text() for t in fig.legends[0].get_texts())


def test_worklist_figure_says_when_its_thread_count_is_oversubscribed(runs):
    above = worklist_figure(runs, threads=max(THREADS))
    assert f"oversubscribed: {max(THREADS)} threads on {META_CORES} cores" in (
        above.get_suptitle().replace("\n", " ")
    )
    assert above.axes[0].get_facecolor() != (1.0, 1.0, 1.0, 1.0)  # shaded
    within = worklist_figure(runs, threads=META_CORES)
    assert "oversubscribed" not in within.get_suptitle()
    assert within.axes[0].get_facecolor() == (1.0, 1.0, 1.0, 1.0)


def test_wrap_label_breaks_at_separators_and_keeps_every_character():
    name = LONG_GRAPHS["g-alpha"]
    wrapped = wrap_label(name, 20)
    assert wrapped.replace("\n", "") == name
    assert all(len(line) <= 20 for line in wrapped.splitlines())
    assert wrapped.splitlines()[0].endswith("/")
