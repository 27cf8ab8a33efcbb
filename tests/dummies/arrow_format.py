"""A dummy graph format, ``.arrows``: one arc per line, ``u -> v : w`` (0-based ids), ``//``
comments, directed. What a newcomer writes for a new format: its reader, its writer and the
verifier's own reader of it, in one module; one ``GraphFormat`` entry registers it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from llpbench.errors import FormatError
from llpbench.graphs.formats_common import graph_from_arcs
from llpbench.graphs.formats_text import read_bytes
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import zero_based
from llpbench.graphs.independent import FileReading
from llpbench.graphs.read_options import ReadOptions

_ARC = re.compile(rb"\s*(\d+)\s*->\s*(\d+)\s*:\s*(\d+)\s*")


def read_arrows(path: Path, options: ReadOptions, *, name: str | None, family: str) -> Graph:
    src, dst, w = [], [], []
    for lineno, line in enumerate(read_bytes(path).splitlines(), 1):
        line = line.split(b"//", 1)[0]
        if not line.strip():
            continue
        m = _ARC.fullmatch(line)
        if m is None:
            raise FormatError(path, lineno, f"an arc 'u -> v : w', found {line.decode()!r}")
        src.append(int(m[1]))
        dst.append(int(m[2]))
        w.append(int(m[3]))
    arrays = tuple(np.array(a, dtype=np.int64) for a in (src, dst, w))
    n = int(max(arrays[0].max(), arrays[1].max())) + 1 if src else 0
    return graph_from_arcs(
        path, n, arrays, native=True, stored_both=True, directed=options.directed,
        name=name, family=family, provenance={"source": str(path), "format": "arrows"},
        file_ids=zero_based("the arrows format is 0-based"),
    )


def arrows_bytes(graph: Graph, arcs) -> bytes:
    lines = [f"// {arcs.banner}"]
    lines += [f"{u} -> {v} : {w}" for u, v, w in zip(arcs.src.tolist(), arcs.dst.tolist(),
                                                      arcs.weights.tolist(), strict=True)]
    return ("\n".join(lines) + "\n").encode()


def read_arrows_independently(path: Path, flags: dict) -> FileReading:
    text = re.sub(r"//[^\n]*", "", Path(path).read_text())
    rows = np.array([[int(x) for x in re.findall(r"\d+", line)]
                     for line in text.splitlines() if line.strip()], dtype=np.int64)
    src, dst, w = rows[:, 0], rows[:, 1], rows[:, 2].astype(np.float64)
    directed = bool(flags.get("directed", True))
    return FileReading(int(max(src.max(), dst.max())) + 1, src, dst, w, directed,
                       lines=int(rows.shape[0]))
