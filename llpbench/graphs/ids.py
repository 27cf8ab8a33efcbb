"""The ids a graph file writes, and the internal ids 0..n-1 every kernel uses: one mapping.

A user speaks the file's ids: ``a 1 2 5`` in a DIMACS file is vertex 1, not 0. The readers
renumber to 0..n-1 (the CSR needs it), so every place an id crosses the boundary (``--source``,
the lines of ``solve -o``, the ``source`` column of ``runs.csv``, ``datasets info``) converts
through the one :class:`FileIds` the reader attached to the graph (``Graph.file_ids``), and
they all convert the same way. Generated graphs have no file: their ids are the internal ones
(``Graph.file_ids`` is None, read as :data:`IDENTITY`).

Two shapes cover every reading: an *offset* (the file is 1-based: file vertex ``v`` is
internal ``v - 1``), or *labels* (the ids that occur were renumbered 0..k-1 in increasing
order, by ``--compact-ids`` or because a count states fewer vertices than the ids reach:
internal ``i`` is file vertex ``labels[i]``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from llpbench.errors import SpecError

__all__ = ["IDENTITY", "FileIds"]


@dataclass(frozen=True, eq=False)
class FileIds:
    """How internal vertex ``i`` (0..n-1) is named in the graph's file.

    Parameters
    ----------
    offset : int
        Internal ``i`` is file id ``i + offset`` (1 for 1-based files), unless ``labels``.
    labels : int64 array, optional
        Sorted file ids: internal ``i`` is file id ``labels[i]``.
    how : str
        The mapping in words, for ``datasets info`` and the header of an answer file.

    Examples
    --------
    >>> ids = FileIds(offset=1, how="1-based")
    >>> ids.to_file(np.array([0, 2])).tolist(), ids.to_internal(3, 10)
    ([1, 3], 2)
    """

    offset: int = 0
    labels: np.ndarray | None = None
    how: str = "the file's ids are the internal ids 0..n-1"

    def __post_init__(self) -> None:
        if self.labels is not None:
            labels = np.ascontiguousarray(self.labels, dtype=np.int64)
            labels.setflags(write=False)
            object.__setattr__(self, "labels", labels)

    @property
    def is_identity(self) -> bool:
        return self.labels is None and self.offset == 0

    def to_file(self, internal: np.ndarray | int) -> np.ndarray | int:
        """The file's id of each internal vertex (an int for an int)."""
        if self.labels is not None:
            out = self.labels[internal]
        else:
            out = np.asarray(internal, dtype=np.int64) + self.offset
        return int(out) if np.ndim(out) == 0 else out

    def to_internal(self, file_id: int, n: int, *, what: str = "--source",
                    where: str = "the graph") -> int:
        """The internal vertex of the file's id ``file_id``.

        Raises
        ------
        SpecError
            Naming ``what`` (the flag), ``where`` (the file) and the ids the file has.
        """
        file_id = int(file_id)
        if self.labels is not None:
            i = int(np.searchsorted(self.labels, file_id))
            if i < self.labels.shape[0] and self.labels[i] == file_id:
                return i
            lo, hi = (int(self.labels[0]), int(self.labels[-1])) if n else (0, -1)
            raise SpecError(
                f"{what} {file_id} is not a vertex id of {where}: its {n:,} ids are labels "
                f"from {lo} to {hi} ({self.how})"
            )
        i = file_id - self.offset
        if 0 <= i < n:
            return i
        raise SpecError(
            f"{what} {file_id} is not a vertex of {where}: its ids are "
            f"{self.offset}..{n - 1 + self.offset} ({self.how})"
        )

    def range_text(self, n: int) -> str:
        """``1..3,353`` or ``labels 3..26,196``: the ids a user may give."""
        if n == 0:
            return "none"
        if self.labels is not None:
            return f"{n:,} labels from {int(self.labels[0]):,} to {int(self.labels[-1]):,}"
        return f"{self.offset:,}..{n - 1 + self.offset:,}"

    def compose(self, kept: np.ndarray, why: str) -> FileIds:
        """The mapping after renumbering: new internal ``j`` is old internal ``kept[j]``."""
        labels = np.asarray(self.to_file(np.asarray(kept, dtype=np.int64)), dtype=np.int64)
        return FileIds(labels=labels, how=f"renumbered in increasing order ({why}): internal "
                       "i is the i-th smallest file id that occurs")

    def arrays(self) -> dict[str, np.ndarray]:
        """The mapping as arrays for the ``.npz`` cache (see :meth:`from_arrays`)."""
        out = {"file_ids_offset": np.array(self.offset), "file_ids_how": np.array(self.how)}
        if self.labels is not None:
            out["file_ids_labels"] = self.labels
        return out

    @classmethod
    def from_arrays(cls, arrays) -> FileIds | None:
        """The mapping stored by :meth:`arrays`, or None when the cache holds none."""
        if "file_ids_offset" not in arrays:
            return None
        labels = arrays["file_ids_labels"] if "file_ids_labels" in arrays else None
        return cls(int(arrays["file_ids_offset"]), labels, str(arrays["file_ids_how"][()]))


#: The mapping of a graph with no file: ids are the internal ids.
IDENTITY = FileIds(how="no file: ids are the internal ids 0..n-1")


def one_based(why: str) -> FileIds:
    """The mapping of a 1-based file (Matrix Market, DIMACS, KONECT, a 1-based edge list)."""
    return FileIds(offset=1, how=f"1-based ({why}): file vertex v is internal v-1")


def zero_based(why: str) -> FileIds:
    """The mapping of a 0-based file: the file's ids are the internal ones."""
    return FileIds(offset=0, how=f"0-based ({why}): file vertex v is internal v")
