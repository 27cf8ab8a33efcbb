"""The dataset registry: names from ``configs/datasets.toml`` turned into weighted graphs.

A graph is named three ways, tried in this order by :func:`resolve`:

1. a ``[graphs.NAME]`` table of ``datasets.toml`` (``kron-2e16``, ``luxembourg-road``, ...);
2. a ``[rules.*]`` pattern (``kron-2e17``, ``graph500-s20-ef16``, ``rmat16-2e12``): the match
   inherits the keys of the rule's ``like`` entry and overrides the fields named in the pattern;
3. a path to an existing graph file (family ``file``; weights from the file, or
   ``uniform-int:1:255`` with seed 0 when the file is a pattern-only Matrix Market).

:func:`load_graph` builds (generator), fetches (SuiteSparse) or reads (file) the graph, assigns
its weights and caches the finished graph as ``<cache dir>/<NAME>.npz`` beside
``<NAME>.spec.json``, which holds a hash of the spec: a changed spec (any key but the
description), a changed source file, or edited generator or weight code rebuilds instead of
loading a stale graph. Graphs given
by a bare path are read each time and never cached. The code holds no dataset table.

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
import inspect
import json
import os
import re
import tomllib
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from llpbench import paths
from llpbench.errors import LlpbenchError, ReadingWarning, SpecError, UnknownNameError
from llpbench.graphs.graph import Graph
from llpbench.io import file_sha256, sha256_hex, write_json_atomic

DEFAULT_WEIGHTS = "uniform-int:1:255"
CACHE_FORMAT = 2  # bump when the cached file's layout or the building steps here change
SOURCES = ("generator", "suitesparse", "file")
_SPEC_KEYS = {"family", "description", "weights", "weight_seed", "generator", "source"}
_SOURCE_KEYS = {
    "suitesparse": ({"group", "matrix"}, {"sha256", "base_url", "directed", "compact"}),
    "file": ({"path"}, {"directed", "index_base", "pattern_weights", "compact"}),
}
_PATH_SUFFIXES = {
    ".mtx", ".gr", ".wel", ".txt", ".el", ".edges", ".tsv", ".csv", ".npz", ".gz", ".xz", ".bz2"
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


def _code_version(spec: GraphSpec) -> str:
    """Hash of the modules whose code shapes the graph: an edited generator rebuilds too."""
    modules = ["llpbench.graphs.generators"] if spec.source == "generator" else []
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


@dataclass(frozen=True)
class ReadOptions:
    """How to read a graph *file* where the file itself does not settle it (CLI flags).

    ``directed`` None lets the file decide; ``index_base`` is ``auto``, ``0`` or ``1``;
    ``weights`` is a weight rule (``file`` keeps the file's), None for the default: the file's
    weights, or ``uniform-int:1:255`` (seed 0) with a warning when it has none.
    """

    directed: bool | None = None
    index_base: str = "auto"
    weights: str | None = None
    compact: bool = False  # renumber the ids that occur to 0..k-1
    # negative file weights set aside (recorded; the graph's weights 0) instead of refusing
    # the file: the CLI's reading, where BFS ignores weights, `datasets info` reports them
    # and SSSP refuses naming --weights unit (llpbench.problems.check_input)
    negative: bool = False

    @property
    def given(self) -> list[str]:
        out = []
        if self.directed is not None:
            out.append("--directed" if self.directed else "--undirected")
        if self.index_base != "auto":
            out.append(f"--index-base {self.index_base}")
        if self.weights is not None:
            out.append(f"--weights {self.weights}")
        if self.compact:
            out.append("--compact-ids")
        return out


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


def _spec_from_path(text: str, known: list[str], options: ReadOptions) -> GraphSpec:
    p = Path(text).expanduser()
    looks_like_path = os.sep in text or "/" in text or p.suffix.lower() in _PATH_SUFFIXES
    if not p.exists():
        if looks_like_path:
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
    from llpbench.graphs.formats import graph_name

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


# --------------------------------------------------------------------------- building


def build_graph(spec: GraphSpec, *, cache_dir: Path, progress: bool = False) -> Graph:
    """Make the weighted graph of ``spec`` from scratch (no cache involved)."""
    from llpbench.graphs.weights import assign_weights

    if spec.source == "generator":
        graph = _generate(spec)
    else:
        from llpbench.graphs.formats import read_graph

        directed = spec.params.get("directed")
        graph = read_graph(
            fetch(spec, cache_dir=cache_dir, progress=progress),
            directed=directed,
            index_base=spec.params.get("index_base", "auto"),
            name=spec.name,
            family=spec.family,
            compact=bool(spec.params.get("compact")),
            weights_column=bool(spec.params.get("weights_flag")) and spec.weights == "file",
            negative_weights=spec.weights != "file",  # replaced by the rule: any sign will do
            negative_aside=bool(spec.params.get("negative_aside")),
        )
        if spec.params.get("compact") and "compacted_from_n" not in graph.provenance:
            graph = compact_ids(graph)  # formats whose reader does not renumber
        elif spec.origin == "path":
            graph = _warn_if_labels(graph, spec.params["path"])
    rule, seed = spec.weights, spec.weight_seed
    if rule == "file" and graph.provenance.get("pattern"):
        if spec.params.get("weights_flag"):
            raise SpecError(
                f"{spec.params['path']}: --weights file, but the file has no weights "
                "(a pattern file); choose a rule such as unit or uniform-int:1:255"
            )
        rule = spec.params.get("pattern_weights", DEFAULT_WEIGHTS)
        if spec.origin == "path":
            note = (
                f"{spec.params['path']}: the file has no weights; assigned {rule} (seed {seed}); "
                "pass --weights unit (or another rule) to choose"
            )
            graph = _with_warning(graph, note)
    if rule != "file":
        graph = assign_weights(graph, rule, seed)
    prov = dict(graph.provenance)
    prov.update(registry=spec.name, spec_origin=spec.origin, spec_key=spec.key())
    prov.setdefault("weights", rule)  # assign_weights recorded "<rule>;seed=<seed>"
    return dataclasses.replace(graph, name=spec.name, family=spec.family, provenance=prov)


def fetch(spec: GraphSpec, *, cache_dir: Path, progress: bool = False) -> Path:
    """The local source file of a ``suitesparse`` or ``file`` spec, downloading if needed."""
    if spec.source == "file":
        path = spec.path
        assert path is not None
        if not path.exists():
            raise GraphNotFoundError(f"{path}: no such graph file (graph {spec.name!r})")
        return path
    if spec.source != "suitesparse":
        raise SpecError(f"graph {spec.name!r} is generated ({spec.generator}); nothing to fetch")
    from llpbench.graphs.download import fetch_suitesparse

    base_url = spec.params.get("base_url")  # else $LLPBENCH_SUITESPARSE_URL, else sparse.tamu.edu
    return fetch_suitesparse(
        spec.params["group"],
        spec.params["matrix"],
        Path(cache_dir) / "suitesparse",
        base_url=base_url,
        sha256=spec.params.get("sha256"),
        progress=progress,
    )


def _with_warning(graph: Graph, note: str) -> Graph:
    """Warn ``note`` (a :class:`ReadingWarning`) and record it in the graph's provenance, so
    that ``datasets info`` shows it later too."""
    warnings.warn(note, ReadingWarning, stacklevel=3)
    warns = [*graph.provenance.get("warnings", []), note]
    return dataclasses.replace(graph, provenance=dict(graph.provenance, warnings=warns))


def _named_ids(graph: Graph):
    """Boolean mask of the vertex ids the file names: an endpoint of some arc or a self-loop."""
    import numpy as np

    src, dst, _ = graph.edges()
    used = np.zeros(graph.n, dtype=bool)
    used[src] = True
    used[dst] = True
    used[graph.loops] = True  # a vertex whose only arc is a self-loop is named by the file
    return used


def _warn_if_labels(graph: Graph, path: str) -> Graph:
    """Warn (and record) when fewer than half of a file graph's vertex ids occur in it: its
    ids are labels (SNAP's paper numbers), and every other vertex is an isolated phantom."""
    occur = int(_named_ids(graph).sum())
    if graph.n == 0 or occur * 2 >= graph.n:
        return graph
    return _with_warning(
        graph,
        f"{path}: only {occur:,} of n = {graph.n:,} vertex ids occur (the ids look like "
        "labels); pass --compact-ids to renumber them 0..k-1",
    )


def compact_ids(graph: Graph) -> Graph:
    """Drop the vertices without any arc, renumbering the rest in their original order.

    For files whose ids are sparse labels (SNAP's cit-HepPh numbers papers like ``9907233``),
    so that ``n`` counts the vertices the file names. Provenance keeps the original ``n``.
    """
    import numpy as np

    src, dst, weights = graph.edges()
    used = _named_ids(graph)
    new_id = np.cumsum(used) - 1
    prov = dict(graph.provenance, compacted_from_n=graph.n)
    if isinstance(prov.get("reading"), dict):  # the verifier shares the user's flags only
        reading = dict(prov["reading"])
        reading["flags"] = dict(reading.get("flags", {}), compact=True)
        prov["reading"] = reading
    return Graph.from_edges(
        int(used.sum()),
        new_id[src],
        new_id[dst],
        weights,
        directed=graph.directed,
        name=graph.name,
        family=graph.family,
        provenance=prov,
        loops=new_id[graph.loops],
        file_ids=graph.ids.compose(np.flatnonzero(used), "--compact-ids"),
    )


def _generate(spec: GraphSpec) -> Graph:
    from llpbench.graphs import generators

    name = spec.generator or ""
    public = getattr(generators, "__all__", None)
    fn = getattr(generators, name, None)
    if name.startswith("_") or not callable(fn) or (public is not None and name not in public):
        raise SpecError(f"graph {spec.name!r}: no generator named {name!r}")
    sig = inspect.signature(fn)
    accepted = [p for p in sig.parameters if p != "name"]
    if unknown := sorted(set(spec.params) - set(accepted)):
        raise SpecError(
            f"graph {spec.name!r}: generator {name} takes no parameter {', '.join(unknown)} "
            f"(it takes {', '.join(accepted)})"
        )
    try:
        sig.bind(**spec.params, name=spec.name)
    except TypeError as exc:
        raise SpecError(f"graph {spec.name!r}: generator {name}: {exc}") from None
    _check_generated_size(spec)
    return fn(**spec.params, name=spec.name)


def _check_generated_size(spec: GraphSpec) -> None:
    """Refuse, before generating, a graph whose arrays cannot fit: its size from the spec
    (:func:`estimated_size`, vertices plus arcs) against the memory bound of
    :mod:`llpbench.graphs.limits`, and a graph with no vertices or no arcs to solve on."""
    from llpbench.graphs.limits import BYTES_PER_ARC, MAX_MEMORY_ENV, human_bytes, memory_bound

    p = spec.params
    if spec.generator in ("kronecker", "rmat"):
        if int(p.get("scale", 1)) < 1 or int(p.get("edge_factor", 16)) < 1:
            raise SpecError(
                f"{spec.name}: scale and edge factor must be at least 1 (2**scale vertices, "
                "edge factor arcs per vertex); a graph of one vertex or no arcs has nothing "
                "to solve"
            )
    size = estimated_size(spec)
    if size is None:
        return
    need, (bound, explicit) = BYTES_PER_ARC * size, memory_bound()
    if need > bound:
        source = f"the {MAX_MEMORY_ENV} bound" if explicit else "the memory available"
        raise SpecError(
            f"{spec.name}: its arrays would need at least {human_bytes(need)}, more than "
            f"{source} ({human_bytes(bound)}); choose a smaller graph (or --max-memory SIZE)"
        )


# --------------------------------------------------------------------------- the cache


def _cache_files(spec: GraphSpec, cache_dir: Path) -> tuple[Path, Path]:
    return cache_dir / f"{spec.name}.npz", cache_dir / f"{spec.name}.spec.json"


def is_cached(spec: GraphSpec | str, cache_dir: str | os.PathLike[str] | None = None) -> bool:
    """Whether ``spec``'s finished graph is in the cache and was built from this very spec."""
    spec = resolve(spec)
    if not spec.cacheable:
        return False
    npz, meta = _cache_files(spec, paths.data_dir(cache_dir))
    try:
        return npz.is_file() and json.loads(meta.read_text())["key"] == spec.key()
    except (OSError, ValueError, KeyError, TypeError):
        return False


def load_graph(
    name_or_path: str | os.PathLike[str] | GraphSpec,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
    rebuild: bool = False,
    options: ReadOptions | None = None,
) -> Graph:
    """The weighted graph named by a registry name, rule name, spec or file path.

    Parameters
    ----------
    name_or_path : str, path or GraphSpec
        See :func:`resolve`.
    cache_dir : path, optional
        The datasets cache; default ``$LLPBENCH_DATA_DIR``, else a checkout's ``datasets/``,
        else the user's cache folder (see :mod:`llpbench.paths`).
    progress : bool
        Show download progress for SuiteSparse graphs.
    rebuild : bool
        Build afresh even when a current cached copy exists.

    Returns
    -------
    Graph
        Named after the spec, with its family, and provenance recording how it was made.

    Examples
    --------
    >>> g = load_graph("tiny-mesh")  # doctest: +SKIP
    >>> g.n, g.m  # doctest: +SKIP
    (256, 960)
    """
    spec = resolve(name_or_path, options)
    cache = paths.data_dir(cache_dir)
    if spec.cacheable and not rebuild and is_cached(spec, cache):
        graph = _load_cached(spec, cache)
        if graph is not None:
            return graph
    graph = build_graph(spec, cache_dir=cache, progress=progress)
    if spec.cacheable:
        _store(graph, spec, cache)
    return graph


def _load_cached(spec: GraphSpec, cache: Path) -> Graph | None:
    from llpbench.graphs.formats import load_npz

    npz, _ = _cache_files(spec, cache)
    try:
        graph = load_npz(npz)
    except (LlpbenchError, OSError, ValueError, KeyError):
        return None  # unreadable cache entry: rebuild it
    if graph.provenance.get("spec_key") not in (None, spec.key()):
        return None
    return graph


def _store(graph: Graph, spec: GraphSpec, cache: Path) -> None:
    from llpbench.graphs.formats import save_npz

    npz, meta = _cache_files(spec, cache)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        meta.unlink(missing_ok=True)
        save_npz(graph, npz)
        body = {"name": spec.name, "key": spec.key(), "spec": dataclasses.asdict(spec)}
        write_json_atomic(meta, body, indent=1, sort_keys=False)
    except OSError as exc:
        warnings.warn(f"could not cache graph {spec.name!r} in {cache}: {exc}", stacklevel=2)


# --------------------------------------------------------------------------- size estimates

_BYTES_PER_ARC = 8  # a line ("u v w\n", ~12 bytes) is one arc, or two in a symmetric file


def estimated_size(name_or_path: str | os.PathLike[str] | GraphSpec) -> int | None:
    """About how many vertices plus arcs the graph has, from its spec alone (nothing built).

    For planning only (a sharded sweep balances its shards by it): generated graphs from
    their parameters, file graphs from the file's size, None where nothing tells
    (a SuiteSparse graph). The answer never depends on the cache, so every machine that
    plans the same sweep gets the same numbers.
    """
    spec = resolve(name_or_path)
    p = spec.params
    try:
        if spec.generator in ("kronecker", "rmat"):
            n = 2 ** int(p["scale"])
            return n + 2 * int(p.get("edge_factor", 16)) * n
        if spec.generator in ("uniform_random", "random_dag"):
            return int(p["n"]) + round(int(p["n"]) * float(p["avg_degree"]))
        if spec.generator == "mesh":
            return 5 * int(p["rows"]) * int(p["cols"])
    except (KeyError, TypeError, ValueError):
        return None
    path = spec.path
    if path is not None:
        try:
            return max(1, path.stat().st_size // _BYTES_PER_ARC)
        except OSError:
            return None
    return None
