"""Named phases of the work outside the timed solves, for whatever shows progress.

Reading a 12 M-vertex file, generating a 2^24-vertex graph, building the verifier's matrix
or the reference answer each take seconds to minutes at the sizes people run, and a sweep's
bar showing only the next cell's name looks stuck meanwhile. The code that does such work
names it (``with phase("kron-2e22: the reference answer"): ...``); a display that wants to
show it listens (:func:`shown_by`), and the sweep's progress bar
(:mod:`llpbench.bench.session`) and ``llpbench solve`` and ``datasets info`` (a spinner)
show the current phase with its elapsed time, refreshed by rich's own thread while the
phase runs. Nothing listens by default: a phase is then a no-op, and this module imports
nothing, so any floor may name its phases.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

__all__ = ["phase", "shown_by"]

#: Listeners: called with a phase's label when it starts and with None when it ends.
_LISTENERS: list[Callable[[str | None], None]] = []
_LOCK = threading.Lock()
_STACK = threading.local()


@contextlib.contextmanager
def phase(label: str) -> Iterator[None]:
    """Tell the listeners that ``label`` runs until the block ends (nested phases: the
    innermost is shown, then the outer one again)."""
    stack = _stack()
    stack.append(label)
    _tell(label)
    try:
        yield
    finally:
        stack.pop()
        _tell(stack[-1] if stack else None)


@contextlib.contextmanager
def shown_by(listener: Callable[[str | None], None]) -> Iterator[None]:
    """Call ``listener`` with each phase's label as it starts (None when none runs) while
    the block runs."""
    with _LOCK:
        _LISTENERS.append(listener)
    try:
        yield
    finally:
        with _LOCK:
            _LISTENERS.remove(listener)


def _stack() -> list[str]:
    if not hasattr(_STACK, "labels"):
        _STACK.labels = []
    return _STACK.labels


def _tell(label: str | None) -> None:
    with _LOCK:
        listeners = list(_LISTENERS)
    for listener in listeners:
        listener(label)
