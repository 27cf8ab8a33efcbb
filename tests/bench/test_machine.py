"""The machine record: every field the machine exposes, the rest "unavailable", never made up."""

from __future__ import annotations

import os
from collections import namedtuple

import psutil

from llpbench import paths
from llpbench.bench import machine as M

FIELDS = (
    "cpu_model", "logical_cores", "physical_cores", "affinity", "frequency", "governor",
    "load_average", "memory", "numba", "blas", "versions", "git_commit",
)  # fmt: skip


def test_record_holds_every_field_with_the_machines_own_answers():
    info = M.machine_info(paths.repo_root())
    for key in FIELDS:
        assert key in info, key
    assert info["logical_cores"] == psutil.cpu_count(logical=True) == os.cpu_count()
    assert info["affinity"] == sorted(os.sched_getaffinity(0))
    assert info["affinity_count"] == len(os.sched_getaffinity(0))
    assert info["memory"]["total_bytes"] == psutil.virtual_memory().total
    assert len(info["load_average"]["start"]) == 3
    assert info["load_average"]["end"] == M.UNAVAILABLE  # filled when the run ends
    assert M.finish_machine_info(info)["load_average"]["end"] != M.UNAVAILABLE
    assert "threading_layer" in info["numba"] and "configured_layer" in info["numba"]
    assert info["blas"] == M.UNAVAILABLE or all(p["num_threads"] >= 1 for p in info["blas"])
    for name in ("psutil", "threadpoolctl", "py-cpuinfo"):
        assert info["versions"][name] != "not installed"


def test_governor_is_read_from_sysfs_or_unavailable(tmp_path):
    for cpu, gov in ((0, "performance"), (1, "performance"), (2, "powersave")):
        d = tmp_path / f"cpu{cpu}" / "cpufreq"
        d.mkdir(parents=True)
        (d / "scaling_governor").write_text(gov + "\n")
    assert M.governors(tmp_path) == {"performance": [0, 1], "powersave": [2]}
    assert M.governors(tmp_path / "nothing-here") == M.UNAVAILABLE


def test_governor_matches_this_machine():
    files = sorted(M.CPU_SYSFS.glob(M.GOVERNOR_GLOB))
    found = M.governors()
    if files:
        assert set(found) == {f.read_text().strip() for f in files}
    else:
        assert found == M.UNAVAILABLE


def test_frequency_zero_or_missing_is_unavailable_not_zero(monkeypatch):
    freq = namedtuple("scpufreq", "current min max")
    monkeypatch.setattr(psutil, "cpu_freq", lambda: freq(2596.1, 0.0, 0.0))
    assert M.frequency() == {"current_mhz": 2596.1, "min_mhz": M.UNAVAILABLE,
                             "max_mhz": M.UNAVAILABLE}  # fmt: skip
    monkeypatch.setattr(psutil, "cpu_freq", lambda: None)
    assert set(M.frequency().values()) == {M.UNAVAILABLE}


def test_physical_cores_psutil_cannot_tell_are_unavailable(monkeypatch):
    real = psutil.cpu_count
    monkeypatch.setattr(psutil, "cpu_count", lambda logical=True: real() if logical else None)
    assert M.machine_info(paths.repo_root())["physical_cores"] == M.UNAVAILABLE
