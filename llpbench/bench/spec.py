"""Sweep specifications: graphs x problems x solvers x threads x sources x repetitions.

A sweep comes from CLI flags or a TOML file (``configs/*.toml``) with a ``[sweep]`` table of
defaults and one ``[[study]]`` table per problem. Everything that varies is listed here, so
that a run's cells are a pure function of the spec: the same sources, seeds and order for
every solver and thread count.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from llpbench.errors import LlpbenchError, SpecError, UnknownNameError
from llpbench.graphs.read_options import ReadOptions
from llpbench.graphs.sources import DEFAULT_SEED
from llpbench.llp.runtime import MAX_THREADS
from llpbench.llp.solvers import SOLVERS, single_threaded, uses_worklist
from llpbench.llp.worklists import PAPER_WORKLISTS, WORKLISTS

BASELINE = "baseline"
#: The one-pass floor of a problem (``floor/NAME``, from the problem module's ``FLOORS``):
#: timed at one thread beside the solvers, never verified, never a baseline.
FLOOR = "floor"
DEFAULT_CONFIGS = tuple(f"worklist/{wl}" for wl in PAPER_WORKLISTS) + (BASELINE,)


def parse_threads(spec: str | int | list) -> list[int]:
    """Thread counts from a spec: ``1..32`` (doubling: 1,2,4,...,32), ``1-4`` (every count),
    ``1,2,3,4`` (a list), or mixtures (``1..8,12``).

    Raises
    ------
    SpecError
        With the offending part, for anything else or counts outside 1..MAX_THREADS.

    Examples
    --------
    >>> parse_threads("1..32")
    [1, 2, 4, 8, 16, 32]
    >>> parse_threads("1..6,8")
    [1, 2, 4, 6, 8]
    """
    if isinstance(spec, int):
        parts = [str(spec)]
    elif isinstance(spec, list):
        parts = [str(p) for p in spec]
    else:
        parts = [p.strip() for p in str(spec).split(",")]
    counts: set[int] = set()
    for part in parts:
        if m := re.fullmatch(r"(\d+)\.\.(\d+)", part):
            lo, hi = int(m[1]), int(m[2])
            _check_range(spec, lo, hi)
            t = lo
            while t < hi:
                counts.add(t)
                t *= 2
            counts.add(hi)
        elif m := re.fullmatch(r"(\d+)-(\d+)", part):
            lo, hi = int(m[1]), int(m[2])
            _check_range(spec, lo, hi)
            counts.update(range(lo, hi + 1))
        elif re.fullmatch(r"\d+", part):
            _check_range(spec, int(part), int(part))
            counts.add(int(part))
        else:
            raise SpecError(
                f"bad thread spec {spec!r}: {part!r} is not N, A..B (doubling), A-B or a list"
            )
    return sorted(counts)


def _check_range(spec, lo: int, hi: int) -> None:
    if lo < 1 or hi > MAX_THREADS or lo > hi:
        raise SpecError(
            f"bad thread spec {spec!r}: counts must satisfy 1 <= A <= B <= {MAX_THREADS}"
        )


@dataclass(frozen=True)
class Config:
    """One solver configuration: an LLP solver (with its worklist), or a baseline: the
    problem's default (``baseline``) or one by name (``baseline/NAME``: another of the
    problem's own, or a peer such as ``networkit``)."""

    solver: str
    worklist: str | None = None
    baseline: str | None = None

    @property
    def kind(self) -> str:
        return self.solver if self.solver in (BASELINE, FLOOR) else "llp"

    @property
    def label(self) -> str:
        if self.baseline:
            return f"{self.solver}/{self.baseline}"
        return f"{self.solver}/{self.worklist}" if self.worklist else self.solver

    def runs_at(self, threads: int) -> bool:
        return threads == 1 or not (self.solver == FLOOR or single_threaded(self.solver))


