"""Tests of weight rules and deterministic weight assignment."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.errors import NegativeWeightError, SpecError
from llpbench.graphs.generators import kronecker, mesh, random_dag, uniform_random
from llpbench.graphs.graph import Graph
from llpbench.graphs.weights import (
    DEFAULT_WEIGHT_RULE,
    WeightRule,
    assign_weights,
    parse_weight_rule,
)

SLOW_OK = settings(deadline=None, max_examples=25)


@pytest.fixture(scope="module")
def kron():
    return kronecker(9, 8, seed=3)


@pytest.mark.parametrize(
    "text,expect,canonical",
    [
        ("uniform-int:1:255", WeightRule("uniform-int", 1, 255), "uniform-int:1:255"),
        (" uniform-int:0:0 ", WeightRule("uniform-int", 0, 0), "uniform-int:0:0"),
        ("uniform-float:0.5:2", WeightRule("uniform-float", 0.5, 2.0), "uniform-float:0.5:2.0"),
        ("unit", WeightRule("unit"), "unit"),
        ("file", WeightRule("file"), "file"),
    ],
)
def test_parse_valid(text, expect, canonical):
    rule = parse_weight_rule(text)
    assert rule == expect
    assert str(rule) == canonical
    assert parse_weight_rule(str(rule)) == rule


def test_default_rule_is_gap():
    assert parse_weight_rule(DEFAULT_WEIGHT_RULE) == WeightRule("uniform-int", 1, 255)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "uniform",
        "uniform-int",
        "uniform-int:1",
        "uniform-int:1:2:3",
        "uniform-int:a:b",
        "uniform-int:1.5:3",
        "uniform-int:5:1",
        "uniform-float:2:1",
        "uniform-float:nan:1",
        "uniform-float:0:inf",
        "unit:1",
        "file:x",
        "gauss:1:2",
        "UNIT",
    ],
)
def test_parse_bad_rules(text):
    with pytest.raises(SpecError, match=f"^bad weight rule {re.escape(repr(text))}: ") as info:
        parse_weight_rule(text)
    msg = str(info.value)
    assert "\n" not in msg
    assert repr(text) in msg
    assert "uniform-int:LO:HI" in msg and "unit" in msg and "file" in msg


def test_parse_non_string():
    with pytest.raises(SpecError, match="^bad weight rule 5: not a string; expected one of "):
        parse_weight_rule(5)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["uniform-int:-1:5", "uniform-float:-0.5:1"])
def test_negative_lo(text):
    with pytest.raises(NegativeWeightError, match="negative"):
        parse_weight_rule(text)


def test_int_weights_in_range_and_cover_it(kron):
    g = assign_weights(kron, "uniform-int:1:4", seed=0)
    assert g.weights.dtype == np.int8  # the narrowest signed type holding 1..4
    assert set(np.unique(g.weights).tolist()) == {1, 2, 3, 4}
    assert np.array_equal(g.indices, kron.indices) and np.array_equal(g.indptr, kron.indptr)
    w = assign_weights(kron, DEFAULT_WEIGHT_RULE, seed=0).weights
    assert w.min() >= 1 and w.max() <= 255
    assert abs(w.mean() - 128) < 5


def test_float_weights_in_range(kron):
    g = assign_weights(kron, "uniform-float:0.5:2", seed=1)
    assert g.weights.dtype == np.float64
    assert g.weights.min() >= 0.5 and g.weights.max() <= 2.0
    assert len(np.unique(g.weights)) > 0.9 * g.m / 2  # distinct per edge, shared by its twin
    assert abs(g.weights.mean() - 1.25) < 0.05


@pytest.mark.parametrize("rule", ["uniform-int:1:255", "uniform-float:0:1"])
def test_undirected_twins_get_same_weight(kron, rule):
    a = assign_weights(kron, rule, seed=4).to_scipy()
    assert (a != a.T).nnz == 0
    assert assign_weights(mesh(6, 9), rule, seed=4).to_scipy().nnz == mesh(6, 9).m


def test_directed_arcs_hash_separately():
    n = 300
    u = np.arange(n - 1)
    g = Graph.from_edges(n, np.concatenate([u, u + 1]), np.concatenate([u + 1, u]))
    assert g.directed
    a = assign_weights(g, "uniform-int:1:1000", seed=2).to_scipy()
    assert (a != a.T).nnz > 0


def test_deterministic_and_seed_sensitive(kron):
    w1 = assign_weights(kron, "uniform-int:1:255", 11).weights
    w2 = assign_weights(kron, "uniform-int:1:255", 11).weights
    w3 = assign_weights(kron, "uniform-int:1:255", 12).weights
    assert np.array_equal(w1, w2)
    assert not np.array_equal(w1, w3)


def test_weight_depends_only_on_arc_and_seed():
    """The same arc gets the same weight in a different graph that contains it."""
    big = uniform_random(500, 6, seed=1, directed=True)
    src, dst, _ = big.edges()
    keep = np.arange(src.shape[0]) % 3 == 0
    small = Graph.from_edges(big.n, src[keep], dst[keep])
    wb = assign_weights(big, "uniform-int:1:10000", 5)
    ws = assign_weights(small, "uniform-int:1:10000", 5)
    assert np.array_equal(wb.weights[keep], ws.weights)


def test_provenance_and_special_rules(kron):
    g = assign_weights(kron, "uniform-int:1:255", 7)
    assert g.provenance["weights"] == "uniform-int:1:255;seed=7"
    assert g.provenance["generator"] == "kronecker"
    assert g.name == kron.name and g.family == kron.family and g.directed == kron.directed
    assert assign_weights(kron, "file", 7) is kron
    unit = assign_weights(g, "unit", 7)
    assert unit.provenance["weights"] == "unit"
    assert unit.weights.dtype == np.int8 and np.all(unit.weights == 1)


def test_bad_rule_in_assign(kron):
    with pytest.raises(SpecError, match="'uniform-int:3': uniform-int needs exactly two bounds"):
        assign_weights(kron, "uniform-int:3", 0)
    with pytest.raises(NegativeWeightError, match="'uniform-int:-3:4': LO = -3 is negative"):
        assign_weights(kron, "uniform-int:-3:4", 0)


@given(
    seed=st.integers(-(2**70), 2**70),
    lo=st.integers(0, 1000),
    span=st.integers(0, 1000),
    layered=st.booleans(),
)
@SLOW_OK
def test_property_range_and_symmetry(seed, lo, span, layered):
    rule = f"uniform-int:{lo}:{lo + span}"
    und = assign_weights(mesh(4, 5), rule, seed)
    assert und.weights.min() >= lo and und.weights.max() <= lo + span
    a = und.to_scipy()
    assert (a != a.T).nnz == 0
    d = assign_weights(random_dag(60, 3, 0, layered=layered), rule, seed)
    assert np.all((d.weights >= lo) & (d.weights <= lo + span))
    again = assign_weights(random_dag(60, 3, 0, layered=layered), rule, seed)
    assert np.array_equal(d.weights, again.weights)
