"""What every graph-file reader shares: the graph of the parsed arcs, its direction decided
and its reading recorded (:func:`graph_from_arcs`), negative weights set aside, and the small
parsers of header and comment lines.

The conventions (``provenance["reading"]``, the ``llpbench:`` comment line, warnings naming
the deciding flag) are described in :mod:`llpbench.graphs.formats`.
"""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from llpbench.errors import FormatError, NegativeWeightError, ReadingWarning
from llpbench.graphs.formats_text import (
    COMPRESSED_SUFFIXES,
    BodySpec,
    parse_body_slow,
    quote_line,
)
from llpbench.graphs.graph import Graph
from llpbench.graphs.ids import FileIds

#: The edge-list formats whose direction the arcs themselves may decide.
EDGE_LISTS = ("snap", "wel", "konect")


def graph_name(path: Path) -> str:
    """The file name without suffixes; a KONECT ``out.NAME`` file is called NAME, since
    its suffix is the name and its stem only says what kind of KONECT file it is."""
    name = path.name
    if path.suffix.lower() in COMPRESSED_SUFFIXES:
        name = path.with_suffix("").name
    if name.startswith("out.") and len(name) > 4:
        return name[4:]
    return Path(name).stem




def graph_from_arcs(
    path: Path,
    n: int,
    arrays: tuple,
    *,
    native: bool,
    stored_both: bool,
    directed: bool | None,
    name: str | None,
    family: str,
    provenance: dict[str, Any],
    reading: dict[str, Any] | None = None,
    claim: bool | None = None,
    warns: list[str] | None = None,
    flags: dict[str, Any] | None = None,
    file_ids: FileIds | None = None,
    negative_note: str | None = None,
) -> Graph:
    """The graph of the parsed arcs, with ``provenance["reading"]`` saying what was assumed.

    ``claim`` is what the file's comments say about directedness (edge lists only; None when
    silent), ``native`` the format's own answer; an explicit ``directed`` overrides both
    (see :func:`decide_direction`). ``flags`` are the user's own settings, recorded for the
    verifier, which shares nothing else. ``file_ids`` is how the file names the vertices
    (see :mod:`.ids`), recorded in words too.
    """
    src, dst, weights = arrays
    reading = dict(reading or {}, format=provenance["format"])
    given = flags or {"directed": directed}
    reading["flags"] = {k: v for k, v in given.items() if v is not None and v is not False}
    if directed is not None:
        reading["flags"]["directed"] = directed
    warns = list(warns or [])
    final, why = decide_direction(path, n, arrays, directed, claim, native, reading, warns)
    loops = src == dst
    reading.update(
        directed=bool(final),
        directed_because=why,
        arc_lines=int(src.shape[0]),
        self_loops=int(loops.sum()),
        looped_vertices=int(np.unique(src[loops]).shape[0]),
        parallel_arcs_merged=int(src.shape[0] - loops.sum() - _distinct_pairs(n, src, dst, loops)),
        n=int(n),
    )
    if file_ids is not None:
        reading["ids"] = file_ids.how
    provenance = dict(provenance, reading=reading)
    if negative_note:
        provenance["negative_weights"] = negative_note
    for text in warns:
        warnings.warn(text, ReadingWarning, stacklevel=3)
    if warns:
        provenance["warnings"] = warns
    # Symmetric storage (one triangle) must be completed whatever the reading; an undirected
    # reading of a file that lists arcs gets every arc's twin (present twins merge).
    symmetrize = (not native and not stored_both) or not final
    graph = Graph.from_edges(
        n, src, dst, weights, directed=final, symmetrize=symmetrize,
        name=name or graph_name(path), family=family, provenance=provenance, file_ids=file_ids,
    )
    if graph.directed != final:
        graph = dataclasses.replace(graph, directed=final)
    return graph


def _distinct_pairs(n: int, src: np.ndarray, dst: np.ndarray, loops: np.ndarray) -> int:
    """How many distinct (tail, head) pairs the arcs other than self-loops make: one
    combined key's ``np.unique``, or a counting pass for a big file."""
    from llpbench.graphs.graph import CSR_BUILD_MIN_ARCS

    if src.shape[0] >= CSR_BUILD_MIN_ARCS:
        from llpbench.graphs.csr_build import distinct_pairs

        return distinct_pairs(n, src, dst)
    keys = src[~loops].astype(np.int64) * max(n, 1) + dst[~loops]
    return int(np.unique(keys).shape[0])


