"""Making the weighted graph of a :class:`~llpbench.graphs.dataset_specs.GraphSpec`:
generated (by the spec's generator, its size checked first), fetched (SuiteSparse) or read
(a file, by its format's reader with the spec's
:class:`~llpbench.graphs.read_options.ReadOptions`), then weighted by the spec's rule.

No cache is involved here (see :mod:`.registry`).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import warnings
from pathlib import Path

from llpbench.errors import ReadingWarning, SpecError
from llpbench.graphs.dataset_specs import (
    DEFAULT_WEIGHTS,
    GraphNotFoundError,
    GraphSpec,
    generator_module,
    read_options_of,
)
from llpbench.graphs.graph import Graph


def build_graph(spec: GraphSpec, *, cache_dir: Path, progress: bool = False) -> Graph:
    """Make the weighted graph of ``spec`` from scratch (no cache involved)."""
    from llpbench.graphs.weights import assign_weights

    if spec.source == "generator":
        graph = _generate(spec)
    else:
        from llpbench.graphs.formats import read_graph

        graph = read_graph(fetch(spec, cache_dir=cache_dir, progress=progress),
                           read_options_of(spec), name=spec.name, family=spec.family)
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
    name = spec.generator or ""
    module = importlib.import_module(generator_module(name))
    public = getattr(module, "__all__", None)
    fn = getattr(module, name, None)
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
    from llpbench.graphs.size_estimates import estimated_size

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


