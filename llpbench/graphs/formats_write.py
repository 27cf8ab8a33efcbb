"""Graph writers (``.mtx``, ``.gr``, ``.wel``) and the ``.npz`` parsed-graph cache.

Re-exported by :mod:`llpbench.graphs.formats`; see there for the conventions. Every file is
written to a temporary file next to its target and renamed, so it appears complete or not at
all.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from llpbench.errors import FormatError, NegativeWeightError
from llpbench.graphs.formats_text import arcs_text, atomic_open, suffix_of, write_bytes_atomic
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import FileIds

_NPZ_VERSION = 1


def _clean(text: str) -> str:
    return " ".join(str(text).split())


def write_graph(graph: Graph, path: str | Path) -> Path:
    """Write ``graph`` to ``path`` in the format its suffix names (``.mtx``, ``.gr``, ``.wel``).

    Matrix Market: ``coordinate integer|real general``, or ``symmetric`` with the lower
    triangle when the graph is undirected, and ``pattern`` when the graph came from a pattern
    file and still has its unit weights (the lower triangle assumes, as ``Graph`` does for an
    undirected graph, that twin arcs carry equal weights). ``.gr`` and ``.wel`` list every arc
    and record n, directedness and the weight dtype in an llpbench comment line. Floats are
    written in their shortest exact form (``repr``), so reading gives the same float64 values.
    A ``.gz``, ``.xz`` or ``.bz2`` suffix compresses the file.

    The file appears complete or not at all (temporary file, then rename).

    Returns
    -------
    Path
        The path written.

    Raises
    ------
    FormatError
        An unknown suffix, or ``cannot write: <reason>`` (the temporary file is removed).
    """
    path = Path(path)
    note = graph.provenance.get("negative_weights")
    if note and str(graph.provenance.get("weights", "file")) == "file":
        raise NegativeWeightError(f"{note}; not exported (its 0s are no weights): pass "
                                  "--weights unit (or another rule)")
    suffix = suffix_of(path)
    src, dst, weights = graph.edges()
    if graph.loops.shape[0]:  # self-loops are listed too (weight 0: no path uses one)
        src = np.concatenate([src, graph.loops])
        dst = np.concatenate([dst, graph.loops])
        weights = np.concatenate([weights, np.zeros(graph.loops.shape[0], weights.dtype)])
    meta = f"llpbench: n={graph.n} directed={str(graph.directed).lower()} weights={weights.dtype}"
    banner = f"written by llpbench: {_clean(graph.name)} ({_clean(graph.family)})"
    if suffix == ".mtx":
        unit = weights.dtype.kind == "i" and bool(np.all(weights == 1))
        field = (
            "pattern"
            if graph.provenance.get("pattern") and unit
            else ("integer" if weights.dtype.kind == "i" else "real")
        )
        if not graph.directed:
            keep = src >= dst
            src, dst, weights = src[keep], dst[keep], weights[keep]
        symmetry = "general" if graph.directed else "symmetric"
        head = (
            f"%%MatrixMarket matrix coordinate {field} {symmetry}\n% {banner}\n"
            f"{graph.n} {graph.n} {src.shape[0]}\n"
        )
        body = arcs_text(src + 1, dst + 1, None if field == "pattern" else weights)
    elif suffix == ".gr":
        head = f"c {banner}\nc {meta}\np sp {graph.n} {src.shape[0]}\n"
        body = arcs_text(src + 1, dst + 1, weights, prefix="a")
    elif suffix == ".wel":
        head = f"# {banner}\n# {meta}\n"
        body = arcs_text(src, dst, weights)
    else:
        raise FormatError(
            path,
            None,
            "a file name ending in .mtx, .gr or .wel (optionally .gz, .xz or .bz2) "
            f"to write, found {path.name!r}",
        )
    write_bytes_atomic(path, head.encode("utf-8") + body)
    return path


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def save_npz(graph: Graph, path: str | Path) -> Path:
    """Cache ``graph`` as an uncompressed ``.npz`` (CSR arrays plus JSON metadata), atomically.

    Returns the path written; raises ``FormatError(path, None, "cannot write: ...")``.
    """
    path = Path(path)
    meta = {
        "llpbench_graph": _NPZ_VERSION,
        "directed": graph.directed,
        "name": graph.name,
        "family": graph.family,
        "provenance": graph.provenance,
    }
    text = json.dumps(meta, default=_jsonable, sort_keys=True)
    ids = graph.file_ids.arrays() if graph.file_ids is not None else {}
    with atomic_open(path) as fh:
        np.savez(
            fh,
            indptr=graph.indptr,
            indices=graph.indices,
            weights=graph.weights,
            loops=graph.loops,
            meta=np.array(text),
            **ids,
        )
    return path


def load_npz(path: str | Path) -> Graph:
    """Load a graph saved by :func:`save_npz`.

    Raises
    ------
    FormatError
        ``cannot read: <reason>``, or the file is not an llpbench graph cache.
    """
    path = Path(path)
    expected = "an llpbench graph cache (.npz with indptr, indices, weights and meta)"
    try:
        with np.load(path, allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"][()]))
            arrays = npz["indptr"], npz["indices"], npz["weights"]
            loops = npz["loops"] if "loops" in npz.files else None
            file_ids = FileIds.from_arrays({k: npz[k] for k in npz.files if "file_ids" in k})
    except OSError as exc:
        raise FormatError(path, None, f"cannot read: {exc.strerror or exc}") from exc
    except (ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
        raise FormatError(path, None, expected) from exc
    if not isinstance(meta, dict) or meta.get("llpbench_graph") != _NPZ_VERSION:
        raise FormatError(path, None, f"{expected}, version {_NPZ_VERSION}")
    try:
        return Graph(
            *arrays,
            bool(meta["directed"]),
            str(meta["name"]),
            str(meta["family"]),
            dict(meta["provenance"]),
            loops,
            file_ids,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise FormatError(path, None, f"{expected} ({exc})") from exc
