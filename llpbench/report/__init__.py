"""llpbench.report: the paper's tables and figures, drawn from the results store only.

- :mod:`llpbench.report.store`: find a run (``results/latest``), load and check ``runs.csv``.
- :mod:`llpbench.report.tables`: Table 1 (datasets), Table 2 (speedup), overhead, problems.
- :mod:`llpbench.report.figures`: Figure 5 (scaling) and Figure 6 (worklists).
- :func:`write_all_reports`: everything that applies to one run (``llpbench reproduce``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["write_all_reports"]


def write_all_reports(
    run_dir: str | os.PathLike[str],
    *,
    echo: Callable[[str], None] = print,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[Path]:
    """Write every table and figure that applies to the run; see :mod:`llpbench.report.all`."""
    # Imported here: pandas and matplotlib are heavy, and `llpbench --help` needs neither.
    from llpbench.report.all import write_all_reports as write_all

    return write_all(run_dir, echo=echo, cache_dir=cache_dir)
