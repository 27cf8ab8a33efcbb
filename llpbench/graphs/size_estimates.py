"""About how big a graph is, from its spec alone: for planning, nothing built or read."""

from __future__ import annotations

import os

from llpbench.graphs.dataset_specs import GraphSpec, resolve

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
        if spec.generator == "road_grid":  # per grid cell: 1 + k s vertices, 4 k (s/2 + 1) arcs
            keep, most = float(p.get("keep", 0.6)), int(p.get("max_subdivide", 4))
            return round(int(p["rows"]) * int(p["cols"]) * (1 + keep * (3 * most + 4)))
        if spec.generator == "highway_grid":  # 4 arcs per vertex, 2 per highway
            rows = int(p["rows"])
            n = rows * int(p.get("cols") or rows)
            return 5 * n + 2 * int(p.get("highways") or n // 100)
        if spec.generator == "random_geometric":
            n = 2 ** int(p["scale"])
            return n + round(n * float(p.get("avg_degree", 10.0)))
    except (KeyError, TypeError, ValueError):
        return None
    path = spec.path
    if path is not None:
        try:
            return max(1, path.stat().st_size // _BYTES_PER_ARC)
        except OSError:
            return None
    return None
