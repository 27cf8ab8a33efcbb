"""How fast a big Matrix Market or DIMACS file is read: MB/s and peak memory per arc.

Writes a graph of the registry (default ``kron-2e20``: 1 M vertices, 16.7 M arcs, integer
weights 1..255) as ``.mtx`` and ``.gr`` (and a pattern ``.mtx``, as asia_osm and
coAuthorsDBLP are) into a temporary folder, then reads each file in a fresh child process,
once by the compiled integer pass (:mod:`llpbench.graphs.parse_numbers`, the default for
bodies of 8 MB and more) and once by pandas' C tokenizer (the path below that size), and
prints the file's size, the read time (the whole ``read_graph``: bytes, parse, checks, CSR),
MB/s, and the child's peak memory above its footprint before that read, per arc. The child
reads the file twice: the first read (its time printed last) also loads the compiled code
from numba's cache and starts numba's threads, which the timed second read does not pay;
the peak is reset between the two (``/proc/self/clear_refs``).

Usage::

    python scripts/bench_read.py                  # kron-2e20
    python scripts/bench_read.py kron-2e22

A benchmark, not a test: it asserts only that both paths read the same graph.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, sys, time
from pathlib import Path
import numpy as np
from llpbench.graphs import formats_text
from llpbench.graphs.formats import read_graph

def status_kib(field):
    # VmHWM, not ru_maxrss: a child's ru_maxrss starts at its parent's (this script holds the
    # whole graph), VmHWM at its own image
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith(field + ":"))

path, how = Path(sys.argv[1]), sys.argv[2]
if how == "pandas":
    formats_text.COMPILED_PARSE_BYTES = 1 << 62
else:
    formats_text.COMPILED_PARSE_BYTES = 0
t0 = time.perf_counter()
g = read_graph(path)  # the first read: loads the compiled code, starts numba's threads
first = time.perf_counter() - t0
del g
import gc
gc.collect()
with open("/proc/self/clear_refs", "w") as fh:  # VmHWM back to VmRSS (Linux 4.0 and later)
    fh.write("5")
base = status_kib("VmRSS")
t0 = time.perf_counter()
g = read_graph(path)
seconds = time.perf_counter() - t0
import hashlib
digest = hashlib.sha256(repr((g.n, g.m)).encode() + g.indptr.tobytes() + g.indices.tobytes()
                        + np.asarray(g.weights).tobytes()).hexdigest()
peak = (status_kib("VmHWM") - base) * 1024
print(json.dumps({"s": seconds, "first": first, "peak": peak, "m": g.m, "hash": digest}))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graph", nargs="?", default="kron-2e20")
    args = ap.parse_args(argv)
    import numpy as np

    from llpbench.graphs.formats import write_graph
    from llpbench.graphs.registry import load_graph

    graph = load_graph(args.graph, progress=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = {"mtx integer": folder / "g.mtx", "gr": folder / "g.gr",
                 "mtx pattern": folder / "p.mtx"}
        write_graph(graph, files["mtx integer"])
        write_graph(graph, files["gr"])
        src, dst = graph.edges()[:2]
        with files["mtx pattern"].open("w") as fh:  # asia_osm's kind: no value column
            fh.write(f"%%MatrixMarket matrix coordinate pattern general\n"
                     f"{graph.n} {graph.n} {graph.m}\n")
            np.savetxt(fh, np.stack([src + 1, dst + 1], axis=1), fmt="%d")
        print(f"{args.graph}: n = {graph.n:,}, m = {graph.m:,} arcs")
        print(f"{'file':<12} {'MB':>8} {'path':<9} {'seconds':>8} {'MB/s':>7} {'peak B/arc':>11}"
              f" {'first read s':>13}")
        for label, path in files.items():
            mb = path.stat().st_size / 1e6
            hashes = set()
            for how in ("compiled", "pandas"):
                out = subprocess.run([sys.executable, "-c", CHILD, str(path), how],
                                     capture_output=True, text=True, check=True)
                r = json.loads(out.stdout.strip().splitlines()[-1])
                hashes.add(r["hash"])
                print(f"{label:<12} {mb:>8.1f} {how:<9} {r['s']:>8.2f} {mb / r['s']:>7.1f} "
                      f"{r['peak'] / r['m']:>11.1f} {r['first']:>13.2f}")
            assert len(hashes) == 1, f"{label}: the two paths read different graphs"
    return 0


if __name__ == "__main__":
    sys.exit(main())
