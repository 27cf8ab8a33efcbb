"""What a reader assumed about a graph file, in words: for ``datasets info`` and results rows.

Readers record their assumptions in ``graph.provenance["reading"]`` (see
:mod:`llpbench.graphs.formats`); this module only words them, so that a table, a terminal and
a ``runs.csv`` row all say the same thing about how an input was read.
"""

from __future__ import annotations

from typing import Any

from llpbench.graphs.graph import Graph


def reading_facts(graph: Graph) -> dict[str, Any]:
    """Each assumption as a labelled fact (empty for generated graphs: nothing was read)."""
    reading = graph.provenance.get("reading")
    if not isinstance(reading, dict):
        return {}
    out: dict[str, Any] = {
        "reading: format": reading.get("format"),
        "reading: directed": f"{reading.get('directed')} ({reading.get('directed_because')})",
    }
    if "index_base" in reading:
        out["reading: index base"] = (
            f"{reading['index_base']} ({reading.get('index_base_because')})"
        )
    for key in ("delimiter", "header_row"):
        if reading.get(key):
            out[f"reading: {key.replace('_', ' ')}"] = reading[key]
    if reading.get("header_line"):
        line, n = reading["header_line"], reading["declared_n"]
        because = reading.get("header_because")
        out["reading: count header"] = f"line {line} (n = {n})" + (
            f": {because}" if because else ""
        )
    if reading.get("stated"):
        out["reading: stated"] = reading["stated"]
    if reading.get("konect"):
        out["reading: KONECT header"] = reading["konect"]
    for column in ("third_column", "fourth_column"):
        if reading.get(column):
            out[f"reading: {column.replace('_', ' ')}"] = reading[column]
    out["reading: ids"] = ids_fact(graph)
    out["reading: weights"] = str(graph.provenance.get("weights", "file"))
    if graph.provenance.get("negative_weights"):
        out["reading: negative weights"] = (
            f"{graph.provenance['negative_weights']}; bfs ignores weights, sssp needs "
            "--weights unit (or another rule)"
        )
    out["reading: self-loops"] = _loops(reading)
    out["reading: parallel arcs merged"] = reading.get("parallel_arcs_merged", 0)
    for i, text in enumerate(graph.provenance.get("warnings", []), 1):
        out[f"reading: warning {i}"] = text
    return out


def ids_fact(graph: Graph) -> str:
    """How the file names the vertices, and which ids ``--source`` and the answers use: the
    file's, converted through ``graph.ids`` (:mod:`llpbench.graphs.ids`) everywhere."""
    ids = graph.ids
    said = (f"{ids.how}; --source, solve -o and runs.csv use the file's ids "
            f"({ids.range_text(graph.n)})")
    if "compacted_from_n" in graph.provenance:
        before = graph.provenance["compacted_from_n"]
        return f"renumbered 0..{graph.n - 1} (from n = {before:,}): {said}"
    return said


def _loops(reading: dict[str, Any]) -> str:
    """Loop lines and looped vertices, which differ when a loop is listed more than once."""
    lines = reading.get("self_loops", 0)
    looped = reading.get("looped_vertices", lines)
    return (
        f"{lines} line{'s' * (lines != 1)} on {looped} {'vertex' if looped == 1 else 'vertices'} "
        "(kept aside from the CSR, in Graph.loops)"
    )


def reading_label(graph: Graph) -> str:
    """One compact line for a results row: ``generated``, or the file reading's assumptions.

    >>> from llpbench.graphs.graph import Graph
    >>> reading_label(Graph.from_edges(2, [0], [1], [1]))
    'generated'
    """
    reading = graph.provenance.get("reading")
    if not isinstance(reading, dict):
        return "generated"
    parts = [
        str(reading.get("format")),
        "directed" if reading.get("directed") else "undirected",
    ]
    if "index_base" in reading:
        parts.append(f"base={reading['index_base']}")
    if reading.get("delimiter"):
        parts.append("comma")
    if reading.get("header_row"):
        parts.append("header-row")
    if reading.get("header_line"):
        parts.append(f"header=line{reading['header_line']}")
    if "compacted_from_n" in graph.provenance:
        parts.append("compacted")
    parts.append(f"weights={graph.provenance.get('weights', 'file')}")
    parts.append(f"loops={reading.get('self_loops', 0)}")
    parts.append(f"merged={reading.get('parallel_arcs_merged', 0)}")
    return " ".join(parts)
