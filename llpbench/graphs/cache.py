"""The datasets cache's on-disk layout: one folder per graph, one ``.npy`` file per array.

A cached graph is ``<cache dir>/<NAME>.graph/`` holding ``indptr.npy``, ``indices.npy``,
``weights.npy``, ``loops.npy``, any ``file_ids_*.npy`` and ``meta.json`` (name, family,
direction, provenance). Uncompressed ``.npy`` files, loaded with ``mmap_mode="r"``: a graph
of 10**8 arcs opens in milliseconds, its pages come from the operating system's page cache
(shared by every process that reads the same graph) instead of being copied into each one,
and nothing is decompressed. An ``.npz`` cannot be memory-mapped (numpy reads its members
into memory), which is why the cache left it.

Each file is written atomically (:func:`llpbench.io.atomic_file`), ``meta.json`` last; the
registry removes its ``<NAME>.spec.json`` before writing and writes it after, so a folder
half-written by a killed process is never taken for a current one.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from llpbench.errors import FormatError
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import FileIds
from llpbench.io import atomic_file, json_default, write_text_atomic

__all__ = ["LAYOUT_VERSION", "cache_folder", "load_cached_graph", "save_cached_graph"]

LAYOUT_VERSION = 3  # 2 was one .npz with int64 weights
_ARRAYS = ("indptr", "indices", "weights", "loops")


def cache_folder(cache_dir: Path, name: str) -> Path:
    """Where graph ``name`` is cached in ``cache_dir``."""
    return Path(cache_dir) / f"{name}.graph"


def save_cached_graph(graph: Graph, folder: Path) -> Path:
    """Write ``graph`` into ``folder`` (made if missing), each array as its own ``.npy``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.json").unlink(missing_ok=True)
    arrays = {name: getattr(graph, name) for name in _ARRAYS}
    if graph.file_ids is not None:
        arrays.update(graph.file_ids.arrays())
    for name, arr in arrays.items():
        with atomic_file(folder / f"{name}.npy", "wb") as fh:
            np.save(fh, np.ascontiguousarray(arr), allow_pickle=False)
    meta = {
        "llpbench_graph": LAYOUT_VERSION,
        "directed": graph.directed,
        "name": graph.name,
        "family": graph.family,
        "provenance": graph.provenance,
        "arrays": sorted(arrays),
    }
    write_text_atomic(folder / "meta.json", json.dumps(meta, default=json_default, sort_keys=True))
    return folder


def load_cached_graph(folder: Path) -> Graph:
    """The graph saved by :func:`save_cached_graph`, its arrays memory-mapped read-only.

    Raises
    ------
    FormatError
        When the folder is not a complete cache entry of this layout.
    """
    folder = Path(folder)
    expected = f"an llpbench graph cache folder (layout {LAYOUT_VERSION})"
    try:
        meta = json.loads((folder / "meta.json").read_text())
        if not isinstance(meta, dict) or meta.get("llpbench_graph") != LAYOUT_VERSION:
            raise FormatError(folder, None, expected)
        arrays = {
            name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
            for name in meta["arrays"]
        }
        file_ids = FileIds.from_arrays({k: v for k, v in arrays.items() if "file_ids" in k})
        return Graph(
            *(arrays[name] for name in _ARRAYS[:3]),
            bool(meta["directed"]),
            str(meta["name"]),
            str(meta["family"]),
            dict(meta["provenance"]),
            arrays["loops"],
            file_ids,
        )
    except OSError as exc:
        raise FormatError(folder, None, f"cannot read: {exc.strerror or exc}") from exc
    except (ValueError, KeyError, TypeError) as exc:
        raise FormatError(folder, None, f"{expected} ({exc})") from exc
