"""llpbench: reproduce and extend the evaluation of the LLP-FW lock-free LLP runtime.

The public API is small: :class:`llpbench.graphs.Graph`, :func:`llpbench.graphs.load_graph`
and :func:`llpbench.solve`. Everything else is reached through the ``llpbench`` command.
"""

from __future__ import annotations

from llpbench import paths as _paths
from llpbench._version import __version__

_paths.keep_compiled_kernels_out_of_the_install()  # before any cache=True kernel is defined

__all__ = ["ReadOptions", "__version__", "solve"]


def __getattr__(name: str):
    # Imported lazily: numba compilation machinery is heavy and `llpbench --help` needs none.
    if name == "solve":
        from llpbench.api import solve

        return solve
    if name == "ReadOptions":
        from llpbench.graphs.read_options import ReadOptions

        return ReadOptions
    raise AttributeError(name)
