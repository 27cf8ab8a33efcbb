"""Δ for the Δ-stepping baseline: tuned once per family, on its largest graph, loaded lazily."""

from __future__ import annotations

from llpbench.baselines.delta_tuning import load_tuned
from llpbench.bench.deltas import DeltaChooser
from llpbench.graphs.registry import load_graph


def test_offered_graphs_load_only_when_their_family_needs_delta(tmp_path):
    loaded: list[str] = []

    def load(name):
        loaded.append(name)
        return load_graph(name, cache_dir=tmp_path / "data")

    chooser = DeltaChooser(tmp_path / "delta.json", reps=1)
    for name in ("tiny-kron", "kron-2e9", "tiny-mesh"):
        chooser.offer(name, load)
    assert loaded == []
    kron = load_graph("tiny-kron", cache_dir=tmp_path / "data")
    delta = chooser(kron, 0, None)
    assert sorted(loaded) == ["kron-2e9", "tiny-kron"]  # not the mesh: no Δ needed there yet
    # tuned on the family's largest graph, stored under its name, reused without tuning
    assert chooser.used["tiny-kron"] == {"delta": delta, "tuned_on": "kron-2e9"}
    assert load_tuned(tmp_path / "delta.json") == {"kron-2e9": delta}
    again = DeltaChooser(tmp_path / "delta.json", reps=1)
    again.offer("kron-2e9", load)
    assert again(kron, 0, None) == delta
    assert chooser(kron, 0, 7.0) == 7.0  # a given Δ wins
