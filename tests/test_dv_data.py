"""Decisive Victory's data: Table 1 and the hit grid as data with their reconstructed entries
marked, the ship / flight / fleet / grid / table / scenario formats, and the game state
(spec decisive-victory.md §2.2, §10, §14.1, §17, §18; worked examples DV-1, DV-5, DV-12)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.engine.cards import FormatError
from companion.engine.decisive_victory.grid import RECONSTRUCTED as GRID, SYSTEMS, load_hit_grid, mark
from companion.engine.decisive_victory.inches import inches_text, parse_inches
from companion.engine.decisive_victory.records import load_flight, load_ship, load_ship_fleet
from companion.engine.decisive_victory.scenario import (build_dv_state, dump_dv_scenario, load_dv_scenario, scenario_of,
                                          summary)
from companion.engine.decisive_victory.state import DVState
from companion.engine.decisive_victory.table1 import RECONSTRUCTED as TABLE_1, load_success_table

SAMPLE = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"
PAIRS = list(product(range(1, 7), repeat=2))


def sample_data() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def sample_state(**grids) -> DVState:
    return build_dv_state(load_dv_scenario(sample_data()), **grids)


def record(data: dict, record_id: str) -> dict:
    return copy.deepcopy(next(r for r in data["records"] if r["id"] == record_id))


def error_of(load, data) -> str:
    with pytest.raises(FormatError) as caught:
        load(data)
    message = str(caught.value)
    assert "\n" not in message and "pydantic" not in message.lower() and "Traceback" not in message
    return message


def group_grid() -> dict:
    """A group's own grid, typed from its printed rules: no cell marked unverified."""
    return {"format": "decisive-victory-hit-grid/1", "name": "Our club's grid",
            "rows": [{"dice": [1], "armor": "deck", "cells": ["AA", "AA", "Com", "Com", "AA", "AA"]},
                     {"dice": [2, 3], "armor": "belt", "cells": ["AA", "Guns", "Torp", "Guns", "Flight", "AA"]},
                     {"dice": [4, 5], "armor": "belt", "cells": ["Turn", "Struct", "Struct", "Guns", "Struct", "Turn"]},
                     {"dice": [6], "armor": "underwater", "cells": ["Turn", "Speed", "Speed", "Speed", "Speed", "Turn"]}],
            "thresholds": {"destroyer": 1, "cruiser": 2, "capital": 3}}


# --- DV-1: Table 1 as data ---------------------------------------------------------------


def test_dv_1_the_success_table_and_n7():
    assert TABLE_1.succeeds(3, 4, 0) and not TABLE_1.succeeds(2, 5, 0)
    assert TABLE_1.succeeds(2, 5, 1) and TABLE_1.succeeds(6, 2, 2) and not TABLE_1.succeeds(6, 3, 2)
    assert not TABLE_1.succeeds(1, 1, 9) and not TABLE_1.succeeds(6, 6, 9)
    assert all(TABLE_1.succeeds(a, b, -3) == TABLE_1.succeeds(a, b, 0) for a, b in PAIRS)
    assert all(TABLE_1.succeeds(a, b, 11) == TABLE_1.succeeds(a, b, 9) for a, b in PAIRS)
    chances = [Fraction(sum(TABLE_1.succeeds(a, b, m) for a, b in PAIRS), 36) for m in range(10)]
    assert chances == [Fraction(1, 18), Fraction(1, 6), Fraction(11, 36), Fraction(4, 9), Fraction(5, 9),
                       Fraction(2, 3), Fraction(3, 4), Fraction(5, 6), Fraction(8, 9), Fraction(17, 18)]
    assert [TABLE_1.band(m).text for m in range(10)] == [
        "N7 only", "7", "7-8", "6-8", "6-9", "5-9", "5-10", "4-10", "4-11", "3-11"]


def test_table_1_marks_its_reconstructed_bands_and_a_groups_table_has_none():
    assert TABLE_1.unverified_modifiers == [5, 6, 7, 8, 9] and not TABLE_1.verified  # +1..+4 the text states
    own = TABLE_1.model_dump(mode="json")
    for band in own["bands"]:
        band.pop("unverified")
    own.pop("sources")
    table = load_success_table(own)
    assert table.unverified_modifiers == [] and table.verified


def test_the_odds_read_this_table_1():
    from companion.engine.decisive_victory import odds

    assert odds.TABLE_1 == TABLE_1  # one Table 1: a group's own replaces it for the odds too


# --- the hit grid as data (§10.1, §17.3, [R-40]) ------------------------------------------


