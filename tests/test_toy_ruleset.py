"""A fifth ruleset with no shared file edited (issue 27): the toy tug of war (tests/toy_ruleset/) is
registered through the entry points of a fake distribution on PYTHONPATH, and plays through the
store, the shared table and the command line.  The registries are built when first imported, so
every check runs in a subprocess that has the toy on its path before `companion` is imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = Path(__file__).resolve().parent / "toy_ruleset"
SCENARIO = TOY / "scenario.json"


def toy_env() -> dict[str, str]:
    """The environment of a process that sees the toy (its package and its dist-info)."""
    path = os.pathsep.join(p for p in (str(TOY), os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, PYTHONPATH=path, COMPANION_SEED="")


def python(code: str) -> dict:
    """Run `code` with the toy plugged in; what it prints last (JSON)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=toy_env(), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def cli(*args: str, data: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args, "--data", str(data)], env=toy_env(), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_the_toy_is_in_both_registries_with_it_on_the_path_only():
    seen = python("""
        import json
        from companion.engine.registry import RULESETS, find_ruleset
        from companion.app.rulesets.registry import SCREENS, start_tiles
        print(json.dumps({"rules": list(RULESETS), "screens": list(SCREENS), "name": find_ruleset("toy-tug").name,
                          "tiles": [t.ident for t in start_tiles()]}))
    """)
    assert seen["rules"][-1] == seen["screens"][-1] == "toy-tug"
    assert seen["name"] == "Tug of war" and "toy-tug" in seen["tiles"]
    from companion.engine.registry import RULESETS  # this process has no toy on its path
    assert "toy-tug" not in RULESETS


def test_store_new_game_act_and_reopen(tmp_path):
    seen = python(f"""
        import json
        from companion.store import open_store
        from companion.engine.registry import find_ruleset
        toy = find_ruleset("toy-tug")
        store = open_store({str(tmp_path)!r})
        game = store.new_game(toy.build_state(toy.load_scenario({{"format": "toy-tug-scenario/1"}})), "Tug")
        pulls = [game.act({{"kind": "pull", "side": s}}).ok for s in ("Red", "Red", "Blue")]
        wrong = game.act({{"kind": "pull", "side": "Green"}}).reason
        malformed = game.act({{"kind": "push"}}).reason
        undone = game.undo()
        gid, rope = game.id, game.state.rope
        store.close()
        again = open_store({str(tmp_path)!r})
        reopened = again.game(gid)
        listed = [(g.ruleset, g.phase, g.sides) for g in again.games()]
        opened = [reopened.ruleset.id, reopened.state.rope]
        won = [reopened.act({{"kind": "pull", "side": "Red"}}).ok for _ in range(2)]
        print(json.dumps({{"pulls": pulls, "wrong": wrong, "malformed": malformed, "undone": undone, "rope": rope,
                           "reopened": opened, "listed": listed, "won": won,
                           "result": reopened.state.result, "after": reopened.act({{"kind": "pull", "side": "Blue"}}).reason,
                           "seed": reopened.revealed_seed is not None}}))
    """)
    assert seen["pulls"] == [True, True, True]
    assert seen["wrong"] == "there is no side 'Green' (sides: Red, Blue)"
    assert seen["malformed"].startswith("not a tug action")
    assert seen["undone"] is True and seen["rope"] == 2  # Blue's pull taken back
    assert seen["reopened"] == ["toy-tug", 2]
    assert seen["listed"] == [["toy-tug", "pulling", ["Red", "Blue"]]]
    assert seen["won"] == [True, False]  # the second pull: the game is over
    assert seen["result"] == "Red wins: the rope is 3 steps its way"
    assert seen["after"].startswith("the game is over")
    assert seen["seed"] is True  # the game's end reveals its dice seed, as every ruleset's


