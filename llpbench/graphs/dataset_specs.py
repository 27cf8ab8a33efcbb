"""The dataset registry's names: ``configs/datasets.toml`` parsed into :class:`GraphSpec` s.

A graph is named three ways, tried in this order by :func:`resolve`:

1. a ``[graphs.NAME]`` table of ``datasets.toml`` (``kron-2e16``, ``luxembourg-road``, ...);
2. a ``[rules.*]`` pattern (``kron-2e17``, ``graph500-s20-ef16``, ``rmat16-2e12``): the match
   inherits the keys of the rule's ``like`` entry and overrides the fields named in the pattern;
3. a path to an existing graph file (family ``file``; weights from the file, or
   ``uniform-int:1:255`` with seed 0 when the file is a pattern-only Matrix Market).

A spec says how to obtain one graph; :mod:`.building` makes it, :mod:`.registry` caches it.
The code holds no dataset table.

Where a ``file`` entry's ``path`` points:

- ``bundled:NAME``: a real graph embedded in llpbench itself (``luxembourg_osm.mtx.xz``, ...),
  in :func:`llpbench.paths.bundled_dir`: the repository's ``datasets/`` in a checkout, the
  same files shipped as package data (``llpbench/datasets/``) in an installed wheel. NAME is a
  plain file name. This is how the default run, the family Δ rule and the tests find their
  real graphs in a fresh clone or a wheel installed anywhere, with nothing beside them.
- a relative path: against the folder above ``configs/`` (see :mod:`llpbench.paths`);
- an absolute path: as written (``~`` expanded).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from llpbench import paths
from llpbench.errors import LlpbenchError, SpecError, UnknownNameError
from llpbench.graphs.format_table import COMPRESSED, all_suffixes
from llpbench.graphs.read_options import ReadOptions
from llpbench.io import file_sha256, sha256_hex

DEFAULT_WEIGHTS = "uniform-int:1:255"
CACHE_FORMAT = 3  # bump when the cached layout (graphs/cache.py) or the building steps change
SOURCES = ("generator", "suitesparse", "file")
_SPEC_KEYS = {"family", "description", "weights", "weight_seed", "generator", "source"}
_SOURCE_KEYS = {
    "suitesparse": ({"group", "matrix"}, {"sha256", "base_url", "directed", "compact"}),
    "file": ({"path"}, {"directed", "index_base", "pattern_weights", "compact"}),
}
BUNDLED = "bundled:"  # the path prefix of a graph embedded in llpbench (see the module notes)


class GraphNotFoundError(LlpbenchError):
    """A graph path that does not exist or is not a file."""


@dataclass(frozen=True)
class GraphSpec:
    """How to obtain one weighted graph.

    Parameters
    ----------
    name, family : str
        Registry name (or file stem) and family (``kronecker``, ``road``, ``file``, ...).
    source : {"generator", "suitesparse", "file"}
        How the unweighted graph is obtained.
    generator : str or None
        Generator function in :mod:`llpbench.graphs.generators` when ``source`` is
        ``"generator"``.
    params : dict
        Generator parameters, or ``group``/``matrix``/``sha256``, or ``path``/``directed``.
    weights : str
        Weight rule (see :mod:`llpbench.graphs.weights`); ``"file"`` keeps the file's weights.
    weight_seed : int
        Seed of the weight rule.
    description : str
        One line for listings; not part of the cache key.
    origin : {"registry", "rule", "path"}
        Where the spec came from; ``path`` specs are never cached.
    """

    name: str
    family: str
    source: str
    generator: str | None = None
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    weights: str = DEFAULT_WEIGHTS
    weight_seed: int = 0
    description: str = ""
    origin: str = "registry"

    @property
    def path(self) -> Path | None:
        """The graph file of a ``file`` spec (resolved), else None."""
        if self.source != "file":
            return None
        return _config_path(self.params["path"])

    @property
    def cacheable(self) -> bool:
        return self.origin != "path"

    @property
    def source_label(self) -> str:
        """A short human description of where the graph comes from."""
        if self.source == "generator":
            args = ", ".join(f"{k}={v}" for k, v in self.params.items())
            return f"{self.generator}({args})"
        if self.source == "suitesparse":
            return f"suitesparse {self.params['group']}/{self.params['matrix']}"
        return f"file {self.params['path']}"

    def key(self) -> str:
        """Hash of everything that determines the finished graph (description excluded)."""
        body: dict[str, Any] = {
            "format": CACHE_FORMAT,
            "name": self.name,
            "family": self.family,
            "source": self.source,
            "generator": self.generator,
            "params": {k: v for k, v in self.params.items() if k != "base_url"},  # a mirror
            "weights": self.weights,
            "weight_seed": self.weight_seed,
        }
        body["code"] = _code_version(self)
        if self.source != "generator":  # read graphs cache their file's ids (graphs/ids.py)
            body["file_ids"] = 1
        path = self.path
        if path is not None:
            try:
                st = path.stat()
                body["file"] = [str(path), st.st_size, st.st_mtime_ns]
            except OSError:
                body["file"] = [str(path), None, None]
        text = json.dumps(body, sort_keys=True, default=str)
        return sha256_hex(text)[:16]


#: The generators that live outside :mod:`llpbench.graphs.generators`, by module; every
#: generated graph's cache key also hashes ``generators``, whose helpers they all use.
_GENERATOR_MODULES = {
    "road_grid": "llpbench.graphs.road",
    "highway_grid": "llpbench.graphs.spatial",
    "random_geometric": "llpbench.graphs.spatial",
}


def generator_module(generator: str) -> str:
    """The module that defines ``generator`` (by name, nothing imported)."""
    return _GENERATOR_MODULES.get(generator, "llpbench.graphs.generators")


def _code_version(spec: GraphSpec) -> str:
    """Hash of the modules whose code shapes the graph: an edited generator rebuilds too."""
    modules = ["llpbench.graphs.generators"] if spec.source == "generator" else []
    if spec.generator in _GENERATOR_MODULES:
        modules.append(generator_module(spec.generator))
    if spec.weights != "file" or spec.source == "file":
        modules.append("llpbench.graphs.weights")
    return "".join(_module_digest(m) for m in modules)


@lru_cache(maxsize=8)
def _module_digest(module: str) -> str:
    found = importlib.util.find_spec(module)
    if found is None or not found.origin:
        return "-"
    try:
        return file_sha256(found.origin)[:12]
    except OSError:
        return "-"


@dataclass(frozen=True)
class NameRule:
    """A ``[rules.*]`` entry: a name pattern with integer fields, and the entry it is like."""

    rule: str
    pattern: str
    like: str | None
    description: str
    regex: re.Pattern[str]
    table: dict[str, Any]
    limits: dict[str, int]


# --------------------------------------------------------------------------- config loading


def config_file() -> Path:
    return paths.config_dir() / paths.DATASETS_TOML


def _config_path(text: str) -> Path:
    if text.startswith(BUNDLED):
        return paths.bundled_dir() / text[len(BUNDLED) :]
    p = Path(text).expanduser()
    return p if p.is_absolute() else (paths.config_root() / p).resolve()


def _read_config() -> tuple[dict[str, GraphSpec], list[NameRule], dict[str, dict]]:
    path = config_file()
    try:
        st = path.stat()
    except OSError as exc:
        raise SpecError(f"{path}: dataset registry not found ({exc.strerror})") from None
    return _parse_config(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4)
def _parse_config(path: str, _mtime: int, _size: int):
    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML: {exc}") from None
    tables = doc.get("graphs", {})
    if not isinstance(tables, dict):
        raise SpecError(f"{path}: [graphs] must be a table of [graphs.NAME] tables")
    specs = {name: _spec_from_table(name, t, path, "registry") for name, t in tables.items()}
    rules = [_rule_from_table(r, t, tables, path) for r, t in doc.get("rules", {}).items()]
    return specs, rules, tables


def _spec_from_table(name: str, table: Any, where: str, origin: str) -> GraphSpec:
    def bad(what: str) -> SpecError:
        return SpecError(f"{where}: graph {name!r}: {what}")

    if not isinstance(table, dict):
        raise bad("must be a table")
    if not isinstance(table.get("family"), str):
        raise bad("needs a string `family`")
    has_gen, has_src = "generator" in table, "source" in table
    if has_gen == has_src:
        raise bad("needs exactly one of `generator = ...` or `source = ...`")
    source = "generator" if has_gen else table["source"]
    if source not in SOURCES[1:] and not has_gen:
        raise bad(f"source {source!r} is not one of {', '.join(SOURCES[1:])}")
    params = {k: v for k, v in table.items() if k not in _SPEC_KEYS}
    if source in _SOURCE_KEYS:
        required, optional = _SOURCE_KEYS[source]
        if missing := sorted(required - params.keys()):
            raise bad(f"source {source!r} needs {', '.join(missing)}")
        if extra := sorted(params.keys() - required - optional):
            raise bad(f"source {source!r} takes no key {', '.join(extra)}")
    where_from = params.get("path") if source == "file" else None
    if isinstance(where_from, str) and where_from.startswith(BUNDLED):
        bundled = where_from[len(BUNDLED) :]
        if not bundled or Path(bundled).name != bundled or bundled in (".", ".."):
            raise bad(f"path {where_from!r}: after {BUNDLED!r} comes a plain file name")
    weights = table.get("weights", DEFAULT_WEIGHTS)
    seed = table.get("weight_seed", 0)
    if not isinstance(weights, str) or not isinstance(seed, int):
        raise bad("`weights` must be a rule string and `weight_seed` an integer")
    return GraphSpec(
        name=name,
        family=table["family"],
        source=source,
        generator=str(table["generator"]).replace("-", "_") if has_gen else None,
        params=params,
        weights=weights,
        weight_seed=seed,
        description=str(table.get("description", "")),
        origin=origin,
    )


def _rule_from_table(rule: str, t: Any, tables: dict, where: str) -> NameRule:
    if not isinstance(t, dict) or not isinstance(t.get("pattern"), str):
        raise SpecError(f"{where}: rule {rule!r} needs a string `pattern`")
    like = t.get("like")
    if like is not None and like not in tables:
        raise SpecError(f"{where}: rule {rule!r} is like {like!r}, which is not a [graphs] entry")
    regex, pos = "", 0
    for m in re.finditer(r"\{([A-Za-z_]\w*)\}", t["pattern"]):
        regex += re.escape(t["pattern"][pos : m.start()]) + f"(?P<{m.group(1)}>0|[1-9][0-9]*)"
        pos = m.end()
    regex += re.escape(t["pattern"][pos:])
    own = {k: v for k, v in t.items() if k not in ("pattern", "like", "description", "max")}
    return NameRule(
        rule=rule,
        pattern=t["pattern"],
        like=like,
        description=str(t.get("description", "")),
        regex=re.compile(regex),
        table={**copy.deepcopy(tables.get(like, {})), **own},
        limits=dict(t.get("max", {})),
    )


# --------------------------------------------------------------------------- resolution


def list_specs() -> list[GraphSpec]:
    """Every ``[graphs.NAME]`` entry of the registry, in file order."""
    return [_copy(spec) for spec in _read_config()[0].values()]


def _copy(spec: GraphSpec) -> GraphSpec:
    """A spec whose params a caller may change without touching the parsed registry."""
    return dataclasses.replace(spec, params=copy.deepcopy(spec.params))


def list_rules() -> list[NameRule]:
    """The ``[rules.*]`` name patterns of the registry."""
    return list(_read_config()[1])


def resolve(
    name_or_path: str | os.PathLike[str] | GraphSpec, options: ReadOptions | None = None
) -> GraphSpec:
    """The spec for a registry name, a rule name (``kron-2e17``) or a graph file path.

    ``options`` apply to file paths only; a registry or rule name with options is refused
    (its table in ``datasets.toml`` states how it is read).

    Raises
    ------
    UnknownNameError
        If the name is neither registered, nor matched by a rule, nor an existing file;
        the message suggests the closest registered names.
    GraphNotFoundError
        If the argument looks like a path (a folder separator or a graph-file suffix) that
        does not exist, or names a directory.
    SpecError
        If the registry itself is malformed, or a rule field exceeds the rule's ``max``.
    """
    if isinstance(name_or_path, GraphSpec):
        return name_or_path
    specs, rules, _ = _read_config()
    text = os.fspath(name_or_path)
    options = options or ReadOptions()
    named = None
    if not isinstance(name_or_path, os.PathLike):
        if text in specs:
            named = _copy(specs[text])
        for rule in rules if named is None else []:
            if m := rule.regex.fullmatch(text):
                fields = {k: int(v) for k, v in m.groupdict().items()}
                named = _spec_from_rule(text, rule, fields)
                break
    if named is not None:
        if options.given:
            raise SpecError(
                f"{text} is a registry graph; {' '.join(options.given)} applies to graph files "
                f"only (its reading is set in {config_file()})"
            )
        return named
    return _spec_from_path(text, list(specs), options)


def _spec_from_rule(name: str, rule: NameRule, fields: dict[str, int]) -> GraphSpec:
    for key, value in fields.items():
        limit = rule.limits.get(key)
        if limit is not None and value > limit:
            raise SpecError(
                f"{name}: {key} {value} is above the limit {limit} of rule {rule.rule!r}"
            )
    table = {**rule.table, **fields}
    table["description"] = rule.description.format(**fields) if rule.description else ""
    return _spec_from_table(name, table, f"{config_file()} [rules.{rule.rule}]", "rule")


def _looks_like_path(text: str) -> bool:
    """A folder separator, or a suffix of a graph format (of the format table), the cache
    (``.npz``) or a codec: a missing file, not an unknown name."""
    suffix = Path(text).suffix.lower()
    return os.sep in text or "/" in text or suffix in (*all_suffixes(), ".npz", *COMPRESSED)


def _spec_from_path(text: str, known: list[str], options: ReadOptions) -> GraphSpec:
    p = Path(text).expanduser()
    if not p.exists():
        if _looks_like_path(text):
            raise GraphNotFoundError(f"{text}: no such graph file")
        raise UnknownNameError("graph", text, known)
    if not p.is_file():
        raise GraphNotFoundError(f"{text}: not a graph file (it is a directory)")
    weights = "file"
    if options.weights is not None:
        from llpbench.graphs.weights import parse_weight_rule

        weights = str(parse_weight_rule(options.weights))
    params: dict[str, Any] = {"path": str(p.resolve()), "pattern_weights": DEFAULT_WEIGHTS}
    if options.directed is not None:
        params["directed"] = options.directed
    if options.index_base != "auto":
        params["index_base"] = options.index_base
    if options.weights is not None:
        params["weights_flag"] = True
    if options.compact:
        params["compact"] = True
    if options.negative:
        params["negative_aside"] = True
    from llpbench.graphs.formats_common import graph_name

    return GraphSpec(
        name=graph_name(p),
        family="file",
        source="file",
        params=params,
        weights=weights,
        weight_seed=0,
        description=f"graph file {text}",
        origin="path",
    )


def read_options_of(spec: GraphSpec) -> ReadOptions:
    """How ``spec``'s file is read: the options a path spec was made with, or those of its
    ``datasets.toml`` table (``directed``, ``index_base``, ``compact``), with the weight
    rule that replaces the file's weights (a negative one is then a placeholder)."""
    p = spec.params
    flagged = bool(p.get("weights_flag"))
    return ReadOptions(
        directed=p.get("directed"),
        index_base=str(p.get("index_base", "auto")),
        weights=spec.weights if flagged or spec.weights != "file" else None,
        compact=bool(p.get("compact")),
        negative=bool(p.get("negative_aside")),
    )
