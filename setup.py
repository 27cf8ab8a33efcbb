"""Packaging beyond what pyproject.toml can say: ``configs/`` and ``datasets/`` ride in the wheel.

The repository keeps its configuration files in ``configs/`` and its embedded real graphs in
``datasets/``, beside the package, where users and docs look for them. A wheel has no
"beside": so these two folders are shipped as data-only packages, ``llpbench.configs`` and
``llpbench.datasets``, mapped onto the repository's folders (``llpbench.paths`` finds them
there once installed). Only the listed files travel: the download cache that shares
``datasets/`` in a checkout stays out.
"""

from setuptools import find_packages, setup

BESIDE = {"llpbench.configs": "configs", "llpbench.datasets": "datasets"}

setup(
    packages=find_packages(include=["llpbench", "llpbench.*"]) + list(BESIDE),
    package_dir=BESIDE,
    package_data={
        "llpbench.configs": ["*.toml"],
        "llpbench.datasets": ["*.mtx.xz", "*.txt.xz", "README.md"],
    },
)
