"""The rules' modules import each other at module top, in one direction only.

Splendor Duel's state and its resolution code (table, planner, words) used to
import each other inside functions to dodge a circle; the layering in
:mod:`companion.rules.duel.position` removed it.  This test reads every module
of :mod:`companion.rules` (with :mod:`ast`, so it sees imports inside
functions and ``TYPE_CHECKING`` blocks that running the code would hide) and
keeps it that way: no import of the project inside a function, and no circle
among the modules.  It also holds DESIGN.md's arrow: the rules import nothing
else of the project.
"""

from __future__ import annotations

import ast
from pathlib import Path

import companion.rules

RULES = Path(companion.rules.__file__).parent
PACKAGE = "companion.rules"


def _module_name(path: Path) -> str:
    parts = path.relative_to(RULES.parent.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, ast.Module]:
    return {_module_name(p): ast.parse(p.read_text(), str(p)) for p in sorted(RULES.rglob("*.py"))}


def _targets(node: ast.Import | ast.ImportFrom, modules: dict[str, ast.Module]) -> set[str]:
    """The project modules an import statement loads (``from pkg import mod`` counts mod)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name.startswith("companion")}
    if node.level or node.module is None or not node.module.startswith("companion"):
        return set()
    found = {node.module}
    found.update(
        f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules
    )
    return found


def _imports(tree: ast.Module, modules: dict[str, ast.Module]) -> tuple[set[str], set[str]]:
    """(project modules imported at module level, those imported inside a function)."""
    top: set[str] = set()
    inner: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                (inner if in_function else top).update(_targets(child, modules))
            nested = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or nested)

    visit(tree, False)
    return top, inner


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, tree in modules.items():
        top, inner = _imports(tree, modules)
        assert not inner, f"{name} imports {sorted(inner)} inside a function"
        # A module also loads its parent packages; a package importing its own
        # submodules is the usual re-export, not a circle.
        graph[name] = {t for t in top if not name.startswith(t + ".") and t != name}
    return graph


def test_rules_import_nothing_else_of_the_project() -> None:
    for name, targets in _graph().items():
        outside = {t for t in targets if not t.startswith(PACKAGE)}
        assert not outside, f"{name} imports {sorted(outside)}"


def test_rules_imports_have_no_circle() -> None:
    graph = _graph()
    done: set[str] = set()

    def walk(name: str, path: list[str]) -> None:
        if name in path:
            circle = [*path[path.index(name) :], name]
            raise AssertionError("import circle: " + " -> ".join(circle))
        if name in done or name not in graph:
            return
        for target in sorted(graph[name]):
            walk(target, [*path, name])
        done.add(name)

    for name in sorted(graph):
        walk(name, [])


def test_the_old_duel_circle_is_seen_by_this_check() -> None:
    """The check would have caught the circle it guards against (call-time imports)."""
    tree = ast.parse("def apply(self):\n    from companion.rules.duel.table import play_turn\n")
    modules = {"companion.rules.duel.table": tree}
    top, inner = _imports(tree, modules)
    assert not top
    assert inner == {"companion.rules.duel.table"}
