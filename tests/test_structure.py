"""The shape of the package: no problem is named outside ``llpbench/problems/``; lower
packages never import higher ones (the floors of ``ARCHITECTURE.md``); no import circle."""

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
FLOORS: list[set[str]] = [
    {"io", "errors", "paths"},
    {"graphs"},
    {"llp"},
    {"problems", "baselines"},
    {"bench"},
    {"report"},
    {"cli", "api", "__main__", "__init__"},
]
FLOOR = {unit: level for level, units in enumerate(FLOORS) for unit in units}


def _unit(path: Path) -> str:
    """The top-level package (or module) of llpbench that ``path`` belongs to."""
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _imports(path: Path, module_level_only: bool = False) -> list[tuple[int, str]]:
    """``(line, module)`` for each llpbench module ``path`` imports (``from X import y`` gives
    ``X`` and ``X.y``: y may be a module; ``from llpbench import __version__`` names the
    package, no module, and is left out)."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if module_level_only else list(ast.walk(tree))
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = ([f"llpbench.{a.name}" for a in node.names if a.name in FLOOR]
                     if node.module == "llpbench"
                     else [node.module, *(f"{node.module}.{a.name}" for a in node.names)])
        else:
            continue
        found += [(node.lineno, name) for name in names
                  if name.startswith("llpbench.")]
    return found


def _arrows() -> list[tuple[str, int, str, str]]:
    """``(file, line, from unit, to unit)`` for every import of another top-level unit."""
    return [
        (str(path.relative_to(PACKAGE.parent)), line, _unit(path), target.split(".")[1])
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, target in _imports(path)
        if target.split(".")[1] != _unit(path)
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


def test_no_import_circle_between_modules_at_import_time():
    """Module-level imports form no circle (the one between cli/sweep.py and cli/cluster.py
    is gone); an import inside a function runs later and may close one on purpose."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    edges = {name: {target for _, target in _imports(path, module_level_only=True)
                    if target in modules and target != name}
             for name, path in modules.items()}
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(edges[name]):
            if state.get(nxt) == 1:
                circles.append(trail[trail.index(nxt):] + [name, nxt])
            elif nxt not in state:
                visit(nxt, trail + [name])
        state[name] = 2

    for name in sorted(modules):
        if name not in state:
            visit(name, [])
    assert circles == []
