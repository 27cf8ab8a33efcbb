"""Sweep specs: thread specs, configurations, TOML files; bad input gets a clear error."""

from __future__ import annotations

import pytest

from llpbench.bench.spec import (
    Config,
    configs_from_flags,
    load_sweep,
    make_study,
    parse_config,
    parse_threads,
    variant_of,
    with_baselines,
    with_overrides,
    with_variant,
)
from llpbench.errors import SpecError, UnknownNameError


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("1..32", [1, 2, 4, 8, 16, 32]),
        ("1..6", [1, 2, 4, 6]),
        ("1,2,3,4", [1, 2, 3, 4]),
        ("1-4", [1, 2, 3, 4]),
        ("1..8,12", [1, 2, 4, 8, 12]),
        ("3", [3]),
        (2, [2]),
        ([1, 16], [1, 16]),
    ],
)
def test_thread_specs(spec, expected):
    assert parse_threads(spec) == expected


@pytest.mark.parametrize("spec", ["", "0", "1..x", "4..2", "1..1000", "-1", "1,,2", "two"])
def test_bad_thread_specs_name_the_spec(spec):
    with pytest.raises(SpecError, match="bad thread spec"):
        parse_threads(spec)


def test_config_labels_round_trip_and_defaults():
    assert parse_config("worklist/ptcf") == Config("worklist", "ptcf")
    assert parse_config("worklist") == Config("worklist", "ptwb")
    assert parse_config("bag") == Config("bag", "swb")
    assert parse_config("baseline").kind == "baseline"
    assert parse_config("cyclic").runs_at(1) and not parse_config("cyclic").runs_at(2)
    with pytest.raises(UnknownNameError, match="did you mean"):
        parse_config("worklist/ptwbb")
    with pytest.raises(SpecError, match="takes no worklist"):
        parse_config("cyclic/swb")


def test_flags_expand_solvers_over_worklists_plus_baseline():
    configs = configs_from_flags(["worklist", "all-indices"], ["swb", "ptcf"], True)
    assert [c.label for c in configs] == [
        "worklist/swb", "worklist/ptcf", "all-indices", "baseline",
    ]
    default = configs_from_flags(None, None, False)
    assert [c.label for c in default] == [
        "worklist/swb", "worklist/ptwb", "worklist/ptcf", "worklist/bucketed",
    ]


def test_named_baselines_parse_from_labels_and_flags():
    assert parse_config("baseline/networkit") == Config("baseline", baseline="networkit")
    assert parse_config("baseline/networkit").label == "baseline/networkit"
    configs = configs_from_flags(["worklist"], ["ptcf"], True, ["networkit", "graphblas"])
    assert [c.label for c in configs] == [
        "worklist/ptcf", "baseline/networkit", "baseline/graphblas",
    ]
    assert [c.label for c in configs_from_flags(None, None, False, ["networkit"])][-1] == (
        "worklist/bucketed"
    )
    study = make_study(problem="sssp", graphs=["tiny-kron"], configs=["baseline/networkit"])
    assert study.configs == (Config("baseline", baseline="networkit"),)
    with pytest.raises(UnknownNameError, match="reduction baseline 'networkit'"):
        make_study(problem="reduction", sizes=[10], configs=["baseline/networkit"])


def test_variants_are_checked_per_problem_and_default_to_the_first():
    study = make_study(problem="stable-marriage", sizes=[5], variant="identical")
    assert variant_of(study) == "identical"
    assert variant_of(make_study(problem="job-scheduling", sizes=[5])) == "sparse"
    assert variant_of(make_study(problem="knapsack", sizes=[5])) == ""
    with pytest.raises(UnknownNameError, match="stable-marriage variant 'sorted'"):
        make_study(problem="stable-marriage", sizes=[5], variant="sorted")
    with pytest.raises(SpecError, match="has no variants"):
        make_study(problem="knapsack", sizes=[5], variant="identical")


def test_config_overrides_of_variant_and_baselines_touch_only_the_studies_that_have_them(
    tmp_path,
):
    path = tmp_path / "s.toml"
    path.write_text(
        '[[study]]\nproblem = "sssp"\ngraphs = ["tiny-kron"]\n'
        'configs = ["worklist/ptcf", "baseline"]\n'
        '\n[[study]]\nproblem = "stable-marriage"\nsizes = [20]\nvariant = "identical"\n'
        'configs = ["worklist/ptcf", "baseline/gale-shapley"]\n'
        '\n[[study]]\nproblem = "job-scheduling"\nsizes = [20]\nconfigs = ["baseline"]\n'
    )
    sweep = load_sweep(path)
    assert sweep.studies[1].variant == "identical"
    layered = with_variant(sweep, "layered")
    assert [s.variant for s in layered.studies] == [None, "identical", "layered"]
    with pytest.raises(SpecError, match="none of this sweep's problems"):
        with_variant(sweep, "signed")
    peers = with_baselines(sweep, ["networkit"])
    assert [c.label for c in peers.studies[0].configs] == ["worklist/ptcf", "baseline/networkit"]
    assert peers.studies[1].configs == sweep.studies[1].configs  # no networkit there: kept
    none = with_baselines(sweep, None, keep=False)
    assert all(c.kind == "llp" for s in none.studies for c in s.configs)
    with pytest.raises(SpecError, match="baseline 'nope'"):
        with_baselines(sweep, ["nope"])


def test_study_validation():
    with pytest.raises(SpecError, match="needs at least one graph"):
        make_study(problem="sssp")
    with pytest.raises(SpecError, match="reps"):
        make_study(problem="sssp", graphs=["tiny-kron"], reps=0)
    with pytest.raises(UnknownNameError, match="unknown problem 'sorting'; did you mean"):
        make_study(problem="sorting", graphs=["tiny-kron"])


def test_toml_sweep_with_defaults_and_overrides(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(
        '[sweep]\nthreads = "1..4"\nreps = 2\n\n'
        '[[study]]\nproblem = "sssp"\ngraphs = ["tiny-kron"]\nconfigs = ["worklist/swb"]\n'
        '\n[[study]]\nproblem = "bfs"\ngraphs = ["tiny-mesh"]\nreps = 4\n'
    )
    sweep = load_sweep(path)
    assert [s.reps for s in sweep.studies] == [2, 4]
    assert sweep.studies[0].threads == (1, 2, 4)
    assert [c.label for c in sweep.studies[0].configs] == ["worklist/swb"]
    assert [s.reps for s in with_overrides(sweep, reps=7).studies] == [7, 7]


@pytest.mark.parametrize(
    "text, match",
    [
        ("[sweep]\nreps = 1\n", "at least one"),
        ("[[study]]\nproblem = 'sssp'\ngraphs = ['tiny-kron']\ncolour = 1\n", "key 'colour'"),
        ("[[study]\n", "not valid TOML"),
    ],
)
def test_bad_toml_sweeps_name_the_file(tmp_path, text, match):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SpecError, match=match) as err:
        load_sweep(path)
    assert "bad.toml" in str(err.value)


def test_unknown_name_without_close_match_lists_the_known_ones():
    from llpbench.errors import UnknownNameError

    err = UnknownNameError("worklist", "zzz", ["bucketed", "ptcf", "ptwb", "swb"])
    assert str(err) == "unknown worklist 'zzz'; known: bucketed, ptcf, ptwb, swb"
    near = UnknownNameError("worklist", "ptwbb", ["bucketed", "ptcf", "ptwb", "swb"])
    assert "did you mean ptwb" in str(near) and "known:" not in str(near)
