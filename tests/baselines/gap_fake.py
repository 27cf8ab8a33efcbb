"""A stand-in GAP build for the tests (CI has no GAP): ``converter`` and ``sssp`` executables
with GAP's command line and GAP's exact output format, that really compute.

- ``converter -f G.gr -w -b G.wsg`` reads the ``a u v w`` lines of the ``.gr`` file llpbench
  wrote, as GAP's reader does (1-based ids; self-loops dropped, the lightest of parallel
  arcs kept), writes them to the "serialized" file as plain ``u v w`` lines, and prints its
  sizes in GAP's words.
- ``sssp -f G.wsg -n N [-r S] [-d Δ] [-v] [-a]`` runs Dijkstra from ``S`` on that file, in
  plain Python (a process starts in 40 ms, not the 0.5 s of importing scipy, and the tests
  start dozens); ``-a`` prints the vertices it reached, ``-v`` checks Dijkstra against
  Bellman-Ford
  (``FAKE_GAP_VERDICT=FAIL`` forces a failure). Its ``Trial Time`` is not a clock but
  :func:`trial_time`, a known function of Δ and ``OMP_NUM_THREADS`` (fastest at
  :data:`BEST` [threads]); the first trial of a process is :data:`COLD` seconds slower, so a
  test can tell which trial a row reports. ``FAKE_GAP_REACH_OFFSET`` shifts the reached count
  (a wrong answer); ``FAKE_GAP_LOG`` names a file that gets one line per run (its arguments).
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

BEST = {1: 4, 2: 16}  # the Δ at which the fake is fastest, by thread count
COLD = 0.5  # extra seconds of each process's first trial


def trial_time(delta: int, threads: int) -> float:
    """The fake's trial time (5 decimals, as GAP prints it)."""
    best = BEST.get(threads, 8)
    return round(0.001 * (1 + abs(math.log2(delta) - math.log2(best))), 5)


_CONVERTER = r'''
import sys
args = sys.argv[1:]
src, out = args[args.index("-f") + 1], args[args.index("-b") + 1]
arcs = {}
top = -1
for line in open(src):
    if line.startswith("a"):
        _, u, v, w = line.split()
        u, v, w = int(u) - 1, int(v) - 1, int(w)
        top = max(top, u, v)
        if u != v:
            arcs[u, v] = min(w, arcs.get((u, v), w))
with open(out, "w") as fh:
    fh.write(f"{top + 1}\n")
    fh.writelines(f"{u} {v} {w}\n" for (u, v), w in sorted(arcs.items()))
print("Read Time:           0.00100")
print("Build Time:          0.00100")
print(f"Graph has {top + 1} nodes and {len(arcs)} directed edges for degree: 1")
'''

_SSSP = r'''
import heapq, math, os, sys
sys.path.insert(0, {here!r})
from gap_fake import COLD, trial_time
args = sys.argv[1:]
if os.environ.get("FAKE_GAP_LOG"):
    with open(os.environ["FAKE_GAP_LOG"], "a") as fh:
        fh.write(" ".join(args) + "\n")
path = args[args.index("-f") + 1]
if not os.path.exists(path):
    print(f"Couldn't open file {{path}}")
    sys.exit(250)
def opt(flag, default):
    return int(args[args.index(flag) + 1]) if flag in args else default
trials, source, delta = opt("-n", 16), opt("-r", 0), opt("-d", 1)
threads = int(os.environ.get("OMP_NUM_THREADS", "1"))
lines = open(path).read().split("\n")
n = int(lines[0])
arcs = [tuple(int(x) for x in ln.split()) for ln in lines[1:] if ln]
out = [[] for _ in range(n)]
for u, v, w in arcs:
    out[u].append((v, w))
def dijkstra(s):
    dist = [math.inf] * n
    dist[s] = 0
    heap = [(0, s)]
    while heap:
        d, u = heapq.heappop(heap)
        if d == dist[u]:
            for v, w in out[u]:
                if d + w < dist[v]:
                    dist[v] = d + w
                    heapq.heappush(heap, (d + w, v))
    return dist
def bellman_ford(s):
    dist = [math.inf] * n
    dist[s] = 0
    for _ in range(n):
        changed = False
        for u, v, w in arcs:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                changed = True
        if not changed:
            break
    return dist
print("Read Time:           0.00100")
print(f"Graph has {{n}} nodes and {{len(arcs)}} directed edges for degree: 1")
offset = int(os.environ.get("FAKE_GAP_REACH_OFFSET", "0"))
for i in range(trials):
    dist = dijkstra(source)
    print(f"Trial Time:          {{trial_time(delta, threads) + (COLD if i == 0 else 0):.5f}}")
    if "-a" in args and i == trials - 1:
        print(f"SSSP Tree reaches {{sum(d < math.inf for d in dist) + offset}} nodes")
    if "-v" in args:
        same = dist == bellman_ford(source)
        verdict = os.environ.get("FAKE_GAP_VERDICT") or ("PASS" if same else "FAIL")
        print(f"Verification:           {{verdict}}")
        print("Verification Time:   0.00100")
print("Average Time:        0.00100")
'''


def write_fake_gap(folder: Path) -> Path:
    """Write the stand-in ``converter`` and ``sssp`` into ``folder``; return ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    here = str(Path(__file__).resolve().parent)
    for name, body in (("converter", _CONVERTER), ("sssp", _SSSP.format(here=here))):
        exe = folder / name
        exe.write_text(f"#!{sys.executable}\n{body}")
        exe.chmod(0o755)
    return folder


if __name__ == "__main__":  # python tests/baselines/gap_fake.py DIR: a fake build to try
    print(write_fake_gap(Path(os.path.abspath(sys.argv[1]))))
