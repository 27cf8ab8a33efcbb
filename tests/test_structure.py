"""The shape of the package: no problem is named outside ``llpbench/problems/``; lower
packages never import higher ones (the floors of ``ARCHITECTURE.md``); no import circle;
no module over 600 lines."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from llpbench.problems import PROBLEMS

PACKAGE = Path(__file__).resolve().parents[1] / "llpbench"

_NAMES = "|".join(re.escape(name) for name in PROBLEMS)
#: A test of which problem runs: ``problem == "..."`` or ``== "sssp"`` (any problem's name,
#: either side, ``in`` too); filtering rows by a problem held in a variable is not one.
PROBLEM_TEST = re.compile(
    rf"""problem\s*(?:[!=]=|(?:not\s+)?in)\s*[("'\[]"""
    rf"""|(?:[!=]=|\bin)\s*[(\[]?["'](?:{_NAMES})["']"""
    rf"""|["'](?:{_NAMES})["']\s*(?:[!=]=|(?:not\s+)?in\b)"""
)


def test_no_code_outside_the_problems_tests_which_problem_it_runs():
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{no}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if PACKAGE / "problems" not in path.parents
        for no, line in enumerate(path.read_text().splitlines(), 1)
        if PROBLEM_TEST.search(line)
    ]
    assert found == []


def test_the_problem_test_pattern_catches_what_it_is_for():
    for line in ('if cell.study.problem == "sssp":', 'weighted = problem == "sssp"',
                 'if name != "bfs":', 'x = "sssp" == p', 'if problem in ("sssp", "bfs"):',
                 'ok = "knapsack" in names'):
        assert PROBLEM_TEST.search(line), line
    for line in ('rows = rows[rows["problem"] == problem]', 'if problem not in PROBLEMS:',
                 'WEIGHTED = {"sssp": True, "bfs": False}'):
        assert not PROBLEM_TEST.search(line), line


#: The floors of ``ARCHITECTURE.md``, lowest first: a module may import its own package and
#: the floors below, never a floor above (lazy imports inside functions included).
#: ``__init__`` is the package itself (``import llpbench``, ``from llpbench import
#: __version__``): the top floor, since it lazily imports ``api.py``; the version lives on
#: the ground floor (``_version.py``) so that nothing below has to import the package.
FLOORS: list[set[str]] = [
    {"io", "errors", "paths", "_version", "phases"},
    {"graphs"},
    {"llp"},
    {"problems", "baselines"},
    {"bench"},
    {"report"},
    {"cli", "api", "__main__", "__init__"},
]
FLOOR = {unit: level for level, units in enumerate(FLOORS) for unit in units}


