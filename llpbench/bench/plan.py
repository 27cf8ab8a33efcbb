"""A sweep's canonical plan: every cell named without building a graph, and the plan's hash.

A cell is one configuration at one thread count on one instance. Its identity here is
``(study, input, instance, config, threads)``, where ``instance`` is the index of the source
(graph problems) or of the seed (generated problems) among the study's ``sources``: the
vertex itself is drawn from the graph by :func:`llpbench.graphs.sources.pick_sources`, a pure
function of the graph and the seed, so the index names the same instance on every machine
without loading anything. That lets a node of a cluster know its share of a sweep, and lets
``llpbench merge`` check that shards were cut from one plan, before any graph exists there.

The plan's hash covers the studies (every field), whether answers are verified, the cell list
and the llpbench version: shards whose hashes agree measured cells of the same sweep with the
same code, so their rows may be put into one results store.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from llpbench._version import __version__
from llpbench.bench.spec import FLOOR, Config, Study, Sweep
from llpbench.io import sha256_hex


@dataclass(frozen=True, order=True)
class CellId:
    """A cell's identity in a plan: the study's index, input, instance index, config label
    and thread count."""

    study: int
    input: str
    instance: int
    config: str
    threads: int

    def as_list(self) -> list[Any]:
        return [self.study, self.input, self.instance, self.config, self.threads]


def instance_slots(study: Study) -> list[tuple[str, int, int]]:
    """``(input name, size or -1, instance index)`` of every instance, in the runner's order:
    each graph's sources, then each size's seeds."""
    slots = [(name, -1, k) for name in study.graphs for k in range(study.sources)]
    slots += [(f"size={size}", size, k) for size in study.sizes for k in range(study.sources)]
    return slots


def runnable(study: Study) -> list[tuple[Config, int]]:
    """The study's ``(configuration, threads)`` pairs, without those that cannot run (a
    single-threaded solver above one thread), then the problem's floors (``FLOORS``: timed
    at one thread beside the baselines, in every study that times a baseline)."""
    from llpbench.problems import problem_module

    configs = list(study.configs)
    if any(c.kind == "baseline" for c in configs):
        floors = getattr(problem_module(study.problem), "FLOORS", {})
        configs += [f for f in (Config(FLOOR, baseline=n) for n in floors) if f not in configs]
    return [(c, t) for c in configs for t in study.threads if c.runs_at(t)]


def cell_ids(sweep: Sweep) -> list[CellId]:
    """Every cell of ``sweep`` in the order the runner runs them (instances outermost)."""
    return [
        CellId(i, name, k, config.label, threads)
        for i, study in enumerate(sweep.studies)
        for name, _, k in instance_slots(study)
        for config, threads in runnable(study)
    ]


def canonical_plan(sweep: Sweep, cells: list[CellId] | None = None) -> dict[str, Any]:
    """The plan as plain, ordered data: what :func:`plan_hash` hashes."""
    cells = cell_ids(sweep) if cells is None else cells
    return {
        "llpbench": __version__,
        "verify": sweep.verify,
        "studies": [asdict(study) for study in sweep.studies],
        "cells": [cell.as_list() for cell in cells],
    }


def digest(data: Any) -> str:
    """SHA-256 of ``data`` as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return sha256_hex(text)


def plan_hash(sweep: Sweep, cells: list[CellId] | None = None) -> str:
    """The hash of the sweep's canonical plan (hex SHA-256)."""
    return digest(canonical_plan(sweep, cells))
