"""Cutting a sweep into shards: every cell once, balanced by cost, the same on every machine."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from llpbench.bench import plan as plan_module
from llpbench.bench.plan import cell_ids, plan_hash
from llpbench.bench.runner import plan
from llpbench.bench.shards import (
    SOLVE_OVERHEAD,
    TOLERANCE,
    input_sizes,
    make_plan,
    parse_shard,
    parse_shard_list,
)
from llpbench.bench.spec import Sweep, load_sweep, make_study
from llpbench.errors import SpecError
from llpbench.graphs.registry import load_graph

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "configs"


def tiny(graphs=("tiny-kron", "tiny-mesh"), **kw) -> Sweep:
    args = dict(threads="1,2", configs=["worklist/swb", "worklist/ptwb", "baseline"],
                sources=2, reps=2)
    args.update(kw)
    return Sweep((make_study(graphs=list(graphs), **args),))


@pytest.mark.parametrize("config", ["smoke.toml", "paper.toml", "problems.toml"])
@pytest.mark.parametrize("count", [1, 2, 3, 5, 8])
def test_every_cell_is_in_exactly_one_shard(config, count):
    sweep = load_sweep(CONFIGS / config)
    cut = make_plan(sweep, count)
    placed = Counter(c for shard in cut.shards for c in shard)
    assert set(placed) == set(cell_ids(sweep))
    assert set(placed.values()) == {1}
    assert cut.rows == tuple(
        sum(sweep.studies[c.study].reps for c in shard) for shard in cut.shards
    )
    position = {c: i for i, c in enumerate(cell_ids(sweep))}
    for shard in cut.shards:  # within a shard, the sweep's own order
        order = [position[c] for c in shard]
        assert order == sorted(order)


def _costs(sweep, cells) -> list[int]:
    sizes = input_sizes(sweep)
    return [(sizes[(c.study, c.input)] + SOLVE_OVERHEAD) * (sweep.studies[c.study].reps + 1)
            for c in cells]


@pytest.mark.parametrize("count", [2, 3, 4, 8])
def test_shards_are_balanced_by_cost_better_than_round_robin(count):
    sweep = load_sweep(CONFIGS / "paper.toml")
    cut = make_plan(sweep, count)
    cells = cell_ids(sweep)
    costs = _costs(sweep, cells)
    bound = max(-(-sum(costs) // count), max(costs))
    assert max(cut.costs) <= TOLERANCE * bound
    assert list(cut.costs) == [sum(_costs(sweep, s)) for s in cut.shards]
    # Round-robin by name: graph500-s18 lands whole on one node.
    names = sorted({c.input for c in cells})
    robin = [0] * count
    for c, cost in zip(cells, costs, strict=True):
        robin[names.index(c.input) % count] += cost
    assert max(cut.costs) < max(robin)


def test_a_graph_stays_on_one_shard_when_there_are_enough_graphs():
    sweep = load_sweep(CONFIGS / "smoke.toml")  # four graphs of similar size
    cut = make_plan(sweep, 2)
    owners = {}
    for i, shard in enumerate(cut.shards):
        for c in shard:
            owners.setdefault(c.input, set()).add(i)
    assert all(len(o) == 1 for o in owners.values())


def test_one_graph_is_split_by_instance_so_no_shard_is_idle():
    sweep = tiny(graphs=("tiny-kron",), sources=3)
    cut = make_plan(sweep, 3)
    assert all(cut.shards)
    for shard in cut.shards:  # an instance's cells stay together
        assert len({c.instance for c in shard}) == 1


def test_more_shards_than_instances_splits_instances_into_cells():
    sweep = tiny(graphs=("tiny-kron",), sources=1)  # 1 instance, 5 cells
    cut = make_plan(sweep, 4)
    assert all(cut.shards)


def test_the_plan_is_the_same_in_another_process():
    code = (
        "from llpbench.bench.spec import load_sweep; from llpbench.bench.shards import "
        "make_plan; p = make_plan(load_sweep('configs/paper.toml'), 5); "
        "print(p.plan_hash, p.assignment_hash)"
    )
    outs = {
        subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                       env={"PYTHONHASHSEED": seed, "PATH": ""}, check=True).stdout
        for seed in ("1", "2")
    }
    cut = make_plan(load_sweep(CONFIGS / "paper.toml"), 5)
    assert outs == {f"{cut.plan_hash} {cut.assignment_hash}\n"}


def test_the_plan_hash_covers_studies_verification_and_version(monkeypatch):
    base = plan_hash(tiny())
    assert plan_hash(tiny()) == base
    assert plan_hash(Sweep(tiny().studies, name="other")) == base  # the name is a label
    assert plan_hash(tiny(reps=3)) != base
    assert plan_hash(tiny(seed=7)) != base
    assert plan_hash(Sweep(tiny().studies, verify=False)) != base
    monkeypatch.setattr(plan_module, "__version__", "9.9.9")
    assert plan_hash(tiny()) != base


def test_a_shard_loads_only_the_graphs_it_runs(tmp_path):
    sweep = tiny(graphs=("tiny-kron", "tiny-mesh", "tiny-dag"))
    cut = make_plan(sweep, 3)
    for index in (1, 2, 3):
        loaded: list[str] = []

        def load(name, loaded=loaded):
            loaded.append(name)
            return load_graph(name, cache_dir=tmp_path)

        cells = list(plan(sweep, load, only=cut.cells_of(index)))
        mine = {c.input for c in cut.cells_of(index)}
        assert len(cells) == len(cut.cells_of(index))
        assert set(loaded) == mine and len(loaded) == len(mine)
        assert {c.input_name for c in cells} == mine


def test_shard_cells_are_the_whole_plans_cells(tmp_path):
    sweep = tiny()

    def load(name):
        return load_graph(name, cache_dir=tmp_path)

    whole = [c.key(0) for c in plan(sweep, load)]
    cut = make_plan(sweep, 3)
    parts = [c.key(0) for i in (1, 2, 3) for c in plan(sweep, load, only=cut.cells_of(i))]
    assert sorted(map(str, parts)) == sorted(map(str, whole))
    assert len(parts) == len(whole) == len(cell_ids(sweep))


@pytest.mark.parametrize("text, expected", [("1/3", (1, 3)), (" 3 / 3 ", (3, 3)),
                                            ("1/1", (1, 1))])
def test_parse_shard(text, expected):
    assert parse_shard(text) == expected


@pytest.mark.parametrize("text", ["0/3", "4/3", "2", "a/b", "1/0", "-1/3", ""])
def test_parse_shard_rejects_what_is_not_i_of_n_from_one(text):
    with pytest.raises(SpecError, match="shard"):
        parse_shard(text)


def test_parse_shard_list():
    assert parse_shard_list("3,1", 3) == [1, 3]
    assert parse_shard_list("1-2,2", 4) == [1, 2]
    for bad in ("0", "4", "x", "1,,2"):
        with pytest.raises(SpecError, match="shard list"):
            parse_shard_list(bad, 3)