def decide_direction(
    path: Path, n: int, arrays: tuple, directed: bool | None, claim: bool | None,
    native: bool, reading: dict[str, Any], warns: list[str],
) -> tuple[bool, str]:
    """Whether the graph is directed, and why: ``--directed``/``--undirected``, else the
    file's comment, else (edge lists) the arcs, else the format's own answer.

    A comment saying "directed" on a file that lists every arc both ways (SNAP's boilerplate
    on ca-GrQc and Email-Enron) gives way to the arcs, with a warning naming ``--directed``;
    a silent edge list is undirected when every arc has its reverse, else directed with a
    warning naming ``--undirected``. Warnings are appended to ``warns``.
    """
    src, dst, weights = arrays
    if directed is not None:
        return directed, "--directed" if directed else "--undirected"
    edge_list = reading.get("format") in EDGE_LISTS
    lonely = _without_reverse(n, src, dst, weights) if edge_list and claim else None
    if lonely == 0 and src.shape[0] and "llpbench:" not in reading.get("claim", ""):
        warns.append(
            f"{path}: a comment says the graph is directed, but every arc is listed in both "
            "directions; read as undirected (one edge per pair); pass --directed to keep the "
            "arcs apart"
        )
        return False, "every arc is listed in both directions (a comment says directed)"
    if claim is not None:
        return claim, "the file's comment says so"
    if edge_list:
        lonely = _without_reverse(n, src, dst, weights)
        if lonely == 0 and src.shape[0]:
            return False, "every arc is listed in both directions"
        if src.shape[0]:
            share = 100.0 * lonely / max(1, int((src != dst).sum()))
            warns.append(
                f"{path}: the file does not say whether it is directed; read as directed "
                f"({share:.0f}% of arcs have no reverse arc); pass --undirected if each "
                "edge is listed once, or --directed to confirm"
            )
        return True, "the file does not say; read as directed"
    if reading.get("format") != "mtx":
        return native, "the format says so"
    return native, "Matrix Market 'general'" if native else "Matrix Market 'symmetric'"


def _without_reverse(n: int, src: np.ndarray, dst: np.ndarray, weights) -> int:
    """How many non-loop arcs have no reverse arc (of equal weight, when weighted)."""
    keep = src != dst
    s, d = src[keep], dst[keep]
    if weights is None:
        fwd, back = s * max(n, 1) + d, d * max(n, 1) + s
        return int((~np.isin(back, fwd)).sum())
    w = weights[keep]
    fwd = np.rec.fromarrays([s, d, w])
    back = np.rec.fromarrays([d, s, w])
    return int((~np.isin(back, fwd)).sum())


def set_aside(path: Path, data: bytes, start: int, first_line: int, spec: BodySpec,
              arrays: tuple) -> tuple[tuple, str | None]:
    """``arrays`` with negative weights set aside (``spec.aside``): the weights all 0, and the
    note that says so, naming the file, the line of the first one, their count and the least;
    ``(arrays, None)`` when there are none or the caller replaces the weights anyway."""
    src, dst, w = arrays
    if not spec.aside or w is None or not w.shape[0] or w.min() >= 0:
        return arrays, None
    first = f"{path}: negative weight"
    try:  # the line of the first, from the line-by-line parse (stopped there: the error path)
        parse_body_slow(path, data, start, first_line,
                        dataclasses.replace(spec, negative=False, aside=False))
    except NegativeWeightError as exc:
        first = str(exc).split(";")[0]  # "<file>:<line>: negative weight <w>"
    count, least = int((w < 0).sum()), w.min().item()
    note = (f"{first} ({count:,} negative, the least {least}), set aside: the graph's "
            "weights are 0")
    return (src, dst, np.zeros_like(w)), note



def ints(text: bytes, count: int) -> list[int] | None:
    """The ``count`` non-negative integers of ``text``, None when it is anything else."""
    tokens = text.split()
    if len(tokens) != count or not all(t.isdigit() for t in tokens):
        return None
    return [int(t) for t in tokens]


def weight_kind(meta: dict[str, str]) -> str:
    """The weight dtype an ``llpbench:`` comment states, for :class:`BodySpec`."""
    return {"int64": "int", "float64": "float"}.get(meta.get("weights", ""), "infer")


def llpbench_meta(path: Path, lineno: int, line: bytes, mark: bytes) -> dict[str, str]:
    """``key=value`` pairs of an llpbench comment line (``c llpbench: n=5 directed=false``)."""
    body = line.strip()[len(mark) :].strip()
    if not body.startswith(b"llpbench:"):
        return {}
    out = {}
    for item in body[len(b"llpbench:") :].split():
        key, _, value = item.decode("ascii", "replace").partition("=")
        ok = (
            (key == "n" and value.isdigit())
            or (key == "directed" and value in ("true", "false"))
            or (key == "weights" and value in ("int64", "float64"))
        )
        if not ok:
            raise FormatError(
                path,
                lineno,
                "'n=<int>', 'directed=<true|false>' or 'weights=<int64|float64>' in the "
                f"llpbench comment, found {item.decode('ascii', 'replace')!r}",
            )
        out[key] = value
    return out


def last_line(data: bytes) -> int:
    return max(1, len(data.splitlines()))


def found(line: bytes) -> str:
    return quote_line(line)
