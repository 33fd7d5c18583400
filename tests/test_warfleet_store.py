"""War Fleet games in the store (issue 13): every act, undo and redo saved before it is reported
done, reopened after a restart to the same state with the same dice, pocket battles linked to their
Quick-Start games through the log; and the War Fleet games an older version kept in files of their
own (`warfleet/<id>.json`) imported once, the old file kept aside and named."""

from __future__ import annotations

import errno
import json

import pytest

from companion.app.rulesets.war_fleet import model as M
from companion.engine.war_fleet import actions as A
from companion.files import load_catalogue, shipped_fleets_dir
from companion.store import TinyDBStore
from companion.store.import_warfleet import IMPORTED
from companion.store.store import MemoryStore


@pytest.fixture(scope="module")
def start():
    return M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="saves")


@pytest.fixture()
def stores(tmp_path):
    """Stores on one data folder, opened in turn as after restarts; all closed at the end."""
    opened = []

    def open_store():
        if opened:
            opened[-1].close()  # one writer to a data folder at a time, as one server is
        opened.append(TinyDBStore(tmp_path))
        return opened[-1]

    yield open_store
    for store in opened:
        store.close()


def play_to_combat(game) -> None:
    """Initiative rolled, the Leviathan moved within reach (with an undo and a redo on the way)."""
    assert game.act(A.RollInitiative()).ok
    assert game.state.phase == "movement"
    if game.state.initiative != "French":  # the Leviathan's class moves when the French won
        assert game.undo() and game.act(A.SetInitiative(side="French")).ok
    assert game.act(A.Step(ship="hml-leviathan", step="starboard")).ok
    assert game.act(A.Step(ship="hml-leviathan", step="forward")).ok
    assert game.undo() and game.redo()
    assert game.act(A.Step(ship="hml-leviathan", step="forward")).ok
    assert game.act(A.EndMovement()).ok
    assert game.state.phase == "combat"


def declare_and_roll(game) -> None:
    row = M.option_rows(game.state, "hml-leviathan")[0]
    assert game.act(row.strikes[0].action).ok
    assert game.act(A.RollAttack(attack=1)).ok
    assert [a.result is not None for a in game.state.attacks if a.id == 1] == [True]


def test_a_game_reopens_as_it_was_after_acts_undos_redos_and_rolled_attacks(stores, start):
    played = stores().new_game(start, "Battle")
    play_to_combat(played)
    declare_and_roll(played)
    rolled = played.state
    assert played.undo()  # the roll undone: it waits on the redo stack
    again = stores().game(played.id)
    assert again.state == played.state and again.can_redo and again.ruleset.id == M.WAR_FLEET
    assert again.redo() and again.state == rolled  # the same dice again: the roller is in the state
    assert [e.text for e in again.history()] == [e.text for e in played.history()] + [
        e.text for e in again.history()[len(played.history()):]]


def test_every_change_is_on_disk_before_it_is_reported(stores, start):
    game = stores().new_game(start, "Durable")
    for action in (A.SetInitiative(side="French"), A.Step(ship="hml-leviathan", step="port")):
        assert game.act(action).ok
        assert stores().game(game.id).state == game.state
    assert game.undo()
    assert stores().game(game.id).state == game.state


def test_a_failed_save_refuses_the_action_and_changes_nothing(stores, start, monkeypatch):
    from companion.store import segments

    game = stores().new_game(start, "Full disk")
    assert game.act(A.SetInitiative(side="French")).ok
    before, log = game.state, [e.text for e in game.history()]

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "games")

    monkeypatch.setattr(segments.GameFolder, "append", full)
    refused = game.act(A.Step(ship="hml-leviathan", step="port"))
    assert not refused.ok and "could not be saved" in refused.reason and "No space left" in refused.reason
    assert game.state == before and [e.text for e in game.history()] == log
    assert not game.undo() and "No space left" in game.save_problem and game.state == before
    monkeypatch.undo()
    assert game.act(A.Step(ship="hml-leviathan", step="port")).ok and game.save_problem is None
    after = game.state
    assert stores().game(game.id).state == after  # the folder holds what was reported done, and only that


def test_pocket_battles_name_their_quick_start_games_in_the_log(stores, start):
    store = stores()
    game = store.new_game(start, "Pockets")
    play_to_combat(game)
    quick_id, text = M.open_pocket(game, M.near(game.state, "hml-leviathan", reach=2), store, "Pocket")
    assert quick_id and game.state.pocket(1).game == quick_id and "Pocket battle 1" in text
    assert game.entries[-1].action["game"] == quick_id
    assert store.game(quick_id).ruleset.id == "quick-start"
    store.close()
    again_store = stores()
    again = again_store.game(game.id)
    assert again.state.pocket(1).game == quick_id and again.state == game.state
    assert [r.game_id for r in M.pocket_rows(again)] == [quick_id]
    outcome = M.bring_back(again, 1, again_store)
    assert outcome.ok and not again.state.pocket(1).open


def test_a_pocket_that_cannot_be_saved_leaves_no_quick_start_game(start, monkeypatch):
    store = MemoryStore()
    game = store.new_game(start, "No room")
    play_to_combat(game)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", "games")

    monkeypatch.setattr(game, "_sink", type("Sink", (), {"append": read_only})())
    quick_id, text = M.open_pocket(game, M.near(game.state, "hml-leviathan", reach=2), store, "Pocket")
    assert quick_id is None and "could not be saved" in text and "Read-only" in text
    assert [s.id for s in store.games()] == [game.id] and game.state.pockets == []


