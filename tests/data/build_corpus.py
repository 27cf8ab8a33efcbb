"""Write the built files of the reading corpus (the GAP files are copied, not built).

Run from the repository root: ``python tests/data/build_corpus.py``. Deterministic (fixed
seeds); each file follows the header lines its format's documentation gives (SNAP's
``# Directed graph ...`` / ``# Nodes: N Edges: E`` comments as on snap.stanford.edu, KONECT's
``% <sym|asym> <weights>`` and ``% <lines> <n> <n>`` lines as in konect.cc's handbook, Matrix
Market's banner and size line). ``manifest.toml`` states the truth of each file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def _edges(rng, n: int, m: int) -> list[tuple[int, int]]:
    """m distinct undirected pairs u < v on 0..n-1, a path through all of them first."""
    pairs = {(i, i + 1) for i in range(n - 1)}
    while len(pairs) < m:
        u, v = sorted(rng.integers(0, n, 2).tolist())
        if u != v:
            pairs.add((u, v))
    return sorted(pairs)


def ca_grqc_like() -> None:
    """SNAP ca-GrQc's shape: a count line '5242 28980', label ids up to 26196, each edge
    listed both ways under a 'Directed graph' comment."""
    rng = np.random.default_rng(5242)
    n, edges = 5242, 14490
    labels = np.sort(rng.choice(26197, size=n, replace=False))
    labels[-1] = 26196
    lines = []
    for u, v in _edges(rng, n, edges):
        a, b = labels[u], labels[v]
        lines += [f"{a}\t{b}", f"{b}\t{a}"]
    order = rng.permutation(len(lines))
    body = "\n".join(lines[i] for i in order)
    (HERE / "ca-grqc-like.txt").write_text(f"{n} {len(lines)}\n{body}\n")


def ca_grqc_snap_like() -> None:
    """SNAP ca-GrQc's own comment lines ('Directed graph (each unordered pair of nodes is
    saved once)', 'Nodes: N Edges: E' counting lines) on label ids, each edge both ways."""
    rng = np.random.default_rng(26196)
    n = 60
    labels = np.sort(rng.choice(26197, size=n, replace=False))
    pairs = _edges(rng, n, 90)
    lines = [f"{labels[a]}\t{labels[b]}" for u, v in pairs for a, b in ((u, v), (v, u))]
    head = (
        "# Directed graph (each unordered pair of nodes is saved once): CA-GrQc-like.txt\n"
        "# Collaboration network of Arxiv General Relativity category (there is an edge if "
        "authors coauthored at least one paper)\n"
        f"# Nodes: {n} Edges: {len(lines)}\n"
        "# FromNodeId\tToNodeId\n"
    )
    (HERE / "ca-grqc-snap-like.txt").write_text(head + "\n".join(lines) + "\n")


def enron_like() -> None:
    """SNAP Email-Enron's comments ('Directed graph', 'Nodes: N Edges: E', each edge both
    ways) on a copy missing vertex 0's two lines: ids 1..N-1 with Nodes: N."""
    rng = np.random.default_rng(36692)
    n = 40
    pairs = [p for p in _edges(rng, n, 70) if 0 not in p]
    lines = [f"{a}\t{b}" for u, v in pairs for a, b in ((u, v), (v, u))]
    head = (
        "# Directed graph (each unordered pair of nodes is saved once): Email-Enron-like.txt\n"
        "# Enron email network (edge indicated that email was exchanged, undirected edges)\n"
        f"# Nodes: {n} Edges: {len(lines) + 2}\n"
        "# FromNodeId\tToNodeId\n"
    )
    (HERE / "email-enron-like.txt").write_text(head + "\n".join(lines) + "\n")


def snap_undirected() -> None:
    """SNAP's com-* shape: 'Undirected graph', each edge once, 0-based."""
    rng = np.random.default_rng(7)
    n = 30
    pairs = _edges(rng, n, 45)
    head = (
        "# Undirected graph: ../../data/output/small.ungraph.txt\n"
        "# A small community network\n"
        f"# Nodes: {n} Edges: {len(pairs)}\n"
        "# FromNodeId\tToNodeId\n"
    )
    body = "\n".join(f"{u}\t{v}" for u, v in pairs)
    (HERE / "com-small.ungraph.txt").write_text(head + body + "\n")


