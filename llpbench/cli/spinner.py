"""A spinner on stderr naming the set-up phase that runs (:mod:`llpbench.phases`): what
``llpbench solve`` and ``datasets info`` show while a big graph is read, generated or
checked, outside a sweep's progress bar. rich draws it on a terminal only (transient: it
leaves no line behind), so piped output and error lines stay as they are."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from rich.console import Console
from rich.status import Status

from llpbench.phases import shown_by


@contextlib.contextmanager
def phase_spinner(enabled: bool = True) -> Iterator[None]:
    """Show each phase that starts inside the block, with a spinner, until it ends."""
    if not enabled:
        yield
        return
    console = Console(stderr=True)
    status: list[Status] = []

    def show(label: str | None) -> None:
        if label is None:
            while status:
                status.pop().stop()
        elif status:
            status[0].update(label)
        else:
            status.append(console.status(label))
            status[0].start()

    with shown_by(show):
        try:
            yield
        finally:
            show(None)
