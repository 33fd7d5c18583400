"""Issue 11, engine-level bad input: each a FormatError (a ValueError) saying what and where, in one line."""

import copy
import json
from pathlib import Path

import pytest

from companion.engine.board import Board
from companion.engine.cards import FormatError, load_card, load_fleet
from companion.engine.quick_start.scenario import build_state, load_scenario
from companion.engine.quick_start.state import GameState
from companion.engine.war_fleet.convert import convert_card, war_fleet_si
from companion.engine.war_fleet.scenario import build_warfleet_state, load_warfleet_scenario
from companion.engine.war_fleet.stats import load_stats
from companion.store.export import read_game_document

ROOT = Path(__file__).resolve().parents[1]


def shipped(name):
    return json.loads((ROOT / "fleets" / name).read_text(encoding="utf-8"))


def a_card():
    card = copy.deepcopy(shipped("quick-start-british.json")["ships"][0])
    card["format"] = "leviathans-card/1"
    return card


def catalogue():
    fleet = load_fleet(shipped("quick-start-british.json"))
    return {card.id: card for card in fleet.ships}


def a_scenario(*ships):
    return {"format": "leviathans-scenario/1", "ships": list(ships) or [
        {"id": "h", "side": "British", "card": "hml-hertfordshire", "bow": "0510", "facing": "N"},
        {"id": "r", "side": "French", "card": "hml-raven", "bow": "2010", "facing": "S"},
    ]}


def a_warfleet_scenario(**changes):
    ship = {"id": "a", "side": "British", "card": "hml-raven", "hex": "1010", "facing": "N"}
    ship.update(changes)
    return {"format": "leviathans-warfleet-scenario/1", "ships": [ship]}


def refused(load, data, *words):
    """`load(data)` raises a one-line FormatError naming each of `words`."""
    with pytest.raises(FormatError) as caught:
        load(data)
    message = str(caught.value)
    assert "\n" not in message and "pydantic" not in message and "http" not in message, message
    for word in words:
        assert word in message, message
    return message


# --- booleans are not numbers ------------------------------------------------------------


def test_true_is_not_a_card_type_nor_a_number_on_a_card():
    refused(load_card, dict(a_card(), type=True), "type", "true")
    refused(load_card, dict(a_card(), structural_integrity=True), "structural_integrity")
    refused(load_card, dict(a_card(), enter_hexes_before_turn=True), "enter_hexes_before_turn")
    card = a_card()
    number, slot = next((n, s) for n, s in enumerate(card["locations"]["bow"]["slots"], 1) if s["kind"] == "gun")
    slot["short"]["range"] = True
    refused(load_card, card, f"locations.bow.slots.{number}.short.range")


def test_true_is_not_a_facing_nor_a_turn_in_a_scenario():
    data = a_scenario()
    data["ships"][0]["facing"] = True
    refused(load_scenario, data, "ships.0.facing")
    refused(load_scenario, dict(a_scenario(), turn=True), "turn")
    refused(load_scenario, dict(a_scenario(), board={"columns": True, "rows": 19}), "board.columns")
    data = a_scenario()
    data["ships"][0]["moved"] = "yes"
    refused(load_scenario, data, "ships.0.moved")


def test_true_is_not_a_facing_nor_a_class_in_war_fleet():
    refused(load_warfleet_scenario, a_warfleet_scenario(facing=True), "ships.0.facing")
    stats = convert_card(catalogue()["hml-raven"]).dump()
    refused(load_stats, dict(stats, **{"class": True}), "class")


def test_an_exported_game_with_true_for_a_number_is_refused():
    state = build_state(load_scenario(a_scenario()), catalogue())
    initial = state.model_dump(mode="json")
    initial["ships"][0]["facing"] = True
    with pytest.raises(ValueError):
        GameState.model_validate(initial)
    initial = state.model_dump(mode="json")
    initial["ships"][0]["column"] = True
    with pytest.raises(ValueError):
        GameState.model_validate(initial)


# --- ships that overlap ---------------------------------------------------------------------


def test_a_scenario_whose_ships_overlap_is_refused_with_both_named():
    data = a_scenario(
        {"id": "h", "side": "British", "card": "hml-hertfordshire", "bow": "0510", "facing": "N"},
        {"id": "r", "side": "French", "card": "hml-raven", "bow": "0511", "facing": "N"},
    )
    refused(lambda d: build_state(load_scenario(d), catalogue()), data, "r", "h", "share hex")


def test_an_imported_game_whose_ships_overlap_is_refused_with_both_named():
    state = build_state(load_scenario(a_scenario()), catalogue())
    initial = state.model_dump(mode="json")
    initial["ships"][1].update(column=5, row=11, facing=0)  # the Raven inside the Hertfordshire
    document = {"format": "leviathans-game/1", "initial": initial, "log": []}
    message = refused(read_game_document, document, "HML Raven", "HML Hertfordshire")
    assert "initial" in message


def test_an_imported_game_with_a_ship_off_the_board_is_refused():
    state = build_state(load_scenario(a_scenario()), catalogue())
    initial = state.model_dump(mode="json")
    initial["ships"][0].update(column=40)
    refused(read_game_document, {"format": "leviathans-game/1", "initial": initial, "log": []},
            "HML Hertfordshire", "off the board")


