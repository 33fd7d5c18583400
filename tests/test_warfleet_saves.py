"""War Fleet games saved as they are played (companion/store/warfleet_saves.py): every act, undo and
redo is in the file before it is reported done; reopening (as after a restart) replays to the same
state with the same dice; bad files are set aside, named, and the other games still open; a save
that fails refuses the action and changes nothing."""

from __future__ import annotations

import errno
import json

import pytest

from companion.app import warfleet_model as M
from companion.engine.warfleet import actions as A
from companion.engine.warfleet.game import apply
from companion.files import load_catalogue, shipped_fleets_dir
from companion.store import TinyDBStore
from companion.store import warfleet_saves as S
from companion.store.store import MemoryStore


@pytest.fixture(scope="module")
def start():
    return M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="saves")


def tables(folder) -> M.Tables:
    """A fresh view of the data folder, as after a restart of the server."""
    return M.Tables(S.WarFleetSaves(folder))


def play_to_combat(game: M.WarFleetGame) -> None:
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


def declare_and_roll(game: M.WarFleetGame) -> None:
    row = M.option_rows(game.state, "hml-leviathan")[0]
    assert game.act(row.strikes[0].action).ok
    assert game.act(A.RollAttack(attack=1)).ok
    assert game.state.attack(1).result is not None


def test_a_game_reopens_as_it_was_after_acts_undos_redos_and_rolled_attacks(tmp_path, start):
    played = tables(tmp_path).start("phone", start, "Battle")
    play_to_combat(played)
    declare_and_roll(played)
    rolled = played.state
    assert played.undo()  # the roll undone: it waits on the redo stack

    again = tables(tmp_path).open(played.id)
    assert again is not played
    assert again.state == played.state and again.initial == played.initial
    assert [e.text for e in again.history()] == [e.text for e in played.history()]
    assert again.can_redo and again.actions_in_effect == played.actions_in_effect
    assert again.name == "Battle" and again.created == pytest.approx(played.created)
    assert again.redo()
    assert again.state == rolled  # the redone roll rolled the same dice
    assert again.state.attack(1).result == rolled.attack(1).result

    third = tables(tmp_path).open(played.id)  # the redo was saved too
    assert third.state == rolled and not third.can_redo


def test_a_replay_rolls_the_same_dice(tmp_path, start):
    played = tables(tmp_path).start("phone", start, "Dice")
    play_to_combat(played)
    declare_and_roll(played)
    record = S.WarFleetSaves(tmp_path).load(played.id)
    state = record.initial
    for done in record.done:  # the saved events are what a replay from the start gives again
        outcome = apply(state, done.action)
        assert outcome.ok and outcome.events == done.events
        state = outcome.state
    assert state == played.state and state.roller == played.state.roller
    assert state.roller.counter > start.roller.counter  # dice were rolled


def test_every_change_is_in_the_file_before_it_is_reported(tmp_path, start):
    live = tables(tmp_path)
    game = live.start("phone", start, "Each step")
    path = live.saves.path(game.id)
    assert json.loads(path.read_text())["format"] == "leviathans-warfleet-save/1"
    for action in (A.SetInitiative(side="French"), A.Step(ship="hml-leviathan", step="port")):
        assert game.act(action).ok
        assert tables(tmp_path).open(game.id).state == game.state
    assert game.undo() and tables(tmp_path).open(game.id).state == game.state
    assert game.redo() and tables(tmp_path).open(game.id).state == game.state
    summary = S.WarFleetSaves(tmp_path).summaries()[0]
    assert (summary.turn, summary.phase, summary.actions, summary.sides) == (1, "movement", 2, ["British", "French"])


def test_a_failed_save_refuses_the_action_and_changes_nothing(tmp_path, start, monkeypatch):
    game = tables(tmp_path).start("phone", start, "Full disk")
    assert game.act(A.SetInitiative(side="French")).ok
    before, log = game.state, [e.text for e in game.history()]

    def full(path, payload):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(S, "write_atomic", full)
    refused = game.act(A.Step(ship="hml-leviathan", step="port"))
    assert not refused.ok and "could not be saved" in refused.reason and "No space left" in refused.reason
    assert game.state == before and [e.text for e in game.history()] == log
    assert not game.undo() and "No space left" in game.save_problem and game.state == before
    monkeypatch.undo()

    assert tables(tmp_path).open(game.id).state == before  # the file holds what was reported done
    assert game.act(A.Step(ship="hml-leviathan", step="port")).ok and game.save_problem is None


