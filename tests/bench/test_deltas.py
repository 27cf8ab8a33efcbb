"""Δ for the Δ-stepping baseline in a sweep: a given Δ wins, and shards tune a family once."""

from __future__ import annotations

import threading
import time

from llpbench.baselines.delta.chooser import DeltaChooser, _exclusive
from llpbench.graphs.registry import load_graph


def test_a_given_delta_wins_and_is_recorded(tmp_path):
    chooser = DeltaChooser(tmp_path / "data")
    kron = load_graph("tiny-kron", cache_dir=tmp_path / "data")
    assert chooser(kron, 0, 7.0) == 7.0 and chooser(kron, 0, 7.0, threads=2) == 7.0
    assert chooser.used["tiny-kron@1"] == {"delta": 7.0, "from": "given"}
    assert chooser.used["tiny-kron@2"] == {"delta": 7.0, "from": "given"}


def test_the_cache_lock_lets_one_holder_in_at_a_time(tmp_path):
    """Two shards asking for the same family's Δ: the second waits for the first's tuning."""
    path = tmp_path / "delta-families.json"
    events: list[str] = []
    first_in = threading.Event()

    def holder(name: str, hold: float) -> None:
        with _exclusive(path):
            events.append(f"{name} in")
            first_in.set()
            time.sleep(hold)  # long enough for the second to be waiting at the lock
            events.append(f"{name} out")

    first = threading.Thread(target=holder, args=("a", 0.3))
    first.start()
    assert first_in.wait(60)  # "a" holds the lock before "b" asks for it
    second = threading.Thread(target=holder, args=("b", 0.0))
    second.start()
    first.join()
    second.join()
    assert events == ["a in", "a out", "b in", "b out"]
    assert (tmp_path / "delta-families.json.lock").exists()
