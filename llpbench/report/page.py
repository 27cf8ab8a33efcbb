"""The pieces of a self-contained HTML page: escaped text, sortable tables, inline SVG figures.

A report is read where it was copied to, often offline (a CI artifact, an e-mail attachment),
so a page carries everything: the style sheet and the table-sorting script are inline, every
figure is inline SVG (text kept as ``<text>``, not glyph outlines, so the page stays small and
its words can be searched), and nothing is fetched from the network.

Tables keep their numbers: every numeric cell holds its raw value in ``data-sort`` (seconds,
not the milliseconds shown), so sorting is numeric and a test can read the exact value back.
An ``X_ci_low``/``X_ci_high`` pair becomes one ``95% CI`` column, sorted by its low end.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

CI_LOW, CI_HIGH = "_ci_low", "_ci_high"
#: Text longer than this wraps in its cell; shorter text (names, numbers) never does.
LONG_TEXT = 48
#: Label columns left out of a table when every row has the same value (said in a note).
FOLDED = ("problem", "variant")

STYLE = """
:root { --fg:#1d232b; --muted:#5a6470; --line:#d5dae0; --bad:#b3261e; --warn:#8a5a00;
        --ok:#1b6e3a; --bg-bad:#fde8e6; --bg-warn:#fff4d6; --bg-ok:#e7f5ec; --bg-info:#eef3fa; }
* { box-sizing: border-box; }
body { font: 15px/1.45 "DejaVu Sans", system-ui, sans-serif; color: var(--fg); margin: 0 auto;
       max-width: 1500px; padding: 0 1.2em 3em; }
h1 { font-size: 1.6em; margin: .8em 0 .1em; } h2 { border-bottom: 2px solid var(--line);
     margin-top: 1.8em; padding-bottom: .2em; } h3 { margin: 1.2em 0 .3em; }
.sub, .muted { color: var(--muted); } nav a { margin-right: 1em; }
.banner { border-radius: 6px; padding: .6em .9em; margin: .5em 0; font-weight: 600; }
.banner.error { background: var(--bg-bad); color: var(--bad); }
.banner.warn { background: var(--bg-warn); color: var(--warn); }
.banner.ok { background: var(--bg-ok); color: var(--ok); }
.banner.info { background: var(--bg-info); font-weight: 400; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .4em 0; font-size: .9em; }
th, td { border-bottom: 1px solid var(--line); padding: .25em .6em; text-align: left;
         vertical-align: top; white-space: nowrap; }
td.long { white-space: normal; min-width: 28em; }
th { background: #f4f6f8; white-space: nowrap; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \\2195"; color: #9aa3ad; }
table.sortable th[aria-sort=ascending]::after { content: " \\2191"; color: var(--fg); }
table.sortable th[aria-sort=descending]::after { content: " \\2193"; color: var(--fg); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.flag td { background: var(--bg-bad); } tr.good td { background: var(--bg-ok); }
ul.notes { color: var(--muted); font-size: .88em; margin: .2em 0 1em; }
figure { margin: 1em 0; min-width: 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr));
        gap: 0 1.5em; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: .9em; }
pre { background: #f4f6f8; padding: .8em; overflow-x: auto; border-radius: 6px; }
dl.record { display: grid; grid-template-columns: max-content 1fr; gap: .15em 1em; }
dl.record dt { color: var(--muted); } dl.record dd { margin: 0; }
"""

#: Click (or Enter on) a header to sort by it; numbers numerically, empty cells last.
SCRIPT = """
(function () {
  function key(td) {
    var raw = td.hasAttribute('data-sort') ? td.getAttribute('data-sort') : td.textContent;
    raw = raw.trim();
    var n = Number(raw);
    if (raw === '') return {empty: true};
    return isNaN(n) ? {text: raw.toLowerCase()} : {num: n};
  }
  function compare(a, b) {
    if (a.empty || b.empty) return (a.empty ? 1 : 0) - (b.empty ? 1 : 0);
    if (a.num !== undefined && b.num !== undefined) return a.num - b.num;
    if (a.num !== undefined) return -1;
    if (b.num !== undefined) return 1;
    return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  }
  function sortBy(table, index, th) {
    var ascending = th.getAttribute('aria-sort') !== 'ascending';
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) {
      h.removeAttribute('aria-sort');
    });
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    var body = table.tBodies[0];
    var rows = Array.prototype.map.call(body.rows, function (row, i) {
      return {row: row, key: key(row.cells[index]), i: i};
    });
    rows.sort(function (x, y) {
      var c = compare(x.key, y.key);
      if (x.key.empty || y.key.empty) return c || x.i - y.i;
      return (ascending ? c : -c) || x.i - y.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      th.tabIndex = 0;
      th.addEventListener('click', function () { sortBy(table, index, th); });
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(table, index, th); }
      });
    });
  });
  document.documentElement.setAttribute('data-sortable', 'ready');
})();
"""


def esc(value: Any) -> str:
    """``value`` as HTML text, quotes escaped too (safe inside attributes)."""
    return html.escape(str(value), quote=True)


def document(title: str, body: str, attrs: dict[str, str] | None = None) -> str:
    """A whole page: doctype, charset, the inline style, ``body``, the inline script."""
    extra = "".join(f' {k}="{esc(v)}"' for k, v in (attrs or {}).items())
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body{extra}>\n{body}\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )


def section(anchor: str, title: str, *parts: str) -> str:
    """A ``<section id=anchor>`` with an ``<h2>`` heading and ``parts`` in order."""
    return f'<section id="{esc(anchor)}">\n<h2>{esc(title)}</h2>\n' + "\n".join(parts) + \
        "\n</section>"


def paragraph(text: str, cls: str | None = None) -> str:
    attr = f' class="{esc(cls)}"' if cls else ""
    return f"<p{attr}>{esc(text)}</p>"


def banner(level: str, text: str) -> str:
    """One highlighted line: ``level`` is error, warn, ok or info."""
    return f'<div class="banner {esc(level)}" data-level="{esc(level)}">{esc(text)}</div>'


def bullet_list(items: Iterable[str], cls: str | None = None) -> str:
    attr = f' class="{esc(cls)}"' if cls else ""
    return f"<ul{attr}>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>"


def record(pairs: Iterable[tuple[str, Any]], name: str) -> str:
    """Name/value pairs as a definition list (the machine record)."""
    items = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in pairs)
    return f'<dl class="record" data-record="{esc(name)}">{items}</dl>'


def code_block(lines: Sequence[str], name: str) -> str:
    return f'<pre data-code="{esc(name)}"><code>' + esc("\n".join(lines)) + "</code></pre>"


# --------------------------------------------------------------------------- tables


def _is_missing(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float) and math.isnan(value)


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def number_text(value: Any) -> str:
    """How a number reads in a table: 4 significant digits, ``-`` for none."""
    value = _plain(value)
    if _is_missing(value):
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    return str(value)


def header_text(column: str) -> str:
    """A column name as words: ``llp_median_s`` reads ``llp ms``, ``items_per_reached`` reads
    ``items/v`` (the values of ``*_s`` columns are shown in milliseconds)."""
    name = column
    if name.endswith("_s"):
        name = name[:-2].replace("_median", "") + " ms"
    name = name.replace("_per_reached", "/v").replace("_per_index", "/index")
    return name.replace("_", " ")


def _columns(df: pd.DataFrame) -> list[tuple[str, str | None]]:
    """``(column, its interval's high column or None)``, the high columns folded in."""
    highs = {str(c)[: -len(CI_LOW)] + CI_HIGH for c in df.columns if str(c).endswith(CI_LOW)}
    highs &= {str(c) for c in df.columns}
    out = []
    for col in df.columns:
        name = str(col)
        if name in highs:
            continue
        high = name[: -len(CI_LOW)] + CI_HIGH if name.endswith(CI_LOW) else None
        out.append((name, high if high in highs else None))
    return out


def _cell(df: pd.DataFrame, row: Any, col: str, high: str | None) -> str:
    value = _plain(row[col])
    if high is not None:
        hi = _plain(row[high])
        if _is_missing(value) or _is_missing(hi):
            return '<td class="num" data-sort="">-</td>'
        scale = 1e3 if col[: -len(CI_LOW)].endswith("_s") else 1.0  # seconds shown in ms
        return (f'<td class="num" data-sort="{value!r}">'
                f"[{value * scale:.3g}, {hi * scale:.3g}]</td>")
    numeric = pd.api.types.is_numeric_dtype(df[col]) and not pd.api.types.is_bool_dtype(df[col])
    if not numeric:
        text = "-" if _is_missing(value) else str(value)
        long = ' class="long"' if len(text) > LONG_TEXT else ""
        return f"<td{long}>{esc(text)}</td>"
    if _is_missing(value):
        return '<td class="num" data-sort="">-</td>'
    shown = value * 1e3 if col.endswith("_s") else value
    return f'<td class="num" data-sort="{value!r}">{esc(number_text(shown))}</td>'


def table(
    df: pd.DataFrame,
    name: str,
    *,
    title: str | None = None,
    notes: Iterable[str] | None = None,
    row_classes: Sequence[str] | None = None,
) -> str:
    """``df`` as a sortable ``<table data-table=name>``: one ``<tr>`` per row of ``df``,
    headers in words (:func:`header_text`), its notes (``attrs["notes"]`` unless given) below.
    A :data:`FOLDED` column with one value in every row is said once, in the notes."""
    notes = list(df.attrs.get("notes") or []) if notes is None else list(notes)
    same = [c for c in FOLDED if c in df.columns and len(df) > 1
            and df[c].astype(str).nunique() == 1]
    if same:
        notes.insert(0, "every row: " + "; ".join(
            f"{c} {df[c].iloc[0] if str(df[c].iloc[0]) else '(none)'}" for c in same))
        df = df.drop(columns=same)
    cols = _columns(df)
    heads = "".join(
        f'<th scope="col" data-col="{esc(c)}">'
        f"{esc('95% CI' if h else header_text(c))}</th>"
        for c, h in cols
    )
    body = []
    for i, (_, row) in enumerate(df.iterrows()):
        cls = row_classes[i] if row_classes is not None and row_classes[i] else ""
        attr = f' class="{esc(cls)}"' if cls else ""
        body.append(f"<tr{attr}>" + "".join(_cell(df, row, c, h) for c, h in cols) + "</tr>")
    parts = [f"<h3>{esc(title)}</h3>"] if title else []
    parts.append(
        f'<div class="scroll"><table class="sortable" data-table="{esc(name)}">'
        f"<thead><tr>{heads}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )
    if notes:
        parts.append(bullet_list([f"Note: {n}" for n in notes], "notes"))
    return "\n".join(parts)


# --------------------------------------------------------------------------- figures

_ID = re.compile(r'\bid="([^"]+)"')
_URL = re.compile(r"url\(#([^)]+)\)")
_HREF = re.compile(r'((?:xlink:)?href)="#([^"]+)"')


def svg_text(fig: Figure, prefix: str, label: str) -> str:
    """``fig`` as an inline ``<svg>`` element: drawn in memory, its XML prologue and metadata
    dropped, and every id (clip paths, markers) prefixed with ``prefix`` so that two figures
    on one page never share one (a shared id would clip one figure with the other's box)."""
    import matplotlib

    buf = io.StringIO()
    rc = {"svg.fonttype": "none", "svg.hashsalt": "llpbench"}  # real text, stable ids
    with matplotlib.rc_context(rc):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    text = _ID.sub(lambda m: f'id="{prefix}-{m[1]}"', text)
    text = _URL.sub(lambda m: f"url(#{prefix}-{m[1]})", text)
    text = _HREF.sub(lambda m: f'{m[1]}="#{prefix}-{m[2]}"', text)
    return text.replace("<svg ", f'<svg role="img" aria-label="{esc(label)}" ', 1).strip()


def figure(fig: Figure, name: str, caption: str) -> str:
    """A ``<figure data-figure=name>`` holding ``fig`` inline, with its caption."""
    prefix = "f-" + re.sub(r"[^A-Za-z0-9_-]+", "-", name)
    return (
        f'<figure data-figure="{esc(name)}">{svg_text(fig, prefix, caption)}'
        f"<figcaption>{esc(caption)}</figcaption></figure>"
    )