def test_shared_table_each_side_pulls_only_for_itself():
    seen = python("""
        import json
        from companion.app.devices import PinGate
        from companion.app.roles import Role
        from companion.app.sharing import Sharing
        from companion.engine.registry import find_ruleset
        from companion.store import MemoryStore
        toy = find_ruleset("toy-tug")
        game = MemoryStore().new_game(toy.build_state(toy.load_scenario({"format": "toy-tug-scenario/1"})), "Tug")
        sharing = Sharing(PinGate("123456"))
        host = sharing.connect(None, "127.0.0.1")
        red, blue, tv = (sharing.connect(None, f"10.0.0.{i}", "iPhone Mobile") for i in (7, 8, 9))
        for device, role in ((red, Role.holding("Red")), (blue, Role.holding("Blue")), (tv, Role.screen())):
            assert sharing.admit(device, "123456") is None
            assert sharing.hand_over(host, device.token, game, role) is None
        table = sharing.table(game)
        act = lambda device, kind, side: table.act(device, {"kind": kind, "side": side})
        said = {
            "blue for red": act(blue, "pull", "Red").reason,
            "red": act(red, "pull", "Red").ok,
            "blue": act(blue, "pull", "Blue").ok,
            "tv": act(tv, "pull", "Blue").reason,
            "red undoes blue": table.undo(red),
            "red concedes for blue": act(red, "concede", "Blue").reason,
            "host": act(host, "pull", "Blue").ok,
        }
        said["blue concedes"] = act(blue, "concede", "Blue").ok
        said["result"], said["rope"] = game.state.result, game.state.rope
        print(json.dumps(said))
    """)
    assert seen["blue for red"] == "that belongs to Red: only a device holding Red can act for it. This device holds Blue."
    assert seen["red"] is True and seen["blue"] is True
    assert seen["tv"].startswith("This is the shared screen")
    assert seen["red undoes blue"] is not None  # not Red's to take back
    assert seen["red concedes for blue"] == "Only a device holding Blue can concede for Blue; this device holds Red."
    assert seen["host"] is True and seen["blue concedes"] is True
    assert (seen["result"], seen["rope"]) == ("Red wins: Blue concedes", -1)


def test_command_line_new_act_options_games_export_import_verify_replay_report(tmp_path):
    data, other = tmp_path / "data", tmp_path / "other"
    new = cli("new", str(SCENARIO), "--name", "Rope", data=data)
    assert new.returncode == 0, new.stderr
    gid = new.stdout.strip()
    pulled = cli("act", gid, '{"kind": "pull", "side": "Blue"}', data=data)
    assert (pulled.returncode, pulled.stdout.strip()) == (0, "Blue pulls: the rope is at -1."), pulled.stderr
    refused = cli("act", gid, '{"kind": "pull", "side": "Green"}', data=data)
    assert refused.returncode == 1 and "there is no side 'Green'" in refused.stderr
    options = cli("options", gid, "--side", "Red", "--json", data=data)
    assert options.returncode == 0, options.stderr
    assert [o["action"] for o in json.loads(options.stdout)] == [{"kind": "pull", "side": "Red"},
                                                                  {"kind": "concede", "side": "Red"}]
    words = cli("options", gid, data=data)
    assert "turn 2, pulling: either side pulls the rope; 4 of 4 options possible now" in words.stdout, words.stderr
    games = cli("games", "--json", data=data)
    assert games.returncode == 0, games.stderr
    (row,) = json.loads(games.stdout)
    assert (row["id"], row["ruleset"], row["phase"]) == (gid, "toy-tug", "pulling")
    replay = cli("replay", gid, "--to", "0", data=data)
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout) | {"name": ""} == {"format": "toy-tug-scenario/1", "name": "", "sides": ["Red", "Blue"],
                                                        "rope": 0, "to_win": 3}
    assert json.loads(cli("replay", gid, data=data).stdout)["rope"] == -1
    for side in ("Blue", "Blue"):
        assert cli("act", gid, json.dumps({"kind": "pull", "side": side}), data=data).returncode == 0
    verify = cli("verify", gid, data=data)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    exported = tmp_path / "rope.json"
    assert cli("export", gid, str(exported), data=data).returncode == 0
    imported = cli("import", str(exported), data=other)
    assert imported.returncode == 0, imported.stderr
    (copy,) = json.loads(cli("games", "--json", data=other).stdout)
    assert (copy["ruleset"], copy["result"]) == ("toy-tug", "Blue wins: the rope is 3 steps its way")
    report = cli("report", gid, "--out", str(tmp_path / "report.html"), data=data)
    assert report.returncode == 0, report.stderr
    assert "Rope" in (tmp_path / "report.html").read_text()


def test_the_toy_rules_are_typed_against_the_generic_ruleset():
    """`mypy --strict` checks a plug-in's state against `GameStateLike` and its handlers and parts
    against `Ruleset[TugState, ...]`, as it does the built-in rulesets (tests/test_engine_types.py)."""
    pytest.importorskip("mypy")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
                           str(TOY / "toy_ruleset" / "engine.py")], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