def test_the_reconstructed_grid_is_the_spec_placeholder():
    assert [row.cells for row in GRID.rows] == [
        ["AA", "AA", "Com", "Com", "AA", "AA"],
        ["AA", "Guns", "Guns", "Flight", "Guns", "AA"],
        ["Turn", "Struct", "Struct", "Torp", "Struct", "Turn"],
        ["Turn", "Speed", "Speed", "Speed", "Speed", "Turn"]]
    counts = {system: len(GRID.boxes_of(system)) for system in SYSTEMS}
    assert counts == {"AA": 6, "Com": 2, "Guns": 3, "Flight": 1, "Struct": 3, "Torp": 1, "Turn": 4, "Speed": 4}
    assert sum(counts.values()) == 24


def test_the_grids_unverified_marks_are_the_lost_cells_only():
    assert GRID.unverified_boxes == [(2, 3), (2, 4), (2, 5), (2, 6), (3, 4), (3, 5), (3, 6)]
    legible = [(1, c) for c in range(1, 7)] + [(2, 1), (2, 2), (3, 1), (3, 2), (3, 3)] + [(4, c) for c in range(1, 7)]
    assert not set(legible) & set(GRID.unverified_boxes)
    assert not GRID.verified and GRID.sources is not None and "003:103-104" in GRID.sources.notes


def test_a_groups_own_grid_has_no_unverified_mark():
    grid = load_hit_grid(group_grid())
    assert grid.unverified_boxes == [] and grid.verified


def test_dv_5_the_first_die_picks_the_row_and_its_armour():
    assert [GRID.group_of(d) for d in range(1, 7)] == [1, 2, 2, 3, 3, 4]
    assert [GRID.armor_of(d) for d in range(1, 7)] == ["deck", "belt", "belt", "belt", "belt", "underwater"]


# --- DV-12: grid marking, spill and systems, on the state ----------------------------------


def hit(state: DVState, ship_id: str, box: tuple[int, int]) -> DVState:
    """A failed save at `box`: mark it or spill down (the turn's handler will do this; here by hand)."""
    ship = state.ship(ship_id)
    marking = mark(state.grid_of(ship), ship.boxes, box)
    boxes = ship.boxes | {marking.marked} if marking.marked else ship.boxes
    return state.with_ship(ship.model_copy(update={"boxes": boxes,
                                                   "damage_points": ship.damage_points + marking.extra_damage}))


def test_dv_12_grid_marking_spill_and_systems():
    state = sample_state()
    cruiser = "hms-sample"
    state = hit(state, cruiser, (1, 3))
    com = state.system(state.ship(cruiser), "Com")
    assert (com.marked, com.boxes, com.threshold, com.status) == (1, 2, 2, "working")
    marking = mark(GRID, state.ship(cruiser).boxes, (1, 3))
    assert marking.marked == (2, 3) and marking.spilled and GRID.cell((2, 3)) == "Guns"
    state = hit(state, cruiser, (1, 3))
    guns = state.system(state.ship(cruiser), "Guns")
    assert (guns.marked, guns.boxes, guns.status) == (1, 3, "working")
    state = hit(state, cruiser, (1, 4))
    assert state.status(state.ship(cruiser), "Com") == "disabled"  # damaged (2 of 2) and disabled at once
    state = hit(hit(state, cruiser, (4, 2)), cruiser, (4, 3))
    assert state.status(state.ship(cruiser), "Speed") == "damaged"
    state = hit(hit(state, cruiser, (4, 4)), cruiser, (4, 5))
    assert state.status(state.ship(cruiser), "Speed") == "disabled"
    before = state.ship(cruiser).damage_points
    state = hit(state, cruiser, (4, 3))
    assert state.ship(cruiser).damage_points == before + 1  # bottom reached: +1 damage point, nothing marked
    assert len(state.ship(cruiser).boxes) == 7


def test_dv_12_thresholds_by_class():
    state = sample_state()
    destroyer = state.ship("hms-dash")
    struck = destroyer.model_copy(update={"boxes": frozenset({(2, 2)})})
    assert state.status(struck, "Guns") == "damaged"  # a destroyer: its first box
    capital = struck.model_copy(update={"record": struck.record.model_copy(update={"ship_class": "capital"}),
                                        "boxes": frozenset({(1, 3)})})
    assert state.status(capital, "Com") == "working"
    assert state.status(capital.model_copy(update={"boxes": frozenset({(1, 3), (1, 4)})}), "Com") == "disabled"


