"""Keeping every title, label and legend of a figure inside its canvas.

Constrained layout makes room for axis labels and for a legend placed outside the axes, but
it cannot shrink text: a figure title, a legend or a panel title wider than the canvas is cut
off at its edges (a one-panel scaling figure is 4.3 inches wide; its title and a legend of five
configurations are not). So text is first wrapped to the width it has (:func:`wrap_label`),
a legend gets as many columns as fit (:func:`legend_columns`), and what still does not fit
grows the canvas (:func:`fit_canvas`): the figure is drawn, the extent of everything on it is
measured, and the figure is enlarged by what sticks out, until nothing does.
"""

from __future__ import annotations

import re

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

#: Inches a character of 10-point text takes, on average (DejaVu Sans): for a first guess
#: only, :func:`fit_canvas` measures.
INCH_PER_CHAR = 0.075
#: Inches a legend entry takes besides its text (the handle, the gaps).
LEGEND_ENTRY_INCHES = 0.65
#: Inches a line of 10-point text takes in height (a legend row, a title line).
LINE_INCHES = 0.25
PAD_INCHES = 0.08
_BREAKS = re.compile(r"(?<=[\s/_\-.,;:)])")


def wrap_label(text: str, width: int) -> str:
    """``text`` broken into lines of at most ``width`` characters where it can be.

    Lines break after a space or a separator (``/ _ - . , ; : )``), so a file path or a long
    graph name wraps at its parts; a part longer than ``width`` is cut.

    Examples
    --------
    >>> wrap_label("sssp: time vs threads (median; band: its 95% interval)", 24)
    'sssp: time vs threads\\n(median; band: its 95%\\ninterval)'
    >>> wrap_label("/data/graphs/luxembourg_osm.mtx", 14)
    '/data/graphs/\\nluxembourg_\\nosm.mtx'
    """
    width = max(int(width), 1)
    lines, line = [], ""
    for part in (p for p in _BREAKS.split(text) if p):
        while len(part) > width:  # a part that fits no line: cut it
            if line:
                lines.append(line)
                line = ""
            lines.append(part[:width])
            part = part[width:]
        if len((line + part).rstrip()) > width and line:
            lines.append(line)
            line = ""
        line += part
    if line:
        lines.append(line)
    return "\n".join(x.strip() for x in lines)


def chars_for(inches: float, fontsize: float = 10.0) -> int:
    """About how many characters of ``fontsize``-point text fit in ``inches``."""
    return max(8, int(inches / (INCH_PER_CHAR * fontsize / 10.0)))


def legend_columns(labels: list[str], inches: float, fontsize: float = 10.0) -> int:
    """How many legend columns of ``labels`` fit side by side in ``inches`` (at least 1)."""
    if not labels:
        return 1
    entry = max(len(s) for s in labels) * INCH_PER_CHAR * fontsize / 10.0 + LEGEND_ENTRY_INCHES
    return max(1, min(len(labels), int(inches // entry)))


def text_lines(text: str) -> int:
    """How many lines ``text`` takes."""
    return text.count("\n") + 1


def fit_canvas(fig: Figure, rounds: int = 6) -> Figure:
    """Grow ``fig`` until everything drawn on it lies inside its canvas; return it.

    Each round draws the figure (constrained layout runs then), measures the bounding box of
    all its artists, and enlarges the figure by what sticks out on each side, plus a small
    pad. Content centred on the figure (its title, a legend below the panels) is then inside,
    and the layout, rerun at the next draw, uses the new room.
    """
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    for _ in range(rounds):
        renderer = fig.canvas.get_renderer()
        fig.draw(renderer)
        box = fig.get_tightbbox(renderer)  # inches
        width, height = fig.get_size_inches()
        grow_w = max(0.0, -box.x0) + max(0.0, box.x1 - width)
        grow_h = max(0.0, -box.y0) + max(0.0, box.y1 - height)
        if grow_w <= 0 and grow_h <= 0:
            break
        fig.set_size_inches(
            width + (grow_w + 2 * PAD_INCHES if grow_w > 0 else 0.0),
            height + (grow_h + 2 * PAD_INCHES if grow_h > 0 else 0.0),
        )
    return fig
