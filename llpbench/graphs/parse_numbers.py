"""The arc lines of a big text graph file parsed in one compiled pass: integers only.

pandas' C tokenizer (the fast path of :mod:`llpbench.graphs.formats_text`) reads a Matrix
Market or DIMACS body at about 40-60 MB/s here, and builds a frame of every column before
numpy sees it. The paper's real files are integer-only (asia_osm and coAuthorsDBLP are
pattern matrices, GAP's ``.gr`` files carry integer weights), and a file of them runs to
hundreds of megabytes, so this pass reads such a body straight into the int64 columns: one
loop over the bytes, no per-line Python.

It accepts exactly the lines it is sure of and gives up (returns None) on anything else, a
float, a stray character, a line with another number of fields, a number of more than 18
digits: the caller then takes the pandas path, and the line-by-line parser names the
offending line. So it can only make a valid file faster, never read a file otherwise. The
same checks as the pandas path (ids within bounds, the declared count, negative weights) run
after it, in :func:`llpbench.graphs.formats_text.parse_body`.

Used for bodies of at least
:data:`~llpbench.graphs.formats_text.COMPILED_PARSE_BYTES`, so that reading a small file
does not import numba (a bad small file is refused before the compiler loads).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

_SPACE, _TAB, _LF, _CR = 32, 9, 10, 13
_MINUS, _PLUS, _ZERO, _NINE = 45, 43, 48, 57


@njit(cache=True, nogil=True, inline="always")
def _ends_token(c, comment):
    return c == _SPACE or c == _TAB or c == _LF or c == _CR or c == comment


@njit(cache=True, nogil=True)
def _parse(buf, out, ncols, ignored, comment, prefix):
    """Fill the rows of ``out`` (ncols x capacity) from ``buf``; the number of rows, or -1
    where a line is not ``[prefix] int{ncols} token{ignored}`` (blank lines skipped, and
    comments as pandas skips them: a comment byte anywhere ends its line)."""
    n = buf.shape[0]
    i = 0
    row = 0
    while i < n:
        k = 0  # fields read on this line, the prefix not counted
        started = False
        while True:
            while i < n and (buf[i] == _SPACE or buf[i] == _TAB):
                i += 1
            if i >= n or buf[i] == _LF or buf[i] == _CR or buf[i] == comment:
                break
            if prefix >= 0 and not started:
                if buf[i] != prefix:
                    return -1  # a line without the prefix every line carries
                i += 1
                if i < n and not _ends_token(buf[i], comment):
                    return -1
                started = True
                continue
            started = True
            if k < ncols:
                neg = False
                if buf[i] == _MINUS or buf[i] == _PLUS:
                    neg = buf[i] == _MINUS
                    i += 1
                start = i
                value = 0
                while i < n and _ZERO <= buf[i] <= _NINE:
                    value = value * 10 + (buf[i] - _ZERO)
                    i += 1
                digits = i - start
                if digits == 0 or digits > 18 or (i < n and not _ends_token(buf[i], comment)):
                    return -1  # not an integer this pass is sure of
                out[k, row] = -value if neg else value
            elif k < ncols + ignored:
                while i < n and not _ends_token(buf[i], comment):
                    i += 1
            else:
                return -1  # more fields than the format's
            k += 1
        if started:
            if k != ncols + ignored:
                return -1  # fewer fields than the format's
            row += 1
        # to the start of the next line: past a comment, then one end of line
        while i < n and buf[i] != _LF and buf[i] != _CR:
            i += 1
        if i < n and buf[i] == _CR:
            i += 1
            if i < n and buf[i] == _LF:
                i += 1
        elif i < n:
            i += 1
    return row


@njit(cache=True, nogil=True)
def _line_ends(buf):
    """The line ends in ``buf`` (``\r\n`` once): the rows a piece ending at a line end can
    hold at most."""
    ends = 0
    n = buf.shape[0]
    for i in range(n):
        if buf[i] == _LF or (buf[i] == _CR and (i + 1 == n or buf[i + 1] != _LF)):
            ends += 1
    return ends


@njit(cache=True, parallel=True)
def _capacities(buf, cuts):
    caps = np.zeros(cuts.shape[0] - 1, np.int64)
    for p in prange(cuts.shape[0] - 1):
        caps[p] = _line_ends(buf[cuts[p]:cuts[p + 1]])
    caps[-1] += 1  # a last line without an end
    return caps


@njit(cache=True, parallel=True)
def _parse_pieces(buf, cuts, base, out, ncols, ignored, comment, prefix):
    """:func:`_parse` of each piece ``buf[cuts[p]:cuts[p + 1]]`` into ``out``'s columns from
    ``base[p]`` on, on every core; the rows of each piece (-1: a line it is not sure of)."""
    rows = np.zeros(cuts.shape[0] - 1, np.int64)
    for p in prange(cuts.shape[0] - 1):
        rows[p] = _parse(buf[cuts[p]:cuts[p + 1]], out[:, base[p]:base[p + 1]], ncols,
                         ignored, comment, prefix)
    return rows


def _cuts(body: bytes, pieces: int) -> np.ndarray:
    """Piece bounds just after a ``\n`` (a line start, never inside a ``\r\n``), about
    equal in size; fewer pieces where lines are too long or ended by lone ``\r``."""
    cuts = [0]
    for p in range(1, pieces):
        at = body.find(b"\n", max(len(body) * p // pieces, cuts[-1]))
        if at < 0:
            break
        if at + 1 > cuts[-1]:
            cuts.append(at + 1)
    if cuts[-1] != len(body) or len(cuts) == 1:
        cuts.append(len(body))
    return np.asarray(cuts, dtype=np.int64)


def parse_int_columns(body: bytes, ncols: int, ignored: int, comment: bytes,
                      prefix: bytes | None, pieces: int | None = None) -> list[np.ndarray] | None:
    """The ``ncols`` integer columns of ``body``'s lines (int64), or None where a line is not
    one this pass is sure of (the caller then parses it another way).

    The body is cut at line starts into ``pieces`` (default: twice numba's threads), parsed
    on every core, each piece into its own range of rows; the ranges are closed up where
    comments or blank lines left them short (a clean file's are full)."""
    import numba

    buf = np.frombuffer(body, dtype=np.uint8)
    cuts = _cuts(body, max(1, pieces or 2 * numba.get_num_threads()))
    caps = _capacities(buf, cuts)
    base = np.zeros(caps.shape[0] + 1, np.int64)
    np.cumsum(caps, out=base[1:])
    out = np.empty((ncols, int(base[-1])), dtype=np.int64)
    rows = _parse_pieces(buf, cuts, base, out, ncols, ignored, comment[0] if comment else -1,
                         prefix[0] if prefix else -1)
    if (rows < 0).any():
        return None
    put = int(rows[0])
    for p in range(1, rows.shape[0]):  # close the gaps, in order: moves only go down
        if base[p] != put:
            out[:, put:put + rows[p]] = out[:, base[p]:base[p] + rows[p]]
        put += int(rows[p])
    return [out[c, :put] for c in range(ncols)]  # each a contiguous row of ``out``: no copy
