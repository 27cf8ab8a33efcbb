"""Parameters a problem takes tuned per graph, looked up the same way on every path.

A problem module may declare ``TUNED``: parameter name -> rule. A rule is called as
``rule(graph, cache_dir=..., say=..., threads=...)`` and returns ``(value, record)``: the
value at that thread count, and what a run's ``meta.json`` keeps about where it came from. A
module with ``TUNED`` also has ``apply_params(inst, params)``, which sets them on an instance
(all thread counts of a sweep share one instance); ``TUNED_FOLLOWS`` (optional) maps a
parameter to another whose given value it takes. SSSP declares ``delta`` (the Δ-stepping
baseline's Δ) and ``level_delta`` (its level worklists' bucket width), each chosen per graph
family and thread count by the same rule timing its own solver
(:mod:`llpbench.baselines.delta`); a given ``delta`` sets both.

The runner (``llpbench run``) and :func:`llpbench.solve` both ask a :class:`TunedParams` and
hand the answer to the problem's ``make(..., params=...)``; neither names a problem, and a
problem's parameters are chosen one way whichever path solves it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from llpbench.errors import SpecError
from llpbench.graphs.graph import Graph

__all__ = ["LEVELS", "Rule", "TunedParams", "level_names", "tuned_names"]

#: ``rule(graph, *, cache_dir, say, threads) -> (value, record)``
Rule = Callable[..., tuple[Any, dict[str, Any]]]


#: ``TUNED_FOR`` value of a parameter the LLP level worklists use (their bucket width).
LEVELS = "levels"


def tuned_names(module: ModuleType) -> tuple[str, ...]:
    """The names of the parameters ``module``'s problem takes tuned (none for most)."""
    return tuple(getattr(module, "TUNED", None) or ())


def level_names(module: ModuleType) -> tuple[str, ...]:
    """The tuned parameters an LLP solve over a level worklist needs: those the problem's
    ``TUNED_FOR`` marks :data:`LEVELS`, or all of them when it does not say (a baseline
    asks for the keywords it takes instead)."""
    marked = getattr(module, "TUNED_FOR", None)
    if not marked:
        return tuned_names(module)
    return tuple(n for n in tuned_names(module) if marked.get(n) == LEVELS)


class TunedParams:
    """The tuned parameters of one run: each looked up (or tuned) once per graph.

    Parameters
    ----------
    cache_dir : path, optional
        The datasets cache, where rules keep what they tuned.
    say : callable, optional
        Told one line before a rule starts a measurement (tuning takes a while).

    Attributes
    ----------
    used : dict
        ``graph@threads`` -> ``{name: value, ...}`` and where each came from (``"from":
        "given"`` for a value the sweep set, else the rule's record): what ``meta.json``
        keeps.
    """

    def __init__(
        self, cache_dir: Any = None, say: Callable[[str], None] | None = None
    ) -> None:
        self.cache_dir = cache_dir
        self.say = say
        self.used: dict[str, dict[str, Any]] = {}
        self._memo: dict[tuple[str, str, int], Any] = {}

    def __call__(
        self,
        module: ModuleType,
        graph: Graph,
        given: Mapping[str, Any] | None = None,
        threads: int = 1,
        names: tuple[str, ...] | None = None,
    ) -> dict[str, Any]:
        """The parameters of ``module``'s problem on ``graph`` at ``threads`` (only ``names``,
        when given: a baseline asks for those it takes): ``given`` values win, and a
        parameter the problem's ``TUNED_FOLLOWS`` ties to a given one takes its value.

        Raises
        ------
        SpecError
            If ``given`` names a parameter the problem does not take.
        """
        rules: dict[str, Rule] = dict(getattr(module, "TUNED", None) or {})
        follows: dict[str, str] = dict(getattr(module, "TUNED_FOLLOWS", None) or {})
        given = {k: v for k, v in (given or {}).items() if v is not None}
        unknown = sorted(set(given) - set(rules))
        if unknown:
            takes = ", ".join(rules) or "none"
            raise SpecError(f"problem {module.NAME!r} takes no parameter {unknown[0]!r} "
                            f"(tuned parameters: {takes})")
        out: dict[str, Any] = {}
        first = next(iter(rules), None)
        for name, rule in rules.items():
            if names is not None and name not in names:
                continue
            record = self.used.setdefault(f"{graph.name}@{threads}", {})
            # the first parameter's record is flat (``delta``, ``family``, ...); the others'
            # go under ``<name>_how``, so that one's tuning record never hides another's
            where = record if name == first else record.setdefault(f"{name}_how", {})
            source = name if name in given else follows.get(name)
            if source in given:
                out[name] = given[source]
                record[name] = given[source]
                where["from"] = "given" if source == name else f"given {source}"
                continue
            key = (graph.name, name, threads)
            if key not in self._memo:
                value, why = rule(graph, cache_dir=self.cache_dir, say=self.say, threads=threads)
                self._memo[key] = value
                record[name] = value
                where.update(why)
            out[name] = self._memo[key]
        return out