def test_a_system_the_grid_does_not_name_always_works():
    data = group_grid()
    data["rows"][1]["cells"][4] = "AA"  # no Flight box on this grid
    state = sample_state(hit_grid=load_hit_grid(data))
    assert state.system(state.ship("hms-sample"), "Flight").boxes == 0
    assert state.status(state.ship("hms-sample"), "Flight") == "working"


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(st.integers(1, 4), st.integers(1, 6))), st.tuples(st.integers(1, 4), st.integers(1, 6)))
def test_a_mark_lands_on_a_free_box_in_the_column_at_or_below_or_adds_one_damage_point(boxes, aimed):
    marking = mark(GRID, frozenset(boxes), aimed)
    if marking.marked is None:
        assert marking.extra_damage == 1 and all((g, aimed[1]) in boxes for g in range(aimed[0], 5))
    else:
        group, column = marking.marked
        assert marking.extra_damage == 0 and marking.marked not in boxes
        assert column == aimed[1] and group >= aimed[0]
        assert all((g, column) in boxes for g in range(aimed[0], group))


# --- the shipped sample scenario ----------------------------------------------------------------


def test_the_sample_scenario_loads_with_the_spec_example_ships():
    state = sample_state()
    assert state.sides == ["British", "Japanese"] and len(state.ships) == 6 and state.phase == "setup"
    cruiser, destroyer = state.ship("hms-sample").record, state.ship("hms-dash").record
    assert (cruiser.ship_class, cruiser.armor.deck, cruiser.armor.belt, cruiser.armor.underwater,
            cruiser.critical_damage_threshold, cruiser.speed, cruiser.turning_class, cruiser.collision_rating) == \
        ("cruiser", 3, 6, 4, 5, 15, 2, 3)
    main, torpedoes = cruiser.weapon("main"), cruiser.weapon("torpedoes")
    assert (main.fire_control, main.strength, main.damage) == (4, 6, 2)
    assert (torpedoes.fire_control, torpedoes.strength, torpedoes.damage, torpedoes.salvoes) == (3, 10, 3, 2)
    assert (destroyer.ship_class, destroyer.armor.deck, destroyer.armor.belt, destroyer.armor.underwater,
            destroyer.critical_damage_threshold, destroyer.speed, destroyer.turning_class,
            destroyer.collision_rating) == ("destroyer", 1, 3, 2, 3, 18, 3, 2)
    gun = destroyer.weapon("main")
    assert (gun.fire_control, gun.strength, gun.damage) == (3, 4, 1)
    assert not cruiser.verified and not destroyer.verified  # sample data, marked
    assert [s.id for s in state.ships if s.flagship] == ["hms-sample", "ijn-mihon"]
    assert state.ship("hms-dash").salvoes_left == {"torpedoes": 2}
    assert state.ship("hms-sample").position.x == 36 and state.ship("ijn-mihon").position.heading == 180
    assert "reconstructed hit grid" in summary(state)


def test_a_groups_grid_and_table_replace_the_reconstructed_ones():
    grid = load_hit_grid(group_grid())
    table = load_success_table({**TABLE_1.model_dump(mode="json"), "sources": {"verified": True}})
    state = sample_state(hit_grid=grid, success_table=table)
    assert state.hit_grid == grid and state.success_table == table
    assert state.grid_of(state.ship("hms-sample")).cell((2, 3)) == "Torp"
    data = sample_data()
    data["hit_grid"] = group_grid()
    assert build_dv_state(load_dv_scenario(data)).hit_grid == grid
    own = record(data, "sample-destroyer")
    own.update(id="odd-destroyer", hit_grid={**group_grid(), "rows": GRID.model_dump(mode="json")["rows"]})
    data["records"].append(own)
    data["ships"][1]["ship"] = "odd-destroyer"
    state = build_dv_state(load_dv_scenario(data))
    assert state.grid_of(state.ship("hms-dash")).cell((2, 3)) == "Guns"  # its own grid rules it
    assert state.grid_of(state.ship("hms-sample")).cell((2, 3)) == "Torp"


# --- every format round-trips -------------------------------------------------------------------


