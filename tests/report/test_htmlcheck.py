"""The well-formedness checker the report tests rely on: it must catch what it claims to."""

from __future__ import annotations

import pytest

from tests.report.htmlcheck import html_errors, read_dom

GOOD = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>t</title></head>
<body><a href="#s">s</a><section id="s"><p>x<br></p>
<svg viewBox="0 0 1 1"><defs><clipPath id="c"><rect width="1" height="1"/></clipPath></defs>
<path d="M0 0" clip-path="url(#c)"/></svg></section></body></html>"""


def test_a_good_page_passes():
    assert html_errors(GOOD) == []


@pytest.mark.parametrize(
    "old, new, expected",
    [
        ("<p>x<br></p>", "<p>x<div>y</p>", "closes <div>"),
        ('id="s"', 'id="c"', "duplicate id 'c'"),
        ("<br>", '<img src="https://example.org/x.png">', "fetches a resource"),
        ("<!DOCTYPE html>\n", "", "expected one <!DOCTYPE html>"),
        ("<br>", "<div/>", "self-closed outside SVG"),
        ('href="#s"', 'href="#nowhere"', "link to #nowhere: no such id"),
        ("url(#c)", "url(#gone)", "link to #gone: no such id"),
        ('<meta charset="utf-8">', "", 'no <meta charset="utf-8">'),
        ("</section>", "", "closes <section>"),
        ("<title>t</title>", "", "expected one <title>, found 0"),
        ('<a href="#s">', '<a href="#s" href="#s">', "attribute 'href' twice"),
    ],
)
def test_each_fault_is_reported(old, new, expected):
    assert old in GOOD
    errors = html_errors(GOOD.replace(old, new, 1))
    assert any(expected in e for e in errors), errors


def test_reader_finds_tables_figures_and_banners():
    page = ('<body data-x="1"><div class="banner warn" data-level="warn">careful</div>'
            '<table data-table="t"><thead><tr><th data-col="a">A</th><th data-col="b">B</th>'
            '</tr></thead><tbody><tr class="flag"><td data-sort="0.5">500</td><td>x</td></tr>'
            "</tbody></table><figure data-figure=\"f\"><svg><g><path/></g></svg></figure>"
            '<ul class="k"><li>one</li><li>two</li></ul></body>')
    dom = read_dom(page)
    table = dom.tables["t"]
    assert table.columns == ["a", "b"] and table.rows == [["500", "x"]]
    assert table.values("a") == ["0.5"] and table.classes == ["flag"]
    assert dom.figures == {"f": 3} and dom.banners == [("warn", "careful")]
    assert dom.lists["k"] == ["one", "two"] and dom.body == {"data-x": "1"}
