"""External peers: other people's SSSP and BFS codes, run in-process on our graph as optional
baselines, their answers verified against the same reference as ours.

:data:`PEERS` is the one table: a name (the ``--baseline NAME`` spelling) maps to a
:class:`Peer`, the problems it solves, the package and ``pip`` extra it needs, and its
runner. A runner is called as ``run(problem, graph, source, threads, **params)`` and returns
a :class:`~llpbench.baselines.BaselineResult` whose ``answer`` is in the problem's answer
form (float64 distances or levels, ``inf`` where unreachable) and whose ``seconds`` covers
the peer's own solve only (building its graph from our CSR, and converting its answer, are
left out, as our kernels' setup is); ``params`` may carry ``delta`` (SSSP's Δ) for peers
that take one. Adding a peer is one module with a runner and one entry here.

A peer whose package is missing is refused before any solve, with one line naming the
extra that installs it (``pip install 'llpbench[peers]'``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from llpbench.baselines import BaselineResult
from llpbench.errors import LlpbenchError, UnknownNameError


class MissingPeerError(LlpbenchError):
    """A peer baseline was asked for and its package is not installed."""


@dataclass(frozen=True)
class Peer:
    """One external code: what it solves, what it needs, and where its runner lives."""

    problems: tuple[str, ...]
    package: str  # the importable module the runner needs
    extra: str  # the llpbench extra that installs it
    runner: str  # "module:function"
    takes: tuple[str, ...] = ()  # tuned parameters it is passed (SSSP's Δ: ``("delta",)``)

    def load(self) -> Callable[..., BaselineResult]:
        module, _, func = self.runner.partition(":")
        return getattr(importlib.import_module(module), func)


PEERS: dict[str, Peer] = {
    "networkit": Peer(
        ("sssp", "bfs"), "networkit", "peers", "llpbench.baselines.networkit_peer:run"
    ),
    "graphblas": Peer(
        ("sssp", "bfs"), "graphblas", "peers", "llpbench.baselines.graphblas_peer:run"
    ),
}


def peers_for(problem: str) -> list[str]:
    """The names of the peers that solve ``problem``."""
    return [name for name, peer in PEERS.items() if problem in peer.problems]


def require_peer(name: str, problem: str) -> Peer:
    """The peer ``name``, checked to solve ``problem`` and to be installed.

    Raises
    ------
    UnknownNameError
        If no peer of that name solves ``problem``.
    MissingPeerError
        If its package is not installed (the message names the extra).
    """
    peer = PEERS.get(name)
    if peer is None or problem not in peer.problems:
        raise UnknownNameError(f"{problem} peer", name, peers_for(problem))
    try:
        importlib.import_module(peer.package)
    except ImportError as exc:  # absent, or installed and broken: either way not usable
        raise MissingPeerError(
            f"baseline {name!r} needs the {peer.package} package ({exc}): "
            f"pip install 'llpbench[{peer.extra}]'"
        ) from None
    return peer


def run_peer(name: str, problem: str, graph, source: int, threads: int, **params):
    """Run peer ``name`` on ``problem`` (see :data:`PEERS`)."""
    return require_peer(name, problem).load()(problem, graph, source, threads, **params)