def parse_config(label: str) -> Config:
    """``worklist/ptwb``, ``bag/swb``, ``all-indices``, ``cyclic``, ``baseline`` or
    ``baseline/NAME`` (checked against a problem's baselines by :func:`make_study`)."""
    solver, _, worklist = label.partition("/")
    if solver == BASELINE:
        return Config(BASELINE, baseline=worklist or None)
    if solver == FLOOR and worklist:
        return Config(FLOOR, baseline=worklist)
    if solver not in SOLVERS:
        raise UnknownNameError("solver", solver, sorted([*SOLVERS, BASELINE]))
    if uses_worklist(solver):
        worklist = worklist or SOLVERS[solver].default_worklist
        if worklist not in WORKLISTS:
            raise UnknownNameError("worklist", worklist, sorted(WORKLISTS))
        return Config(solver, worklist)
    if worklist:
        raise SpecError(f"solver {solver!r} takes no worklist (got {label!r})")
    return Config(solver)


def configs_from_flags(
    solvers: list[str] | None,
    worklists: list[str] | None,
    baseline: bool = True,
    baselines: list[str] | None = None,
) -> list[Config]:
    """The configurations named by ``--solver``/``--worklist`` (each solver that uses a
    worklist runs on each named worklist), plus the baselines named by ``--baseline NAME``
    (or the default one), unless ``baseline`` is False (``--no-baseline``)."""
    named = [Config(BASELINE, baseline=b) for b in dict.fromkeys(baselines or [])]
    if not solvers and not worklists:
        labels = [c for c in DEFAULT_CONFIGS if c != BASELINE]
        out = [parse_config(c) for c in labels]
        if baseline:
            out += named or [Config(BASELINE)]
        return out
    out: list[Config] = []
    for solver in solvers or ["worklist"]:
        if solver == BASELINE:
            continue
        if uses_worklist(solver):
            out += [parse_config(f"{solver}/{wl}") for wl in worklists or [None]]
        else:
            out.append(parse_config(solver))
    if baseline or BASELINE in (solvers or []):
        out += named or [Config(BASELINE)]
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class Study:
    """One problem over its inputs: graphs (graph problems) or sizes (generated problems)."""

    problem: str
    graphs: tuple[str, ...] = ()
    sizes: tuple[int, ...] = ()
    configs: tuple[Config, ...] = tuple(parse_config(c) for c in DEFAULT_CONFIGS)
    threads: tuple[int, ...] = (1,)
    sources: int = 1
    reps: int = 3
    seed: int = DEFAULT_SEED
    delta: float | None = None
    # How to read graph *files* (``--directed/--undirected``, ``--index-base``, ``--weights``,
    # ``--compact-ids``), handed whole to the registry; registry names refuse them. Negative
    # file weights are set aside: a problem that uses weights refuses the graph before the
    # run starts (llpbench.problems.check_input, from the plan).
    read: ReadOptions = ReadOptions(negative=True)
    # The instance family of generated problems that have several (``module.VARIANTS``:
    # stable-marriage ``identical``, job-scheduling ``layered``, ...); None: the default.
    variant: str | None = None

    def given_params(self) -> dict[str, Any]:
        """The tuned parameters this study sets itself (they win over the problem's rule)."""
        return {"delta": self.delta} if self.delta is not None else {}