# --- sizes: board, ship count, class -------------------------------------------------------


def test_a_board_is_at_most_200_by_200_hexes():
    assert Board(columns=200, rows=200).columns == 200
    refused(load_scenario, dict(a_scenario(), board={"columns": 201, "rows": 19}), "board.columns", "200")
    refused(load_scenario, dict(a_scenario(), board={"columns": 100000, "rows": 100000}), "board.columns")


def many_ships(count):
    """`count` Ravens in rows of 2-hex ships on a 200 x 200 board, none sharing a hex."""
    ships = []
    for i in range(count):
        column, row = 2 + i % 190, 3 + 3 * (i // 190)
        ships.append({"id": f"s{i}", "side": "AB"[i % 2], "card": "hml-raven",
                      "bow": f"{column:03d}{row:03d}", "facing": "N"})
    return dict(a_scenario(*ships), board={"columns": 200, "rows": 200})


def test_a_scenario_holds_at_most_200_ships():
    state = build_state(load_scenario(many_ships(200)), catalogue())
    assert len(state.ships) == 200
    refused(load_scenario, many_ships(2000), "ships", "at most 200 ships", "2000")
    war = a_warfleet_scenario()
    war["ships"] = [dict(war["ships"][0], id=f"s{i}") for i in range(2000)]
    refused(load_warfleet_scenario, war, "ships", "at most 200 ships")


def test_war_fleet_class_9_is_refused():
    stats = convert_card(catalogue()["hml-raven"]).dump()
    refused(load_stats, dict(stats, **{"class": 9}), "class", "4")
    data = a_warfleet_scenario(card=None, stats=dict(stats, **{"class": 9}))
    refused(load_warfleet_scenario, data, "ships.0.stats.class")


# --- convert: huge numbers and pools --------------------------------------------------------


def test_a_card_with_si_1e4000_is_refused_plainly():
    refused(load_card, dict(a_card(), structural_integrity=float("inf")), "structural_integrity")
    refused(load_card, dict(a_card(), structural_integrity=10 ** 4000), "structural_integrity", "999")


def test_war_fleet_si_is_exact_integer_arithmetic():
    card = load_card(dict(a_card(), structural_integrity=999))
    assert war_fleet_si(card) == 500


def test_converting_a_20_dice_gun_names_the_field_in_one_line():
    card = a_card()
    for slot in card["locations"]["bow"]["slots"]:
        if slot["kind"] == "gun":
            slot["short"]["dice"] = slot["long"]["dice"] = "20DBlack"
    loaded = load_card(card)  # a pool of 20 dice is a valid card
    message = refused(convert_card, loaded, "locations.bow", "dice", "20")
    assert "War Fleet" in message


# --- actions read from a log ----------------------------------------------------------------


def test_an_action_with_true_for_a_facing_or_a_slot_is_refused_in_one_line():
    from companion.engine.quick_start import apply
    state = build_state(load_scenario(a_scenario()), catalogue()).model_copy(update={"phase": "movement"})
    for action, where in [
        ({"kind": "place", "ship": "h", "bow": "0509", "facing": True}, "facing"),
        ({"kind": "place", "ship": "h", "bow": "0509", "facing": "N", "moved": "yes"}, "moved"),
        ({"kind": "mark_slot", "ship": "h", "location": "bow", "slot": True, "status": "destroyed"}, "slot"),
        ({"kind": "roll_initiative", "faces": {"British": [True, 3], "French": [4, 5]}}, "faces"),
    ]:
        out = apply(state, action)
        assert not out.ok, action
        assert "\n" not in out.reason and "http" not in out.reason and where in out.reason, out.reason


def test_a_saved_game_whose_starting_ships_overlap_is_set_aside_and_named(tmp_path):
    from companion.store import TinyDBStore
    from store_helpers import played_game, reopened
    store = TinyDBStore(tmp_path, segment_size=10)
    game = played_game(store, 1, actions=3)
    store.close()
    path = tmp_path / "games" / game.id / "game.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    [record] = raw["tables"]["game"].values()
    first, second = record["initial"]["ships"][:2]
    second.update(column=first["column"], row=first["row"], facing=first["facing"])
    path.write_text(json.dumps(raw), encoding="utf-8")
    again = reopened(tmp_path, 10)
    [problem] = again.problems
    assert "share hex" in problem and first["id"] in problem and second["id"] in problem
    assert "\n" not in problem
    assert [s.id for s in again.games()] == []


def test_a_pocket_of_ships_too_far_apart_for_one_table_is_a_plain_refusal():
    from companion.engine.hexes import Hex
    from companion.engine.war_fleet.pocket import PocketError, pocket_battle
    from companion.files import load_catalogue, load_file, shipped_fleets_dir
    state = build_warfleet_state(load_file(shipped_fleets_dir() / "war-fleet-20v20.json"), load_catalogue())
    british, french = (next(s for s in state.ships if s.side == side) for side in state.sides[:2])
    state = state.model_copy(update={"board": Board(columns=120, rows=120)})
    state = state.with_ship(british.at(Hex.at(1, 1))).with_ship(french.at(Hex.at(100, 100)))
    with pytest.raises(PocketError) as caught:
        pocket_battle(state, [british.id, french.id])
    assert "too far apart" in str(caught.value) and "\n" not in str(caught.value)