def rich_scenario() -> dict:
    """The sample mid-game: damage, boxes, fractional plots, a carrier, a base and flights in the air."""
    data = sample_data()
    carrier = record(data, "sample-light-cruiser")
    carrier.update(id="sample-carrier", name="Sample carrier")
    carrier.update(flight_deck={"launch_per_turn": 1, "lands_in_combat": False},
                   flights=[{"id": "stringbag-1", "name": "Swordfish flight", "type": "torpedo_bomber",
                             "quality": 2, "slow": True, "radar": False, "naval": True}])
    data["records"].append(carrier)
    data["ships"].append({"id": "hms-flat", "side": "British", "ship": "sample-carrier", "commander": "captain",
                          "speed_mode": "half", "position": {"x": "10.5", "y": "35/3", "heading": 22.5},
                          "damage_points": 2, "minor_damage": 4, "boxes": [[1, 3], [4, 6]],
                          "rudder": "port", "salvoes_left": {"torpedoes": 1}})
    data["bases"] = [{"id": "malta", "side": "British", "name": "Malta", "aa": 4}]
    data["flights"] = [
        {"id": "f1", "side": "British", "base": "malta", "stage": "attacking", "counter": 2,
         "flight": {"id": "blen", "name": "Blenheims", "type": "patrol_bomber", "quality": 1, "naval": False}},
        {"id": "hms-flat.stringbag-1", "side": "British", "base": "hms-flat", "stage": "returning", "counter": 1,
         "launch_counter": 3, "flight": carrier["flights"][0]}]
    data["conditions"] = {"night": True, "bad_weather": False, "air_range_unit": "inches"}
    return data


def test_the_scenario_format_round_trips():
    for data in (sample_data(), rich_scenario()):
        scenario = load_dv_scenario(data)
        again = load_dv_scenario(json.loads(json.dumps(dump_dv_scenario(scenario))))
        assert again == scenario


def test_a_game_position_round_trips_through_a_scenario_and_the_state_through_json():
    state = build_dv_state(load_dv_scenario(rich_scenario()))
    flat = state.ship("hms-flat")
    assert flat.position.x == Fraction(21, 2) and flat.position.y == Fraction(35, 3)
    assert flat.position.heading == Fraction(45, 2) and flat.boxes == {(1, 3), (4, 6)}
    assert [f.id for f in state.flights] == ["hms-flat.stringbag-1", "f1"]
    assert state.flight("hms-flat.stringbag-1").stage == "returning"
    written = json.loads(json.dumps(dump_dv_scenario(scenario_of(state))))
    assert build_dv_state(load_dv_scenario(written)) == state
    assert DVState.model_validate_json(state.model_dump_json()) == state


def test_ship_fleet_flight_grid_and_table_round_trip():
    data = rich_scenario()
    for raw in data["records"]:
        ship = load_ship(raw)
        assert load_ship(json.loads(json.dumps(ship.dump()))) == ship
    fleet = load_ship_fleet({"format": "decisive-victory-fleet/1", "name": "Samples", "ships": data["records"]})
    assert load_ship_fleet(json.loads(json.dumps(fleet.dump()))) == fleet
    flight = load_flight(data["flights"][0]["flight"])
    assert load_flight(flight.model_dump(mode="json")) == flight
    for grid in (GRID, load_hit_grid(group_grid())):
        assert load_hit_grid(json.loads(json.dumps(grid.dump()))) == grid
    assert load_success_table(json.loads(json.dumps(TABLE_1.model_dump(mode="json")))) == TABLE_1


def test_inches_are_exact_and_written_back_exactly():
    assert parse_inches("17.5") == Fraction(35, 2) and parse_inches(17.5) == Fraction(35, 2)
    assert parse_inches(0.1) == Fraction(1, 10) and parse_inches("35/2") == Fraction(35, 2)
    for value in (Fraction(10), Fraction(35, 2), Fraction(1, 3), Fraction(3, 40)):
        assert parse_inches(inches_text(value)) == value
    assert inches_text(Fraction(35, 2)) == "17.5" and inches_text(Fraction(10)) == 10


# --- bad files: plain words naming the path ------------------------------------------------------


def bad_sample(change) -> dict:
    data = sample_data()
    change(data)
    return data


