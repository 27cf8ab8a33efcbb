"""Size checks before allocation: a file's claims against its size and the machine's memory.

A graph file states its own size (a Matrix Market size line, a DIMACS ``p sp n m`` line, an
edge list's count header or ``# llpbench: n=`` comment) and the readers allocate arrays of
that size. A two-line file claiming 3e9 vertices would ask for tens of gigabytes and be
killed by the operating system with nothing printed. So every claim is checked here first,
in three steps, each of which refuses with one line naming the file, the claim and the
bytes it would need:

1. ``m`` against the lines the file can hold: its (uncompressed) size divided by the
   shortest possible data line of its format (``1 2`` and a line end for an edge list).
   A claim beyond that is a lie whatever the memory.
2. The graph's arrays against the memory bound: ``LLPBENCH_MAX_MEMORY`` (or
   ``--max-memory``) when set, else what :func:`psutil.virtual_memory` says is available.
   The estimate (:func:`graph_bytes`) counts the CSR (``indptr``, ``indices``, weights), the
   in-edge CSR built for the verifier, and the arc lists the build sorts, with every arc
   doubled as an undirected reading stores it; it is a lower bound of the peak.
3. ``n`` against what the arcs can touch: ``m`` arcs name at most ``2m`` vertices, and a
   graph with more than :data:`ISOLATED_FACTOR` times as many (and more than
   :data:`ISOLATED_FLOOR`) vertices is almost surely a misread header. Setting a memory
   bound explicitly says the size is deliberate and lifts this step; ids (no header) are
   only held to step 2.
"""

from __future__ import annotations

import math
import os
import re

from llpbench.errors import GraphTooLargeError, SpecError

MAX_MEMORY_ENV = "LLPBENCH_MAX_MEMORY"

BYTES_PER_VERTEX = 24  # indptr of the CSR and of the in-edges, and the degree count (int64)
# A run's peak above start-up, per arc, measured by scripts/bench_big_graphs.py (docs/
# big-graphs.md): int32 heads, narrow weights, the packed int32 arcs the SSSP kernels read, the
# verifier's matrix (int32 heads, float64 weights), the solve's per-vertex arrays amortised.
BYTES_PER_ARC = 40
ISOLATED_FACTOR = 1000
ISOLATED_FLOOR = 1 << 24  # 16M vertices: 384 MB of arrays, whatever the arcs

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_bytes(text: str, what: str = "--max-memory") -> int:
    """A byte count from ``8G``, ``512M``, ``1.5T``, ``64k`` or plain ``1000000`` (powers of 1024).

    Raises
    ------
    SpecError
        Naming ``what`` and the text, for anything else or a size that is not positive.

    Examples
    --------
    >>> parse_bytes("8G")
    8589934592
    >>> parse_bytes("1.5k")
    1536
    """
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*", str(text))
    value = float(m[1]) * _UNITS[m[2].upper()] if m else math.nan
    if not math.isfinite(value) or value < 1:
        raise SpecError(f"{what}: expected a size such as 8G, 512M or 1000000, got {text!r}")
    return int(value)


def set_max_memory(text: str | None) -> None:
    """Apply ``--max-memory``: checked, then exported as ``LLPBENCH_MAX_MEMORY`` so that the
    readers (and any worker process this one starts) see the same bound."""
    if text is None:
        return
    parse_bytes(text)
    os.environ[MAX_MEMORY_ENV] = str(text).strip()


def memory_bound() -> tuple[int, bool]:
    """The bytes a graph may take, and whether the user set the bound (not just psutil's
    available memory)."""
    text = os.environ.get(MAX_MEMORY_ENV, "").strip()
    if text:
        return parse_bytes(text, MAX_MEMORY_ENV), True
    import psutil

    return int(psutil.virtual_memory().available), False


def graph_bytes(n: int, m: int) -> int:
    """The estimated bytes of a graph of ``n`` vertices read from ``m`` arc lines (each
    counted twice, as an undirected reading stores it); see the module docstring."""
    return BYTES_PER_VERTEX * (n + 1) + BYTES_PER_ARC * 2 * m


def peak_rss_bytes() -> int:
    """This process's peak resident memory so far (``getrusage``'s ``ru_maxrss``), in bytes.

    Recorded in a run's ``meta.json`` (each session's ``peak_rss_bytes``) and printed by the
    big-graph benchmark: the figure the 40-bytes-per-arc budget is checked against.
    """
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)  # Linux counts KiB


def human_bytes(count: float) -> str:
    """``12.3 GB`` (powers of 1024, as :func:`parse_bytes` reads them)."""
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if count < 1024 or unit == "TB":
            return f"{count:,.0f} bytes" if unit == "bytes" else f"{count:,.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


def check_claim(
    path: object,
    line: int | None,
    n: int,
    m: int | None,
    *,
    file_bytes: int,
    min_line: int,
    what: str = "the header claims",
    isolated: bool = True,
) -> None:
    """Refuse a claim of ``n`` vertices and ``m`` arc lines that the file or the machine
    cannot hold, before anything of that size is allocated.

    Parameters
    ----------
    path, line
        The file and the line of the claim (None when the claim is not on one line).
    n : int
        The vertices claimed (or implied by the largest id).
    m : int or None
        The arc lines claimed; None when the file does not say (then the most it can hold).
    file_bytes : int
        The file's uncompressed size.
    min_line : int
        The bytes of the shortest possible data line of the format, its line end included.
    what : str
        The message's subject (``"the size line claims"``, ``"ids up to 9 imply"``).
    isolated : bool
        Apply step 3 (False where ``n`` comes from the ids, not from a header).

    Raises
    ------
    GraphTooLargeError
        With the file, the line, the claim and the bytes it would need.

    Examples
    --------
    >>> check_claim("g.mtx", 2, 3, 2, file_bytes=80, min_line=4)  # fits: returns None
    >>> check_claim("g.mtx", 2, 3, 50, file_bytes=80, min_line=4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    llpbench.errors.GraphTooLargeError: g.mtx:2: the header claims 50 data lines but ... 20 ...
    """
    capacity = (file_bytes + 1) // max(1, min_line)  # the last line may lack its line end
    arcs = capacity if m is None else m
    need = human_bytes(graph_bytes(n, arcs))
    claim = f"{what} {n:,} vertices" if m is None else f"{what} {_lines(m)}"
    if m is not None and m > capacity:
        raise GraphTooLargeError(
            path,
            line,
            f"{claim} but the file's {file_bytes:,} bytes hold at most {capacity:,} "
            f"(a line is at least {min_line} bytes); its arrays would need {need}",
        )
    claim = f"{what} {n:,} vertices" + ("" if m is None else f" and {_lines(m)}")
    bound, explicit = memory_bound()
    if graph_bytes(n, arcs) > bound:
        source = f"the {MAX_MEMORY_ENV} bound" if explicit else "the memory available"
        raise GraphTooLargeError(
            path,
            line,
            f"{claim}: its arrays would need {need}, more than {source} "
            f"({human_bytes(bound)}); pass --max-memory SIZE to allow more",
        )
    touched = 2 * arcs
    if isolated and not explicit and n > max(ISOLATED_FLOOR, ISOLATED_FACTOR * touched):
        raise GraphTooLargeError(
            path,
            line,
            f"{claim} but its arcs touch at most {touched:,}: a misread header? "
            f"(its arrays would need {need}; pass --max-memory SIZE if it is meant)",
        )


def _lines(count: int) -> str:
    return f"{count:,} data line" + ("" if count == 1 else "s")
