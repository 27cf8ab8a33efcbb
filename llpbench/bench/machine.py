"""What machine and software a run was measured on, recorded beside its results.

A time means little without the machine that produced it: how many cores the run could use
(the *affinity set*, not the socket count), whether the clock could change under it (the
frequency governor), how busy the machine was before and after (load average at start and
end), and which threading layers were live (numba's, and the BLAS library's thread pool that
scipy's references use). psutil, py-cpuinfo and threadpoolctl answer most of this portably;
only the frequency governor, which none of them reads, comes from sysfs here.

Anything the machine does not expose is recorded as :data:`UNAVAILABLE`, never guessed: a
virtual machine often hides its frequency range and governor, and a reader must be able to
tell "unknown" from "zero".
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from llpbench.llp.placement import core_count

PACKAGES = (
    "llpbench", "numba", "llvmlite", "numpy", "scipy", "pandas", "matplotlib", "psutil",
    "threadpoolctl", "py-cpuinfo",
)  # fmt: skip
#: What a field holds when the machine does not expose it.
UNAVAILABLE = "unavailable"
GOVERNOR_GLOB = "cpu[0-9]*/cpufreq/scaling_governor"
CPU_SYSFS = Path("/sys/devices/system/cpu")


def _or_unavailable(value: Any) -> Any:
    return UNAVAILABLE if value is None or value == "" else value


def cpu_model() -> str:
    """The CPU's brand string (py-cpuinfo), or :data:`UNAVAILABLE`."""
    return _or_unavailable(_cpuinfo().get("brand_raw"))


_CPUINFO: dict[str, Any] | None = None


def _cpuinfo() -> dict[str, Any]:
    """py-cpuinfo's answer, asked once per process (it starts a subprocess: about a second)."""
    global _CPUINFO
    if _CPUINFO is None:
        try:
            import cpuinfo

            _CPUINFO = dict(cpuinfo.get_cpu_info())
        except Exception:  # py-cpuinfo fails on unknown platforms: the fields stay unavailable
            _CPUINFO = {}
    return _CPUINFO


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
        "configured_layer": numba.config.THREADING_LAYER,
        "workers": "Python threads calling nogil numba kernels (one OS thread each)",
    }
    try:
        info["threading_layer"] = numba.threading_layer()
    except ValueError:
        info["threading_layer"] = "not initialised (no prange used)"
    return info


def affinity() -> list[int] | str:
    """The CPUs this process may run on (what ``taskset``/cgroups left it), sorted."""
    import psutil

    try:
        return sorted(psutil.Process().cpu_affinity())
    except (AttributeError, OSError, psutil.Error):  # macOS has no affinity API
        return UNAVAILABLE


def frequency() -> dict[str, Any]:
    """Current, minimum and maximum clock in MHz; 0 (what VMs report) counts as unavailable."""
    import psutil

    try:
        freq = psutil.cpu_freq()
    except (OSError, NotImplementedError, psutil.Error):
        freq = None
    if freq is None:
        return {"current_mhz": UNAVAILABLE, "min_mhz": UNAVAILABLE, "max_mhz": UNAVAILABLE}
    return {
        f"{name}_mhz": round(float(value), 1) if value else UNAVAILABLE
        for name, value in (("current", freq.current), ("min", freq.min), ("max", freq.max))
    }


def governors(sysfs: Path = CPU_SYSFS) -> dict[str, list[int]] | str:
    """The cpufreq scaling governor of each CPU, grouped: ``{"performance": [0, 1]}``.

    Read from sysfs, because psutil, py-cpuinfo and threadpoolctl do not report it; a
    machine without cpufreq (most VMs, containers without /sys) gives :data:`UNAVAILABLE`.
    """
    found: dict[str, list[int]] = {}
    for path in sorted(sysfs.glob(GOVERNOR_GLOB)):
        try:
            name = path.read_text().strip()
            cpu = int(path.parent.parent.name[3:])
        except (OSError, ValueError):
            continue
        found.setdefault(name, []).append(cpu)
    return {k: sorted(v) for k, v in found.items()} or UNAVAILABLE


