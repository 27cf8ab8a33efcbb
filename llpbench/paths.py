"""Where llpbench finds its configuration and embedded graphs, and where it writes.

llpbench runs two ways, and each folder is found so that both work with nothing beside them:

- from a **source checkout** (a clone, or ``pip install -e .``): the package sits in the
  repository, next to ``configs/``, ``datasets/`` and ``pyproject.toml``;
- from an **installed wheel** (``pip install .``, ``pip install llpbench-*.whl``): the wheel
  carries the repository's ``configs/*.toml`` as ``llpbench/configs/`` and its embedded real
  graphs (``datasets/*.xz``) as ``llpbench/datasets/`` (the mapping is in ``setup.py``), and
  nothing may be written inside site-packages, which may be read-only or shared.

Each folder is an explicit argument, else an environment variable, else a default:

- configs: ``LLPBENCH_CONFIG_DIR``, else ``./configs`` when the current directory holds a
  ``configs/datasets.toml``, else the checkout's ``configs/``, else the wheel's
  ``llpbench/configs/``. Relative paths written inside ``configs/*.toml`` resolve against the
  folder above ``configs/``, never against the current directory.
- embedded graphs (:func:`bundled_dir`, the ``bundled:NAME`` paths of ``datasets.toml``): the
  checkout's ``datasets/``, else the wheel's ``llpbench/datasets/``. Read-only.
- datasets cache: ``--cache-dir``, else ``LLPBENCH_DATA_DIR``, else the checkout's
  ``datasets/`` (as it always was), else the user's cache folder
  (``platformdirs.user_cache_dir("llpbench")``, as pooch and scikit-learn do).
- results: ``--out``, else ``LLPBENCH_RESULTS_DIR``, else ``./results`` of the current
  directory: a benchmark writes where the user stands, as pyperf, asv and hyperfine do.
- numba's compiled kernels: numba's own default (``__pycache__`` beside the sources) in a
  checkout; in an installed wheel ``NUMBA_CACHE_DIR`` when set, else ``numba/`` of the user's
  cache folder (:func:`keep_compiled_kernels_out_of_the_install`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

CONFIG_DIR_ENV = "LLPBENCH_CONFIG_DIR"
DATA_DIR_ENV = "LLPBENCH_DATA_DIR"
RESULTS_DIR_ENV = "LLPBENCH_RESULTS_DIR"
NUMBA_CACHE_ENV = "NUMBA_CACHE_DIR"
DATASETS_TOML = "datasets.toml"
APP_NAME = "llpbench"

_PACKAGE = Path(__file__).resolve().parent


def repo_root() -> Path:
    """The folder that holds the ``llpbench`` package (the repository root in a checkout,
    site-packages in an installed wheel)."""
    return _PACKAGE.parent


def checkout_root() -> Path | None:
    """The repository root when llpbench runs from a source checkout, else None."""
    root = repo_root()
    if (root / "pyproject.toml").is_file() and (root / "configs" / DATASETS_TOML).is_file():
        return root
    return None


def config_dir() -> Path:
    """The folder holding ``datasets.toml`` and the other configuration files."""
    env = os.environ.get(CONFIG_DIR_ENV)
    if env:
        return Path(env).expanduser().resolve()
    local = Path.cwd() / "configs"
    if (local / DATASETS_TOML).is_file():
        return local.resolve()
    checkout = checkout_root()
    return checkout / "configs" if checkout is not None else _PACKAGE / "configs"


def config_root() -> Path:
    """The folder that relative paths in the configuration files are relative to."""
    return config_dir().parent


def bundled_dir() -> Path:
    """The embedded real graphs: the checkout's ``datasets/``, else the wheel's copy."""
    checkout = checkout_root()
    return checkout / "datasets" if checkout is not None else _PACKAGE / "datasets"


def user_cache_dir() -> Path:
    """The user's cache folder for llpbench (``~/.cache/llpbench`` on Linux)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME))


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The datasets cache: ``override``, else ``$LLPBENCH_DATA_DIR``, else the checkout's
    ``datasets/``, else the user's cache folder."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    checkout = checkout_root()
    return checkout / "datasets" if checkout is not None else user_cache_dir() / "datasets"


def results_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The results store: ``override``, else ``$LLPBENCH_RESULTS_DIR``, else ``./results``."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get(RESULTS_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return Path.cwd() / "results"


def keep_compiled_kernels_out_of_the_install() -> None:
    """Point numba's on-disk kernel cache at the user's cache folder when installed.

    Kernels use ``cache=True``, and numba writes its cache beside the source file whenever
    that folder is writable: inside site-packages for an installed wheel. So, outside a
    checkout and unless ``NUMBA_CACHE_DIR`` is set, set it before any kernel module is
    imported (numba reads it when a cached function is defined).
    """
    if checkout_root() is not None or os.environ.get(NUMBA_CACHE_ENV):
        return
    where = str(user_cache_dir() / "numba")
    os.environ[NUMBA_CACHE_ENV] = where
    numba = sys.modules.get("numba")
    if numba is not None:  # imported before llpbench: its config was read already
        numba.config.CACHE_DIR = where
