"""Writing graph files (the format's writer chosen by suffix from
:data:`~llpbench.graphs.format_table.FORMATS`) and the ``.npz`` parsed-graph cache.

Re-exported by :mod:`llpbench.graphs.formats`; see there for the conventions. Every file is
written to a temporary file next to its target and renamed, so it appears complete or not at
all.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from llpbench.errors import FormatError, NegativeWeightError
from llpbench.graphs.format_table import (
    FORMATS,
    compressed_note,
    named_format,
    suffix_list,
    writable,
)
from llpbench.graphs.formats_text import atomic_open, compress_for
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import FileIds
from llpbench.io import json_default

_NPZ_VERSION = 1


def _clean(text: str) -> str:
    return " ".join(str(text).split())


@dataclass(frozen=True)
class WrittenArcs:
    """What a format's writer is handed besides the graph: every arc as written (self-loops
    included, weight 0: no path uses one), and the two comment lines a format may carry:
    ``meta``, ``llpbench: n=<n> directed=<true|false> weights=<dtype>`` (for formats without
    a place for them), and ``banner``, who wrote the file and which graph it is."""

    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray
    meta: str
    banner: str


def write_graph(graph: Graph, path: str | Path) -> Path:
    """Write ``graph`` to ``path`` in the format its suffix names (a format of
    :data:`~llpbench.graphs.format_table.FORMATS` with a writer: ``.mtx``, ``.gr``, ``.wel``).

    Matrix Market: ``coordinate integer|real general``, or ``symmetric`` with the lower
    triangle when the graph is undirected, and ``pattern`` when the graph came from a pattern
    file and still has its unit weights. ``.gr`` and ``.wel`` list every arc and record n,
    directedness and the weight dtype in an llpbench comment line. Floats are written in
    their shortest exact form (``repr``), so reading gives the same float64 values.
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
    writer = writer_for(path)
    src, dst, weights = graph.edges()
    if graph.loops.shape[0]:  # self-loops are listed too (weight 0: no path uses one)
        src = np.concatenate([src, graph.loops])
        dst = np.concatenate([dst, graph.loops])
        weights = np.concatenate([weights, np.zeros(graph.loops.shape[0], weights.dtype)])
    arcs = WrittenArcs(
        src, dst, weights,
        meta=f"llpbench: n={graph.n} directed={str(graph.directed).lower()} "
        f"weights={'int64' if weights.dtype.kind == 'i' else weights.dtype}",  # any width
        banner=f"written by llpbench: {_clean(graph.name)} ({_clean(graph.family)})",
    )
    payload = writer(graph, arcs)
    with atomic_open(path) as fh:
        fh.write(compress_for(path, payload))
    return path


def writer_for(path: str | Path):
    """The writer of the format ``path``'s suffix names (see
    :mod:`~llpbench.graphs.format_table`).

    Raises
    ------
    FormatError
        No format with a writer has that suffix.
    """
    name = named_format(path)
    writer = FORMATS[name].write() if name is not None else None
    if writer is None:
        raise FormatError(
            Path(path),
            None,
            f"a file name ending in {suffix_list(writable())} ({compressed_note()}) to "
            f"write, found {Path(path).name!r}",
        )
    return writer


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
    text = json.dumps(meta, default=json_default, sort_keys=True)
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
