"""Which baseline a sweep times for a problem: the problem's own, by name, or a peer.

A problem module lists its baselines in ``BASELINES`` (name -> ``run(inst, threads,
**params)``), its default first; the peers of :data:`llpbench.baselines.peers.PEERS` that
solve the problem follow. A sweep names one with ``baseline/NAME`` (``--baseline NAME``);
plain ``baseline`` is the default. External programs (:data:`PROGRAMS`: GAP's SSSP) come
last; they choose their own Δ (a Δ given to the sweep is passed on as given).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any

from llpbench.baselines import BaselineResult
from llpbench.baselines.peers import PEERS, peers_for, require_peer, run_peer
from llpbench.errors import UnknownNameError

#: External programs run as baselines: name -> the problems they solve. Each tunes its own
#: parameters (it gets only those the sweep sets) and is refused before any solve when its
#: build is missing.
PROGRAMS = {"gap": ("sssp",)}


def _program(name: str) -> Callable[..., BaselineResult]:
    from llpbench.baselines import gap_baseline

    return {"gap": gap_baseline.run}[name]


def _program_on_instance(name: str, inst, threads: int, **params) -> BaselineResult:
    return _program(name)(inst, threads, **params)


def _peer_on_instance(name: str, problem: str, inst, threads: int, **params) -> BaselineResult:
    return run_peer(name, problem, inst.meta["graph"], inst.meta["source"], threads, **params)


def baselines_of(module: ModuleType) -> dict[str, Callable[..., BaselineResult]]:
    """Every baseline of a problem module by name: its own (default first), then its peers."""
    table = dict(getattr(module, "BASELINES", None) or {"default": module.baseline})
    for name in peers_for(module.NAME):
        table.setdefault(name, partial(_peer_on_instance, name, module.NAME))
    for name, problems in PROGRAMS.items():
        if module.NAME in problems:
            table.setdefault(name, partial(_program_on_instance, name))
    return table


def default_baseline(module: ModuleType) -> str:
    """The name of the baseline a plain ``baseline`` config times."""
    return next(iter(baselines_of(module)))


def check_baseline(module: ModuleType, name: str) -> None:
    """Refuse an unknown baseline name, or a peer whose package is not installed.

    Raises
    ------
    UnknownNameError
        Listing the problem's baselines.
    llpbench.baselines.peers.MissingPeerError
        Naming the extra that installs the peer.
    llpbench.baselines.gap.GapError
        An external program without a usable build (the message says how to build it).
    """
    table = baselines_of(module)
    if name not in table:
        raise UnknownNameError(f"{module.NAME} baseline", name, list(table))
    if name in PEERS:
        require_peer(name, module.NAME)
    if name in PROGRAMS:
        from llpbench.baselines.gap_baseline import gap_build

        gap_build()


def baseline_params(
    module: ModuleType, name: str, params: dict[str, Any], given: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The part of an instance's tuned ``params`` that baseline ``name`` takes: the keywords
    of the problem's own baseline, or what a peer's :class:`Peer` entry lists. An external
    program tunes its own: it gets only the values the sweep set (``given``)."""
    if name in PROGRAMS:
        params = given or {}
    if not params:
        return {}
    if name in PROGRAMS:
        takes = set(inspect.signature(_program(name)).parameters)
    elif name in PEERS:
        takes = set(PEERS[name].takes)
    else:
        fn = baselines_of(module)[name]
        takes = set(inspect.signature(fn).parameters)
    return {k: v for k, v in params.items() if k in takes}
