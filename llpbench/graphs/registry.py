"""The dataset registry: names from ``configs/datasets.toml`` turned into weighted graphs,
and the on-disk cache of the finished graphs.

:func:`load_graph` resolves a name (:mod:`.dataset_specs`: a registry entry, a rule match
or a graph file), builds (generator), fetches (SuiteSparse) or reads (file) the graph
(:mod:`.building`), assigns its weights and caches the finished graph as
``<cache dir>/<NAME>.graph/`` (:mod:`.cache`: one ``.npy`` per array, memory-mapped)
beside ``<NAME>.spec.json``, which holds a hash of the spec: a
changed spec (any key but the description), a changed source file, or edited generator or
weight code rebuilds instead of loading a stale graph. Graphs given by a bare path are read
each time and never cached.

The names of those modules are re-exported here (``from llpbench.graphs.registry import
resolve``), so that a caller needs one import for the registry as a whole.
"""

from __future__ import annotations

import dataclasses
import json
import os
import warnings
from pathlib import Path

from llpbench import paths
from llpbench.errors import LlpbenchError
from llpbench.graphs.building import build_graph, compact_ids, fetch
from llpbench.graphs.cache import cache_folder, load_cached_graph, save_cached_graph
from llpbench.graphs.dataset_specs import (
    BUNDLED,
    CACHE_FORMAT,
    DEFAULT_WEIGHTS,
    SOURCES,
    GraphNotFoundError,
    GraphSpec,
    NameRule,
    _module_digest,
    config_file,
    list_rules,
    list_specs,
    read_options_of,
    resolve,
)
from llpbench.graphs.graph import Graph
from llpbench.graphs.read_options import ReadOptions
from llpbench.graphs.size_estimates import estimated_size
from llpbench.io import write_json_atomic
from llpbench.phases import phase

#: From this many arcs up, a graph just generated (or read) and cached is replaced by its
#: memory-mapped cached copy (below it, the open maps would cost more than they save).
MAPPED_AFTER_CACHING = 1 << 18

__all__ = [
    "BUNDLED",
    "CACHE_FORMAT",
    "DEFAULT_WEIGHTS",
    "SOURCES",
    "GraphNotFoundError",
    "GraphSpec",
    "NameRule",
    "ReadOptions",
    "_module_digest",
    "build_graph",
    "compact_ids",
    "config_file",
    "estimated_size",
    "fetch",
    "is_cached",
    "list_rules",
    "list_specs",
    "load_graph",
    "read_options_of",
    "resolve",
]


def _cache_files(spec: GraphSpec, cache_dir: Path) -> tuple[Path, Path]:
    """The graph's cache folder (:mod:`.cache`) and the record of the spec it was built from."""
    return cache_folder(cache_dir, spec.name), cache_dir / f"{spec.name}.spec.json"


def is_cached(spec: GraphSpec | str, cache_dir: str | os.PathLike[str] | None = None) -> bool:
    """Whether ``spec``'s finished graph is in the cache and was built from this very spec."""
    spec = resolve(spec)
    if not spec.cacheable:
        return False
    folder, meta = _cache_files(spec, paths.data_dir(cache_dir))
    try:
        recorded = json.loads(meta.read_text())["key"]
        return (folder / "meta.json").is_file() and recorded == spec.key()
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
        with phase(f"{spec.name}: loading the cached graph"):
            graph = _load_cached(spec, cache)
        if graph is not None:
            return graph
    how = "generating" if spec.source == "generator" else "reading"
    with phase(f"{spec.name}: {how} the graph"):
        graph = build_graph(spec, cache_dir=cache, progress=progress)
    if spec.cacheable:
        with phase(f"{spec.name}: caching the graph"):
            stored = _store(graph, spec, cache)
        if stored and graph.m >= MAPPED_AFTER_CACHING:
            # the memory-mapped copy: the arrays just built go back to the system, and a
            # page costs memory only while it is read
            graph = _load_cached(spec, cache) or graph
    return graph


def _load_cached(spec: GraphSpec, cache: Path) -> Graph | None:
    folder, _ = _cache_files(spec, cache)
    try:
        graph = load_cached_graph(folder)
    except (LlpbenchError, OSError, ValueError, KeyError):
        return None  # unreadable cache entry: rebuild it
    if graph.provenance.get("spec_key") not in (None, spec.key()):
        return None
    return graph


def _store(graph: Graph, spec: GraphSpec, cache: Path) -> bool:
    folder, meta = _cache_files(spec, cache)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        meta.unlink(missing_ok=True)  # removed first, written last: a half-written folder
        save_cached_graph(graph, folder)  # is never taken for a current one
        body = {"name": spec.name, "key": spec.key(), "spec": dataclasses.asdict(spec)}
        write_json_atomic(meta, body, indent=1, sort_keys=False)
    except OSError as exc:
        warnings.warn(f"could not cache graph {spec.name!r} in {cache}: {exc}", stacklevel=2)
        return False
    return True


