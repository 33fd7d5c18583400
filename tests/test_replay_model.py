"""The Replay view's model (app/replay_model.py, issue 17): every step's position equals the log's
prefix replayed by the store (`state_after`), undos and redos included; the turn marks and their
jumps; each step's rolls from its events; and a fork ('what if') that starts a new game at the
position, with fresh dice, whose first action plays.  Quick-Start (a seeded 10-turn game) and War
Fleet (the 20-against-20 battle)."""

from __future__ import annotations

import pytest

from companion.app.rulesets.war_fleet import model as M
from companion.app.replay_model import fork, fork_name, replay_of, rolls_of
from companion.engine.kernel import Event
from companion.engine.quick_start.ruleset import QUICK_START
from companion.engine.roller import Roller
from companion.engine.quick_start.scenario import load_scenario
from companion.engine.war_fleet import actions as A
from companion.files import load_catalogue, shipped_fleets_dir
from companion.store.game import state_after
from companion.store.store import MemoryStore
from helpers.ten_turns import QUICK_START_SCENARIO, play_turns


def _quick_start_game(store, seed=5, turns=4):
    state = QUICK_START.build_state(load_scenario(QUICK_START_SCENARIO), load_catalogue([]), Roller.from_seed(seed))
    game = store.new_game(state, "Ten turns")
    play_turns(game, seed, turns)
    return game


@pytest.fixture(scope="module")
def quick_start():
    store = MemoryStore()
    game = _quick_start_game(store)
    # an undo and a redo, then an undo and another action: every kind of log entry
    assert game.undo() and game.redo() and game.undo()
    play_turns(game, 6, 5)
    return store, game


def test_every_step_is_the_log_prefix_replayed(quick_start):
    store, game = quick_start
    replay = replay_of(store, game.id)
    stored = store.stored(game.id)
    assert replay.last == len(stored.entries) and replay.state(replay.last) == game.state
    for n in list(range(0, replay.last + 1, 7)) + [replay.last - 2, replay.last - 1]:
        assert replay.state(n) == state_after(stored.record.initial, stored.entries, n, QUICK_START), n
    kinds = {s.kind for s in replay.steps}
    assert kinds == {"start", "action", "undo", "redo"}
    assert replay_of(store, game.id) is replay  # cached while the log does not grow


def test_turn_marks_and_jumps(quick_start):
    store, game = quick_start
    replay = replay_of(store, game.id)
    assert [m.turn for m in replay.turns] == [1, 2, 3, 4, 5, 6]
    third = replay.turn_start(3)
    assert replay.steps[third].turn == 3 and replay.steps[third - 1].turn == 2
    assert replay.state(third).phase == "initiative"
    assert replay.next_turn(third) == replay.turn_start(4) and replay.next_turn(third + 1) == replay.turn_start(4)
    assert replay.previous_turn(third + 3) == third and replay.previous_turn(third) == replay.turn_start(2)
    assert replay.previous_turn(0) == 0 and replay.next_turn(replay.turns[-1].step) == replay.last
    with pytest.raises(ValueError, match="no turn 30: its turns are 1, 2, 3, 4, 5, 6"):
        replay.turn_start(30)
    with pytest.raises(ValueError, match="choose a step between 0 and"):
        replay.state(replay.last + 1)


def test_each_step_has_its_rolls_and_changes(quick_start):
    store, game = quick_start
    replay = replay_of(store, game.id)
    shots = [s for s in replay.steps if s.kind == "action" and game.entries[s.number - 1].action["kind"] == "resolve_shot"]
    assert shots and all(s.rolls for s in shots)
    shot = shots[0]
    result = game.entries[shot.number - 1].events[0]["data"]["result"]
    dice = [(d["colour"], d["face"]) for d in result["pool"]]
    assert list(shot.rolls[0].dice[:len(dice)]) == dice  # the pool first, as rolled
    initiative = replay.steps[1]
    assert initiative.rolls and initiative.changes[0] == "Now turn 1, movement."
    moves = [s for s in replay.steps if s.kind == "action" and game.entries[s.number - 1].action["kind"] == "step"]
    assert any(c.endswith("moved.") for c in moves[0].changes)
    undo = next(s for s in replay.steps if s.kind == "undo")
    assert undo.title.startswith("Undone:") and undo.rolls == ()


def test_rolls_of_any_event_with_dice():
    event = Event(kind="attack", text="Attack: a hit.", data={"rolls": [{"dice": [{"colour": "red", "face": 4}]}]})
    assert rolls_of([event])[0].dice == (("red", 4),)
    assert rolls_of([Event(kind="step", text="moves")]) == ()


def test_a_fork_starts_at_the_position_with_fresh_dice_and_plays(quick_start):
    store, game = quick_start
    replay = replay_of(store, game.id)
    third = replay.turn_start(3)
    assert fork_name(replay, third) == "What if from turn 3 of Ten turns"
    assert fork_name(replay, third + 2) == f"What if from turn 3, log entry {third + 2} of Ten turns"
    new = fork(store, game.id, third)
    assert new.id != game.id and new.name == "What if from turn 3 of Ten turns" and new.entries == []
    start = replay.state(third)
    assert new.initial.model_copy(update={"roller": start.roller}) == start
    assert new.initial.roller.counter == 0 and new.initial.roller.seed != start.roller.seed
    assert new.commitment != game.commitment
    assert new.state.turn == 3 and new.state.phase == "initiative"
    assert new.act({"kind": "roll_initiative"}).ok and new.state.phase == "movement"
    listed = next(s for s in store.games() if s.id == new.id)
    assert (listed.turn, listed.ruleset) == (3, "quick-start")
    assert store.stored(game.id).entries == game.entries  # the old game is untouched


