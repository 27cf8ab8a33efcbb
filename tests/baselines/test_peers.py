"""External peers (NetworKit, SuiteSparse:GraphBLAS): answers verified like ours, selected by
name, and refused in one line when their package is missing."""

from __future__ import annotations

import numpy as np
import pytest

from llpbench.baselines import peers
from llpbench.baselines.peers import PEERS, MissingPeerError, Peer, require_peer, run_peer
from llpbench.baselines.selection import (
    PROGRAMS,
    baselines_of,
    check_baseline,
    default_baseline,
)
from llpbench.errors import UnknownNameError
from llpbench.graphs.generators import kronecker
from llpbench.graphs.graph import Graph
from llpbench.problems import bfs, problem_module, sssp


def _graphs() -> dict[str, tuple[Graph, int]]:
    kron = kronecker(9, 8, seed=3)
    return {
        "kronecker": (kron, int(np.argmax(kron.out_degrees()))),
        "single-vertex": (Graph.from_edges(1, [], []), 0),
        "source-without-arcs": (Graph.from_edges(4, [1, 2], [2, 3], weights=[5, 7]), 0),
        "unreachable-part": (Graph.from_edges(5, [0, 1, 3], [1, 2, 4], weights=[2, 9, 1]), 0),
        "float-weights": (
            Graph.from_edges(4, [0, 0, 1, 2], [1, 2, 3, 3], weights=[0.5, 2.25, 3.0, 0.125]),
            0,
        ),
    }


@pytest.mark.parametrize("peer", sorted(PEERS))
@pytest.mark.parametrize("threads", [1, 2, 8])
def test_every_peer_answer_equals_the_reference(peer, threads):
    for name, (graph, source) in _graphs().items():
        for problem in (sssp, bfs):
            inst = problem.instance(graph, source)
            result = run_peer(peer, problem.NAME, graph, source, threads)
            assert problem.verify(result.answer, problem.reference(inst)) is None, (name, peer)
            assert result.name.startswith(f"{peer}-") and result.params["threads"] == threads
            assert result.name.endswith("-bfs") == (problem is bfs), result.name


def test_peers_are_baselines_of_sssp_and_bfs_only_after_their_own():
    for problem in ("sssp", "bfs"):
        names = [n for n in baselines_of(problem_module(problem)) if n not in PROGRAMS]
        assert names[1:] == sorted(PEERS, key=list(PEERS).index)
    assert list(baselines_of(problem_module("sssp")))[-1] == "gap"  # programs come last
    assert "gap" not in baselines_of(problem_module("bfs"))
    assert default_baseline(problem_module("sssp")) == "delta-stepping"
    assert "networkit" not in baselines_of(problem_module("knapsack"))
    with pytest.raises(UnknownNameError, match="knapsack baseline 'networkit'"):
        check_baseline(problem_module("knapsack"), "networkit")


def test_a_missing_peer_package_is_one_clear_error_naming_the_extra(monkeypatch):
    fake = Peer(("sssp",), "llpbench_no_such_package", "peers", "llpbench.baselines.peers:x")
    monkeypatch.setitem(peers.PEERS, "absent", fake)
    with pytest.raises(MissingPeerError, match=r"pip install 'llpbench\[peers\]'"):
        require_peer("absent", "sssp")
    with pytest.raises(MissingPeerError, match="llpbench_no_such_package"):
        check_baseline(problem_module("sssp"), "absent")
