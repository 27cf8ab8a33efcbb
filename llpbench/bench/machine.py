"""What machine and software a run was measured on, recorded beside its results."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = ("llpbench", "numba", "llvmlite", "numpy", "scipy", "pandas", "networkx", "matplotlib")


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (or the platform's answer elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_commit(root: Path) -> str:
    """The checkout's commit (with ``-dirty`` if modified), or ``unknown`` outside git."""
    try:
        rev = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5
        )
        if rev.returncode != 0:
            return "unknown"
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
        )
        return rev.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0]}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def numba_threading() -> dict[str, Any]:
    """numba's threading facts: the prange pool size (capped at the cores) and its layer.

    llpbench's LLP workers are Python threads running ``nogil`` kernels, not numba's pool;
    this is recorded so that a reader knows the difference was not hidden.
    """
    import numba

    info: dict[str, Any] = {
        "NUMBA_NUM_THREADS": numba.config.NUMBA_NUM_THREADS,
        "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", ""),
        "workers": "Python threads calling nogil numba kernels (one OS thread each)",
    }
    try:
        info["threading_layer"] = numba.threading_layer()
    except ValueError:
        info["threading_layer"] = "not initialised (no prange used)"
    return info


def machine_info(root: Path) -> dict[str, Any]:
    """Everything about the machine a results reader needs to interpret the times."""
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "platform": platform.platform(),
        "hostname": platform.node(),
        "git_commit": git_commit(root),
        "versions": versions(),
        "numba": numba_threading(),
    }
