"""A real install: the wheel carries its configs and real graphs and runs from any folder.

The wheel is built from a copy of the source tree (so the checkout gets no ``build/``) with
the running environment's setuptools and no network, installed with ``--no-deps --no-index``
into a fresh virtual environment that sees the running environment's packages (numba, scipy,
...) through a ``.pth`` line, and run from an empty temporary folder with nothing else there:
no checkout, no ``configs/``, no ``PYTHONPATH``.
"""

from __future__ import annotations

import csv
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from llpbench.graphs.registry import load_graph
from tests.conftest import seed_tuned_delta

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "llpbench", "configs")


def _copy_source_tree(dest: Path) -> Path:
    """What a build needs, as git would give it: the package, configs and embedded graphs."""
    dest.mkdir()
    for name in SOURCES:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)
    (dest / "datasets").mkdir()
    for src in [REPO / "datasets" / "README.md", *sorted((REPO / "datasets").glob("*.xz"))]:
        shutil.copy2(src, dest / "datasets" / src.name)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("wheel")
    src = _copy_source_tree(root / "src")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-index", "--no-build-isolation",
         "-q", "-w", str(root / "dist"), str(src)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (found,) = (root / "dist").glob("llpbench-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; returns its ``bin/`` folder."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)],
        check=True, timeout=120,
    )
    py = venv / "bin" / "python"
    purelib = Path(subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip())
    # --system-site-packages reaches the base interpreter's packages; when the tests run in a
    # venv themselves, its packages (the dependencies) are reached through this line instead.
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
            *site.getsitepackages()}
    (purelib / "_llpbench_test_deps.pth").write_text("\n".join(sorted(ours)) + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index",
         "-q", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return venv / "bin"


def _clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LLPBENCH_", "NUMBA_")) and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(XDG_CACHE_HOME=str(home / "cache"), HOME=str(home), COLUMNS="200", NO_COLOR="1")
    return env


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


def test_the_wheel_carries_every_config_and_the_embedded_graphs_and_no_cache(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for toml in (REPO / "configs").glob("*.toml"):
        assert f"llpbench/configs/{toml.name}" in names
    for xz in (REPO / "datasets").glob("*.xz"):
        assert f"llpbench/datasets/{xz.name}" in names
    assert "llpbench/cli/main.py" in names and "llpbench/llp/worklists/__init__.py" in names
    assert not [n for n in names if n.endswith((".npz", ".spec.json", ".pyc"))]
    packages = {p.parent.relative_to(REPO).as_posix() for p in REPO.glob("llpbench/**/*.py")}
    assert packages <= {str(Path(n).parent) for n in names}  # no subpackage left behind


def test_installed_wheel_runs_from_an_empty_folder_and_writes_only_there(installed, tmp_path,
                                                                         tuned_delta_cache):
    purelib = installed.parent / "lib"
    before = _snapshot(purelib)
    work = tmp_path / "work"
    work.mkdir()
    env = _clean_env(tmp_path)
    # the user's cache holds the session's tuned Δ (tuned by the real command once, in
    # tests/conftest.py), so this run compiles and solves but does not tune again
    seed_tuned_delta(tmp_path / "cache" / "llpbench" / "datasets", tuned_delta_cache)
    where = subprocess.run(
        [installed / "python", "-c", "import llpbench.paths as p; print(p.config_dir())"],
        cwd=work, env=env, capture_output=True, text=True, timeout=120,
    )
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(purelib.resolve())  # the wheel's configs
    proc = subprocess.run(
        [installed / "llpbench", "run", "--graph", "kron-2e10", "--no-progress"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = (work / "results" / "latest").resolve()
    assert run.parent == (work / "results").resolve()  # ./results of the folder it ran in
    with (run / "runs.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert rows and all(r["graph"] == "kron-2e10" for r in rows)
    solves = [r for r in rows if r["kind"] != "floor"]  # the floor solves nothing to verify
    assert solves and all(r["verified"] == "True" for r in solves)
    assert _snapshot(purelib) == before, "the run wrote inside the installed environment"
    cache = tmp_path / "cache" / "llpbench"
    assert (cache / "datasets" / "kron-2e10.graph" / "meta.json").is_file()  # the user's cache
    assert any((cache / "numba").rglob("*.nbi"))  # numba's kernels, out of site-packages
    assert sorted(p.name for p in work.iterdir()) == ["results"]


def test_installed_wheel_reads_its_embedded_real_graphs(installed, tmp_path):
    code = ("from llpbench.graphs.registry import resolve, load_graph; "
            "s = resolve('delaunay-n16'); g = load_graph(s); print(s.path); print(g.n, g.m)")
    proc = subprocess.run(
        [installed / "python", "-c", code], cwd=tmp_path, env=_clean_env(tmp_path),
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    path, counts = proc.stdout.splitlines()[:2]
    assert Path(path).is_relative_to((installed.parent / "lib").resolve())
    assert Path(path).name == "delaunay_n16.mtx.xz"
    here = load_graph("delaunay-n16", cache_dir=tmp_path / "here")  # the checkout's copy
    assert tuple(map(int, counts.split())) == (here.n, here.m)
