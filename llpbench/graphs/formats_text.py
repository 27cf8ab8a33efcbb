"""Low-level text machinery behind :mod:`llpbench.graphs.formats`.

Every reader splits its file into a short header, scanned line by line in Python, and a body of
arc lines, parsed in one call to pandas' C tokenizer (no Python loop per line). When that fast
parse fails, or its vectorised checks find anything wrong, the body is parsed again line by line
by :func:`parse_body_slow`, which is the single source of truth for what is valid: it either
returns the same arrays or raises the error that names the first offending line. Valid files
never take the slow path, so large files load at I/O speed.

Also here: reading (possibly compressed) bytes and the atomic writer used by every file we create.
A trailing ``.gz``, ``.xz`` or ``.bz2`` names the codec (all three from the standard library);
the repository's embedded real graphs are ``.xz``, which is half the size of gzip for them.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import math
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from llpbench.errors import FormatError, NegativeWeightError
from llpbench.io import atomic_file

_EOL = re.compile(rb"\r\n?|\n")
#: Integer bodies at least this long are parsed by the compiled pass
#: (:mod:`llpbench.graphs.parse_numbers`); shorter ones by pandas, without importing numba.
COMPILED_PARSE_BYTES = 8 << 20
_INT = re.compile(rb"[+-]?[0-9]+\Z")



# suffix -> (codec name, decompress, compress)
_CODECS = {
    ".gz": ("gzip", gzip.decompress, lambda data: gzip.compress(data, compresslevel=6, mtime=0)),
    ".xz": ("xz", lzma.decompress, lzma.compress),
    ".bz2": ("bzip2", bz2.decompress, bz2.compress),
}
COMPRESSED_SUFFIXES = tuple(_CODECS)


def suffix_of(path: Path) -> str:
    """The format suffix, looking through a trailing ``.gz``, ``.xz`` or ``.bz2``."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in _CODECS:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def read_bytes(path: Path) -> bytes:
    """The file's bytes, decompressed when its name ends in ``.gz``, ``.xz`` or ``.bz2``.

    Raises
    ------
    FormatError
        ``cannot read: <reason>`` when the file is missing, unreadable or not valid for the
        codec its suffix names.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FormatError(path, None, f"cannot read: {exc.strerror or exc}") from exc
    codec = _CODECS.get(path.suffix.lower())
    if codec is not None:
        try:
            data = codec[1](data)
        except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
            why = f"cannot read: not a valid {codec[0]} file ({exc})"
            raise FormatError(path, None, why) from exc
    check_text(path, data)
    return data


def check_text(path: Path, data: bytes) -> None:
    """Refuse what no text graph format can be: an empty file, and binary data (a NUL byte
    in the first 8000 bytes, git's test), named as such instead of echoing its bytes."""
    if not data.strip():
        what = "0 bytes" if not data else "only blank lines"
        raise FormatError(path, 1, f"a graph, found an empty file ({what})")
    nul = data.find(b"\0", 0, 8000)
    if nul >= 0:
        raise FormatError(
            path, None, f"a text graph file, found binary data (a NUL byte at offset {nul})"
        )


def iter_lines(data: bytes, start: int = 0, lineno: int = 1) -> Iterator[tuple[int, bytes, int]]:
    """Yield ``(line number, line without terminator, offset of the next line)`` from ``start``.

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``, like :meth:`bytes.splitlines`. Meant for
    headers: it is a Python loop.
    """
    pos, end = start, len(data)
    while pos < end:
        match = _EOL.search(data, pos)
        stop, nxt = (match.start(), match.end()) if match else (end, end)
        yield lineno, data[pos:stop], nxt
        pos, lineno = nxt, lineno + 1


@dataclass(frozen=True)
class BodySpec:
    """What one arc line of a format holds.

    ``prefix`` is a leading token every line must carry (``a`` in DIMACS); ``base`` is the
    first vertex id (1 for Matrix Market and DIMACS); ``n`` bounds ids when the header declares
    it; ``weights`` is None (pattern), ``"int"``, ``"float"`` or ``"infer"`` (int unless a
    token is not an integer); ``expected`` is the arc count the header promises, declared on
    ``declared_on``; ``what`` describes a valid line for error messages; ``ignored`` trailing
    columns every line carries are skipped (KONECT's timestamps).
    """

    comment: bytes
    what: str
    weights: str | None
    prefix: bytes | None = None
    base: int = 0
    n: int | None = None
    expected: int | None = None
    declared_on: int | None = None
    ignored: int = 0
    negative: bool = False  # weights the caller replaces: negative ones are no error
    aside: bool = False  # negative file weights kept as parsed, for the reader to set aside


Arrays = tuple[np.ndarray, np.ndarray, np.ndarray | None]


def parse_body(path: Path, data: bytes, start: int, first_line: int, spec: BodySpec) -> Arrays:
    """Parse the arc lines from byte ``start`` (line ``first_line``) to the end of ``data``.

    Returns 0-based ``(src, dst, weights)`` as int64 arrays (weights int64 or float64, None for
    pattern files). Raises :class:`FormatError` or :class:`NegativeWeightError` naming the line.
    """
    src, dst, w = _parse_body_fast(data[start:], spec) or parse_body_slow(
        path, data, start, first_line, spec
    )
    if spec.negative and not spec.aside and w is not None and w.shape[0] and w.min() < 0:
        w = np.zeros_like(w)  # placeholders: the caller replaces these weights (a rule, counts)
    return src, dst, w


def _parse_body_fast(body: bytes, spec: BodySpec) -> Arrays | None:
    ncols = 2 + (spec.weights is not None) + spec.ignored
    cols = None
    if len(body) >= COMPILED_PARSE_BYTES and spec.weights != "float":  # big, integers: compiled
        from llpbench.graphs.parse_numbers import parse_int_columns

        cols = parse_int_columns(body, ncols - spec.ignored, spec.ignored, spec.comment,
                                 spec.prefix)
    if cols is None:
        cols = _pandas_columns(body, spec, ncols)
    if cols is None:
        return None
    return _checked(cols, spec)


def _pandas_columns(body: bytes, spec: BodySpec, ncols: int) -> list[np.ndarray] | None:
    """The body's columns by pandas' C tokenizer (any number: floats too), or None."""
    import pandas as pd

    nrows_prefixed = None
    if spec.prefix is not None:
        # Blank the prefix out; every occurrence of its byte must be a line's prefix.
        p = spec.prefix
        nrows_prefixed = sum(
            body.count(b"%s%s%s" % (eol, p, ws)) for eol in (b"\n", b"\r") for ws in (b" ", b"\t")
        )
        nrows_prefixed += body.startswith((p + b" ", p + b"\t"))
        if body.count(p) != nrows_prefixed:
            return None
        body = body.replace(p, b" ")
    try:
        frame = pd.read_csv(
            io.BytesIO(body),
            sep=r"\s+",
            header=None,
            engine="c",
            comment=spec.comment.decode(),
            na_filter=False,
            skip_blank_lines=True,
        )
    except pd.errors.EmptyDataError:
        frame = None
    except Exception:  # any tokenizer complaint: let the slow path name the line
        return None
    if frame is None:
        cols = [np.empty(0, np.int64)] * ncols
    else:
        if frame.shape[1] != ncols:
            return None
        cols = [frame[c].to_numpy() for c in frame.columns[: ncols - spec.ignored]]
    if nrows_prefixed is not None and nrows_prefixed != cols[0].shape[0]:
        return None
    return cols


def _checked(cols: list[np.ndarray], spec: BodySpec) -> Arrays | None:
    """The vectorised checks of a fast parse: the declared count, integer ids within bounds,
    weights of the declared kind; None sends the body to the line-by-line parser."""
    if spec.expected is not None and cols[0].shape[0] != spec.expected:
        return None
    src, dst = cols[0], cols[1]
    if src.dtype != np.int64 or dst.dtype != np.int64:
        return None
    if src.shape[0]:
        if min(src.min(), dst.min()) < spec.base:
            return None
        if spec.n is not None and max(src.max(), dst.max()) >= spec.n + spec.base:
            return None
    weights = None
    if spec.weights is not None:
        weights = cols[2]
        kind = weights.dtype.kind
        if kind != "i" and (kind != "f" or spec.weights == "int"):
            return None
        if spec.weights == "float":
            weights = weights.astype(np.float64)
        if kind == "f" and not np.isfinite(weights).all():
            return None
        if not spec.negative and weights.shape[0] and weights.min() < 0:
            return None
    if spec.base:  # in place where the columns are the parse's own (no copy of every id)
        src, dst = (np.subtract(a, spec.base, out=a) if a.flags.writeable else a - spec.base
                    for a in (src, dst))
    return src, dst, weights


def _number(token: bytes, integer: bool) -> int | float | None:
    if _INT.match(token):
        return int(token)
    if integer or b"_" in token:
        return None
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def parse_body_slow(path: Path, data: bytes, start: int, first_line: int, spec: BodySpec) -> Arrays:
    """Line-by-line twin of the fast parse: the reference for validity and error messages."""
    ntok = 2 + (spec.weights is not None) + (spec.prefix is not None) + spec.ignored
    off = spec.prefix is not None
    src: list[int] = []
    dst: list[int] = []
    wts: list[int | float] = []
    hi = None if spec.n is None else spec.n + spec.base - 1
    lineno = first_line - 1
    for lineno, raw in enumerate(data[start:].splitlines(), start=first_line):
        line = raw.split(spec.comment, 1)[0]
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) != ntok or (off and tokens[0] != spec.prefix):
            raise FormatError(path, lineno, f"{spec.what}, found {quote_line(raw)}")
        u, v = _number(tokens[off], True), _number(tokens[off + 1], True)
        if u is None or v is None:
            raise FormatError(path, lineno, f"integer ids in {spec.what}, found {quote_line(raw)}")
        for x in (u, v):
            if x < spec.base or (hi is not None and x > hi):
                bound = f"{spec.base}..{hi}" if hi is not None else f">= {spec.base}"
                raise FormatError(path, lineno, f"a vertex id in {bound}, found {x}")
        if spec.weights is not None:
            w = _number(tokens[off + 2], spec.weights == "int")
            if w is None:
                kind = "an integer" if spec.weights == "int" else "a finite number"
                found = quote_line(tokens[off + 2])
                raise FormatError(path, lineno, f"{kind} as weight, found {found}")
            if w < 0 and not spec.negative:
                raise NegativeWeightError(
                    f"{path}:{lineno}: negative weight {w}; shortest-path problems need "
                    "non-negative weights"
                )
            wts.append(w)
        src.append(u - spec.base)
        dst.append(v - spec.base)
        if spec.expected is not None and len(src) > spec.expected:
            raise FormatError(
                path,
                lineno,
                f"{spec.expected} data lines as declared on line {spec.declared_on}, found more",
            )
    if spec.expected is not None and len(src) != spec.expected:
        raise FormatError(
            path,
            max(lineno, 1),
            f"{spec.expected} data lines as declared on line "
            f"{spec.declared_on}, found {len(src)} at end of file",
        )
    weights = None
    if spec.weights is not None:
        floats = spec.weights == "float" or any(isinstance(w, float) for w in wts)
        dtype = np.float64 if floats else np.int64
        try:
            weights = np.array(wts, dtype=dtype)
        except OverflowError as exc:
            raise FormatError(path, None, "integer weights below 2**63") from exc
    try:
        return np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), weights
    except OverflowError as exc:
        raise FormatError(path, None, "vertex ids below 2**63") from exc