@dataclass(frozen=True)
class Sweep:
    """A whole run: its studies, and whether answers are verified."""

    studies: tuple[Study, ...]
    verify: bool = True
    name: str = "cli"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sweep:
        """The sweep that :meth:`to_dict` wrote (a run's ``meta.json`` keeps it).

        Raises
        ------
        SpecError
            If ``data`` is not a sweep this version can read.
        """
        known = {f.name for f in fields(Study)} | set(_READ_KEYS)  # the old spellings too
        try:
            studies = []
            for raw in data["studies"]:
                if unknown := sorted(set(raw) - known):
                    raise SpecError(f"the sweep has study fields this version lacks: {unknown}")
                study = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()
                         if k not in _READ_KEYS}
                study["configs"] = tuple(Config(**c) for c in raw.get("configs") or [])
                study["read"] = _read_of(raw)
                studies.append(Study(**study))
            return cls(tuple(studies), verify=bool(data.get("verify", True)),
                       name=str(data.get("name", "cli")), extra=dict(data.get("extra") or {}))
        except (KeyError, TypeError, AttributeError) as exc:
            raise SpecError(f"not a recorded sweep: {exc}") from None

    def difference(self, other: Sweep) -> str | None:
        """The first field in which ``other`` plans other cells than this sweep, in words
        (``"threads differs (run: 1,2; now: 1,2,4)"``), or None if both plan the same."""

        def show(value: Any) -> str:
            if isinstance(value, (tuple, list)):
                return ",".join(show(v) for v in value) or "none"
            if isinstance(value, ReadOptions):
                return " ".join(value.given) or "the files' own"
            return value.label if isinstance(value, Config) else str(value)

        def differs(name: str, was: Any, now: Any) -> str:
            return f"{name} differs (run: {show(was)}; now: {show(now)})"

        if self.verify != other.verify:
            return differs("verify", self.verify, other.verify)
        if len(self.studies) != len(other.studies):
            return differs("problems", [s.problem for s in self.studies],
                           [s.problem for s in other.studies])
        for i, (was, now) in enumerate(zip(self.studies, other.studies, strict=True)):
            prefix = f"study {i + 1}: " if len(self.studies) > 1 else ""
            for f in fields(Study):
                if getattr(was, f.name) != getattr(now, f.name):
                    return prefix + differs(f.name, getattr(was, f.name), getattr(now, f.name))
        return None


#: A config's (and an old ``meta.json``'s) spellings of a study's ``read`` options.
_READ_KEYS = ("directed", "index_base", "weights", "compact")
_STUDY_KEYS = {
    "problem", "graphs", "sizes", "configs", "threads", "sources", "reps", "seed", "delta",
    *_READ_KEYS, "read", "variant",
}


def _read_of(raw: dict[str, Any]) -> ReadOptions:
    """A study's :class:`ReadOptions` from a recorded sweep: its ``read`` table (this
    version's ``meta.json``) or the flat keys that older ones and configs write."""
    given = raw.get("read")
    if isinstance(given, dict):
        return ReadOptions(**given)
    flat = {k: raw[k] for k in _READ_KEYS if raw.get(k) is not None}
    return ReadOptions(**{**flat, "index_base": str(flat.get("index_base", "auto"))},
                       negative=True)
_SWEEP_TABLES = ("sweep", "study", "cluster")  # [cluster] is read by bench.cluster


def check_value(name: str, value: Any) -> None:
    """Refuse a value no sweep can use, in the one wording flags and configs share:
    ``NAME must be ..., got VALUE`` (``name`` is ``--reps`` on the command line, ``reps``
    in a config). ``reps``, ``sources`` and sizes are integers >= 1, ``seed`` an integer
    >= 0 (numpy's generators take no negative seed), ``delta`` a positive finite number.

    Raises
    ------
    SpecError

    Examples
    --------
    >>> check_value("--delta", float("nan"))
    Traceback (most recent call last):
    ...
    llpbench.errors.SpecError: --delta must be a positive finite number, got nan
    """
    key = name.lstrip("-")
    if key == "delta":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not ok or not math.isfinite(value) or value <= 0:
            raise SpecError(f"{name} must be a positive finite number, got {value!r}")
        return
    low = 0 if key == "seed" else 1
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SpecError(f"{name} must be an integer >= {low}, got {value!r}")


def _check_keys(where: str, table: dict, known: Collection[str], what: str) -> None:
    """Refuse a key (or table) a sweep does not know, with the closest known ones."""
    for key in table:
        if key not in known:  # worded as an unknown graph or solver name is
            raise SpecError(f"{where}: {UnknownNameError(what, str(key), sorted(known))}")


