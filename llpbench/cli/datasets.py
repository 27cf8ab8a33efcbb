"""`llpbench datasets`: list, inspect, fetch, generate and export the registry's graphs.

Thin commands over :mod:`llpbench.graphs.registry` (names, cache), :mod:`llpbench.graphs.stats`
(the figures of `info`) and :mod:`llpbench.graphs.formats` (export). Every NAME may be a
registry name, a rule name such as ``kron-2e17``, or a path to a graph file.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from llpbench.cli.reading import (
    COMPACT,
    DIRECTED,
    INDEX_BASE,
    MAX_MEMORY,
    WEIGHTS,
    read_options,
)
from llpbench.errors import SpecError

datasets_app = typer.Typer(
    name="datasets",
    help="List, inspect, download, generate and export benchmark graphs.",
    no_args_is_help=True,
)

CACHE_DIR = typer.Option(
    None,
    "--cache-dir",
    envvar="LLPBENCH_DATA_DIR",
    help="Datasets cache folder (default: $LLPBENCH_DATA_DIR, else <repo>/datasets).",
    show_default=False,
)
EXPORT_SUFFIXES = (".mtx", ".gr", ".wel")


def register(app: typer.Typer) -> None:
    """Add the ``datasets`` sub-command group to the ``llpbench`` app."""
    app.add_typer(datasets_app, name="datasets")


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


@datasets_app.command("list")
def list_command(cache_dir: Path | None = CACHE_DIR) -> None:
    """Every registered graph: family, source, weight rule and whether it is cached."""
    from llpbench.graphs import registry

    table = Table(title="llpbench datasets", title_justify="left")
    for col in ("name", "family", "source", "weights", "cached"):
        table.add_column(col, overflow="fold")
    for spec in registry.list_specs():
        cached = "yes" if registry.is_cached(spec, cache_dir) else "-"
        weights = spec.weights
        if weights != "file":
            weights += f" (seed {spec.weight_seed})"
        table.add_row(spec.name, spec.family, spec.source_label, weights, cached)
    console = _console()
    console.print(table)
    rules = registry.list_rules()
    if rules:
        accepted = "; ".join(f"{r.pattern} ({r.description})" for r in rules)
        console.print(f"Also accepted: {accepted}")
    console.print(f"Config: {registry.config_file()}")


@datasets_app.command("info")
def info_command(
    name: str = typer.Argument(..., help="Registry name, rule name (kron-2e17) or graph file."),
    cache_dir: Path | None = CACHE_DIR,
    bfs_samples: int = typer.Option(4, help="BFS runs for the diameter estimate."),
    seed: int = typer.Option(0, help="Seed for the BFS sources of the diameter estimate."),
    as_json: bool = typer.Option(False, "--json", help="Print the statistics as JSON."),
    directed: bool = DIRECTED,
    index_base: str = INDEX_BASE,
    weights: str = WEIGHTS,
    compact: bool = COMPACT,
    max_memory: str = MAX_MEMORY,
) -> None:
    """Statistics of one graph: sizes, degrees, weights, components, estimated diameter."""
    from llpbench.graphs.reading import reading_facts
    from llpbench.graphs.registry import load_graph, resolve
    from llpbench.graphs.stats import graph_stats

    spec = resolve(name, read_options(directed, index_base, weights, compact, max_memory))
    graph = load_graph(spec, cache_dir=cache_dir, progress=not as_json)
    stats = graph_stats(graph, seed=seed, bfs_samples=bfs_samples)
    head = {k: stats.pop(k) for k in ("name", "family")}
    stats = {**head, "source": spec.source_label, "description": spec.description, **stats}
    stats.update(reading_facts(graph))
    if as_json:
        typer.echo(json.dumps(stats, indent=1))
        return
    table = Table(title=f"graph {graph.name}", title_justify="left", show_header=False)
    table.add_column("statistic")
    table.add_column("value", overflow="fold")
    for key, value in stats.items():
        table.add_row(key, _fmt(value))
    _console().print(table)


def _fmt(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "-"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.6g}" if abs(value) < 1e6 else f"{value:,.0f}"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


@datasets_app.command("fetch")
def fetch_command(
    names: list[str] = typer.Argument(..., help="Registry names of SuiteSparse graphs."),
    cache_dir: Path | None = CACHE_DIR,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No download progress."),
) -> None:
    """Download SuiteSparse graphs into the cache (generated and local graphs need none)."""
    from llpbench import paths
    from llpbench.graphs import registry

    cache = paths.data_dir(cache_dir)
    for name in names:
        spec = registry.resolve(name)
        if spec.source == "generator":
            typer.echo(
                f"{spec.name}: generated by {spec.generator}; it needs no download "
                f"(`llpbench datasets generate {spec.name}` builds it)"
            )
            continue
        path = registry.fetch(spec, cache_dir=cache, progress=not quiet)
        where = "local file" if spec.source == "file" else "downloaded"
        typer.echo(f"{spec.name}: {where} {path}")


@datasets_app.command("generate")
def generate_command(
    names: list[str] = typer.Argument(..., help="Registry or rule names to build into the cache."),
    cache_dir: Path | None = CACHE_DIR,
    force: bool = typer.Option(False, "--force", help="Rebuild even if a current copy is cached."),
) -> None:
    """Build graphs (generate or fetch, then weight) into the cache; print time, n and m."""
    from llpbench import paths
    from llpbench.graphs import registry

    cache = paths.data_dir(cache_dir)
    for name in names:
        spec = registry.resolve(name)
        if not spec.cacheable:
            raise SpecError(f"{name}: a graph file is read directly and never cached")
        was_cached = registry.is_cached(spec, cache)
        start = time.perf_counter()
        graph = registry.load_graph(spec, cache_dir=cache, progress=True, rebuild=force)
        took = time.perf_counter() - start
        how = "loaded from cache" if was_cached and not force else "built"
        typer.echo(
            f"{spec.name}: {how} in {took:.2f} s: n = {graph.n:,}, m = {graph.m:,} arcs "
            f"-> {cache / (spec.name + '.npz')}"
        )


@datasets_app.command("export")
def export_command(
    name: str = typer.Argument(..., help="Registry name, rule name or graph file."),
    file: Path = typer.Argument(..., help="Output file: .mtx, .gr (DIMACS) or .wel."),
    cache_dir: Path | None = CACHE_DIR,
    directed: bool = DIRECTED,
    index_base: str = INDEX_BASE,
    weights: str = WEIGHTS,
    compact: bool = COMPACT,
    max_memory: str = MAX_MEMORY,
) -> None:
    """Write a graph with its weights to a file, the format chosen by the file's suffix."""
    from llpbench.graphs.formats import write_graph
    from llpbench.graphs.registry import load_graph

    if file.suffix.lower() not in EXPORT_SUFFIXES:
        raise SpecError(
            f"{file}: cannot export to {file.suffix or 'a file without suffix'}; "
            f"use one of {', '.join(EXPORT_SUFFIXES)}"
        )
    options = read_options(directed, index_base, weights, compact, max_memory)
    graph = load_graph(name, cache_dir=cache_dir, progress=True, options=options)
    write_graph(graph, file)
    typer.echo(f"{graph.name}: wrote n = {graph.n:,}, m = {graph.m:,} arcs to {file}")
