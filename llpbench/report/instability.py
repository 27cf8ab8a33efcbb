"""Which cells' repetitions disagree too much to be read without care.

The repetitions of one configuration on one instance (same graph and source, same thread
count) should give nearly the same time; when they do not, the median still resists, but a
reader (and ``compare``) should know that the machine was not quiet or the configuration is
erratic. Three checks, each on one instance's repetitions, give a reason when they fire:

- **range**: max / min above :data:`MAX_OVER_MIN` (one repetition took much longer);
- **spread**: MAD / median above :data:`MAD_OVER_MEDIAN` (the bulk of them disagree);
- **first repetition**: repetition 0 differs from the others' median by more than
  :data:`FIRST_REP_RATIO` and by more than :data:`FIRST_REP_MADS` of their scaled MADs (a
  cold cache, a lazily built structure, a frequency ramp: the warm-up was not enough).

Sources are never pooled here: different sources are different amounts of work, so their
spread is not instability. A cell (problem, graph, configuration, threads) is unstable when
any of its instances is; its reasons name the instance.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from llpbench.report.stats import mad
from llpbench.report.store import timed_rows

MAX_OVER_MIN = 2.0
MAD_OVER_MEDIAN = 0.10
FIRST_REP_RATIO = 1.25
FIRST_REP_MADS = 3.5
#: 1.4826 x MAD estimates a standard deviation for normal data.
MAD_TO_SD = 1.4826

CELL = ["problem", "graph", "config", "threads"]
INSTANCE = ["source", "size", "seed"]
COLUMNS = [*CELL, "rows", "reasons"]


def instance_reasons(reps: pd.DataFrame) -> list[str]:
    """The checks one instance's repetitions fail (``seconds`` and ``rep`` columns)."""
    secs = reps.sort_values("rep")["seconds"].to_numpy(dtype=float)
    if len(secs) < 2:
        return []
    reasons = []
    low, high, med = secs.min(), secs.max(), float(np.median(secs))
    if low > 0 and high / low > MAX_OVER_MIN:
        reasons.append(f"max/min {high / low:.2f}")
    if len(secs) >= 3 and med > 0 and mad(secs) / med > MAD_OVER_MEDIAN:
        reasons.append(f"MAD {100 * mad(secs) / med:.0f}% of median")
    first = reps.loc[reps["rep"] == reps["rep"].min(), "seconds"].to_numpy(dtype=float)
    others = reps.loc[reps["rep"] != reps["rep"].min(), "seconds"].to_numpy(dtype=float)
    if reps["rep"].min() == 0 and len(first) == 1 and len(others) >= 2:
        ref = float(np.median(others))
        spread = MAD_TO_SD * mad(others)
        ratio = first[0] / ref if ref > 0 else np.inf
        far = abs(first[0] - ref) > FIRST_REP_MADS * spread
        if far and max(ratio, 1 / ratio) > FIRST_REP_RATIO:
            reasons.append(f"first repetition {ratio:.2f}x the others' median")
    return reasons


def instability_table(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per unstable cell with its reasons; ``attrs["cells"]`` counts every cell checked.

    Rows that failed verification or carry no time are not looked at (as in every table).
    """
    timed = timed_rows(runs)
    rows = []
    cells = 0
    for key, cell in timed.groupby(CELL, sort=False):
        cells += 1
        found = []
        for inst, reps in cell.groupby(INSTANCE, sort=False, dropna=False):
            reasons = instance_reasons(reps)
            if reasons:
                found.append(f"{_instance_label(inst)}: {', '.join(reasons)}")
        if found:
            more = f" (+{len(found) - 2} more instances)" if len(found) > 2 else ""
            rows.append(dict(zip(CELL, key, strict=True), rows=len(cell),
                             reasons="; ".join(found[:2]) + more))  # fmt: skip
    df = pd.DataFrame(rows, columns=COLUMNS)
    df.attrs["cells"] = cells
    df.attrs["notes"] = [
        f"{len(df)} of {cells} cells unstable: repetitions of one instance with max/min > "
        f"{MAX_OVER_MIN:g}, MAD > {MAD_OVER_MEDIAN:.0%} of the median, or a first repetition "
        f"off by > {FIRST_REP_RATIO:g}x"
    ]
    return df


def _instance_label(inst: tuple) -> str:
    source, size, seed = (None if pd.isna(v) else int(v) for v in inst)
    if source is not None and source >= 0:
        return f"source {source}"
    if size is not None and size >= 0:
        return f"size {size} seed {seed}"
    return f"seed {seed}"


def instability_note(
    runs: pd.DataFrame, cells: Iterable[tuple[str, str, str, int]] | None = None
) -> str | None:
    """One table footnote naming the unstable cells among ``cells`` (problem, graph,
    config, threads), or among all of the run's when None; None if there are none."""
    table = instability_table(runs)
    if cells is not None:
        wanted = {(p, g, c, int(t)) for p, g, c, t in cells}
        keep = [(p, g, c, int(t)) in wanted for p, g, c, t in table[CELL].itertuples(index=False)]
        table = table[keep]
    if table.empty:
        return None
    named = [
        f"{r.config} on {r.graph} ({r.problem}, {r.threads} thr): {r.reasons}"
        for r in table.head(4).itertuples(index=False)
    ]
    more = f"; and {len(table) - 4} more (see the run's summary)" if len(table) > 4 else ""
    return f"unstable, read with care: {'; '.join(named)}{more}"