def test_a_saver_that_raises_refuses_redo_too(start):
    calls = []

    def saver(record):
        calls.append(record)
        if len(calls) > 2:
            raise S.StoreError("the data folder is gone")

    game = M.WarFleetGame(start, "x", game_id="wf-x", saver=saver)
    assert game.act(A.SetInitiative(side="French")).ok and game.undo()
    assert not game.redo() and game.save_problem == "the data folder is gone"
    assert game.state == start and game.can_redo


def write_bad_files(folder, good_id: str) -> dict[str, bytes]:
    """Four damaged War Fleet files beside a good one: cut short, empty, a newer version, not text."""
    good = (folder / "warfleet" / f"{good_id}.json").read_bytes()
    bad = {
        "wf-cut": good[: len(good) // 2],
        "wf-empty": b"",
        "wf-future": json.dumps({"format": "leviathans-warfleet-save/2", "id": "wf-future"}).encode(),
        "wf-binary": b"\xff\xfe\x00garbage",
    }
    for name, raw in bad.items():
        (folder / "warfleet" / f"{name}.json").write_bytes(raw)
    return bad


def test_damaged_files_are_set_aside_named_and_the_others_still_open(tmp_path, start):
    first = tables(tmp_path).start("phone", start, "Good one")
    assert first.act(A.SetInitiative(side="French")).ok
    second = tables(tmp_path).start("laptop", start, "Good two")
    bad = write_bad_files(tmp_path, first.id)

    reopened = tables(tmp_path)
    problems = "\n".join(reopened.problems)
    assert len(reopened.problems) == 4
    assert "wf-cut.json: the file is damaged or cut short" in problems
    assert "wf-empty.json: the file is empty" in problems
    assert "wf-future.json: saved in format leviathans-warfleet-save/2" in problems and "newer version" in problems
    assert "wf-binary.json: the file is damaged (it is not text)" in problems
    assert "kept, untouched, as" in problems and "Traceback" not in problems
    for name, raw in bad.items():
        kept = list((tmp_path / "warfleet").glob(f"{name}.json.bad-*"))
        assert len(kept) == 1 and kept[0].read_bytes() == raw  # renamed, never changed
        assert not (tmp_path / "warfleet" / f"{name}.json").exists()
    assert {s.id for s in reopened.summaries()} == {first.id, second.id}
    assert reopened.open(first.id).state == first.state and reopened.open(second.id).state == start

    later = tables(tmp_path)  # named again at the next start, until put right or removed
    assert len(later.problems) == 4 and all("set aside earlier" in p for p in later.problems)


def test_a_file_damaged_while_the_server_runs_is_set_aside_when_opened(tmp_path, start):
    game = tables(tmp_path).start("phone", start, "Then cut")
    live = tables(tmp_path)
    path = live.saves.path(game.id)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(S.UnknownWarFleetGame, match="cut short"):
        live.open(game.id)
    assert live.summaries() == [] and "cut short" in live.problems[0]
    assert list(path.parent.glob(f"{game.id}.json.bad-*"))


def test_a_log_that_does_not_replay_is_named_and_left_untouched(tmp_path, start):
    game = tables(tmp_path).start("phone", start, "Odd log")
    assert game.act(A.SetInitiative(side="French")).ok
    path = tables(tmp_path).saves.path(game.id)
    data = json.loads(path.read_text())
    data["done"].append(data["done"][0])  # initiative twice: the second is refused on replay
    path.write_text(json.dumps(data))
    raw = path.read_bytes()
    live = tables(tmp_path)
    with pytest.raises(S.UnknownWarFleetGame, match="action 2 .set initiative. does not replay"):
        live.open(game.id)
    assert "cannot be opened" in live.problems[0] and path.read_bytes() == raw


def test_unknown_and_unsafe_ids_are_refused(tmp_path, start):
    tables(tmp_path).start("phone", start, "x")
    live = tables(tmp_path)
    for wanted in ("wf-nothing", "../../etc/passwd", ""):
        with pytest.raises(S.UnknownWarFleetGame, match="no War Fleet game"):
            live.open(wanted)


def test_the_latest_game_reopens_for_a_device_the_server_has_not_seen(tmp_path, start):
    older = tables(tmp_path).start("phone", start, "Older")
    newer = tables(tmp_path).start("phone", start, "Newer")
    assert newer.act(A.SetInitiative(side="French")).ok
    assert older.act(A.SetInitiative(side="British")).ok  # played last
    restarted = tables(tmp_path)
    assert restarted.get("new-token") is None
    latest = restarted.latest("new-token")
    assert latest.id == older.id and restarted.get("new-token") is latest
    assert [r.name for r in M.warfleet_rows(restarted.summaries())] == ["Older", "Newer"]
    assert M.warfleet_rows(restarted.summaries())[0].detail == "Turn 1 · Movement"


def test_pocket_battles_are_saved_with_their_quick_start_games(tmp_path, start):
    store = TinyDBStore(tmp_path)
    try:
        live = M.tables_for(store)
        assert live.saves.folder == tmp_path / "warfleet" and M.tables_for(store) is live
        game = live.start("phone", start, "Pockets")
        play_to_combat(game)
        quick_id, text = M.open_pocket(game, M.near(game.state, "hml-leviathan", reach=2), store, "Pocket")
        assert quick_id and game.pockets == {1: quick_id}

        again = tables(tmp_path).open(game.id)
        assert again.pockets == {1: quick_id} and again.state == game.state
        outcome = M.bring_back(again, 1, store)
        assert outcome.ok and not again.state.pocket(1).open
    finally:
        store.close()


def test_a_pocket_that_cannot_be_saved_leaves_no_quick_start_game(tmp_path, start, monkeypatch):
    store = MemoryStore()
    game = M.Tables(S.WarFleetSaves(tmp_path)).start("phone", start, "No room")
    play_to_combat(game)

    def read_only(path, payload):
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(S, "write_atomic", read_only)
    quick_id, text = M.open_pocket(game, M.near(game.state, "hml-leviathan", reach=2), store, "Pocket")
    assert quick_id is None and "could not be saved" in text and "Read-only" in text
    assert store.games() == [] and game.pockets == {} and game.state.pockets == []


def test_a_store_without_a_data_folder_keeps_war_fleet_games_in_memory(start):
    live = M.tables_for(MemoryStore())
    assert live.saves is None and live.problems == []
    game = live.start("phone", start, "Memory")
    assert game.act(A.SetInitiative(side="French")).ok
    assert live.open(game.id) is game and live.summaries()[0].actions == 1


def test_the_route_names_the_war_fleet_game():
    from companion.app.session import Session, session_from_route

    assert Session("warfleet", "wf-1").route == "/warfleet/wf-1"
    assert session_from_route("/warfleet/wf-1") == Session("warfleet", "wf-1")
    assert session_from_route("/warfleet") == Session("warfleet")


# --- issue 11: two processes on one data folder ----------------------------------------------------


def test_two_servers_on_one_folder_lose_no_acknowledged_action(tmp_path, start):
    """Issue 11: War Fleet saves lost 6, 2 and 6 acknowledged actions with two processes on one folder.
    Two views of the folder (two companion processes) play the same game: whatever either reports
    done is in the file; the one whose game changed under it is refused in plain words."""
    here = tables(tmp_path).start("phone", start, "Two servers")
    there = tables(tmp_path).open(here.id)
    assert here.act(A.SetInitiative(side="French")).ok
    acknowledged = [here.state]
    late = there.act(A.SetInitiative(side="British"))
    if late.ok:
        acknowledged.append(there.state)
    else:
        assert "another companion process" in late.reason and "\n" not in late.reason
        assert there.state == start  # nothing changed
    assert tables(tmp_path).open(here.id).state == acknowledged[-1]
    assert len(acknowledged) == 1, "the second server overwrote the first one's acknowledged action"
    assert here.act(A.Step(ship="hml-leviathan", step="port")).ok  # the first plays on
    assert tables(tmp_path).open(here.id).state == here.state


def test_a_new_game_never_replaces_a_file_another_server_wrote(tmp_path, start):
    saves = S.WarFleetSaves(tmp_path)
    game = tables(tmp_path).start("phone", start, "First")
    raw = saves.path(game.id).read_bytes()
    twin = M.WarFleetGame(start, "Twin", game_id=game.id, saver=saves.save)
    with pytest.raises(S.StoreError, match="another companion process"):
        saves.save(twin.record())
    assert saves.path(game.id).read_bytes() == raw