def _module_names(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for path in package.rglob("*.py"):
        name = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


MODULES = _module_names()


def imports_of(source: str, module: str, modules) -> list[tuple[int, str]]:
    """``(line, module)`` for each llpbench module or package that ``source`` (the text of
    ``module``) imports, at any depth: inside functions too, where a lazy import runs later
    but still makes the arrow. ``from X import y`` gives ``X``, and ``X.y`` when y is a
    module (only the modules when every name is one: ``from llpbench.report import tables``
    is ``import llpbench.report.tables``); ``import llpbench`` and ``from llpbench import
    __version__`` give ``llpbench``, the package itself; relative imports are resolved
    against ``module``."""
    found = []
    package = module if module in modules and str(modules[module]).endswith("__init__.py") \
        else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            below = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
            # ``from pkg import module`` is ``import pkg.module``, as for any module below
            # it: the package's own code is no arrow unless a name is taken from it
            names = below if len(below) == len(node.names) else [base, *below]
        else:
            continue
        found += [(node.lineno, name) for name in names
                  if name == "llpbench" or name.startswith("llpbench.")]
    return found


def _imports(path: Path) -> list[tuple[int, str]]:
    name = next(n for n, p in MODULES.items() if p == path)
    return imports_of(path.read_text(), name, MODULES)


def _unit(path: Path) -> str:
    """The top-level package (or module) of llpbench that ``path`` belongs to."""
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _target_unit(target: str) -> str:
    return target.split(".")[1] if "." in target else "__init__"


def _arrows() -> list[tuple[str, int, str, str]]:
    """``(file, line, from unit, to unit)`` for every import of another top-level unit."""
    return [
        (str(path.relative_to(PACKAGE.parent)), line, _unit(path), _target_unit(target))
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, target in _imports(path)
        if _target_unit(target) != _unit(path)
    ]


def test_every_unit_of_the_package_has_a_floor():
    units = {_unit(path) for path in PACKAGE.rglob("*.py")}
    assert units - set(FLOOR) == set()


def test_no_package_imports_one_on_a_higher_floor():
    upward = [f"{file}:{line}: {src} -> {dst}" for file, line, src, dst in _arrows()
              if FLOOR[dst] > FLOOR[src]]
    assert upward == []


def test_no_import_circle_between_packages():
    """Two packages of one floor (problems and baselines) may not import each other both
    ways: their arrows, like all the others, go one way."""
    edges: dict[str, set[str]] = {}
    for _, _, src, dst in _arrows():
        if src != "__init__":  # the package's facade re-exports ``solve`` lazily
            edges.setdefault(src, set()).add(dst)
    both_ways = sorted(f"{a} <-> {b}" for a in edges for b in edges[a]
                       if a < b and a in edges.get(b, set()))
    assert both_ways == []
    assert "problems" in edges["baselines"] or "baselines" in edges["problems"]


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected group of ``edges`` (module -> modules it imports)
    larger than one module, as the walk that closes it: ``[a, b, a]``."""
    state: dict[str, int] = {}
    found: list[list[str]] = []
    seen: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(edges.get(name, ())):
            if state.get(nxt) == 1 and not seen & set(trail[trail.index(nxt):] + [name]):
                found.append(trail[trail.index(nxt):] + [name, nxt])
                seen.update(found[-1])
            elif nxt not in state:
                visit(nxt, [*trail, name])
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name, [])
    return found


def module_edges(sources: dict[str, str]) -> dict[str, set[str]]:
    """module -> the modules of ``sources`` it imports (any depth, its own package too)."""
    return {name: {t for _, t in imports_of(text, name, sources) if t in sources and t != name}
            for name, text in sources.items()}


def test_no_import_circle_between_modules():
    """No module imports one that imports it back, directly or around a longer circle,
    inside a package too and counting imports inside functions: a lazy import hides a
    circle from Python's import machinery, not from the reader of the code."""
    sources = {name: path.read_text() for name, path in MODULES.items()}
    assert circles(module_edges(sources)) == []


def test_the_circle_finder_sees_lazy_imports_inside_a_package_and_the_top_package():
    sources = {
        "llpbench": "def solve():\n    from llpbench.api import solve\n",
        "llpbench.api": "from llpbench.graphs.a import f\n",
        "llpbench.graphs": "",
        "llpbench.graphs.a": "def f():\n    from .b import g\n    return g\n",
        "llpbench.graphs.b": "from llpbench.graphs.a import f\n",
        "llpbench.bench": "import llpbench\n",
        "llpbench.bench.plan": "from llpbench import __version__\n",
        "llpbench.report": "from llpbench import bench\n",
    }
    edges = module_edges(sources)
    assert edges["llpbench.bench.plan"] == {"llpbench"}
    assert edges["llpbench.report"] == {"llpbench.bench"}
    assert circles(edges) == [["llpbench.graphs.a", "llpbench.graphs.b", "llpbench.graphs.a"]]
    sources["llpbench.graphs.b"] = ""
    assert circles(module_edges(sources)) == []


#: The most lines a module of the package may have: past it, a file holds more than one
#: responsibility and is split by them (issue 30).
MAX_MODULE_LINES = 600


def test_no_module_of_the_package_exceeds_the_line_bound():
    long = {str(p.relative_to(PACKAGE)): n for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert long == {}
