"""The verifier's matrix of a graph is built once per run and let go after the graph's last
reference (issue 31: it must not sit in memory through the solves), and a reference asked
for after that builds it again, the same."""

from __future__ import annotations

import csv
import gc
import weakref

import numpy as np
from typer.testing import CliRunner

from llpbench.cli.main import app
from llpbench.graphs import independent, registry
from llpbench.graphs.generators import kronecker
from tests.conftest import seed_tuned_delta


def test_a_sweep_builds_the_matrix_once_and_releases_it_after_the_last_source(
    tmp_path, monkeypatch, tuned_delta_cache
):
    data = seed_tuned_delta(tmp_path / "data", tuned_delta_cache)
    monkeypatch.setenv("LLPBENCH_DATA_DIR", str(data))
    events: list[str] = []
    build, release = independent._build, independent.release_reference_matrix

    loaded: dict[str, weakref.ref] = {}
    load = registry.load_graph

    def spy_load(name, *args, **kw):
        graph = load(name, *args, **kw)
        loaded[graph.name] = weakref.ref(graph)
        return graph

    def spy_build(graph):
        gc.collect()  # which graphs are still held when this one's matrix is built
        held = sorted(name for name, ref in loaded.items() if ref() is not None)
        events.append(f"build {graph.name} holding {','.join(held)}")
        return build(graph)

    def spy_release(graph):
        events.append(f"release {graph.name}")
        release(graph)

    monkeypatch.setattr(independent, "_build", spy_build)
    monkeypatch.setattr(registry, "load_graph", spy_load)
    monkeypatch.setattr(independent, "release_reference_matrix", spy_release)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "run", "--graph", "tiny-kron", "--graph", "tiny-mesh", "--problem", "sssp",
        "--worklist", "ptwb", "--threads", "1", "--sources", "3", "--reps", "1",
        "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, (result.output, result.exception)
    # one build per graph for its three sources, released after the last; the first graph
    # is let go once its cells have run (planning loaded both)
    assert events == ["build tiny-kron holding tiny-kron,tiny-mesh", "release tiny-kron",
                      "build tiny-mesh holding tiny-mesh", "release tiny-mesh"]
    with open(out / "latest" / "runs.csv", newline="") as fh:
        runs = list(csv.DictReader(fh))
    solved = [r for r in runs if r["config"] != "arc-sweep"]  # the floor solves nothing
    assert len(solved) == 2 * 3 * 2  # graphs x sources x (ptwb, Δ-stepping)
    assert all(r["verified"] == "True" for r in solved), solved


def test_a_released_matrix_is_built_again_equal():
    g = kronecker(8, 4, seed=1)
    first = independent.reference_matrix(g).toarray()
    input_said = independent.reference_input(g)
    independent.release_reference_matrix(g)
    assert independent.reference_input(g) == input_said  # its provenance stays
    assert np.array_equal(independent.reference_matrix(g).toarray(), first)


def test_the_matrix_shares_the_graphs_heads_only_when_they_are_equal():
    g = kronecker(8, 4, seed=2)
    # no loops, no parallel arcs: the merge's heads are the graph's, so it keeps those
    assert np.shares_memory(independent.reference_matrix(g).indices, g.indices)
    looped = type(g)(g.indptr, g.indices, g.weights, g.directed, "looped", g.family,
                     dict(g.provenance), loops=np.array([0, 5]))
    mat = independent.reference_matrix(looped)
    assert not np.shares_memory(mat.indices, looped.indices)
    row0 = mat.indices[mat.indptr[0]:mat.indptr[1]]
    assert 0 in row0.tolist() and mat.nnz == g.m + 2
