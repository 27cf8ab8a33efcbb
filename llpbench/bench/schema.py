"""The results store's tidy table: one row per timed solve, the columns below, in order.

The report reads only this table (``runs.csv`` in a run's folder) and the run's
``meta.json``; it never runs anything.
"""

from __future__ import annotations

from llpbench.llp.counters import NAMES as COUNTER_NAMES

#: The version of the columns below, recorded in a run's ``meta.json`` (``schema``). The
#: header line tells versions apart too (:func:`llpbench.report.store.load_runs` reads both):
#:
#: 1. one ``delta`` column held two quantities in two units: Δ-stepping's Δ in weight units
#:    on baseline rows, and the level worklists' bucket width in priority units (weight x
#:    2**20 for float weights) on LLP rows over ``bucketed``/``obim``.
#: 2. ``delta`` (weight units, Δ-stepping rows) and ``bucket_width`` (priority units, level
#:    worklist rows) apart; each empty on the other rows.
SCHEMA_VERSION = 2

#: Columns identifying a cell (one configuration on one instance): rows with equal values here
#: and in ``rep`` are the same measurement, which ``--resume`` never repeats.
CELL_KEY = (
    "graph",
    "problem",
    "kind",
    "solver",
    "worklist",
    "threads",
    "source",
    "size",
    "seed",
    "variant",
)

COLUMNS = (
    "graph",  # registry name, file path, or "size=N" for generated problems
    "family",  # kronecker, road, mesh, ... ("generated" for sized problems)
    "n",  # vertices (graph problems) or indices of the state (others)
    "m",  # arcs (0 for non-graph problems)
    "problem",  # sssp, bfs, stable-marriage, ...
    "kind",  # "llp", "baseline" or "floor"
    "solver",  # LLP solver (cyclic, bag, all-indices, worklist), or "baseline" (the problem's
    # default) or "baseline/NAME" (one chosen with --baseline NAME: networkit, graphblas, ...),
    # or "floor/NAME" (the problem's one-pass floor, e.g. SSSP's floor/arc-sweep, 1 thread)
    "worklist",  # swb, ptwb, ptcf, bucketed, obim, or "" when none
    "config",  # label for tables and legends: "worklist/ptwb", or the baseline's name
    # ("delta-stepping", "gale-shapley", ...)
    "threads",
    "source",  # source vertex (graph problems), -1 otherwise
    "size",  # instance size (generated problems), -1 otherwise
    "seed",  # instance seed
    "rep",  # repetition number, 0-based
    "seconds",  # the timed solve, compilation excluded
    "compile_seconds",  # compilation (or cache load) of this cell's kernels, measured apart
    "verified",  # True / False, or empty with --no-verify
    "delta",  # Δ-stepping's Δ in weight units (the baseline and peers that take one), else empty
    "bucket_width",  # the level worklists' (bucketed, obim) width in priority units: weight
    # units for integer weights, weight x 2**20 for float weights (sssp.FLOAT_PRIORITY_SCALE);
    # empty on every other row
    *COUNTER_NAMES,  # the runtime's counters (zero for baselines unless they report them)
    "reached",  # vertices with a finite answer (graph problems)
    "timestamp",  # ISO-8601 UTC time the row was written
    "reading",  # how the graph file was read (format, directed, index base, weights, self-loops,
    # merged parallel arcs), "generated" for generated graphs and problems
    "variant",  # the instance family of generated problems that have several (identical,
    # layered, signed, ...), "" for the others
    "cores",  # the machine's cores this run could use (bench.machine.core_count): threads
    # above it time-share cores (oversubscribed)
    "error",  # why the solve could not finish (work lost, a round bound, a time limit; see
    # llpbench.llp.watchdog), "" when it did; such a row has no seconds and verified False
)