def test_the_route_names_the_war_fleet_game():
    from companion.app.session import Session, session_from_route

    assert Session("warfleet", "wf-1").route == "/warfleet/wf-1"
    assert session_from_route("/warfleet/wf-1") == Session("warfleet", "wf-1")
    assert session_from_route("/warfleet") == Session("warfleet")


# --- the War Fleet saves of an older version, imported once ---------------------------------------


def old_save(start, game_id="wf-20260101-120000-abcd", name="Old battle") -> tuple[dict, object]:
    """A `leviathans-warfleet-save/1` file as the older version wrote it (a pocket battle open, one
    action undone), and the game as it was then."""
    game = MemoryStore().new_game(start, name)
    play_to_combat(game)
    quick_id = "20260101-120500-beef"
    ships = M.near(game.state, "hml-leviathan", reach=2)
    assert game.act(A.OpenPocket(ships=ships)).ok  # the old log kept the link beside the action
    assert game.act(A.SetBookkeeping(on=True)).ok and game.undo()
    done = [e for e in game.entries]  # rebuild what the old file held: actions in effect and undone
    from companion.store.game import undo_stacks

    in_effect, undone = undo_stacks(done)
    data = {
        "format": "leviathans-warfleet-save/1", "id": game_id, "name": name, "created": 1767268800.0,
        "updated": 1767269100.0,
        "summary": {"turn": game.state.turn, "phase": game.state.phase, "sides": list(game.state.sides),
                    "actions": len(in_effect), "result": None},
        "done": [{"action": {k: v for k, v in a.items() if k != "game"}, "events": [], "at": 1767268900.0}
                 for a in in_effect],
        "undone": undone,
        "pockets": {"1": quick_id},
        "initial": json.loads(start.model_dump_json(by_alias=True)),
    }
    return data, game


def test_an_old_war_fleet_save_is_imported_once_and_its_file_kept_aside(tmp_path, stores, start):
    data, played = old_save(start)
    folder = tmp_path / "warfleet"
    folder.mkdir()
    (folder / f"{data['id']}.json").write_text(json.dumps(data))
    store = stores()
    game = store.game(data["id"])
    assert game.ruleset.id == M.WAR_FLEET and game.name == "Old battle"
    assert game.state == played.state.model_copy(update={"pockets": [
        p.model_copy(update={"game": "20260101-120500-beef"}) for p in played.state.pockets]})
    assert game.state.pocket(1).game == "20260101-120500-beef"
    assert game.can_redo and game.redo() and game.state.settings.bookkeeping  # the undone step is still offered
    assert not (folder / f"{data['id']}.json").exists() and (folder / f"{data['id']}.json{IMPORTED}").exists()
    assert store.imported and "kept as" in store.imported[0] and store.problems == []
    assert [s.id for s in M.war_fleet_games(stores())] == [data["id"]]  # once: the next start finds it in games/


def test_damaged_old_saves_are_set_aside_and_named_and_the_others_imported(tmp_path, stores, start):
    data, _ = old_save(start)
    folder = tmp_path / "warfleet"
    folder.mkdir()
    good = json.dumps(data).encode()
    (folder / f"{data['id']}.json").write_bytes(good)
    bad = {"wf-cut": good[: len(good) // 2], "wf-empty": b"", "wf-binary": b"\xff\xfe\x00garbage",
           "wf-future": json.dumps({"format": "leviathans-warfleet-save/2", "id": "wf-future"}).encode()}
    for name, raw in bad.items():
        (folder / f"{name}.json").write_bytes(raw)
    broken = dict(data, id="wf-broken", done=[{"action": {"kind": "end_turn"}, "events": [], "at": 0}])
    (folder / "wf-broken.json").write_text(json.dumps(broken))
    store = stores()
    assert [s.id for s in M.war_fleet_games(store)] == [data["id"]]
    problems = "\n".join(store.problems)
    for name in bad:
        assert f"{name}.json" in problems and "could not be imported" in problems
        assert not (folder / f"{name}.json").exists()  # set aside, kept under another name
    assert "wf-broken.json: this War Fleet game cannot be imported: action 1 (end turn) does not replay" in problems
    assert (folder / "wf-broken.json").read_text() == json.dumps(broken)  # left as it is


def test_an_old_save_is_held_to_a_new_games_checks_and_its_name_cleaned(tmp_path, stores, start):
    """Issue 36: the upgrade of an old save is a way into the store like an import: sides that only
    look different are refused (the file left as it is, named); a raw escape in its name is cleaned."""
    data, _ = old_save(start, name="\x1b[31mOld\u202e battle" + "!" * 200)
    folder = tmp_path / "warfleet"
    folder.mkdir()
    (folder / f"{data['id']}.json").write_text(json.dumps(data))
    lookalike = json.loads(json.dumps(data))
    lookalike["id"] = "wf-lookalike"
    lookalike["initial"]["sides"] = ["British", "BRITISH"]
    for ship in lookalike["initial"]["ships"]:
        ship["side"] = "BRITISH" if ship["side"] == "French" else ship["side"]
    (folder / "wf-lookalike.json").write_text(json.dumps(lookalike))
    store = stores()
    assert [s.id for s in M.war_fleet_games(store)] == [data["id"]]
    name = store.game(data["id"]).name
    assert name.startswith("[31mOld battle!") and len(name) == 80 and "\x1b" not in name
    problems = "\n".join(store.problems)
    assert "wf-lookalike.json: this War Fleet game cannot be imported: initial.sides: sides 'British' and " \
           "'BRITISH' look the same" in problems
    assert (folder / "wf-lookalike.json").exists()  # left as it is
