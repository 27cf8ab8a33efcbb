"""Arc weight rules: parse them, and assign weights deterministically from a seed.

A rule is one of

- ``uniform-int:LO:HI``: integers uniform in ``LO..HI`` inclusive (GAP's synthetic weights are
  ``uniform-int:1:255``, :data:`DEFAULT_WEIGHT_RULE`);
- ``uniform-float:LO:HI``: floats uniform in ``[LO, HI]`` (53-bit resolution);
- ``unit``: every arc weighs 1 (int8: weights are stored in the narrowest signed type that
  holds the rule's range, int16 for 1..255);
- ``file``: keep the weights the graph was read with.

Each weight is a function of its arc and the seed only: splitmix64 of ``(min(u, v), max(u,
v), seed)`` on undirected graphs, so both arcs of an edge weigh the same, and of ``(u, v,
seed)`` on directed ones. The same graph, rule and seed give the same weights whatever the
arc order or machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from llpbench.errors import NegativeWeightError, SpecError
from llpbench.graphs.graph import Graph
from llpbench.graphs.splitmix import GOLDEN as _GOLDEN
from llpbench.graphs.splitmix import mix as _mix

__all__ = ["DEFAULT_WEIGHT_RULE", "WeightRule", "assign_weights", "parse_weight_rule"]

DEFAULT_WEIGHT_RULE = "uniform-int:1:255"
_FORMS = "uniform-int:LO:HI, uniform-float:LO:HI, uniform:LO..HI, unit, file"
_MASK64 = (1 << 64) - 1

_S11 = np.uint64(11)


@dataclass(frozen=True)
class WeightRule:
    """A parsed weight rule: ``kind`` is uniform-int, uniform-float, unit or file."""

    kind: str
    lo: float = 0
    hi: float = 0

    def __str__(self) -> str:
        if self.kind in ("unit", "file"):
            return self.kind
        return f"{self.kind}:{self.lo!r}:{self.hi!r}"


def _bad(rule: str, why: str) -> SpecError:
    return SpecError(f"bad weight rule {rule!r}: {why}; expected one of {_FORMS}")


def parse_weight_rule(rule: str) -> WeightRule:
    """Parse and validate a weight rule.

    Parameters
    ----------
    rule : str
        ``uniform-int:LO:HI``, ``uniform-float:LO:HI``, ``unit`` or ``file``.

    Returns
    -------
    WeightRule
        The rule; ``str()`` of it is its canonical spelling.

    Raises
    ------
    SpecError
        If the rule is not one of the accepted forms, a bound does not parse or ``HI < LO``.
    NegativeWeightError
        If ``LO`` is negative.

    Examples
    --------
    >>> str(parse_weight_rule(" uniform-int:1:255 "))
    'uniform-int:1:255'
    >>> str(parse_weight_rule("uniform:1..255"))
    'uniform-int:1:255'
    """
    if not isinstance(rule, str):
        raise SpecError(f"bad weight rule {rule!r}: not a string; expected one of {_FORMS}")
    text = rule.strip()
    if text.startswith("uniform:") and ".." in text:  # the short spelling, uniform:1..255
        lo_text, _, hi_text = text[len("uniform:") :].partition("..")
        integral = all(t.strip().lstrip("-").isdigit() for t in (lo_text, hi_text))
        text = f"uniform-{'int' if integral else 'float'}:{lo_text.strip()}:{hi_text.strip()}"
    parts = text.split(":")
    kind = parts[0]
    if kind in ("unit", "file"):
        if len(parts) != 1:
            raise _bad(rule, f"{kind} takes no bounds")
        return WeightRule(kind)
    if kind not in ("uniform-int", "uniform-float"):
        raise _bad(rule, f"unknown kind {kind!r}")
    if len(parts) != 3:
        raise _bad(rule, f"{kind} needs exactly two bounds LO:HI")
    conv = int if kind == "uniform-int" else float
    try:
        lo, hi = conv(parts[1]), conv(parts[2])
    except ValueError:
        what = "integers" if conv is int else "numbers"
        raise _bad(rule, f"bounds must be {what}") from None
    if conv is float and not (math.isfinite(lo) and math.isfinite(hi)):
        raise _bad(rule, "bounds must be finite")
    if lo < 0:
        raise NegativeWeightError(
            f"weight rule {rule!r}: LO = {lo} is negative; shortest-path problems need "
            "non-negative weights"
        )
    if hi < lo:
        raise _bad(rule, f"HI = {hi} is below LO = {lo}")
    if conv is int and hi >= 2**63:
        raise _bad(rule, "HI must be below 2**63")
    return WeightRule(kind, lo, hi)


@njit(cache=True, inline="always")
def _arc_hash(key, u, v, symmetric):
    if symmetric and v < u:
        u, v = v, u
    return _mix(_mix(key ^ (np.uint64(u) * _GOLDEN)) + np.uint64(v))


@njit(cache=True, parallel=True)
def _int_weights(indptr, indices, key, symmetric, lo, span, out):
    """``lo + hash % span`` for every arc into ``out`` (span <= 2**63: the modulo bias is
    negligible). Rows in parallel: each weight is a function of its arc alone, so the result
    is the same for any thread count."""
    uspan = np.uint64(span)
    for u in prange(indptr.shape[0] - 1):
        for p in range(indptr[u], indptr[u + 1]):
            out[p] = lo + np.int64(_arc_hash(key, u, indices[p], symmetric) % uspan)


@njit(cache=True, parallel=True)
def _float_weights(indptr, indices, key, symmetric, lo, width):
    out = np.empty(indices.shape[0], np.float64)
    for u in prange(indptr.shape[0] - 1):
        for p in range(indptr[u], indptr[u + 1]):
            h = _arc_hash(key, u, indices[p], symmetric) >> _S11
            out[p] = lo + (np.float64(h) * 2.0**-53) * width
    return out


def _narrowest(hi: int) -> type:
    """The narrowest signed integer type holding ``0..hi`` (see :func:`~.graph.narrow_weights`)."""
    return next(t for t in (np.int8, np.int16, np.int32, np.int64) if hi <= np.iinfo(t).max)


def _key(seed: int) -> np.uint64:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise SpecError(f"weight seed must be an integer, got {seed!r}")
    z = (int(seed) & _MASK64) ^ 0x57E1647C0FFEE123
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return np.uint64(z ^ (z >> 31))


def assign_weights(graph: Graph, rule: str | WeightRule, seed: int) -> Graph:
    """A copy of ``graph`` with arc weights drawn by ``rule``, deterministic in ``seed``.

    Parameters
    ----------
    graph : Graph
        The graph; on an undirected one both arcs of an edge get the same weight.
    rule : str or WeightRule
        See :func:`parse_weight_rule`.
    seed : int
        Weight seed (any integer, taken modulo 2**64).

    Returns
    -------
    Graph
        ``graph.with_weights(w, "<rule>;seed=<seed>")`` (``"unit"`` for the unit rule);
        ``graph`` itself for ``file``.

    Raises
    ------
    SpecError, NegativeWeightError
        As :func:`parse_weight_rule`.
    """
    parsed = rule if isinstance(rule, WeightRule) else parse_weight_rule(rule)
    if parsed.kind == "file":
        return graph
    if parsed.kind == "unit":
        return graph.with_weights(np.ones(graph.m, np.int8), "unit")
    key = _key(seed)
    symmetric = not graph.directed
    if parsed.kind == "uniform-int":
        span = int(parsed.hi) - int(parsed.lo) + 1
        weights = np.empty(graph.m, _narrowest(int(parsed.hi)))
        _int_weights(
            graph.indptr, graph.indices, key, symmetric, int(parsed.lo), np.uint64(span), weights
        )
    else:
        width = float(parsed.hi) - float(parsed.lo)
        weights = _float_weights(
            graph.indptr, graph.indices, key, symmetric, float(parsed.lo), width
        )
    return graph.with_weights(weights, f"{parsed};seed={int(seed)}")