def test_no_fork_from_a_game_that_is_over():
    store = MemoryStore()
    game = _quick_start_game(store, turns=1)
    assert game.act({"kind": "concede", "side": "French"}).ok and game.state.phase == "over"
    with pytest.raises(ValueError, match="the game is over at this step"):
        fork(store, game.id, len(game.entries))
    assert fork(store, game.id, len(game.entries) - 1).state.phase != "over"


def test_war_fleet_replay_and_fork():
    store = MemoryStore()
    start = M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="replay")
    game = store.new_game(start, "Twenty")
    assert game.act(A.RollInitiative()).ok
    if game.state.initiative != "French":
        assert game.undo() and game.act(A.SetInitiative(side="French")).ok
    assert game.act(A.Step(ship="hml-leviathan", step="starboard")).ok
    assert game.undo() and game.redo()
    replay = replay_of(store, game.id)
    stored = store.stored(game.id)
    for n in range(replay.last + 1):
        assert replay.state(n) == state_after(stored.record.initial, stored.entries, n, game.ruleset)
    assert replay.steps[1].rolls  # the initiative dice
    assert any("moved" in c for c in replay.steps[-1].changes)
    new = fork(store, game.id, replay.last)
    assert new.ruleset.id == "war-fleet" and new.state.phase == "movement"
    assert new.act(A.Step(ship="hml-leviathan", step="forward")).ok


def test_decisive_victory_replay_and_fork():
    """Decisive Victory's positions replay the same way (the view shows its ship cards: no map)."""
    from companion.engine.registry import find_ruleset
    from dv_for_tests import sample_game

    dv = find_ruleset("decisive-victory")
    store = MemoryStore()
    game = store.new_game(sample_game(phase="command"), "Sample")
    for _ in range(6):
        possible = [o.action for o in dv.options(game.state) if o.possible]
        if not possible:
            break
        assert game.act(possible[0]).ok
    replay = replay_of(store, game.id)
    stored = store.stored(game.id)
    assert replay.last == len(stored.entries) >= 1
    for n in range(replay.last + 1):
        assert replay.state(n) == state_after(stored.record.initial, stored.entries, n, dv)
    new = fork(store, game.id, 1)
    assert new.ruleset.id == "decisive-victory" and new.initial.model_copy(
        update={"roller": replay.state(1).roller}) == replay.state(1)


def test_a_game_another_process_added_is_found(tmp_path):
    """The app's store learns of a game written to its data folder by `companion import` or the like."""
    from companion.store.store import TinyDBStore

    app_store = TinyDBStore(tmp_path)
    try:
        assert app_store.games() == []
        other = TinyDBStore(tmp_path)  # another process, as the browser tests' setup is
        game = _quick_start_game(other, turns=1)
        other.close()
        assert replay_of(app_store, game.id).last == len(game.entries)
    finally:
        app_store.close()


def test_a_ship_in_the_steps_words_is_named_by_its_ruleset():
    """A Decisive Victory ship with no name of its own (its record's name is its label) is named as
    the report names it (`Ruleset.ship_name`), not by its id, as a field guessed at named it."""
    import json
    from pathlib import Path

    from companion.app.replay_model import changes, find_ruleset

    dv = find_ruleset("decisive-victory")
    sample = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"
    state = dv.build_state(dv.load_scenario(json.loads(sample.read_text())), None, Roller.from_seed(1))
    ship = state.ships[0].model_copy(update={"name": ""})
    before = state.model_copy(update={"ships": [ship, *state.ships[1:]]})
    lost = ship.model_copy(update={"removed": "sunk"})
    after = before.model_copy(update={"ships": [lost, *state.ships[1:]]})
    assert ship.record.name and ship.record.name != ship.id
    assert changes(before, after, dv) == (f"{ship.record.name} is lost.",)
    assert dv.ship_name(ship) == ship.record.name


def test_a_decisive_victory_ship_that_moved_and_took_damage_says_so():
    """Each ruleset reads its own ships' marks (`Ruleset.ship_marks`): a Decisive Victory ship's plot
    and damage points had no line, as fields guessed at (column, row, damage) found none."""
    import json
    from pathlib import Path

    from companion.app.replay_model import changes, find_ruleset

    dv = find_ruleset("decisive-victory")
    sample = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"
    before = dv.build_state(dv.load_scenario(json.loads(sample.read_text())), None, Roller.from_seed(1))
    ship = before.ships[0]
    moved = ship.model_copy(update={"position": None if ship.position else before.ships[1].position,
                                    "damage_points": ship.damage_points + 2})
    after = before.model_copy(update={"ships": [moved, *before.ships[1:]]})
    name = dv.ship_name(ship)
    assert changes(before, after, dv) == (f"{name} moved.", f"{name} took damage (2 more marked).")