def build(data):
    return build_dv_state(load_dv_scenario(data))


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["ships"][0].update(colour="grey"), "ships.0.colour: unknown field"),
    (lambda d: d["records"][0].update(**{"class": "battleship"}), "records.0.class: input should be 'destroyer', 'cruiser' or 'capital'"),
    (lambda d: d["records"][0].update(turning_class=5), "records.0.turning_class: input should be less than or equal to 4"),
    (lambda d: d["records"][0]["weapons"][2].pop("salvoes"), 'records.0.weapons.2: a torpedo system needs "salvoes"'),
    (lambda d: d["records"][0]["weapons"][0].update(salvoes=2), 'records.0.weapons.0: "salvoes" is for torpedo systems only'),
    (lambda d: d["records"][0]["armor"].update(belt=True), "records.0.armor.belt: true is not a whole number"),
    (lambda d: d["records"][0]["weapons"].append(d["records"][0]["weapons"][0]), "records.0: two weapons share the id 'main'"),
    (lambda d: d["ships"][0].pop("commander"), "ships.0.commander: missing"),
    (lambda d: d["ships"][0].update(position={"x": "ten", "y": 3}), "ships.0.position.x: 'ten' is not a number of inches"),
    (lambda d: d["ships"][0].update(position={"x": 1, "y": 3, "heading": 360}), "ships.0.position.heading: 360 is not a heading"),
    (lambda d: d.update(format="decisive-victory-scenario/2"), "format: 'decisive-victory-scenario/2' is newer than this app understands"),
    (lambda d: d.pop("format"), 'format: missing; expected "decisive-victory-scenario/1"'),
    (lambda d: d.update(hit_grid={**group_grid(), "rows": group_grid()["rows"][:3]}), "hit_grid.rows: the rows' dice are [1, 2, 3, 4, 5]"),
    (lambda d: d.update(hit_grid=_with_cell(group_grid(), "Bridge")), "hit_grid.rows.1.cells.2: input should be 'Com'"),
    (lambda d: d.update(hit_grid=_with_cells(group_grid(), 5)), "hit_grid.rows.1.cells: 5 cells, a row needs exactly 6"),
])
def test_bad_scenario_files_are_refused_in_plain_words(change, expected):
    assert error_of(load_dv_scenario, bad_sample(change)).startswith(expected)


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["ships"][2].update(ship="sample-battleship"),
     "ships.2.ship: unknown ship record 'sample-battleship' (known: sample-destroyer, sample-light-cruiser)"),
    (lambda d: d["ships"][1].update(boxes=[[5, 1]]), "ships.1.boxes.0: [5, 1] is not a box"),
    (lambda d: d["ships"][1].update(boxes=[[1, 3], [1, 3]]), "ships.1.boxes.1: box [1, 3] is marked twice"),
    (lambda d: d["ships"][1].update(salvoes_left={"torpedoes": 3}), "ships.1.salvoes_left.torpedoes: 3 salvoes left"),
    (lambda d: d["ships"][1].update(salvoes_left={"main": 1}), "ships.1.salvoes_left.main: Sample destroyer has no torpedo system 'main'"),
    (lambda d: d["ships"][1].update(id="hms-sample"), "ships.1.id: two entries share the ship id 'hms-sample'"),
    (lambda d: d["ships"][1].update(flagship=True), "ships.1.flagship: British names 2 flagships"),
    (lambda d: d["ships"][0].update(flagship=False) or d["ships"][1].update(flagship=True),
     "ships.1.flagship: the flagship carries British's highest-ranked commander"),
    (lambda d: d.update(flights=[{"id": "f", "side": "British", "base": "gibraltar",
                                  "flight": {"id": "x", "type": "fighter", "quality": 1}}]),
     "flights.0.base: no ship or base 'gibraltar'"),
])
def test_bad_positions_are_refused_in_plain_words(change, expected):
    assert error_of(build, bad_sample(change)).startswith(expected)


def test_bad_ship_grid_and_table_files_are_refused_in_plain_words():
    ship = record(sample_data(), "sample-destroyer")
    assert error_of(load_ship, {**ship, "speeed": 3}) == "speeed: unknown field"
    assert error_of(load_ship, {**ship, "format": "leviathans-card/1"}) == \
        "format: 'leviathans-card/1' is not 'decisive-victory-ship/1'"
    assert error_of(load_ship, [ship]).startswith('expected a JSON object with "format"')
    assert error_of(load_hit_grid, {**group_grid(), "thresholds": {"cruiser": 0}}).startswith(
        "thresholds.cruiser: input should be greater than or equal to 1")
    assert error_of(load_success_table, {"format": "decisive-victory-success-table/1",
                                         "bands": [{"modifier": 0, "totals": None}]}).startswith(
        "bands: the bands' modifiers are [0]")
    assert error_of(load_flight, {"id": "x", "type": "zeppelin", "quality": 1}).startswith("type: input should be")
    # a file's error names it at the edge
    with pytest.raises(FormatError) as caught:
        load_ship({**ship, "speeed": 3})
    assert caught.value.in_file("destroyer.json").message == "destroyer.json: speeed: unknown field"


def _with_cell(grid: dict, name: str) -> dict:
    grid["rows"][1]["cells"][2] = name
    return grid


def _with_cells(grid: dict, count: int) -> dict:
    grid["rows"][1]["cells"] = grid["rows"][1]["cells"][:count]
    return grid
