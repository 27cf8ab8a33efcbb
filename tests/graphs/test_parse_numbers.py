"""The compiled integer pass over a big file's arc lines reads exactly what the line-by-line
parser (the reference for what is valid) reads, and gives up (None) on every line it is not
sure of, so that a file is never read otherwise."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llpbench.graphs import formats_text
from llpbench.graphs.formats import read_graph
from llpbench.graphs.formats_text import BodySpec, parse_body_slow
from llpbench.graphs.parse_numbers import parse_int_columns

SEP = st.sampled_from([" ", "  ", "\t", " \t"])
EOL = st.sampled_from(["\n", "\r\n", "\r"])
ID = st.integers(0, 10**12)
WEIGHT = st.integers(-(10**12), 10**12)


@st.composite
def bodies(draw, ncols: int, prefix: str | None, comment: str):
    """Valid arc lines of ``ncols`` integers, with blank lines, comments, mixed separators and
    line ends, leading and trailing blanks, an optional ``+``, and no final line end or one."""
    lines = []
    for _ in range(draw(st.integers(0, 30))):
        kind = draw(st.sampled_from(["arc"] * 6 + ["blank", "comment", "trailing-comment"]))
        if kind == "blank":
            lines.append(draw(st.sampled_from(["", " ", "\t"])))
            continue
        if kind == "comment":
            lines.append(f"{comment} anything 1.5 x")
            continue
        values = draw(st.lists(ID, min_size=2, max_size=2)) + [draw(WEIGHT)][: ncols - 2]
        fields = [("+" if draw(st.booleans()) and v >= 0 else "") + str(v) for v in values]
        if prefix:
            fields.insert(0, prefix)
        line = draw(st.sampled_from(["", " "])) + draw(SEP).join(fields)
        line += draw(st.sampled_from(["", " ", "\t"]))
        if kind == "trailing-comment":
            line += f"{comment} note"
        lines.append(line)
    eols = [draw(EOL) for _ in lines]
    text = "".join(line + eol for line, eol in zip(lines, eols, strict=True))
    if lines and draw(st.booleans()):
        text = text[: -len(eols[-1])]
    return text.encode()


def _reference(body: bytes, ncols: int, prefix: str | None, comment: str):
    spec = BodySpec(comment=comment.encode(), what="", weights="int" if ncols == 3 else None,
                    prefix=prefix.encode() if prefix else None, negative=True, aside=True)
    cols = parse_body_slow(Path("body"), body, 0, 1, spec)
    return [np.asarray(c, dtype=np.int64) for c in cols if c is not None]


@settings(max_examples=150, deadline=None)
@given(data=st.data(), ncols=st.sampled_from([2, 3]),
       form=st.sampled_from([(None, "%"), ("a", "c"), (None, "#")]))
def test_valid_bodies_give_the_columns_the_reference_parser_gives(data, ncols, form):
    prefix, comment = form
    body = data.draw(bodies(ncols, prefix, comment))
    pieces = data.draw(st.sampled_from([1, 2, 3, 7]))  # cut at line starts, parsed apart
    mine = parse_int_columns(body, ncols, 0, comment.encode(),
                             prefix.encode() if prefix else None, pieces=pieces)
    assert mine is not None
    theirs = _reference(body, ncols, prefix, comment)
    assert [c.tolist() for c in mine] == [c.tolist() for c in theirs]


def test_ignored_trailing_columns_are_skipped_whatever_they_hold():
    cols = parse_int_columns(b"1 2 3 1.5e9\n4 5 6 x\n", 3, 1, b"%", None)
    assert [c.tolist() for c in cols] == [[1, 4], [2, 5], [3, 6]]


@pytest.mark.parametrize("body", [
    b"1 2 3.5\n",  # a float weight: pandas' business
    b"1 2 3\n4 5\n",  # too few fields
    b"1 2 3 4\n",  # too many
    b"1 2 x\n",  # not a number
    b"1 2 3x\n",  # a number with a tail
    b"1 2 -\n",  # a sign alone
    b"1 2 1234567890123456789\n",  # 19 digits: might not fit
    b"1 2 3\n\x0c4 5 6\n",  # a form feed: whitespace to the reference, not to this pass
], ids=["float", "few", "many", "word", "tail", "sign", "19-digits", "form-feed"])
def test_a_line_it_is_not_sure_of_gives_up(body):
    assert parse_int_columns(body, 3, 0, b"%", None) is None
    # in any piece of a body cut in several
    assert parse_int_columns(b"1 2 3\n" * 50 + body, 3, 0, b"%", None, pieces=4) is None


@pytest.mark.parametrize("body", [b"a 1 2 3\n1 2 3\n", b"a 1 2 3\nab 1 2 3\n", b"a\n"],
                         ids=["missing", "glued", "alone"])
def test_a_line_without_its_prefix_gives_up(body):
    assert parse_int_columns(body, 3, 0, b"c", b"a") is None


def test_a_big_file_reads_the_same_through_the_compiled_pass(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    n, m = 500, 4000
    u, v, w = rng.integers(1, n + 1, m), rng.integers(1, n + 1, m), rng.integers(1, 100, m)
    gr = tmp_path / "g.gr"
    gr.write_text(f"c made by a test\np sp {n} {m}\n"
                  + "".join(f"a {a} {b} {c}\n" for a, b, c in zip(u, v, w, strict=True)))
    mtx = tmp_path / "g.mtx"
    mtx.write_text(f"%%MatrixMarket matrix coordinate integer general\n{n} {n} {m}\n"
                   + "".join(f"{a} {b} {c}\n" for a, b, c in zip(u, v, w, strict=True)))
    before = [read_graph(p) for p in (gr, mtx)]
    monkeypatch.setattr(formats_text, "COMPILED_PARSE_BYTES", 0)
    called = []
    real = parse_int_columns

    def spy(*args):
        called.append(args[1])
        return real(*args)

    monkeypatch.setattr("llpbench.graphs.parse_numbers.parse_int_columns", spy)
    after = [read_graph(p) for p in (gr, mtx)]
    assert called == [3, 3]
    for a, b in zip(before, after, strict=True):
        assert (a.n, a.m) == (b.n, b.m)
        assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
        assert np.array_equal(a.weights, b.weights)
