"""Error types whose messages name the input that caused them.

Every error a user can provoke (a malformed file, an unknown graph name, a bad thread
spec, a negative weight) is an :class:`LlpbenchError`; the CLI prints its message on one
line and exits non-zero, never with a traceback.
"""

from __future__ import annotations


class LlpbenchError(Exception):
    """Base class: a problem with the user's input or environment, reported in one line."""

    exit_code = 2


class FormatError(LlpbenchError):
    """A graph file does not follow its format; the message names file, line and expectation."""

    def __init__(self, path: object, line: int | None, expected: str) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {expected}")
        self.path = path
        self.line = line


class GraphTooLargeError(FormatError):
    """A file claims more vertices or arcs than it can hold or the machine's memory allows;
    raised before anything of that size is allocated (see :mod:`llpbench.graphs.limits`)."""


class NegativeWeightError(LlpbenchError):
    """A weight below zero: LLP shortest paths (and Dijkstra) need non-negative weights."""


class UnknownNameError(LlpbenchError):
    """A graph, solver, worklist or problem name that is not registered."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        import difflib

        close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
        if close:
            hint = f"; did you mean {', '.join(close)}?"
        elif 0 < len(known) <= 12:  # a short list is the most useful answer
            hint = f"; known: {', '.join(known)}"
        else:
            hint = ""
        super().__init__(f"unknown {kind} {name!r}{hint}")
        self.name = name


class DownloadError(LlpbenchError):
    """A dataset could not be fetched or failed its checksum."""


class SpecError(LlpbenchError):
    """A sweep specification (threads, sources, config file) that cannot be understood."""


class VerificationError(LlpbenchError):
    """A solver's answer differs from the independent reference."""

    exit_code = 3


class SolveFailedError(LlpbenchError):
    """A solve that could not finish: its worklist lost work, it broke the round bound its
    lattice implies, or it ran past its time limit (:mod:`llpbench.llp.watchdog`). The
    message names the problem, solver, worklist and threads."""

    exit_code = 4


#: How a sweep's list of failures starts the line of a solve that raised SolveFailedError.
NOT_FINISHED = "did not finish"


class ReadingWarning(UserWarning):
    """A graph file read under an assumption the file does not settle; names the deciding flag."""


class StoreWarning(UserWarning):
    """A results store read around a flaw it can survive (a torn last row); names the file."""


class RegressionError(LlpbenchError):
    """``compare --fail-if-slower``: a later run is significantly slower than allowed."""

    exit_code = 1
