"""What an edge-list file states about itself in its comments, and how it is checked.

SNAP and KONECT files carry their own description in comment lines: SNAP writes
``# Nodes: 36692 Edges: 367662`` (the edge count is the number of lines that follow), KONECT
writes a first line ``% <sym|asym|bip> <weights>`` and a second line ``% <lines> <n> [<n>]``.
These statements are the only ground truth a reader has beyond the arcs, so the edge-list
reader (:mod:`.formats`) uses them for the index base and the vertex count and checks every one
against what it read: a count that disagrees becomes a warning that says which way it
disagrees (fewer lines than stated is a partial copy; more is something else).

KONECT's weight tags (its handbook, "Edge weights"): ``unweighted``, ``positive`` (multiple
edges: the third column counts them) and ``dynamic`` carry no weights; ``posweighted``,
``weighted``, ``multiweighted``, ``multiposweighted``, ``signed`` and ``multisigned`` do.
A fourth column, where present, is a timestamp and is ignored. KONECT ids are 1-based.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KONECT_FORMATS = ("sym", "asym", "bip")
KONECT_WEIGHTED = ("posweighted", "weighted", "multiweighted", "multiposweighted", "signed",
                   "multisigned")
KONECT_UNWEIGHTED = ("unweighted", "positive", "dynamic", "multiunweighted")


@dataclass(frozen=True)
class Claims:
    """The counts and kinds an edge list's comments state (None where they are silent).

    ``n`` and ``m`` are the stated vertex count and number of edge lines, ``where`` names the
    statement (``"the comment 'Nodes: 5242'"``); ``konect`` is the KONECT format tag
    (``sym``/``asym``/``bip``) and ``konect_weights`` its weight tag.
    """

    n: int | None = None
    m: int | None = None
    where: str = ""
    konect: str | None = None
    konect_weights: str | None = None

    @property
    def konect_weighted(self) -> bool | None:
        """Whether a KONECT header says the third column is a weight (None: no KONECT tag)."""
        if self.konect_weights is None:
            return None
        return self.konect_weights in KONECT_WEIGHTED


def claims_of(comments: list[str], mark: bytes) -> Claims:
    """The :class:`Claims` of an edge list's comment lines (text after the comment mark)."""
    n = m = konect = kweights = None
    where = ""
    if mark == b"%" and comments:
        first = comments[0].split()
        if len(first) >= 2 and first[0] in KONECT_FORMATS:
            konect, kweights = first[0], first[1]
            counts = comments[1].split() if len(comments) > 1 else []
            if 2 <= len(counts) <= 3 and all(t.isdigit() for t in counts):
                m, n = int(counts[0]), int(counts[1])
                if konect == "bip" and len(counts) == 3:
                    n = int(counts[1]) + int(counts[2])
                where = f"the KONECT line '% {' '.join(counts)}'"
    text = " ".join(comments)
    nodes = re.search(r"\bNodes:\s*(\d+)", text)
    edges = re.search(r"\bEdges:\s*(\d+)", text)
    if nodes or edges:
        n = int(nodes.group(1)) if nodes else n
        m = int(edges.group(1)) if edges else m
        parts = [x.group(0) for x in (nodes, edges) if x]
        where = f"the comment '{' '.join(parts)}'"
    return Claims(n=n, m=m, where=where, konect=konect, konect_weights=kweights)


def line_count_note(path: object, claims: Claims, lines: int) -> str | None:
    """A warning when the stated number of edge lines is not the number read, else None.

    Fewer lines than stated suggests a partial copy; more suggests lines were added, or that
    the statement counts something else (edges where each is listed twice)."""
    if claims.m is None or claims.m == lines:
        return None
    if lines < claims.m:
        return (
            f"{path}: {claims.where} says {claims.m} edges but the file has {lines} edge lines "
            "(a partial copy?)"
        )
    return (
        f"{path}: {claims.where} says {claims.m} edges but the file has {lines} edge lines, "
        "more than stated (lines added, or the statement counts something else)"
    )