def konect_files() -> None:
    """KONECT: 'asym positive' (multiple edges, 'u v 1 t'), 'sym unweighted' (2 columns)
    and 'sym posweighted' ('u v w'); ids 1-based."""
    rng = np.random.default_rng(82927)
    n = 25
    arcs = [(int(u), int(v)) for u, v in rng.integers(1, n + 1, size=(90, 2))]
    arcs += [(1, 2), (1, 2), (3, 3)]  # a repeated message and one to oneself
    t0 = 1138206644
    body = "\n".join(f"{u} {v} 1 {t0 + 37 * i}" for i, (u, v) in enumerate(arcs))
    head = f"% asym positive\n% {len(arcs)} {n} {n}\n"
    (HERE / "out.radoslaw-like").write_text(head + body + "\n")
    pairs = [(u + 1, v + 1) for u, v in _edges(rng, 20, 32)]
    body = "\n".join(f"{u}\t{v}" for u, v in pairs)
    (HERE / "out.dolphins-like").write_text(f"% sym unweighted\n% {len(pairs)} 20 20\n{body}\n")
    pairs = [(u + 1, v + 1) for u, v in _edges(rng, 18, 30)]
    body = "\n".join(
        f"{u} {v} {int(w)}" for (u, v), w in zip(pairs, rng.integers(1, 9, 30), strict=True)
    )
    (HERE / "out.weighted-like").write_text(f"% sym posweighted\n% {len(pairs)} 18 18\n{body}\n")


def plain_lists() -> None:
    """A 1-based headerless list with duplicates and self-loops; a 3-column list with no
    header; a bounded count header over 1-based ids."""
    rng = np.random.default_rng(11)
    arcs = [(int(u), int(v)) for u, v in rng.integers(1, 16, size=(40, 2))]
    arcs[0] = (1, 2)
    arcs += [(4, 4), (4, 4), (7, 7), (5, 6), (5, 6)]
    (HERE / "one-based.txt").write_text("\n".join(f"{u} {v}" for u, v in arcs) + "\n")
    arcs = [
        (int(u), int(v), int(w))
        for u, v, w in zip(
            rng.integers(0, 12, 30), rng.integers(0, 12, 30), rng.integers(1, 50, 30), strict=True
        )
    ]
    arcs[0] = (0, 1, 5)
    (HERE / "three-columns.txt").write_text("\n".join(f"{u} {v} {w}" for u, v, w in arcs) + "\n")
    arcs = [(i, i + 1) for i in range(1, 9)] + [(9, 1), (3, 7)]
    body = "\n".join(f"{u} {v}" for u, v in arcs)
    (HERE / "header-bounded.txt").write_text(f"9 {len(arcs)}\n{body}\n")


def matrix_market() -> None:
    """Symmetric Matrix Market files, lower triangle stored: real weights and pattern."""
    rng = np.random.default_rng(3)
    n = 16
    pairs = _edges(rng, n, 28)
    rows = [(v + 1, u + 1) for u, v in pairs] + [(5, 5)]
    vals = rng.uniform(0.5, 4.0, len(rows))
    body = "\n".join(f"{r} {c} {w:.4f}" for (r, c), w in zip(rows, vals, strict=True))
    head = "%%MatrixMarket matrix coordinate real symmetric\n% built for llpbench's corpus\n"
    (HERE / "real-symmetric.mtx").write_text(f"{head}{n} {n} {len(rows)}\n{body}\n")
    body = "\n".join(f"{r} {c}" for r, c in rows)
    head = "%%MatrixMarket matrix coordinate pattern symmetric\n"
    (HERE / "pattern-symmetric.mtx").write_text(f"{head}{n} {n} {len(rows)}\n{body}\n")


if __name__ == "__main__":
    ca_grqc_like()
    ca_grqc_snap_like()
    enron_like()
    snap_undirected()
    konect_files()
    plain_lists()
    matrix_market()
