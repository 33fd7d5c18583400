"""Games scripted from a shell (issue 13): `companion new | act | options` and the store commands
for every ruleset, bad input in one plain line, and no import cycle in the `companion` package."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.commands import main

ROOT = Path(__file__).resolve().parent.parent
WAR_FLEET_SCENARIO = str(ROOT / "fleets" / "war-fleet-20v20.json")
QUICK_START_SCENARIO = {
    "format": "leviathans-scenario/1", "ruleset": "quick-start", "name": "Raven meets Pelletier",
    "board": {"columns": 33, "rows": 19}, "turn": 1,
    "ships": [{"id": "raven", "side": "British", "card": "hml-raven", "bow": "1010", "facing": "N"},
              {"id": "pelletier", "side": "French", "card": "pelletier", "bow": "1005", "facing": "S"}],
}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def new_game(capsys, data, scenario, *more):
    code, out, err = run(capsys, "new", scenario, "--data", data, *more)
    assert code == 0 and err == "", err
    [game_id] = out.split()
    return game_id


def act(capsys, data, game_id, action, *more):
    return run(capsys, "act", game_id, json.dumps(action), "--data", data, *more)


def options(capsys, data, game_id, *more):
    code, out, err = run(capsys, "options", game_id, "--json", "--data", data, *more)
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def quick_start_scenario(tmp_path):
    path = tmp_path / "raven.json"
    path.write_text(json.dumps(QUICK_START_SCENARIO))
    return str(path)


# --- War Fleet, end to end ---------------------------------------------------------------


def test_a_war_fleet_game_scripted_from_the_command_line(capsys, tmp_path):
    data = tmp_path / "data"
    game_id = new_game(capsys, data, WAR_FLEET_SCENARIO, "--seed", "7")

    [first] = options(capsys, data, game_id)
    assert first == {"action": {"kind": "roll_initiative"}, "possible": True, "problem": None}
    code, out, err = act(capsys, data, game_id, {"kind": "roll_initiative"})
    assert code == 0 and out.startswith("Initiative: British 7, French 2.") and err == ""

    listed = options(capsys, data, game_id, "--side", "British")
    assert all(set(o) == {"action", "possible", "problem"} for o in listed)
    refused = next(o for o in listed if not o["possible"])
    assert isinstance(refused["problem"], str) and refused["problem"]
    move = next(o["action"] for o in listed if o["possible"] and o["action"]["kind"] == "step")
    code, out, err = act(capsys, data, game_id, move, "--json")
    assert code == 0 and [e["kind"] for e in json.loads(out)] == ["step"]

    code, out, err = act(capsys, data, game_id, refused["action"])
    assert code == 1 and out == ""
    assert err == f"refused (not_your_turn): {refused['problem']}\n"

    code, out, _ = run(capsys, "games", "--json", "--data", data)
    [summary] = json.loads(out)
    assert summary["id"] == game_id and summary["ruleset"] == "war-fleet" and summary["actions"] == 2
    code, out, _ = run(capsys, "games", "--data", data)
    assert code == 0 and "rules" in out.splitlines()[0] and "war-fleet" in out

    exported = tmp_path / "battle.json"
    code, out, err = run(capsys, "export", game_id, exported, "--data", data)
    assert code == 0 and "2 log entries" in out and "secret dice seed" in err
    code, out, _ = run(capsys, "import", exported, "--data", tmp_path / "other")
    assert code == 0 and out.startswith("imported War Fleet: twenty against twenty") and "movement" in out
    code, out, _ = run(capsys, "verify", game_id, "--data", tmp_path / "other")
    assert code == 0 and "the seed matches the commitment" in out and "all 2 rolls match" in out
    assert options(capsys, tmp_path / "other", game_id) == options(capsys, data, game_id)

    code, out, _ = run(capsys, "replay", game_id, "--to", "1", "--data", data)
    after_one = json.loads(out)
    assert code == 0 and after_one["format"] == "leviathans-warfleet-scenario/1"
    assert after_one["name"].endswith("(after 1 of 2 log entries)")
    code, out, _ = run(capsys, "replay", game_id, "--data", data)
    now = json.loads(out)
    ship = move["ship"]
    assert next(s for s in now["ships"] if s["id"] == ship) != next(s for s in after_one["ships"] if s["id"] == ship)


def test_the_same_seed_gives_the_same_dice_and_no_seed_a_secret_one(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_SEED", raising=False)
    data = tmp_path / "data"
    rolled = []
    for seed in (["--seed", "7"], ["--seed", "7"], []):
        game_id = new_game(capsys, data, WAR_FLEET_SCENARIO, *seed)
        rolled.append(act(capsys, data, game_id, {"kind": "roll_initiative"}, "--json")[1])
    assert rolled[0] == rolled[1]
    code, out, _ = run(capsys, "games", "--json", "--data", data)
    commitments = [g["commitment"] for g in json.loads(out)]
    assert len(set(commitments)) == 2  # the two seeded games share theirs; the secret seed is another


def test_new_names_the_game_and_runs_through_the_entry_point(tmp_path):
    """`python -m companion` is the same command as the installed `companion`."""
    data = tmp_path / "data"
    made = subprocess.run([sys.executable, "-m", "companion", "new", WAR_FLEET_SCENARIO, "--name", "Dogger Bank",
                           "--seed", "1", "--data", str(data)], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0 and made.stderr == ""
    listed = subprocess.run([sys.executable, "-m", "companion", "games", "--data", str(data)],
                            capture_output=True, text=True, timeout=120)
    assert made.stdout.strip() in listed.stdout and "Dogger Bank" in listed.stdout


# --- Quick-Start, the same way ----------------------------------------------------------------


def test_a_quick_start_game_scripted_from_the_command_line(capsys, tmp_path, quick_start_scenario):
    data = tmp_path / "data"
    game_id = new_game(capsys, data, quick_start_scenario, "--seed", "3")
    code, out, _ = act(capsys, data, game_id, {"kind": "roll_initiative"})
    assert code == 0 and "French wins the initiative" in out

    code, out, _ = run(capsys, "options", game_id, "--data", data)
    assert code == 0 and out.startswith("Raven meets Pelletier: turn 1, movement")
    assert '(not now) {"kind": "step", "ship": "pelletier"' in out
    british = options(capsys, data, game_id, "--side", "British")
    step = {"kind": "step", "ship": "raven", "step": "forward"}
    assert {"action": step, "possible": True, "problem": None} in british
    assert act(capsys, data, game_id, step)[0] == 0
    code, out, err = act(capsys, data, game_id, {"kind": "step", "ship": "pelletier", "step": "forward"})
    assert code == 1 and err.startswith("refused (not_your_turn): ")

    code, out, _ = run(capsys, "games", "--json", "--data", data)
    assert [g["ruleset"] for g in json.loads(out)] == ["quick-start"]
    exported = tmp_path / "raven-game.json"
    assert run(capsys, "export", game_id, exported, "--data", data)[0] == 0
    assert run(capsys, "import", exported, "--data", tmp_path / "other")[0] == 0
    code, out, _ = run(capsys, "verify", game_id, "--data", tmp_path / "other")
    assert code == 0 and "all 4 rolls match" in out
    code, out, _ = run(capsys, "replay", game_id, "--data", data)
    scenario = json.loads(out)
    assert scenario["format"] == "leviathans-scenario/1"
    assert next(s for s in scenario["ships"] if s["id"] == "raven")["bow"] != "1010"


# --- bad input: one plain line, exit 1 ------------------------------------------------------


@pytest.mark.parametrize("action, said", [
    ('{"kind": ', "error: ACTION: not valid JSON"),
    ("[1, 2]", "error: ACTION: is not a JSON object"),
    ('{"kind": "no_such_action"}', "refused (malformed): "),
    ('{"kind": "step", "ship": "no-such-ship", "step": "forward"}', "refused (illegal): "),
])
def test_a_bad_action_is_one_plain_line(capsys, tmp_path, quick_start_scenario, action, said):
    data = tmp_path / "data"
    game_id = new_game(capsys, data, quick_start_scenario, "--seed", "3")
    code, out, err = run(capsys, "act", game_id, action, "--data", data)
    assert code == 1 and out == "" and err.startswith(said)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "http" not in err
    code, out, _ = run(capsys, "games", "--json", "--data", data)
    assert json.loads(out)[0]["actions"] == 0  # nothing was logged


@pytest.mark.parametrize("argv, said", [
    (("act", "no-such-game", '{"kind": "end_turn"}'), "error: no game 'no-such-game'"),
    (("options", "no-such-game", "--json"), "error: no game 'no-such-game'"),
    (("act", "", '{"kind": "end_turn"}'), "error: GAME is empty"),
    (("new", str(ROOT / "fleets" / "quick-start-british.json")), "error: "),
    (("new", "no-such-file.json"), "error: no-such-file.json"),
])
def test_an_unknown_game_or_a_file_that_is_no_scenario_is_one_plain_line(capsys, tmp_path, argv, said):
    code, out, err = run(capsys, *argv, "--data", tmp_path / "data")
    assert code == 1 and out == "" and err.startswith(said) and len(err.strip().splitlines()) == 1


def test_options_for_a_side_not_in_the_game_names_the_sides(capsys, tmp_path, quick_start_scenario):
    data = tmp_path / "data"
    game_id = new_game(capsys, data, quick_start_scenario)
    code, out, err = run(capsys, "options", game_id, "--side", "Prussia", "--data", data)
    assert code == 1 and err.strip() == "error: no side 'Prussia' in Raven meets Pelletier (sides: British, French)"


# --- no import cycle -------------------------------------------------------------------------------


def module_imports(package: Path) -> dict[str, set[str]]:
    """Each module of `package` -> the modules of the package it imports when it is imported.

    Counted: imports at module level (also inside module-level `if`/`try`/`with`
    and class bodies), relative or absolute; `from pkg import name` counts
    `pkg.name` when that is a module, else `pkg`.  Not counted: imports inside
    functions (lazy imports that run when called, after every module has
    loaded), imports under `if TYPE_CHECKING:`, and the implicit import of a
    module's parent package.
    """
    def name_of(path: Path) -> str:
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    modules = {name_of(path): path for path in package.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        imported = set()
        for node in _module_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
            imported.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
        graph[name] = {m for m in imported if m in modules and m != name}
    return graph


def _module_level_imports(tree: ast.Module):
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(getattr(node, field, None) or [])


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (its modules in order, the first again at the end), or None."""
    done: set[str] = set()
    for start in sorted(graph):
        path, on_path, todo = [], set(), [(start, iter(sorted(graph[start])))]
        if start in done:
            continue
        path.append(start)
        on_path.add(start)
        while todo:
            node, rest = todo[-1]
            following = next(rest, None)
            if following is None:
                todo.pop()
                done.add(path.pop())
                on_path.discard(node)
            elif following in on_path:
                return path[path.index(following):] + [following]
            elif following not in done:
                path.append(following)
                on_path.add(following)
                todo.append((following, iter(sorted(graph[following]))))
    return None


