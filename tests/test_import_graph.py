"""Issue 27: no import cycle among companion's modules, lazy or not, and few function-level imports.

Every import is read (at module level, inside functions, inside classes); only those under
`if TYPE_CHECKING:` are left out, since they never run.  The graph's edges go to the module an
import names (`from .views import home` reaches `views.home`; `from .pages import centred` reaches
`pages`) and to the packages whose `__init__` that import runs.  A function-level import is allowed
only with a one-line comment giving its reason, on its own line or on the line above it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
MOST_FUNCTION_IMPORTS = 19  # fewer than 20 in all


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    line: int
    targets: frozenset[str]  # companion's modules it reaches
    in_function: bool
    text: str


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> frozenset[str]:
    if isinstance(node, ast.Import):
        return frozenset(alias.name for alias in node.names if alias.name in MODULES)
    if node.level:
        base = module.split(".")
        if MODULES[module].name != "__init__.py":
            base.pop()
        base = base[: len(base) - (node.level - 1)]
        origin = ".".join(base + ([node.module] if node.module else []))
    else:
        origin = node.module or ""
    found = set()
    for alias in node.names:
        if f"{origin}.{alias.name}" in MODULES:
            found.add(f"{origin}.{alias.name}")
        elif origin in MODULES:
            found.add(origin)
    return frozenset(found - {module})


def imports_of(module: str) -> list[Import]:
    """Every import of `module` that runs (not those under `if TYPE_CHECKING:`)."""
    return imports_in(module, MODULES[module].read_text(encoding="utf-8"))


def imports_in(module: str, source: str) -> list[Import]:
    """Every import of `source` (the text of `module`) that runs."""
    found: list[Import] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    visit(other, in_function)
                continue
            visit(child, in_function)

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(Import(module, node.lineno, _targets(module, node), in_function,
                                ast.get_source_segment(source, node) or ""))
        walk(node, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(ast.parse(source), False)
    return found


ALL_IMPORTS = [found for module in MODULES for found in imports_of(module)]


def _packages_run(module: str, target: str) -> set[str]:
    """The packages whose `__init__` importing `target` runs from `module`: its enclosing packages,
    less those enclosing `module` (already running)."""
    own = {".".join(module.split(".")[:k]) for k in range(1, module.count(".") + 2)}
    parts = target.split(".")
    return {".".join(parts[:k]) for k in range(1, len(parts))} - own


def import_graph() -> dict[str, set[str]]:
    """Each module's edges: the modules its imports name, and the packages whose `__init__` they run
    (`from .quick_start.table_rules import x` runs quick_start/__init__.py first)."""
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for found in ALL_IMPORTS:
        for target in found.targets:
            graph[found.module] |= {target} | _packages_run(found.module, target)
    return graph


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (its modules in order, the first again at the end), or None."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path, on_path = [start], {start}
        todo = [iter(sorted(graph[start]))]
        while todo:
            following = next(todo[-1], None)
            if following is None:
                todo.pop()
                done.add(path[-1])
                on_path.discard(path.pop())
            elif following in on_path:
                return path[path.index(following):] + [following]
            elif following not in done:
                path.append(following)
                on_path.add(following)
                todo.append(iter(sorted(graph[following])))
    return None


def _reason(found: Import) -> str | None:
    """The one-line comment giving a function-level import's reason: on its line or just above."""
    lines = MODULES[found.module].read_text(encoding="utf-8").splitlines()
    own = lines[found.line - 1]
    if "#" in own:
        return own.split("#", 1)[1].strip() or None
    above = lines[found.line - 2].strip() if found.line > 1 else ""
    return above[1:].strip() or None if above.startswith("#") else None


def function_imports() -> list[Import]:
    return [found for found in ALL_IMPORTS if found.in_function]


def test_the_walk_sees_every_kind_of_import():
    graph = import_graph()
    assert "companion.commands.common" in graph["companion.commands.files"]  # relative, module level
    assert "companion.app.views.pages" in graph["companion.app.views.fleets"]  # `from .pages import x`
    assert "companion.engine.format_error" in graph["companion.engine.cards"]
    assert _packages_run("companion.engine.cards", "companion.engine.quick_start.table_rules") == {
        "companion.engine.quick_start"}  # a package's __init__ runs before its module


def test_function_level_imports_are_read_and_type_checking_ones_left_out():
    source = ("from typing import TYPE_CHECKING\n"
              "from . import pages\n"
              "if TYPE_CHECKING:\n    from . import join\n"
              "class A:\n    def f(self):\n        from . import share  # why\n")
    found = imports_in("companion.app.views.home", source)
    assert [(f.targets, f.in_function) for f in found if f.targets] == [
        (frozenset({"companion.app.views.pages"}), False), (frozenset({"companion.app.views.share"}), True)]


def test_a_cycle_is_found_and_named():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycle(graph) == ["a", "b", "c", "a"]
    assert import_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_among_companions_modules_lazy_or_not():
    cycle = import_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_fewer_than_20_function_level_imports():
    found = function_imports()
    listing = "\n".join(f"{f.module}:{f.line}: {f.text}" for f in found)
    assert len(found) <= MOST_FUNCTION_IMPORTS, f"{len(found)} function-level imports:\n{listing}"


def test_each_function_level_import_says_why():
    silent = [f"{f.module}:{f.line}: {f.text}" for f in function_imports() if not _reason(f)]
    assert not silent, "function-level imports with no reason comment:\n" + "\n".join(silent)
