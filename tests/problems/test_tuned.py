"""Problems bring their own tuned parameters: looked up one way, a given value wins."""

from __future__ import annotations

import pytest

from llpbench.baselines.delta import family as dfam
from llpbench.errors import SpecError
from llpbench.graphs.registry import load_graph
from llpbench.problems import build_instance, problem_module
from llpbench.problems.tuned import TunedParams, tuned_names


def seed_entry(cache, rule, family, reference, threads, delta, solver=None) -> None:
    """A valid cache entry (no tuning): ``delta`` for ``family`` at ``threads``, timed on
    Δ-stepping or ``solver``."""
    point = dfam.GridPoint(delta, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3)
    dfam.write_cache(cache, dfam.FamilyDelta(
        family=family, reference=reference, delta=delta, tied=[delta], prior=1.0,
        grid=[point], sources=[0], key=dfam.cache_key(rule, reference, threads, solver),
        threads=threads, solver=solver.name if solver else ""))


def seed_family_delta(cache_dir, graph, delta, threads: int = 1, level=None) -> None:
    """Put ``delta`` in the Δ cache as the family Δ of ``graph`` at ``threads``, and
    ``level`` (default ``delta``) as its level worklists' width."""
    rule = dfam.load_rule()
    ref = dfam.reference_for(graph, rule)
    family = graph.family if ref else f"{graph.family}:{graph.name}"
    cache = dfam.cache_path(cache_dir)
    seed_entry(cache, rule, family, ref or graph.name, threads, delta)
    levels = problem_module("sssp").LEVELS
    seed_entry(cache, rule, family, ref or graph.name, threads,
               delta if level is None else level, levels)


def test_sssp_declares_delta_and_the_others_declare_nothing():
    assert tuned_names(problem_module("sssp")) == ("delta", "level_delta")
    assert tuned_names(problem_module("bfs")) == ()
    assert tuned_names(problem_module("knapsack")) == ()


def test_a_given_value_wins_and_is_recorded(tmp_path):
    tuned = TunedParams(tmp_path)
    kron = load_graph("tiny-kron", cache_dir=tmp_path)
    both = {"delta": 7.0, "level_delta": 7.0}  # a given Δ sets the level width too
    assert tuned(problem_module("sssp"), kron, {"delta": 7.0}) == both
    assert tuned(problem_module("sssp"), kron, {"delta": 7.0}, threads=2) == both
    record = {**both, "from": "given", "level_delta_how": {"from": "given delta"}}
    assert tuned.used["tiny-kron@1"] == tuned.used["tiny-kron@2"] == record
    given = {"delta": 7.0, "level_delta": 9.0}
    assert tuned(problem_module("sssp"), kron, given, threads=3) == given
    assert tuned.used["tiny-kron@3"]["level_delta_how"] == {"from": "given"}
    assert not dfam.cache_path(tmp_path).exists()  # nothing was tuned


def test_the_family_delta_is_looked_up_once_and_recorded(tmp_path):
    kron = load_graph("tiny-kron", cache_dir=tmp_path)
    seed_family_delta(tmp_path, kron, 12, level=96)
    tuned = TunedParams(tmp_path)
    assert tuned(problem_module("sssp"), kron) == {"delta": 12, "level_delta": 96}
    dfam.cache_path(tmp_path).unlink()  # a second look-up must not read the cache again
    assert tuned(problem_module("sssp"), kron) == {"delta": 12, "level_delta": 96}
    assert tuned(problem_module("sssp"), kron, names=("delta",)) == {"delta": 12}
    record = tuned.used["tiny-kron@1"]
    assert record["delta"] == 12 and record["family"] == "kronecker"
    assert record["level_delta"] == 96 and record["level_delta_how"]["family"] == "kronecker"
    assert record["level_delta_how"]["solver"] == "level-worklists"


def test_each_thread_count_gets_its_own_family_delta(tmp_path):
    kron = load_graph("tiny-kron", cache_dir=tmp_path)
    seed_family_delta(tmp_path, kron, 4, threads=1, level=16)
    seed_family_delta(tmp_path, kron, 32, threads=2, level=64)
    tuned, sssp = TunedParams(tmp_path), problem_module("sssp")
    assert tuned(sssp, kron, threads=1) == {"delta": 4, "level_delta": 16}
    assert tuned(sssp, kron, threads=2) == {"delta": 32, "level_delta": 64}
    assert tuned.used["tiny-kron@2"]["tuned_threads"] == 2
    inst = build_instance(sssp, graph=kron)  # one instance, each solve applies its own width
    assert sssp.apply_params(inst, tuned(sssp, kron, threads=2)).bucket_width == 64
    assert sssp.apply_params(inst, tuned(sssp, kron, threads=1)).bucket_width == 16


def test_a_parameter_the_problem_does_not_take_is_refused(tmp_path):
    kron = load_graph("tiny-kron", cache_dir=tmp_path)
    with pytest.raises(SpecError, match="takes no parameter 'delta'"):
        TunedParams(tmp_path)(problem_module("bfs"), kron, {"delta": 3})
    with pytest.raises(SpecError, match="'width'"):
        TunedParams(tmp_path)(problem_module("sssp"), kron, {"width": 3})


def test_the_tuned_delta_is_the_bucket_width_and_the_baselines_delta(tmp_path):
    from llpbench.baselines.selection import baseline_params

    sssp = problem_module("sssp")
    kron = load_graph("tiny-kron", cache_dir=tmp_path)
    inst = build_instance(sssp, graph=kron, params={"delta": 5})
    assert inst.bucket_width == 5 and inst.params == {"delta": 5}
    assert baseline_params(sssp, "delta-stepping", inst.params) == {"delta": 5}
    res = sssp.BASELINES["delta-stepping"](inst, 1, **baseline_params(sssp, "delta-stepping",
                                                                      inst.params))
    assert res.params["delta"] == 5


def test_solve_reports_the_tuned_bucket_width_of_every_level_worklist(tmp_path):
    from llpbench import solve
    from llpbench.llp.worklists import BY_LEVEL

    kron = load_graph("tiny-kron", cache_dir=tmp_path)
    seed_family_delta(tmp_path, kron, 6, level=24)
    for worklist in BY_LEVEL:
        sol = solve(kron, worklist=worklist, cache_dir=tmp_path)
        assert sol.verified and sol.bucket_width == 24, worklist
    assert solve(kron, worklist="ptwb", cache_dir=tmp_path).bucket_width is None
