"""Cutting a sweep into N shards of about equal estimated cost, the same way on every machine.

Shard ``I/N`` (1-based: ``1/3``, ``2/3``, ``3/3``) runs its share of the sweep's cells into a
run folder of its own; ``llpbench merge`` puts the N folders back together. The cut is a pure
function of the sweep, N and the graphs' registry specs, so N independent processes on N nodes
(a SLURM job array) agree on it without talking to each other.

Why by cost, not round-robin by name: one Graph500 scale-18 cell costs as much as a thousand
tiny-graph cells. A cell's estimated cost is its input's size (vertices plus arcs, estimated
from the registry spec without building the graph: :func:`~llpbench.graphs.registry.
estimated_size`; the size for generated problems), plus a fixed :data:`SOLVE_OVERHEAD` for
what every solve costs whatever the input (starting threads, verification, writing the row:
it is what tiny graphs are made of), times its solves (``reps`` timed plus the warm-up).
The thread count does not enter: on a node of its own, a cell's solves do about the
same work whatever the thread count, and a cost only has to rank cells, not predict seconds.

Shards are filled by greedy longest-processing-time-first bin packing over units of work that
keep what shares a graph together: first one unit per (study, input), so a graph is loaded and
its sources drawn on one node only; while the fullest shard is more than 10% above the best
possible (the mean, or the costliest single cell), the costliest unit is split (an input into
its instances, an instance into its cells) and the packing redone. Within a shard, cells keep
the sweep's order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from llpbench.bench.plan import CellId, cell_ids, digest, plan_hash
from llpbench.bench.spec import Sweep
from llpbench.errors import SpecError

TOLERANCE = 1.10  # stop splitting units once the fullest shard is within 10% of the bound
SOLVE_OVERHEAD = 10_000  # a solve's fixed cost, in the units of estimated_size (arcs)


@dataclass(frozen=True)
class ShardPlan:
    """A sweep cut into ``count`` shards: shard ``i`` (1-based) runs ``shards[i - 1]``."""

    count: int
    plan_hash: str
    assignment_hash: str
    shards: tuple[tuple[CellId, ...], ...]
    costs: tuple[int, ...]
    rows: tuple[int, ...]  # timed solves (rows of runs.csv) each shard writes

    def cells_of(self, index: int) -> tuple[CellId, ...]:
        self.check_index(index)
        return self.shards[index - 1]

    def check_index(self, index: int) -> None:
        if not 1 <= index <= self.count:
            raise SpecError(f"shard {index} does not exist: shards are numbered 1..{self.count}")

    def folder_name(self, index: int) -> str:
        """The run folder of shard ``index``: the same name on every node and every retry, so
        that ``--resume`` finds it and ``llpbench merge`` sees which plan it belongs to."""
        return f"shard-{index}-of-{self.count}-{self.plan_hash[:8]}"

    def record(self, index: int) -> dict[str, Any]:
        """What a shard's ``meta.json`` says about its place in the plan."""
        from llpbench._version import __version__

        total = sum(self.costs) or 1
        return {
            "index": index,
            "count": self.count,
            "plan_hash": self.plan_hash,
            "assignment_hash": self.assignment_hash,
            "llpbench": __version__,
            "cells": len(self.cells_of(index)),
            "rows_expected": self.rows[index - 1],
            "estimated_cost": self.costs[index - 1],
            "estimated_share": round(self.costs[index - 1] / total, 4),
        }


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of a :class:`ShardPlan`: what one node runs."""

    plan: ShardPlan
    index: int

    def __post_init__(self) -> None:
        self.plan.check_index(self.index)

    @property
    def cells(self) -> tuple[CellId, ...]:
        return self.plan.cells_of(self.index)

    @property
    def folder_name(self) -> str:
        return self.plan.folder_name(self.index)

    @property
    def label(self) -> str:
        return f"{self.index}/{self.plan.count}"

    def record(self) -> dict[str, Any]:
        return self.plan.record(self.index)


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/3"`` -> ``(2, 3)``: shard 2 of 3, numbered from 1.

    Raises
    ------
    SpecError
        For anything but ``I/N`` with ``1 <= I <= N``.
    """
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m:
        raise SpecError(f"bad shard {text!r}: expected I/N, e.g. 1/3 (shards count from 1)")
    index, count = int(m[1]), int(m[2])
    if count < 1 or not 1 <= index <= count:
        raise SpecError(f"bad shard {text!r}: I must be 1..N (shards count from 1)")
    return index, count


