"""Where llpbench finds its configuration and keeps its data.

Three folders matter, each found the same way (an explicit argument, else an environment
variable, else a default next to the package):

- configs: ``LLPBENCH_CONFIG_DIR``, else ``./configs`` when the current directory holds a
  ``configs/datasets.toml``, else the repository's ``configs/`` beside the package.
- datasets cache: ``--cache-dir``, else ``LLPBENCH_DATA_DIR``, else ``<repo>/datasets``.
- results: ``--results-dir``, else ``LLPBENCH_RESULTS_DIR``, else ``<repo>/results``.

Relative paths written inside ``configs/*.toml`` resolve against the folder above
``configs/`` (the repository root in a checkout), never against the current directory.
"""

from __future__ import annotations

import os
from pathlib import Path

import llpbench

CONFIG_DIR_ENV = "LLPBENCH_CONFIG_DIR"
DATA_DIR_ENV = "LLPBENCH_DATA_DIR"
RESULTS_DIR_ENV = "LLPBENCH_RESULTS_DIR"
DATASETS_TOML = "datasets.toml"


def repo_root() -> Path:
    """The folder that holds the ``llpbench`` package (the repository root in a checkout)."""
    return Path(llpbench.__file__).resolve().parents[1]


def config_dir() -> Path:
    """The folder holding ``datasets.toml`` and the other configuration files."""
    env = os.environ.get(CONFIG_DIR_ENV)
    if env:
        return Path(env).expanduser().resolve()
    local = Path.cwd() / "configs"
    if (local / DATASETS_TOML).is_file():
        return local.resolve()
    beside = repo_root() / "configs"
    if (beside / DATASETS_TOML).is_file():
        return beside
    packaged = Path(llpbench.__file__).resolve().parent / "configs"  # an installed wheel
    if (packaged / DATASETS_TOML).is_file():
        return packaged
    return beside


def config_root() -> Path:
    """The folder that relative paths in the configuration files are relative to."""
    return config_dir().parent


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The datasets cache: ``override``, else ``$LLPBENCH_DATA_DIR``, else ``<repo>/datasets``."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return repo_root() / "datasets"


def results_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The results store: ``override``, else ``$LLPBENCH_RESULTS_DIR``, else ``<repo>/results``."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get(RESULTS_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return repo_root() / "results"
