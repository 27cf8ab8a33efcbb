"""The generated-kernel directory is shared by every checkout under one home: code that
differs must never read another's numba cache, and an unreadable cache is a miss.

Each run is a fresh process, as two checkouts (or CI beside a developer's tree) are. The
two "checkouts" are two folders holding a module of the same name, ``dprob``, whose second
version passes its kernel a NamedTuple: numba's index pickles the signature, and the first
version has no such type to unpickle.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numba

TEMPLATE = '''
from numba import njit

import dprob as PROBLEM  # LLP-BIND


@njit(cache=True)
def run(x):
    return PROBLEM.value(x)
'''

PLAIN = '''
import numpy as np
from numba import njit


def make():
    return (np.arange(4),)


@njit(cache=True, inline="always")
def value(x):
    return x[0].sum()
'''

WITH_TYPE = '''
from typing import NamedTuple

import numpy as np
from numba import njit


class Arrays(NamedTuple):
    a: np.ndarray


def make():
    return Arrays(np.arange(4) * 10)


@njit(cache=True, inline="always")
def value(x):
    return x.a.sum()
'''

SCRIPT = '''
from llpbench.llp.compile import bind
from llpbench.llp.launch import compile_kernel
import dprob

m = bind("dtemplate", "dprob")
args = (dprob.make(),)
_, hits = compile_kernel(m.run, args)
print(m.run(*args), hits)
'''


def _checkout(root: Path, problem: str) -> Path:
    root.mkdir()
    (root / "dtemplate.py").write_text(textwrap.dedent(TEMPLATE))
    (root / "dprob.py").write_text(textwrap.dedent(problem))
    return root


def _run(checkout: Path, kernels: Path) -> tuple[int, int]:
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "LLPBENCH_KERNEL_DIR": str(kernels),
           "PYTHONPATH": os.pathsep.join([str(checkout), str(repo)])}
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                         text=True, timeout=300, cwd=checkout)
    assert out.returncode == 0, out.stderr
    value, hits = out.stdout.split()
    return int(value), int(hits)


def _missing_type_pickle() -> bytes:
    fake = types.ModuleType("dprob")
    gone = type("Gone", (), {"__module__": "dprob"})
    fake.Gone = gone
    saved = sys.modules.get("dprob")
    sys.modules["dprob"] = fake
    try:
        return pickle.dumps(((0.0, 0), {(gone,): "x"}), protocol=-1)
    finally:
        if saved is None:
            del sys.modules["dprob"]
        else:
            sys.modules["dprob"] = saved


def test_two_checkouts_differing_in_a_problem_share_one_kernel_dir(tmp_path):
    kernels = tmp_path / "kernels"
    plain = _checkout(tmp_path / "a", PLAIN)
    typed = _checkout(tmp_path / "b", WITH_TYPE)
    assert _run(plain, kernels) == (6, 0)
    assert _run(typed, kernels) == (60, 0)
    # Each finds its own compiled code again, whatever ran in between.
    assert _run(plain, kernels) == (6, 1)
    assert _run(typed, kernels) == (60, 1)
    assert len(list(kernels.glob("dtemplate__dprob_*.py"))) == 2


def test_an_index_that_cannot_be_unpickled_is_a_cache_miss(tmp_path):
    kernels = tmp_path / "kernels"
    plain = _checkout(tmp_path / "a", PLAIN)
    assert _run(plain, kernels) == (6, 0)
    (index,) = kernels.glob("__pycache__/dtemplate__dprob_*.run-*.nbi")
    # numba's version header, then an index whose signatures name a type ``dprob`` lacks:
    # what an index written by other code under this file name reads like.
    index.write_bytes(pickle.dumps(numba.__version__, protocol=-1) + _missing_type_pickle())
    assert _run(plain, kernels) == (6, 0)
    assert _run(plain, kernels) == (6, 1)
