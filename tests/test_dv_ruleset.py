"""Decisive Victory as a registered ruleset: who owns each action kind, options, by-hand corrections,
and a scripted turn of the sample scenario through the CLI and the store (new, act, undo, verify,
export, import)."""

import json
from pathlib import Path

import pytest

from companion.commands import main
from companion.engine.decisive_victory.game import HANDLERS
from companion.engine.decisive_victory.ruleset import DECISIVE_VICTORY, TABLE_ACTIONS
from companion.engine.registry import find_ruleset, ruleset_for_format
from companion.store.store import MemoryStore

SAMPLE = str(Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json")

#: Every kind of spec §16, including the ones other modules are still writing.
SPEC_KINDS = {
    "start_game", "use_ability", "end_command", "roll_initiative", "set_initiative", "resolve_attacking",
    "place_flight", "move_flight", "intercept", "air_attack", "aa_fire", "air_strike", "resolve_returning",
    "land_flight", "launch_flight", "end_aircraft", "set_speed", "move", "close_action", "end_move",
    "end_movement", "searchlight", "star_shell", "illuminate", "radar_roll", "declare_attack", "roll_attack",
    "end_activation", "end_attacks", "maintenance_roll", "trade_damage", "pay_abandon", "abandon",
    "drift_smoke", "end_turn", "mark_box", "set_damage", "set_minor", "set_rudder", "remove_ship",
    "set_bookkeeping", "concede",
}


def fresh():
    return DECISIVE_VICTORY.build_state(DECISIVE_VICTORY.load_scenario(json.loads(Path(SAMPLE).read_text())))


def test_registered_and_found_by_its_format():
    assert find_ruleset("decisive-victory") is DECISIVE_VICTORY
    assert ruleset_for_format("decisive-victory-scenario/1") is DECISIVE_VICTORY


def test_every_kind_belongs_to_the_table_or_a_side():
    assert SPEC_KINDS <= TABLE_ACTIONS | set(DECISIVE_VICTORY.side_of)
    assert set(HANDLERS) <= SPEC_KINDS


def test_side_of_each_kind():
    state = fresh()
    side = DECISIVE_VICTORY.side
    assert side({"kind": "move", "ship": "ijn-kaze", "inches": 2}, state) == "Japanese"
    assert side({"kind": "declare_attack", "ship": "hms-dash"}, state) == "British"
    assert side({"kind": "end_turn"}, state) is None
    assert side({"kind": "concede", "side": "British"}, state) == "British"
    assert side({"kind": "roll_attack", "attack": 9}, state) is None   # no such attack
    assert side({"kind": "air_strike", "flight": "nobody"}, state) is None


def test_the_ships_a_star_shell_lit_are_entered_by_the_side_that_fired_it():
    from companion.engine.decisive_victory.state import StarShell
    state = fresh()
    lit = {"kind": "illuminate", "ships": ["ijn-kaze"]}
    assert DECISIVE_VICTORY.side(lit, state) is None   # no star shell yet: the game refuses it
    fired = state.model_copy(update={"star_shells": [StarShell(ship="hms-sample", system="main")]})
    assert DECISIVE_VICTORY.side(lit, fired) == "British"


def test_options_name_the_turns_step():
    state = fresh()
    [option] = DECISIVE_VICTORY.options(state)
    assert option.action == {"kind": "start_game"} and option.possible


def test_by_hand_corrections_the_table_is_the_truth():
    state = DECISIVE_VICTORY.apply(fresh(), {"kind": "start_game"}).state
    grid = state.grid_of(state.ship("hms-dash"))
    box = grid.boxes_of("Guns")[0]
    done = DECISIVE_VICTORY.apply(state, {"kind": "mark_box", "ship": "hms-dash", "box": list(box)})
    assert box in done.state.ship("hms-dash").boxes
    assert [e.kind for e in done.events] == ["box_marked", "system_status"]   # a destroyer: 1 box damages
    assert not DECISIVE_VICTORY.apply(state, {"kind": "mark_box", "ship": "hms-dash", "box": [9, 1]}).ok
    state = DECISIVE_VICTORY.apply(state, {"kind": "set_damage", "ship": "hms-dash", "points": 4}).state
    state = DECISIVE_VICTORY.apply(state, {"kind": "set_minor", "ship": "hms-dash", "minor": 2}).state
    state = DECISIVE_VICTORY.apply(state, {"kind": "set_rudder", "ship": "hms-dash", "rudder": "port"}).state
    dash = state.ship("hms-dash")
    assert (dash.damage_points, dash.minor_damage, dash.rudder) == (4, 2, "port")
    for ship in ("hms-sample", "hms-dash"):
        state = DECISIVE_VICTORY.apply(state, {"kind": "remove_ship", "ship": ship, "how": "sunk"}).state
    assert state.phase == "command"
    out = DECISIVE_VICTORY.apply(state, {"kind": "remove_ship", "ship": "hms-dart"})
    assert out.state.phase == "over" and out.state.winner == "Japanese"


def test_bookkeeping_turns_refusals_into_warnings():
    state = DECISIVE_VICTORY.apply(fresh(), {"kind": "set_bookkeeping", "on": True}).state
    done = DECISIVE_VICTORY.apply(state, {"kind": "end_command"})
    assert done.ok and done.events[0].kind == "warning"


def test_concede():
    done = DECISIVE_VICTORY.apply(fresh(), {"kind": "concede", "side": "Japanese"})
    assert done.state.phase == "over" and done.state.winner == "British"


def test_a_store_game_undoes_and_replays():
    store = MemoryStore()
    game = store.new_game(fresh(), "sample")
    assert game.ruleset is DECISIVE_VICTORY
    for action in ({"kind": "start_game"}, {"kind": "end_command"}, {"kind": "roll_initiative"}):
        assert game.act(action).ok
    rolled = game.state
    assert game.undo() and game.state.phase == "initiative"
    assert game.redo() and game.state == rolled
    again = store.game(game.id)
    assert again.state == rolled


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_scripted_turn_through_the_cli(capsys, tmp_path):
    data = str(tmp_path / "data")
    code, out, err = run(capsys, "new", SAMPLE, "--data", data, "--seed", "7")
    assert code == 0, err
    [game] = out.split()
    script = [
        {"kind": "start_game"},
        {"kind": "use_ability", "ship": "hms-dash", "ability": "make_smoke", "payer": "hms-sample"},
        {"kind": "end_command"},
        {"kind": "roll_initiative", "faces": {"British": [2, 1], "Japanese": [2, 5]}},
        {"kind": "move", "ship": "hms-sample", "inches": 10, "turns": 4},
        {"kind": "end_move", "ship": "hms-sample"},
        {"kind": "close_action", "ship": "hms-dash", "other": "ijn-kaze", "paid_by": None},
        {"kind": "move", "ship": "hms-dash", "inches": 12, "turns": 2},
        {"kind": "end_move", "ship": "hms-dash"},
    ]
    for action in script:
        code, out, err = run(capsys, "act", game, json.dumps(action), "--data", data)
        assert code == 0, (action, err)
    code, out, err = run(capsys, "act", game, json.dumps({"kind": "move", "ship": "hms-dart", "inches": 7, "turns": 4}),
                         "--data", data)
    assert code == 1 and "4 turns need 8\" moved; 7\" were moved" in err
    code, out, err = run(capsys, "options", game, "--json", "--data", data)
    assert code == 0, err
    listed = json.loads(out)
    assert "end_move" in json.dumps(listed)
    code, out, err = run(capsys, "verify", game, "--data", data)
    assert code == 0 and "all 4 rolls match" in out and "4 entered from the table" in out, out + err
    exported = tmp_path / "game.json"
    assert run(capsys, "export", game, exported, "--data", data)[0] == 0
    code, out, err = run(capsys, "import", exported, "--data", str(tmp_path / "other"))
    assert code == 0 and "turn 1, movement" in out, err
    code, out, err = run(capsys, "replay", game, "--data", data)
    assert code == 0 and json.loads(out)["format"] == "decisive-victory-scenario/1"


def test_validate_takes_the_fleets_folder_files(capsys):
    code, out, err = run(capsys, "validate", SAMPLE)
    assert code == 0 and "Decisive Victory scenario, 6 ships" in out