def test_the_companion_package_has_no_import_cycle():
    graph = module_imports(ROOT / "companion")
    assert "companion.commands.common" in graph["companion.commands.files"]  # the walk sees relative imports
    assert import_cycle(graph) is None, " -> ".join(import_cycle(graph))


def test_no_command_module_imports_the_entry_point():
    """Not even lazily: the registry lives in commands/common.py, below the entry point (`main`)."""
    folder = ROOT / "companion" / "commands"
    submodules = {path.stem for path in folder.glob("*.py")}
    for path in folder.glob("*.py"):
        if path.name == "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                assert "companion.commands" not in {a.name for a in node.names}, path.name
            elif isinstance(node, ast.ImportFrom):
                assert node.module != "companion.commands", path.name
                if node.level == 1 and node.module is None:  # `from . import x`: x must be a module
                    assert {a.name for a in node.names} <= submodules, path.name


def test_the_cycle_check_finds_a_cycle(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from . import b\n")
    (package / "a.py").write_text("def later():\n    from . import b\n")
    (package / "sub" / "b.py").write_text("from ..c import x\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\nx = 1\n")
    graph = module_imports(package)
    assert import_cycle(graph) is None  # the lazy and the type-checking imports are not counted
    (package / "c.py").write_text("import pkg.sub\nx = 1\n")
    assert import_cycle(module_imports(package)) == ["pkg.c", "pkg.sub", "pkg.sub.b", "pkg.c"]