def parse_shard_list(text: str, count: int) -> list[int]:
    """``"2,3"`` or ``"1-2,4"`` -> sorted shard numbers, each checked against ``count``."""
    chosen: set[int] = set()
    for part in (p.strip() for p in str(text).split(",")):
        if m := re.fullmatch(r"(\d+)-(\d+)", part):
            chosen.update(range(int(m[1]), int(m[2]) + 1))
        elif part.isdigit():
            chosen.add(int(part))
        else:
            raise SpecError(f"bad shard list {text!r}: expected numbers like 2,3 or 1-2")
    if not chosen or min(chosen) < 1 or max(chosen) > count:
        raise SpecError(f"bad shard list {text!r}: shards are numbered 1..{count}")
    return sorted(chosen)


def input_sizes(sweep: Sweep) -> dict[tuple[int, str], int]:
    """Estimated size of each (study, input): the registry's estimate for a graph, ``N`` for
    ``size=N``. A graph with no estimate (a download not described by its spec) counts as
    the largest estimated input of the sweep: better one big shard too many than a node
    that runs for days."""
    from llpbench.graphs.registry import estimated_size

    sizes: dict[tuple[int, str], int | None] = {}
    for i, study in enumerate(sweep.studies):
        for name in study.graphs:
            sizes[(i, name)] = estimated_size(name)
        for size in study.sizes:
            sizes[(i, f"size={size}")] = max(int(size), 1)
    known = [s for s in sizes.values() if s is not None]
    fallback = max(known, default=1)
    return {key: (fallback if s is None else s) for key, s in sizes.items()}


def make_plan(sweep: Sweep, count: int) -> ShardPlan:
    """Cut ``sweep`` into ``count`` shards of about equal estimated cost (see the module).

    Raises
    ------
    SpecError
        If ``count`` is below 1; UnknownNameError if a graph is not known.
    """
    if count < 1:
        raise SpecError(f"the number of shards must be at least 1, got {count}")
    cells = cell_ids(sweep)
    sizes = input_sizes(sweep)
    reps = [study.reps for study in sweep.studies]
    cost = [(sizes[(c.study, c.input)] + SOLVE_OVERHEAD) * (reps[c.study] + 1) for c in cells]
    bins = _pack(cells, cost, count)
    shards = tuple(tuple(cells[j] for j in sorted(b)) for b in bins)
    return ShardPlan(
        count=count,
        plan_hash=plan_hash(sweep, cells),
        assignment_hash=digest([[c.as_list() for c in shard] for shard in shards]),
        shards=shards,
        costs=tuple(sum(cost[j] for j in b) for b in bins),
        rows=tuple(sum(reps[cells[j].study] for j in b) for b in bins),
    )


def _pack(cells: list[CellId], cost: list[int], count: int) -> list[list[int]]:
    """Indexes of ``cells`` per shard: LPT over units, splitting the costliest unit until the
    fullest shard is within :data:`TOLERANCE` of the lower bound."""
    units: list[tuple[int, list[int]]] = []  # (level, cell indexes): 0 input, 1 instance, 2 cell
    for j, c in enumerate(cells):
        if units and (cells[units[-1][1][0]].study, cells[units[-1][1][0]].input) == (
            c.study, c.input
        ):
            units[-1][1].append(j)
        else:
            units.append((0, [j]))
    total = sum(cost)
    bound = max(-(-total // count), max(cost, default=0))
    while True:
        bins, loads = _lpt(units, cost, count)
        splittable = [u for u in units if len(u[1]) > 1]
        if max(loads, default=0) <= TOLERANCE * bound or not splittable:
            return bins
        worst = max(splittable, key=lambda u: (_unit_cost(u, cost), -u[1][0]))
        units.remove(worst)
        units += _split(worst, cells)


def _unit_cost(unit: tuple[int, list[int]], cost: list[int]) -> int:
    return sum(cost[j] for j in unit[1])


def _split(unit: tuple[int, list[int]], cells: list[CellId]) -> list[tuple[int, list[int]]]:
    level, members = unit
    if level == 0 and len({cells[j].instance for j in members}) > 1:
        by_instance: dict[int, list[int]] = {}
        for j in members:
            by_instance.setdefault(cells[j].instance, []).append(j)
        return [(1, js) for js in by_instance.values()]
    return [(2, [j]) for j in members]


def _lpt(
    units: list[tuple[int, list[int]]], cost: list[int], count: int
) -> tuple[list[list[int]], list[int]]:
    """Longest processing time first: each unit, costliest first (ties: earlier in the plan),
    to the least loaded shard (ties: the lowest number)."""
    bins: list[list[int]] = [[] for _ in range(count)]
    loads = [0] * count
    for unit in sorted(units, key=lambda u: (-_unit_cost(u, cost), u[1][0])):
        i = min(range(count), key=lambda b: (loads[b], b))
        bins[i] += unit[1]
        loads[i] += _unit_cost(unit, cost)
    return bins, loads
