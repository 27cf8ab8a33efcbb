"""Δ as a property of the graph family: the rule, the rule file, the cache, the command."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import numpy as np
import pytest

from llpbench.baselines.delta import family as dfam
from llpbench.baselines.delta.family import DeltaRule, choose_delta
from llpbench.errors import FormatError, SpecError
from llpbench.graphs.registry import load_graph

GRID = [1, 2, 4, 8, 16, 32, 64]


def test_choose_delta_prefers_the_tied_delta_nearest_the_prior():
    times = [5.0, 4.8, 4.9, 5.2, 7.0, 9.0, 12.0]  # flat up to 8, then rising
    stats = list(zip(GRID, times, strict=True))
    assert choose_delta(stats, 0.25, 7.5) == (8, [1, 2, 4, 8])
    assert choose_delta(stats, 0.25, 2.9) == (4, [1, 2, 4, 8])
    assert choose_delta(stats, 0.25, 100.0) == (8, [1, 2, 4, 8])  # nearest edge of the band
    assert choose_delta(stats, 0.25, 0.1) == (1, [1, 2, 4, 8])


def test_choose_delta_is_a_function_of_the_timings_only():
    stats = list(zip(GRID, [5.0, 4.8, 4.9, 5.2, 7.0, 9.0, 12.0], strict=True))
    first = choose_delta(stats, 0.25, 7.5)
    for perm in itertools.permutations(stats):
        assert choose_delta(list(perm), 0.25, 7.5) == first
    # equal statistics: the smaller Δ is the best; equal distance to the prior: the larger Δ
    assert choose_delta([(2, 1.0), (4, 5.0), (8, 1.0)], 0.0, 8.0) == (2, [2])
    assert choose_delta([(2, 1.0), (8, 1.0)], 0.0, 4.0) == (8, [2, 8])


def test_noise_inside_the_tolerance_does_not_move_the_choice():
    base = [5.0, 4.8, 4.9, 5.2, 7.0, 9.0, 12.0]
    chosen = set()
    for shift in itertools.product([0.95, 1.0, 1.05], repeat=4):  # ±5% on the flat part
        times = [t * s for t, s in zip(base[:4], shift, strict=True)] + base[4:]
        chosen.add(choose_delta(list(zip(GRID, times, strict=True)), 0.25, 7.5)[0])
    assert chosen == {8}


def test_the_band_is_the_unbroken_run_around_the_best():
    stats = list(zip(GRID, [5.0, 9.0, 4.0, 4.5, 9.0, 4.1, 9.0], strict=True))
    assert choose_delta(stats, 0.25, 32.0) == (8, [4, 8])  # 32 is fast but not contiguous
    with pytest.raises(ValueError, match="choose_delta needs at least one grid point"):
        choose_delta([], 0.25, 1.0)


def test_the_shipped_rule_file_parses_and_names_registry_graphs():
    rule = dfam.load_rule()
    assert rule.rounds >= 5 and rule.threads == dfam.SWEEP and 0 < rule.tolerance < 1
    assert rule.families["kronecker"] == "kron-2e16"
    assert rule.families["road"] == "luxembourg-road"
    assert len(rule.digest()) == 12 and rule.digest() == replace(rule, families={}).digest()
    assert rule.digest() != replace(rule, tolerance=0.3).digest()


@pytest.mark.parametrize(
    "body, needle",
    [
        ("[rule]\nbogus = 1\n", "unknown key 'bogus'"),
        ("[rule]\nrounds = 0\n", "rounds"),
        ("[rule]\ntolerance = -1\n", "tolerance"),
        ("[rule]\nrounds = 2.5\n", "integers"),
        ("[rule]\nthreads = 0\n", "threads must be"),
        ('[rule]\nthreads = "all"\n', "threads must be"),
        ("[rule]\nthreads = []\n", "threads must be"),
        ("[rule\n", "not valid TOML"),
    ],
)
def test_a_bad_rule_file_is_one_clear_error(tmp_path, body, needle):
    p = tmp_path / "delta.toml"
    p.write_text(body)
    with pytest.raises(SpecError, match=needle):
        dfam.load_rule(p)
    with pytest.raises(SpecError, match="no such"):
        dfam.load_rule(tmp_path / "none.toml")


def small_rule(**changes) -> DeltaRule:
    base = DeltaRule(k_min=-3, k_max=0, sources=2, seed=1, rounds=2, threads=(1, 2),
                     tolerance=0.25, families={"kronecker": "tiny-kron"})
    return replace(base, **changes)


def test_measure_grid_times_every_delta_and_orders_the_interval(tmp_path):
    g = load_graph("tiny-kron", cache_dir=tmp_path)
    rule = small_rule(rounds=5)
    r = dfam.tune_on(g, rule)
    assert [p.delta for p in r.grid] == rule.grid(g)
    for p in r.grid:
        assert 0 < p.fastest <= p.low <= p.median <= p.high
    assert r.delta in r.tied and set(r.tied) <= {p.delta for p in r.grid}
    assert r.reference == "tiny-kron" and r.family == "kronecker"


def test_family_delta_is_tuned_on_the_reference_once_then_cached(tmp_path):
    calls = []
    rule = small_rule()
    member = load_graph("tiny-kron", cache_dir=tmp_path)
    first = dfam.family_delta(member, rule=rule, cache_dir=tmp_path,
                              on_tune=lambda f, r: calls.append((f, r)))
    assert calls == [("kronecker", "tiny-kron")] and not first.cached
    again = dfam.family_delta(member, rule=rule, cache_dir=tmp_path,
                              on_tune=lambda f, r: calls.append((f, r)))
    assert len(calls) == 1 and again.cached and again.delta == first.delta
    assert again.grid == first.grid
    data = json.loads((tmp_path / dfam.CACHE_NAME).read_text())
    assert data["families"]["kronecker@1"]["key"] == dfam.cache_key(rule, "tiny-kron", 1)
    # another rule is another key: tuned again
    dfam.family_delta(member, rule=replace(rule, tolerance=0.5), cache_dir=tmp_path,
                      on_tune=lambda f, r: calls.append((f, r)))
    assert len(calls) == 2


def test_a_family_without_reference_is_tuned_on_the_graph_itself(tmp_path):
    g = load_graph("tiny-mesh", cache_dir=tmp_path)
    r = dfam.family_delta(g, rule=small_rule(), cache_dir=tmp_path)
    assert r.family == "mesh:tiny-mesh" and r.reference == "tiny-mesh"


def test_a_foreign_cache_file_is_refused(tmp_path):
    (tmp_path / dfam.CACHE_NAME).write_text('{"kronecker": 8}')
    g = load_graph("tiny-kron", cache_dir=tmp_path)
    with pytest.raises(FormatError, match="delete it to retune"):
        dfam.family_delta(g, rule=small_rule(), cache_dir=tmp_path)


def test_tune_delta_command_prints_the_grid_and_compares_with_the_cache(tmp_path):
    import typer
    from typer.testing import CliRunner

    from llpbench.cli.tune import register

    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        pass

    register(app)
    args = ["tune-delta", "--graph", "tiny-uniform", "--cache-dir", str(tmp_path),
            "--threads", "1,2"]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    for needle in ("fastest ms", "median ms", "interval ms", "chosen",
                   "Δ per family and thread count", "uniform-2e14", "saved to",
                   "at 1 thread(s)", "at 2 thread(s)", "wall time"):
        assert needle in out.output
    entries = json.loads((tmp_path / dfam.CACHE_NAME).read_text())["families"]
    assert set(entries) == {"uniform@1", "uniform@2"}  # each grid cached
    again = CliRunner().invoke(app, [*args, "--no-save"])
    assert again.exit_code == 0, again.output
    assert "cached before: none" not in again.output
    bad = CliRunner().invoke(app, ["tune-delta", "--family", "nope"])
    assert bad.exit_code != 0 and "unknown family 'nope'" in str(bad.exception)


def test_the_rule_names_the_thread_counts_it_tunes_at(tmp_path):
    p = tmp_path / "delta.toml"
    p.write_text("[rule]\nthreads = [16, 1, 2, 2]\n")
    stated = dfam.load_rule(p)
    assert stated.threads == (1, 2, 16)
    assert [stated.tuned_threads(t) for t in (1, 2, 3, 8, 16, 32)] == [1, 2, 2, 2, 16, 16]
    p.write_text("[rule]\nthreads = 1\n")  # the one-thread rule of older files
    assert dfam.load_rule(p).threads == (1,) and dfam.load_rule(p).tuned_threads(8) == 1
    sweep = replace(stated, threads=dfam.SWEEP)
    assert [sweep.tuned_threads(t, cores=2) for t in (1, 2, 4, 32)] == [1, 2, 2, 2]
    assert [sweep.tuned_threads(t, cores=16) for t in (1, 2, 4, 32)] == [1, 2, 4, 16]
    assert sweep.default_threads(cores=16) == [1, 2, 4, 8, 16]
    assert sweep.default_threads(cores=6) == [1, 2, 4, 6] and stated.default_threads() == [1, 2, 16]
    assert stated.digest() != sweep.digest()  # another set of counts is another rule


def _fake_grid(best_at):
    """A measured grid whose fastest Δ is ``best_at``, every other Δ twice as slow."""

    def measure(graph, sources, grid, rounds, threads=1, on_solve=None, solver=None):
        calls.append(threads)
        t = {d: (1.0 if d == best_at[threads] else 2.0) for d in grid}
        return [dfam.GridPoint(d, t[d], t[d], t[d], t[d], t[d]) for d in grid]

    calls: list[int] = []
    return measure, calls


def test_each_thread_count_is_tuned_and_cached_on_its_own(tmp_path, monkeypatch):
    rule = small_rule()
    member = load_graph("tiny-kron", cache_dir=tmp_path)
    grid = rule.grid(member)
    measure, calls = _fake_grid({1: grid[0], 2: grid[-1]})
    monkeypatch.setattr(dfam, "measure_grid", measure)
    one = dfam.family_delta(member, rule=rule, cache_dir=tmp_path, threads=1)
    two = dfam.family_delta(member, rule=rule, cache_dir=tmp_path, threads=2)
    four = dfam.family_delta(member, rule=rule, cache_dir=tmp_path, threads=4)  # tuned at 2
    assert calls == [1, 2] and (one.threads, two.threads, four.threads) == (1, 2, 2)
    assert (one.delta, two.delta) == (grid[0], grid[-1]) and four.delta == two.delta
    assert four.cached and not two.cached
    entries = json.loads((tmp_path / dfam.CACHE_NAME).read_text())["families"]
    assert set(entries) == {"kronecker@1", "kronecker@2"}
    assert entries["kronecker@2"]["key"] == dfam.cache_key(rule, "tiny-kron", 2)

    # the same cache gives the same Δ, with nothing measured
    monkeypatch.setattr(dfam, "measure_grid", lambda *a, **k: pytest.fail("measured again"))
    for t, want in ((1, grid[0]), (2, grid[-1]), (3, grid[-1])):
        again = dfam.family_delta(member, rule=rule, cache_dir=tmp_path, threads=t)
        assert again.cached and again.delta == want


def test_tuning_at_two_threads_times_two_threads(tmp_path):
    g = load_graph("tiny-kron", cache_dir=tmp_path)
    r = dfam.tune_on(g, small_rule(), threads=2)
    assert r.threads == 2 and r.key.endswith("/tiny-kron/2t") and r.delta in r.tied
    assert all(p.fastest > 0 for p in r.grid)


def test_another_solver_is_tuned_by_the_same_rule_and_cached_apart(tmp_path):
    """The level worklists' width (``sssp.LEVELS``): the same rule timing real LLP solves,
    every answer checked, cached under ``family@T/level-worklists`` beside Δ-stepping's."""
    from llpbench.problems.sssp import LEVELS

    rule = small_rule()
    member = load_graph("tiny-kron", cache_dir=tmp_path)
    grid = rule.grid(member)
    levels = dfam.family_delta(member, rule=rule, cache_dir=tmp_path, solver=LEVELS)
    assert levels.delta in grid and levels.solver == "level-worklists"
    assert [p.delta for p in levels.grid] == grid and all(p.fastest > 0 for p in levels.grid)
    ds = dfam.family_delta(member, rule=rule, cache_dir=tmp_path)
    assert ds.solver == ""
    entries = json.loads((tmp_path / dfam.CACHE_NAME).read_text())["families"]
    assert set(entries) == {"kronecker@1", "kronecker@1/level-worklists"}
    assert entries["kronecker@1/level-worklists"]["key"].endswith(
        f"/level-worklists:{LEVELS.digest()}")
    again = dfam.family_delta(member, rule=rule, cache_dir=tmp_path, solver=LEVELS)
    assert again.cached and again.delta == levels.delta


def test_a_solver_that_answers_wrong_is_never_tuned(tmp_path):
    rule = small_rule()
    member = load_graph("tiny-kron", cache_dir=tmp_path)

    def wrong(graph, source, threads, delta):
        return np.zeros(graph.n), 1e-3, 1e-3

    bad = dfam.GridSolver("wrong", wrong, lambda: "x")
    with pytest.raises(AssertionError, match="wrong Δ="):
        dfam.family_delta(member, rule=rule, cache_dir=tmp_path, solver=bad)
    assert not (tmp_path / dfam.CACHE_NAME).exists()
