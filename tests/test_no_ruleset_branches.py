"""No shared code asks a game which ruleset it is (issue 27).

Outside each ruleset's own packages (`companion/engine/<id>/`,
`companion/app/rulesets/<id>/`) and the two registries, no code names a
ruleset's id ("quick-start", ...) or its value (`QUICK_START`, ...), and
nowhere does code `isinstance`-check (or `issubclass`, or `type(x) is`)
another ruleset's types: shared code asks the `Ruleset` value (its
capabilities: `reach`, `view`, `ship_name`, ...) or the app's `GameScreens`.
Read with `ast`, so docstrings and comments do not count: string constants
that are not docstrings, names and attributes do.  A type is another
ruleset's when the file imported it from that ruleset's packages.

A ruleset's command modules (`COMMANDS_OF`) count as its own packages; the
few shared files that must name a ruleset (an old save's default) are in
`ALLOWED`, each with its reason.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"

#: each ruleset's package name -> (its id, the name of its `Ruleset` value)
RULESETS = {
    "quick_start": ("quick-start", "QUICK_START"),
    "war_fleet": ("war-fleet", "WAR_FLEET"),
    "decisive_victory": ("decisive-victory", "DECISIVE_VICTORY"),
}

#: the registries: the one place each names every ruleset
REGISTRIES = {"companion/engine/registry.py", "companion/app/rulesets/__init__.py", "companion/app/rulesets/registry.py"}

#: the command line's modules of one ruleset: each is that ruleset's own, as its packages are
COMMANDS_OF = {
    "companion/commands/quick_start.py": "quick_start",  # its game commands, the shot advisor and fire plan
    "companion/commands/war_fleet.py": "war_fleet",  # its game commands
    "companion/commands/dv.py": "decisive_victory",  # its odds
    "companion/commands/dv_files.py": "decisive_victory",  # validate and print of its own files
}

#: file -> why it may name a ruleset (its id or value); isinstance on another ruleset's types is never allowed
ALLOWED = {
    "companion/store/export.py": "a game file from before rulesets names none: it is a Quick-Start game (old saves open)",
    "companion/store/game.py": "a stored game from before rulesets names none: it is a Quick-Start game (old saves open)",
    "companion/store/repository.py": "a stored record from before rulesets names none: it is Quick-Start (old saves open)",
    "companion/store/import_warfleet.py": "War Fleet's save files from before the store are War Fleet games",
}

@dataclass(frozen=True)
class Branch:
    """One place code names a ruleset or checks another ruleset's type."""

    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _own_ruleset(path: str) -> str | None:
    """The ruleset package a file belongs to (engine/<id>/, app/rulesets/<id>/ or one of its command
    modules), or None (shared)."""
    if path in COMMANDS_OF:
        return COMMANDS_OF[path]
    parts = path.split("/")
    for prefix in (["companion", "engine"], ["companion", "app", "rulesets"]):
        if parts[:len(prefix)] == prefix and len(parts) > len(prefix) + 1 and parts[len(prefix)] in RULESETS:
            return parts[len(prefix)]
    return None


def _ruleset_of_module(module: str) -> str | None:
    """The ruleset whose packages hold `module` (a dotted name), or None."""
    parts = module.split(".")
    for prefix in (["companion", "engine"], ["companion", "app", "rulesets"]):
        if parts[:len(prefix)] == prefix and len(parts) > len(prefix) and parts[len(prefix)] in RULESETS:
            return parts[len(prefix)]
    return None


def _absolute(path: str, node: ast.ImportFrom) -> str:
    """The dotted module an `ImportFrom` names, relative imports resolved against the file's package."""
    if not node.level:
        return node.module or ""
    package = path.removesuffix(".py").split("/")[:-1]
    base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
    return ".".join([*base, *(node.module.split(".") if node.module else [])])


def _defined_in(module: str, name: str) -> str | None:
    """The module that defines `module.name` (a class re-exported elsewhere is its defining module's),
    or None when it cannot be imported here."""
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        try:
            return importlib.import_module(f"{module}.{name}").__name__
        except ImportError:
            return None
    return getattr(found, "__name__", None) if isinstance(found, type(ast)) else getattr(found, "__module__", None)