def quote_line(raw: bytes, limit: int = 40) -> str:
    """A line as an error message quotes it: ``repr`` of at most ``limit`` characters, or
    ``binary data`` when it is not printable text (raw bytes never reach the terminal)."""
    text = raw.decode("utf-8", "replace").strip()
    if not (text.replace("\t", " ").isprintable() and "\ufffd" not in text):
        return "binary data"
    return repr(text if len(text) <= limit else text[:limit] + "...")


@contextlib.contextmanager
def atomic_open(path: Path) -> Iterator[BinaryIO]:
    """Open a temporary file next to ``path`` for writing; rename it onto ``path`` on success.

    Readers never see a half-written ``path``; on any error the temporary file is removed and
    an :class:`OSError` becomes ``FormatError(path, None, "cannot write: <reason>")``.
    """
    path = Path(path)
    try:
        with atomic_file(path, "wb") as fh:
            yield fh
    except OSError as exc:
        raise FormatError(path, None, f"cannot write: {exc.strerror or exc}") from exc


def compress_for(path: Path, payload: bytes) -> bytes:
    """``payload`` as a file named ``path`` holds it: compressed when the name ends in
    ``.gz``, ``.xz`` or ``.bz2`` (the counterpart of :func:`read_bytes`). Writing it is
    :func:`atomic_open`'s (through :mod:`llpbench.io`)."""
    codec = _CODECS.get(Path(path).suffix.lower())
    return codec[2](payload) if codec is not None else payload


def arcs_text(
    src: np.ndarray, dst: np.ndarray, weights: np.ndarray | None, prefix: str | None = None
) -> bytes:
    """Arc lines ``[prefix] u v [w]`` joined by ``\\n``, formatted by pandas' C writer.

    Floats are written as Python's ``repr`` (shortest round-trip form, always with a ``.``,
    ``e`` or ``inf``), so reading them back gives the exact same float64 values and dtype.
    """
    import pandas as pd

    if src.shape[0] == 0:
        return b""
    cols: dict[str, np.ndarray] = {"u": src, "v": dst}
    if weights is not None:
        cols["w"] = weights
    text = pd.DataFrame(cols).to_csv(sep=" ", header=False, index=False, lineterminator="\n")
    if prefix is not None:
        text = f"{prefix} " + text[:-1].replace("\n", f"\n{prefix} ") + "\n"
    return text.encode("ascii")
