"""Benchmark (not a test): nanoseconds per pop-and-push of each worklist at one thread, beside
a bare ring of the same storage, in one process.

Each loop pops one ``(key, item)`` and pushes it back with its key raised by 3 (levels of
width 64 advance every ~21 pops), the steady state of the worklist solver, ``--ops`` times;
compilation is excluded. A worklist's own cost is its time minus the bare ring's.

    python scripts/bench_worklist_ops.py [--ops 2000000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time

from numba import njit

from llpbench.llp.counters import new_counters
from llpbench.llp.worklists import WORKLISTS
from llpbench.llp.worklists.storage import Stores, ring_pop, ring_push


@njit(nogil=True)
def _bare_ring(meta, n):
    for i in range(64):
        ring_push(meta, 0, i, i)
    acc = 0
    for _ in range(n):
        _, key, item = ring_pop(meta, 0)
        acc += item
        ring_push(meta, 0, key + 3, item)
    return acc


def _loop_for(module):
    """A compiled pop-and-push loop over ``module``'s push and pop (bound at compile time)."""
    push, pop = module.push, module.pop

    @njit(nogil=True)
    def loop(wl, n, ctr):
        for i in range(64):
            push(wl, 0, i, i, ctr)
        acc = 0
        for _ in range(n):
            _, key, item = pop(wl, 0, ctr)
            acc += item
            push(wl, 0, key + 3, item, ctr)
        return acc

    return loop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=2_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    row = new_counters(1)[0]
    results = {}

    def bare() -> float:
        stores = Stores(1, 256)
        t0 = time.perf_counter()
        _bare_ring(stores.meta, args.ops)
        return time.perf_counter() - t0

    warm = Stores(1, 256)  # kept alive across the call: the stores own the memory
    _bare_ring(warm.meta, 100)
    warm.close()
    results["bare ring"] = [bare() for _ in range(args.repeats)]
    for name, path in WORKLISTS.items():
        module = importlib.import_module(path)
        loop = _loop_for(module)
        wl, owner = module.create(1000, 1, 64)
        loop(wl, 100, row.ctypes.data)  # compile
        owner.close()
        times = []
        for _ in range(args.repeats):
            wl, owner = module.create(1000, 1, 64)
            t0 = time.perf_counter()
            loop(wl, args.ops, row.ctypes.data)
            times.append(time.perf_counter() - t0)
            owner.close()
        results[name] = times
    for name, times in results.items():
        print(f"{name:10s} {statistics.median(times) / args.ops * 1e9:6.1f} ns per pop+push "
              f"(fastest {min(times) / args.ops * 1e9:.1f})")


if __name__ == "__main__":
    main()
