"""The LLP problem contract: what a problem module provides, and the instance it builds.

A problem is a lattice of state vectors ``G[0..n)`` that only ever *advance* (move up the
lattice; for SSSP, distances only go down). A problem module provides, as module-level
``@njit(nogil=True, cache=True)`` functions over ``(inst, state)`` where ``inst`` is the
tuple :attr:`Instance.arrays`:

``num_indices(inst, state) -> int``
    n, the number of indices.
``forbidden(inst, state, j) -> bool``
    j cannot keep its value in any solution above the current state (the direct predicate,
    used by the scanning solvers).
``advance(inst, state, j, out, ctr) -> k``
    Advance ``state[j]`` (atomically: other threads write too) and write into ``out[:k]``
    the indices that may have become forbidden because of it.
``work(inst, state, j, out, ctr) -> k``
    What a worklist solver does with a popped item: ``ensure(j)`` (``forbidden`` then
    ``advance``; return -1 if j was not forbidden), or, for a predicate stated
    incrementally, "j advanced: advance each dependent that j's new value made forbidden"
    (SSSP: relax j's out-arcs with an atomic min), returning the advanced indices.
``priority(inst, state, j) -> int64``
    Smaller first (SSSP: the tentative distance). Constant if the problem has no order.
``stale(inst, state, j, key) -> bool``
    True if an item pushed with priority ``key`` is outdated (a newer push exists).
``prefetch(inst, state, j)``
    A hint, no effect on any value: j will be worked soon, so start fetching into the cache
    what ``stale`` and ``work`` read first (SSSP: j's CSR offset and distance). The worklist
    solver calls it for the item a few places ahead in the batch it took, so that the cache
    misses of several items overlap. Problems with nothing worth fetching ahead use
    :func:`no_prefetch`.

How the worklist solver hands out the seed (:attr:`Instance.init_work`) is the instance's
``seed_policy`` (:data:`SEED_POLICIES`):

``"deal"`` (the default)
    The seed is pushed into the worklist before the workers start, dealt round-robin over
    the threads' sides (item i to thread ``i % T``), each with its priority; every worker
    then pops by the worklist's own order.
``"in-order"``
    Nothing is pushed: the seed stays a shared array and a shared counter, and a worker whose
    side of the worklist is empty takes the *next* item of ``init_work`` (one atomic
    fetch-add), so items start in ``init_work``'s order, each with the thread that is free
    first (the block IDs of a decoupled look-back scan, handed out in order). No thread can
    run ahead of the others by more than the items in flight, which a problem whose item
    needs its predecessor's result soon (the reduction's look-back) wants; what ``work``
    reports is pushed and popped as usual, by the worker that pushed it before its next
    seed item (others pop it once the seed is used up or their own pop finds it). Nothing
    waits: an item's ``work`` still may not rely on its predecessor having finished. The
    seed is counted pending like pushed items, so termination, counters (``pushes``
    includes it) and the watchdog are unchanged. The one-thread bag solver pushes the seed
    in order (its worklist's order then decides); the scanning solvers have no seed.

``ctr`` is the calling thread's counter row (:mod:`llpbench.llp.counters`): problems count
``ADVANCES`` and ``RETRIES`` there. A solver never branches on which problem it runs.

On the Python side a problem module provides:

``NAME``, ``INPUT``
    CLI name; ``"graph"`` (needs a graph and a source) or ``"size"`` (generated from a size
    and a seed; such problems may also accept a graph where it makes sense).
``make(graph, size, seed, source[, variant=...][, params=...]) -> Instance``
    The one constructor the runner calls (unused arguments are None); ``variant=`` only if
    the module declares ``VARIANTS``, ``params=`` only if it declares ``TUNED``.
``answer(instance, state) -> ndarray``
    The solver state in answer form (e.g. distances with ``inf`` for unreachable).
``reference(instance) -> ndarray``
    The answer by an independent, classical algorithm (scipy, Gale-Shapley, a DP, ...).
``verify(result, expected) -> str | None``
    None when the answers agree, else a one-line reason.
``baseline(instance, threads, **params) -> BaselineResult``
    The hand-tuned classical solution the paper compares LLP with.
``BASELINES``
    Name -> baseline, the default first.
``VARIANTS`` (optional)
    The input families ``make(..., variant=)`` draws from, the default first.
``TUNED`` (optional)
    Parameter name -> rule, tuned per graph and thread count (:mod:`llpbench.problems.tuned`);
    with it, ``apply_params(instance, params) -> Instance`` sets them on an instance.
``FLOORS`` (optional)
    Name -> a timed lower bound on the instance (rows ``floor/NAME``; never verified).

:class:`Problem` states this as a ``typing.Protocol`` (a module satisfies it structurally)
and :func:`contract_breaches` checks a module against it, arities and keywords included:
the docstring alone drifted before, so a test now checks every registered problem.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numba import njit

from llpbench.errors import SpecError


@dataclass
class Instance:
    """One problem instance, ready for any solver.

    Parameters
    ----------
    problem : str
        Dotted name of the problem module whose kernels interpret ``arrays``.
    arrays : tuple
        The instance as the compiled kernels see it (arrays and scalars).
    n : int
        Number of indices of the state vector.
    max_out : int
        Largest number of indices one ``advance``/``work`` call can report (its buffer size).
    init_state : callable
        Returns a fresh initial state (the bottom of the lattice) for each solve.
    init_work : int64 array
        Indices that may be forbidden in the initial state (the worklist solvers' seed).
    bucket_width : int
        Priority range of one bucket for the bucketed worklist (a Δ, in priority units).
    meta : dict
        Anything the answer, reference or report need (source vertex, graph name, ...).
    params : dict
        The tuned parameters it was made with (the problem's ``TUNED``); baselines that take
        one get it from here.
    seed_policy : str
        How the worklist solver hands out ``init_work``: ``"deal"`` (pushed round-robin over
        the threads' sides, the default) or ``"in-order"`` (taken one at a time, in order,
        from a shared counter by whichever worker is free; see the module docstring).
    max_rounds : int, optional
        The most passes a scanning solver (cyclic, all-indices) can need, as the problem's
        lattice implies: each pass that is not the last advances at least one index, and
        values read in a pass are at least as new as its start, so for a predicate whose
        dependencies form paths of at most L indices (SSSP: a shortest path has at most n - 1
        arcs, the Bellman-Ford bound) L + 1 passes suffice. A solver that reaches it stops
        with :class:`llpbench.errors.SolveFailedError` instead of looping: the problem's
        ``advance`` does not advance. None: no bound known.
    """

    problem: str
    arrays: tuple
    n: int
    max_out: int
    init_state: Callable[[], np.ndarray]
    init_work: np.ndarray
    bucket_width: int = 1
    meta: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    max_rounds: int | None = None
    seed_policy: str = "deal"


#: The seed policies an :class:`Instance` may name, with the code the worklist solver's
#: ``seed`` kernel takes (see the module docstring).
SEED_POLICIES: dict[str, int] = {"deal": 0, "in-order": 1}
SEED_DEAL = SEED_POLICIES["deal"]
SEED_IN_ORDER = SEED_POLICIES["in-order"]


def seed_policy_code(instance: Instance) -> int:
    """The :data:`SEED_POLICIES` code of ``instance``'s ``seed_policy``.

    Raises
    ------
    SpecError
        If the instance names no policy of :data:`SEED_POLICIES`.
    """
    if instance.seed_policy not in SEED_POLICIES:
        raise SpecError(f"{instance.problem}: unknown seed_policy {instance.seed_policy!r}; "
                        f"known: {', '.join(SEED_POLICIES)}")
    return SEED_POLICIES[instance.seed_policy]


#: The compiled kernels and the number of arguments each takes.
KERNELS: dict[str, int] = {
    "num_indices": 2,
    "forbidden": 3,
    "advance": 5,
    "work": 5,
    "priority": 3,
    "stale": 4,
    "prefetch": 3,
}


@njit(nogil=True, cache=True)
def no_prefetch(inst, state, j):
    """The ``prefetch`` of a problem with nothing worth fetching ahead: does nothing."""
    return None


#: What ``INPUT`` may say.
INPUTS = ("graph", "size")


#: Every member of :class:`Problem`, named for the message that says which one is missing.
MEMBERS = ("NAME", "INPUT", "BASELINES", *KERNELS, "make", "answer", "reference", "verify",
           "baseline")


@runtime_checkable
class Problem(Protocol):
    """What a problem module provides (see the module docstring); modules satisfy it.

    ``VARIANTS`` and ``TUNED`` are optional and so not members; :func:`contract_breaches`
    checks them where present.
    """

    NAME: str
    INPUT: str
    BASELINES: Mapping[str, Callable[..., Any]]

    def num_indices(self, inst: tuple, state: np.ndarray) -> int: ...
    def forbidden(self, inst: tuple, state: np.ndarray, j: int) -> bool: ...
    def advance(self, inst: tuple, state: np.ndarray, j: int, out: np.ndarray,
                ctr: np.ndarray) -> int: ...
    def work(self, inst: tuple, state: np.ndarray, j: int, out: np.ndarray,
             ctr: np.ndarray) -> int: ...
    def priority(self, inst: tuple, state: np.ndarray, j: int) -> int: ...
    def stale(self, inst: tuple, state: np.ndarray, j: int, key: int) -> bool: ...
    def prefetch(self, inst: tuple, state: np.ndarray, j: int) -> None: ...
    def make(self, graph: Any, size: int | None, seed: int, source: int | None,
             **options: Any) -> Instance: ...
    def answer(self, inst: Instance, state: np.ndarray) -> np.ndarray: ...
    def reference(self, inst: Instance) -> np.ndarray: ...
    def verify(self, result: np.ndarray, expected: np.ndarray) -> str | None: ...
    def baseline(self, inst: Instance, threads: int = 1, **params: Any) -> Any: ...


def _python_function(obj: Any) -> Any:
    """The Python function behind a numba dispatcher (or ``obj`` itself)."""
    return getattr(obj, "py_func", obj)


def _positional(fn: Any) -> int:
    params = inspect.signature(_python_function(fn)).parameters.values()
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


def contract_breaches(module: ModuleType) -> list[str]:
    """Where ``module`` departs from :class:`Problem`: one line each, empty when it keeps it."""
    name = getattr(module, "__name__", repr(module))
    missing = [m for m in MEMBERS if not hasattr(module, m)]
    if missing:
        return [f"{name}: lacks {', '.join(missing)}"]
    out: list[str] = []
    if not isinstance(module.NAME, str) or not module.NAME:
        out.append(f"{name}: NAME is not a name")
    if module.INPUT not in INPUTS:
        out.append(f"{name}: INPUT {module.INPUT!r} is not one of {INPUTS}")
    for kernel, arity in KERNELS.items():
        fn = getattr(module, kernel)
        if not hasattr(fn, "py_func"):
            out.append(f"{name}.{kernel}: not a compiled (numba) kernel")
        elif _positional(fn) != arity:
            out.append(f"{name}.{kernel}: takes {_positional(fn)} arguments, not {arity}")
    for fn, arity in ((module.make, 4), (module.answer, 2), (module.reference, 1),
                      (module.verify, 2)):
        if _positional(fn) < arity:
            out.append(f"{name}.{fn.__name__}: takes fewer than {arity} arguments")
    make = inspect.signature(module.make).parameters
    for option, declared in (("variant", "VARIANTS"), ("params", "TUNED")):
        if (option in make) != hasattr(module, declared):
            out.append(f"{name}.make: takes {option}= only with {declared} declared")
    variants = getattr(module, "VARIANTS", ("-",))
    if not variants or not all(isinstance(v, str) for v in variants):
        out.append(f"{name}.VARIANTS: not a non-empty tuple of names")
    tuned = getattr(module, "TUNED", {})
    if not isinstance(tuned, Mapping) or not all(callable(r) for r in tuned.values()):
        out.append(f"{name}.TUNED: not a mapping of names to rules")
    if tuned and not callable(getattr(module, "apply_params", None)):
        out.append(f"{name}: declares TUNED without apply_params(instance, params)")
    floors = getattr(module, "FLOORS", {})
    if not isinstance(floors, Mapping) or not all(callable(f) for f in floors.values()):
        out.append(f"{name}.FLOORS: not a mapping of names to floors")
    if not module.BASELINES or not all(callable(b) for b in module.BASELINES.values()):
        out.append(f"{name}.BASELINES: not a non-empty mapping of names to baselines")
    for label, fn in [("baseline", module.baseline), *module.BASELINES.items()]:
        if _positional(fn) < 1:
            out.append(f"{name}: baseline {label!r} does not take an instance")
    return out