def _imported_from(path: str, tree: ast.Module) -> dict[str, str]:
    """Each local name the file imported from a ruleset's packages -> that ruleset (the one that
    defines it: the kernel's `Refused` re-exported by a ruleset's game module is nobody's)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = _absolute(path, node)
            for alias in node.names:
                defined = _defined_in(module, alias.name) if path.startswith("companion/") else None
                owner = _ruleset_of_module(defined) if defined else (
                    _ruleset_of_module(f"{module}.{alias.name}") or _ruleset_of_module(module))
                if owner:
                    names[alias.asname or alias.name] = owner
        elif isinstance(node, ast.Import):
            for alias in node.names:
                owner = _ruleset_of_module(alias.name)
                if owner and alias.asname:
                    names[alias.asname] = owner
    return names


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes (module, class, function): they do not count."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _names_id(text: str, ruleset_id: str) -> bool:
    """Whether a string names the id as a word ("quick-start", "a quick-start game"), not as part
    of another word (a format family such as "decisive-victory-ship", a file "decisive-victory.md")."""
    return re.search(rf"(?<![\w-]){re.escape(ruleset_id)}(?![\w-]|\.\w)", text) is not None


def _type_owner(node: ast.expr, imported: dict[str, str]) -> str | None:
    """The ruleset a type expression (`GameState`, `wf.WarShip`) was imported from, or None."""
    if isinstance(node, ast.Name):
        return imported.get(node.id)
    if isinstance(node, ast.Attribute):
        while isinstance(node, ast.Attribute):
            node = node.value
        return imported.get(node.id) if isinstance(node, ast.Name) else None
    return None


def _checked_types(node: ast.AST) -> list[ast.expr]:
    """The types an `isinstance`/`issubclass` call or a `type(x) is T` comparison checks against."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "issubclass"):
        if len(node.args) == 2:
            second = node.args[1]
            return list(second.elts) if isinstance(second, ast.Tuple) else [second]
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) and isinstance(node.left.func, ast.Name) \
            and node.left.func.id == "type" and all(isinstance(op, (ast.Is, ast.Eq, ast.IsNot, ast.NotEq))
                                                    for op in node.ops):
        return list(node.comparators)
    return []


def branches(path: str, source: str) -> list[Branch]:
    """Every place in one file that names a ruleset other than its own, or type-checks another's types."""
    tree = ast.parse(source)
    own = _own_ruleset(path)
    others = {name: value for name, value in RULESETS.items() if name != own}
    imported = _imported_from(path, tree)
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found += [Branch(path, line, f"names the ruleset id {ruleset_id!r}")
                      for ruleset_id, _ in others.values() if _names_id(node.value, ruleset_id)]
        names = [node.id] if isinstance(node, ast.Name) else [node.attr] if isinstance(node, ast.Attribute) else \
            [a.asname or a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
        found += [Branch(path, line, f"names the ruleset value {value}")
                  for _, value in others.values() if value in names]
        for checked in _checked_types(node):
            owner = _type_owner(checked, imported)
            if owner is not None and owner != own:
                found.append(Branch(path, line, f"checks a type of {owner} ({ast.unparse(checked)})"))
    return found


def _files() -> list[str]:
    return sorted(str(f.relative_to(ROOT)) for f in PACKAGE.rglob("*.py"))


def _found(path: str) -> list[Branch]:
    return branches(path, (ROOT / path).read_text(encoding="utf-8"))


def _shared_files() -> list[str]:
    return [p for p in _files() if p not in REGISTRIES]


def test_no_shared_file_asks_which_ruleset_a_game_is():
    found = [b for p in _shared_files() for b in _found(p)
             if p not in ALLOWED or b.what.startswith("checks a type")]
    assert not found, "shared code branches on a ruleset:\n" + "\n".join(map(str, found))


def test_every_allowed_file_still_needs_its_place():
    """An allow-list entry whose file no longer names a ruleset goes (the list stays short and true)."""
    stale = [p for p in ALLOWED if not (ROOT / p).exists() or not _found(p)]
    assert not stale, f"no longer needed in ALLOWED: {stale}"


# --- the scanner itself ---------------------------------------------------------------------------------


def test_the_scanner_finds_ids_values_and_type_checks_but_not_docstrings():
    source = '''
"""Quick-Start ("quick-start") in a docstring does not count."""
from ..engine.war_fleet.state import WarFleetState
from ..engine.quick_start.ruleset import QUICK_START
from ..engine.war_fleet import actions as wa

def f(state):
    """"war-fleet" here neither."""
    # "decisive-victory" in a comment neither
    if isinstance(state, WarFleetState) or isinstance(state, (int, wa.Step)):
        return "war-fleet"
    return QUICK_START if type(state) is WarFleetState else None
'''
    found = [b.what for b in branches("companion/app/example.py", source)]
    assert sorted(found) == sorted([
        "names the ruleset value QUICK_START", "names the ruleset value QUICK_START",
        "checks a type of war_fleet (WarFleetState)", "checks a type of war_fleet (wa.Step)",
        "names the ruleset id 'war-fleet'", "checks a type of war_fleet (WarFleetState)",
    ])


def test_a_ruleset_may_name_itself_but_not_another():
    source = 'from .state import WarFleetState\nfrom ..quick_start.state import GameState\n' \
             'RULESET = "war-fleet"\nOK = isinstance(1, WarFleetState)\nBAD = isinstance(1, GameState)\n'
    found = [b.what for b in branches("companion/engine/war_fleet/example.py", source)]
    assert found == ["checks a type of quick_start (GameState)"]