def load_average() -> list[float] | str:
    """The 1, 5 and 15 minute load averages (runnable threads, all processes)."""
    import psutil

    try:
        return [round(x, 2) for x in psutil.getloadavg()]
    except (OSError, AttributeError, psutil.Error):
        return UNAVAILABLE


def memory() -> dict[str, Any]:
    import psutil

    try:
        vm = psutil.virtual_memory()
    except (OSError, psutil.Error):
        return {"total_bytes": UNAVAILABLE, "available_bytes": UNAVAILABLE}
    return {"total_bytes": int(vm.total), "available_bytes": int(vm.available)}


def blas_threads() -> list[dict[str, Any]] | str:
    """The native BLAS and OpenMP thread pools loaded in this process, from threadpoolctl.

    scipy's references and numpy run in them; their size says whether a reference could
    have competed with the timed workers for cores.
    """
    import numpy  # noqa: F401  (loads the BLAS library threadpoolctl inspects)
    import scipy.sparse.csgraph  # noqa: F401
    from threadpoolctl import threadpool_info

    pools = [
        {
            "user_api": p.get("user_api"),
            "library": p.get("internal_api"),
            "version": _or_unavailable(p.get("version")),
            "num_threads": p.get("num_threads"),
            "threading_layer": _or_unavailable(p.get("threading_layer")),
        }
        for p in threadpool_info()
        # BLAS and OpenMP only: scipy.io's Matrix Market pool (user_api "scipy", once
        # scipy.io was imported) reads files, never competes with a timed solve, and reports
        # its version as a function
        if p.get("user_api") in ("blas", "openmp")
    ]
    pools.sort(key=lambda p: tuple(str(v) for v in p.values()))  # load order is not a fact
    return pools or UNAVAILABLE


def machine_info(root: Path) -> dict[str, Any]:
    """Everything about the machine a results reader needs to interpret the times.

    ``load_average`` holds ``start`` here; the session adds ``end`` when the run stops
    (:func:`finish_machine_info`).
    """
    import psutil

    info = _cpuinfo()
    logical = psutil.cpu_count(logical=True)
    allowed = affinity()
    return {
        "cpu_model": cpu_model(),
        "cpu_arch": _or_unavailable(info.get("arch_string_raw")),
        "cpu_vendor": _or_unavailable(info.get("vendor_id_raw")),
        "l2_cache_bytes": _or_unavailable(info.get("l2_cache_size")),
        "l3_cache_bytes": _or_unavailable(info.get("l3_cache_size")),
        "cores": logical if logical else UNAVAILABLE,  # kept: older runs' readers use it
        "logical_cores": logical if logical else UNAVAILABLE,
        "physical_cores": _or_unavailable(psutil.cpu_count(logical=False)),
        "core_count": core_count(),  # the thread count above which a run is oversubscribed
        "affinity": allowed,
        "affinity_count": len(allowed) if isinstance(allowed, list) else UNAVAILABLE,
        "frequency": frequency(),
        "governor": governors(),
        "load_average": {"start": load_average(), "end": UNAVAILABLE},
        "memory": memory(),
        "platform": platform.platform(),
        "hostname": platform.node(),
        "git_commit": git_commit(root),
        "versions": versions(),
        "numba": numba_threading(),
        "blas": blas_threads(),
    }


def finish_machine_info(machine: dict[str, Any]) -> dict[str, Any]:
    """The record with the load average at the end of the run filled in."""
    loads = dict(machine.get("load_average") or {})
    loads["end"] = load_average()
    return {**machine, "load_average": loads}


#: Fields that describe the machine itself (not the moment): what ``compare`` sets side by
#: side, as dotted paths into the record.
STABLE_FIELDS = (
    "cpu_model", "cpu_arch", "logical_cores", "physical_cores", "core_count", "affinity",
    "frequency.max_mhz", "governor", "memory.total_bytes", "platform", "hostname",
    "numba.threading_layer",
    "numba.NUMBA_NUM_THREADS", "blas", "versions.python", "versions.numba", "versions.numpy",
    "versions.scipy",
)  # fmt: skip
