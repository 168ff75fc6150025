"""The project's import graph, read with :mod:`ast`, and the house's figures.

Read rather than run, so imports inside functions and ``TYPE_CHECKING``
blocks count as well: running the code would hide them.  Used by
``tests/test_layers.py`` (no circle, no arrow up, a reason beside every lazy
import) and runnable as a script that prints the figures issue 40 asked for
(lines, modules, circles, imports inside functions)::

    .venv/bin/python tests/import_graph.py
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "vision", "firmware")

#: DESIGN.md's layers, lowest first: a module may import its own layer's
#: packages and those below, never one above.  ``companion.rules`` and
#: ``firmware`` use nothing of the project; ``vision`` uses the rules; the
#: application's packages then stack from the leaves (words, output files,
#: the analysis) through the log, the screen and the voice to the referee,
#: the commands and the command line.  A package not named here is an error
#: of this table (the test says so), never silently allowed.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("companion", "companion.rules", "companion.data", "firmware"),
    ("vision",),
    ("companion.i18n", "companion.output", "companion.processes", "companion.mat_sheets",
     "companion.analysis"),
    ("companion.games",),
    ("companion.mat_pages", "companion.record"),
    ("companion.screen", "companion.review"),
    ("companion.referee",),
    ("companion.speech",),
    ("companion.demo",),
    ("companion.commands",),
    ("companion.cli",),
    ("companion.__main__",),
)
#: Layers that must stay alone: each names nothing of the project but itself.
ISLANDS = (("companion.rules", "companion.data"), ("firmware",))


@dataclass(frozen=True)
class Import:
    """One import statement's project target, where it sits and why."""

    source: str
    target: str
    line: int
    in_function: bool
    type_checking: bool
    comment: str


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def module_paths() -> dict[str, Path]:
    return {
        module_name(p): p
        for package in PACKAGES
        for p in sorted((ROOT / package).rglob("*.py"))
    }


def _resolve(node: ast.ImportFrom, source: str, is_package: bool) -> str | None:
    if not node.level:
        return node.module
    base = source.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str, path: Path, modules: set[str]) -> Iterator[Import]:
    """Every import of the project in one module (``from pkg import mod`` names mod)."""
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text, str(path))

    def targets(node: ast.Import | ast.ImportFrom) -> set[str]:
        if isinstance(node, ast.Import):
            return {a.name for a in node.names}
        module = _resolve(node, name, path.name == "__init__.py")
        if module is None:
            return set()
        found = {f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in modules}
        return found or {module}

    def visit(node: ast.AST, in_function: bool, type_checking: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                end = child.end_lineno or child.lineno
                comment = " ".join(lines[child.lineno - 2 : end])
                for target in sorted(targets(child)):
                    if target.split(".")[0] in PACKAGES:
                        yield Import(name, target, child.lineno, in_function, type_checking,
                                     comment)
            nested = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            guarded = isinstance(child, ast.If) and _is_type_checking(child)
            yield from visit(child, in_function or nested, type_checking or guarded)

    yield from visit(tree, False, False)


def all_imports() -> list[Import]:
    paths = module_paths()
    names = set(paths)
    return [i for name, path in paths.items() for i in imports_of(name, path, names)]


def _own(target: str, modules: set[str]) -> str:
    """The module a target names: ``pkg.func`` is ``pkg``."""
    while target not in modules and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def graph(imports: list[Import], modules: set[str]) -> dict[str, set[str]]:
    """Module -> modules it imports (anywhere, even in a function or for types).

    A module also loads its parent packages; a package importing its own
    submodules is the usual re-export, so an edge to one's own ancestor is
    left out, as tests/rules/test_imports.py always did.
    """
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for i in imports:
        target = _own(i.target, modules)
        if target != i.source and not i.source.startswith(target + "."):
            edges[i.source].add(target)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return sorted(found)


def layer_of(module: str) -> int | None:
    """The index in LAYERS of a module's package (the longest name that holds it wins).

    A bare top package (``companion``) stands for its ``__init__`` alone: each
    of its subpackages must be named, so a new one is placed on purpose.
    """
    best: tuple[int, int] | None = None
    for n, layer in enumerate(LAYERS):
        for package in layer:
            holds = module == package or (
                "." in package and module.startswith(package + ".")
            ) or (package in ("vision", "firmware") and module.startswith(package + "."))
            if holds and (best is None or len(package) > best[0]):
                best = (len(package), n)
    return None if best is None else best[1]


def upward(imports: list[Import], modules: set[str]) -> list[Import]:
    """Imports that point to a higher layer than their module's."""
    found = []
    for i in imports:
        source, target = layer_of(i.source), layer_of(_own(i.target, modules))
        if source is not None and target is not None and target > source:
            found.append(i)
    return found


@dataclass(frozen=True)
class InnerImport:
    """An import statement inside a function (of anything), and whether it says why."""

    module: str
    line: int
    text: str
    explained: bool


def function_imports() -> list[InnerImport]:
    """Every import statement inside a function of the project, sorted."""
    found: set[InnerImport] = set()
    for name, path in module_paths().items():
        found |= inner_imports_of(name, path.read_text())
    return sorted(found, key=lambda i: (i.module, i.line))


def inner_imports_of(name: str, text: str) -> set[InnerImport]:
    """A module's imports inside functions, each with its ``# lazy:`` reason or not.

    The reason is a comment on the statement's own lines or on the line above
    the run of import statements it belongs to (one reason for a block).
    """
    found: set[InnerImport] = set()

    def visit(name: str, lines: list[str], node: ast.AST, in_function: bool) -> None:
        for _field, value in ast.iter_fields(node):
            body = value if isinstance(value, list) else [value]
            for n, child in enumerate(body):
                if not isinstance(child, ast.AST):
                    continue
                if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                    first = n
                    while first and isinstance(body[first - 1], ast.Import | ast.ImportFrom):
                        first -= 1
                    end = child.end_lineno or child.lineno
                    said = lines[child.lineno - 1 : end]
                    said.append(lines[body[first].lineno - 2])
                    found.add(InnerImport(name, child.lineno, lines[child.lineno - 1].strip(),
                                          any("# lazy: " in line for line in said)))
                nested = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
                visit(name, lines, child, in_function or nested)

    visit(name, text.splitlines(), ast.parse(text), False)
    return found


def figures() -> dict[str, int]:
    paths = module_paths()
    imports = all_imports()
    edges = graph(imports, set(paths))
    inner = [i for i in imports if i.in_function]
    return {
        "lines": sum(len(p.read_text().splitlines()) for p in paths.values()),
        "modules": len(paths),
        "circles": len(circles(edges)),
        "modules in circles": sum(len(c) for c in circles(edges)),
        "upward imports": len(upward(imports, set(paths))),
        "imports inside functions": len(function_imports()),
        "  of the project": len({(i.source, i.line) for i in inner}),
        "  with a # lazy: reason": sum(i.explained for i in function_imports()),
    }


if __name__ == "__main__":
    for key, value in figures().items():
        print(f"{key:26} {value}")
    paths = module_paths()
    for c in circles(graph(all_imports(), set(paths))):
        print("circle:", " <-> ".join(c))
    if "-v" in sys.argv:
        for i in function_imports():
            print(f"inside: {i.module}:{i.line}: {'lazy' if i.explained else 'why?'}: {i.text}")
    for i in upward(all_imports(), set(paths)):
        print(f"upward: {i.source}:{i.line} -> {i.target}")