def load_sweep(path: str | Path) -> Sweep:
    """Read a sweep from a TOML file: ``[sweep]`` defaults and ``[[study]]`` tables.

    Raises
    ------
    SpecError
        Naming the file and the key or value that is wrong.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise SpecError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML: {exc}") from exc
    _check_keys(str(path), data, _SWEEP_TABLES, "table")
    defaults = data.get("sweep", {})
    if not isinstance(defaults, dict):
        raise SpecError(f"{path}: [sweep] must be one table of defaults, got {defaults!r}")
    _check_keys(f"{path}: [sweep]", defaults, _STUDY_KEYS | {"verify"}, "key")
    defaults = dict(defaults)
    verify = defaults.pop("verify", True)
    if not isinstance(verify, bool):
        raise SpecError(f"{path}: [sweep]: verify must be true or false, got {verify!r}")
    studies_raw = data.get("study", [])
    if not isinstance(studies_raw, list) or not studies_raw:
        raise SpecError(f"{path}: expected at least one [[study]] table")
    studies = []
    for i, raw in enumerate(studies_raw, 1):
        if not isinstance(raw, dict):
            raise SpecError(f"{path}: study {i}: expected a [[study]] table, got {raw!r}")
        _check_keys(f"{path}: study {i}", raw, _STUDY_KEYS, "key")
        merged = {**defaults, **raw}
        studies.append(make_study(**merged, where=f"{path}: study {i}"))
    return Sweep(tuple(studies), verify=verify, name=path.stem)


def make_study(where: str = "", **values: Any) -> Study:
    """A validated :class:`Study` from plain values (CLI flags or a TOML table).

    ``where`` (a config file and study number) prefixes any error, so that a bad problem,
    solver, thread spec or weight rule in a config names the file it came from; flags keep
    their own wording (``--delta ...``)."""
    try:
        return _study(**values)
    except LlpbenchError as exc:
        if not where:
            raise
        raise SpecError(f"{where}: {exc}") from None


def _study(
    problem: str = "sssp",
    graphs: list[str] | tuple[str, ...] = (),
    sizes: list[int] | tuple[int, ...] = (),
    configs: list[str] | list[Config] | None = None,
    threads: str | int | list = "1",
    sources: int = 1,
    reps: int = 3,
    seed: int = DEFAULT_SEED,
    delta: float | None = None,
    directed: bool | None = None,
    index_base: str | int = "auto",
    weights: str | None = None,
    compact: bool = False,
    variant: str | None = None,
    read: ReadOptions | dict | None = None,
) -> Study:
    from llpbench.problems import problem_module

    module = problem_module(problem)
    if module.INPUT == "graph" and not graphs:
        raise SpecError(f"problem {problem!r} needs at least one graph")
    if module.INPUT == "size" and not sizes and not graphs:
        raise SpecError(f"problem {problem!r} needs sizes (or graphs)")
    for name, value in (("sources", sources), ("reps", reps), ("seed", seed)):
        check_value(name, value)
    if delta is not None:
        check_value("delta", delta)
    for key, items, kind in (("graphs", graphs, str), ("sizes", sizes, int)):
        if isinstance(items, (str, bytes)) or not isinstance(items, (list, tuple)) or not all(
            isinstance(x, kind) and not isinstance(x, bool) for x in items
        ):
            noun = "names" if kind is str else "integers"
            raise SpecError(f"{key} must be a list of {noun}, got {items!r}")
    for size in sizes:
        check_value("sizes", size)
    if isinstance(read, ReadOptions):  # the command line's, whole
        directed, index_base, weights, compact = (read.directed, read.index_base,
                                                  read.weights, read.compact)
    elif isinstance(read, dict):  # a config's [study.read] table
        _check_keys("read", read, _READ_KEYS, "key")
        directed, index_base = read.get("directed", directed), read.get("index_base", index_base)
        weights, compact = read.get("weights", weights), read.get("compact", compact)
    elif read is not None:
        raise SpecError(f"read must be a table of {', '.join(_READ_KEYS)}, got {read!r}")
    if directed is not None and not isinstance(directed, bool):
        raise SpecError(f"directed must be true or false, got {directed!r}")
    if str(index_base) not in ("auto", "0", "1"):
        raise SpecError(f"index_base must be 0, 1 or auto, got {index_base!r}")
    if weights is not None:
        from llpbench.graphs.weights import parse_weight_rule

        if weights != "file":
            parse_weight_rule(weights)
    parsed = [c if isinstance(c, Config) else parse_config(c) for c in configs or DEFAULT_CONFIGS]
    check_variant(module, variant)
    for config in parsed:
        if config.kind == FLOOR and config.baseline not in getattr(module, "FLOORS", {}):
            raise UnknownNameError(f"{problem} floor", config.baseline,
                                   list(getattr(module, "FLOORS", {})))
        if config.kind == BASELINE and config.baseline:
            from llpbench.baselines.selection import check_baseline

            check_baseline(module, config.baseline)
    return Study(
        problem=problem,
        graphs=tuple(str(g) for g in graphs),
        sizes=tuple(int(s) for s in sizes),
        configs=tuple(dict.fromkeys(parsed)),
        threads=tuple(parse_threads(threads)),
        sources=sources,
        reps=reps,
        seed=int(seed),
        delta=delta,
        read=ReadOptions(directed=directed, index_base=str(index_base), weights=weights,
                         compact=bool(compact), negative=True),
        variant=variant,
    )


def check_variant(module, variant: str | None) -> None:
    """Refuse a variant the problem does not have (or any, for a problem with none)."""
    if variant is None:
        return
    known = list(getattr(module, "VARIANTS", ()))
    if not known:
        raise SpecError(f"problem {module.NAME!r} has no variants (got {variant!r})")
    if variant not in known:
        raise UnknownNameError(f"{module.NAME} variant", variant, known)


def variant_of(study: Study) -> str:
    """The variant a study's instances are drawn from: its own, the problem's default (the
    first of ``VARIANTS``), or "" for a problem without variants."""
    from llpbench.problems import problem_module

    return study.variant or next(iter(getattr(problem_module(study.problem), "VARIANTS", ())), "")


def with_variant(sweep: Sweep, variant: str | None) -> Sweep:
    """``--variant`` on a config: set it on every study whose problem has that variant.

    Raises
    ------
    SpecError
        If no study's problem has it.
    """
    if variant is None:
        return sweep
    from llpbench.problems import problem_module

    def has(study: Study) -> bool:
        return variant in getattr(problem_module(study.problem), "VARIANTS", ())

    if not any(has(s) for s in sweep.studies):
        problems = sorted({s.problem for s in sweep.studies})
        raise SpecError(f"variant {variant!r}: none of this sweep's problems {problems} has it")
    studies = tuple(replace(s, variant=variant) if has(s) else s for s in sweep.studies)
    return replace(sweep, studies=studies)


def with_baselines(sweep: Sweep, names: list[str] | None, keep: bool = True) -> Sweep:
    """``--baseline NAME`` / ``--no-baseline`` on a config: every study whose problem has the
    named baselines times them instead of its baseline configs; ``keep=False`` drops every
    baseline config.

    Raises
    ------
    SpecError
        If no study's problem has one of the names.
    """
    from llpbench.baselines.selection import baselines_of, check_baseline
    from llpbench.problems import problem_module

    if keep and not names:
        return sweep
    studies = []
    for study in sweep.studies:
        configs = [c for c in study.configs if c.kind != "baseline"]
        module = problem_module(study.problem)
        mine = [n for n in names or [] if n in baselines_of(module)]
        for name in mine:
            check_baseline(module, name)
        if keep:
            configs += [Config(BASELINE, baseline=n) for n in mine] if mine else [
                c for c in study.configs if c.kind == "baseline"
            ]
        studies.append(replace(study, configs=tuple(configs)))
    for name in names or []:
        if not any(name in baselines_of(problem_module(s.problem)) for s in sweep.studies):
            problems = sorted({s.problem for s in sweep.studies})
            raise SpecError(f"baseline {name!r}: none of this sweep's problems {problems} has it")
    return replace(sweep, studies=tuple(studies))


def with_reading(sweep: Sweep, read: ReadOptions) -> Sweep:
    """The sweep with the reading options the command line gives (``read.given``) replacing
    each study's own; the options it leaves at their defaults keep the config's."""
    given = read.stored()
    if not given:
        return sweep
    return replace(sweep, studies=tuple(replace(s, read=replace(s.read, **given))
                                        for s in sweep.studies))


def with_overrides(sweep: Sweep, **changes: Any) -> Sweep:
    """The sweep with study fields replaced (only those given non-None)."""
    changes = {k: v for k, v in changes.items() if v is not None}
    if not changes:
        return sweep
    return replace(sweep, studies=tuple(replace(s, **changes) for s in sweep.studies))
