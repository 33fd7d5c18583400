"""House rule H4 "one-hex ships" (seed 002:21-23; shared/spec/house-rules.md 7, examples H4-1..H4-4).

Every ship fills only its bow hex; every location fires from it and its damage
arc is drawn from it; the Quick-Start range rule (shortest chain inside the
arc, RN 5) and struck-location rule stay.  Plain Quick-Start values alongside.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.commands import main
from companion.engine.quick_start import apply
from companion.engine.quick_start.actions import DeclareShot, EndMove, Place, SetHouseRules, Step
from companion.engine.board import Board
from companion.engine.cards import FormatError
from companion.engine.quick_start.combat import firing_solution, firing_solutions
from companion.engine.footprint import Placement
from companion.engine.hexes import Hex
from companion.engine.quick_start.house_rules import with_house_rules
from companion.engine.quick_start.scenario import build_state, load_scenario
from companion.engine.quick_start.table_rules import HouseRules
from cards_for_tests import position, ship, shipped
from test_properties import SWAP, moved, positions, solution_table

H4 = HouseRules(one_hex_ships=True)


def table(*ships, one_hex, phase="combat"):
    state = position(*ships, board=Board(), phase=phase)
    return with_house_rules(state, H4 if one_hex else HouseRules())


def hertfordshire_against(target_id, bow, facing, one_hex):
    state = table(ship("herts", "British", shipped("hml-hertfordshire"), "1010", "N"),
                  ship(target_id, "French", shipped(target_id), bow, facing), one_hex=one_hex)
    return state, state.ship("herts"), state.ship(target_id)


def solution(attacker, location, target):
    slot = next(n for loc, n in attacker.working_guns if loc == location)
    found = firing_solution(attacker, location, slot, target)
    return found.in_arc, found.range, [s.location for s in found.strikes]


# --- H4-1 Bow gun loses its target, side guns shorten --------------------------------------------


def test_h4_1_plain_quick_start():
    _, herts, pont = hertfordshire_against("pontbriand", "1307", "S", one_hex=False)
    assert solution(herts, "bow", pont) == (True, 6, ["starboard"])
    bow_gun = firing_solution(herts, "bow", 3, pont)
    assert (bow_gun.name, bow_gun.band) == ("6 IN", "short")  # 6 IN (6/12) in arc at range 6
    assert solution(herts, "starboard", pont) == (True, 6, ["bow"])


def test_h4_1_one_hex():
    _, herts, pont = hertfordshire_against("pontbriand", "1307", "S", one_hex=True)
    assert herts.hexes == (Hex.at(10, 10),) and pont.hexes == (Hex.at(13, 7),)
    assert solution(herts, "bow", pont) == (False, None, [])
    assert solution(herts, "starboard", pont) == (True, 5, ["starboard"])


# --- H4-2 Range from the one hex ------------------------------------------------------------------


def test_h4_2_range_counts_from_the_one_hex():
    _, herts, pell = hertfordshire_against("pelletier", "1212", "N", one_hex=False)
    assert solution(herts, "starboard", pell) == (True, 2, ["port"])
    _, herts, pell = hertfordshire_against("pelletier", "1212", "N", one_hex=True)
    assert solution(herts, "starboard", pell) == (True, 3, ["port"])


# --- H4-3 Two struck locations --------------------------------------------------------------------


def test_h4_3_a_spine_through_the_firing_hex_gives_two_locations():
    _, herts, pont = hertfordshire_against("pontbriand", "1410", "NE", one_hex=False)
    assert solution(herts, "starboard", pont) == (True, 2, ["stern"])
    state, herts, pont = hertfordshire_against("pontbriand", "1410", "NE", one_hex=True)
    assert solution(herts, "starboard", pont) == (True, 4, ["port", "stern"])
    outcome = apply(state, DeclareShot(attacker="herts", location="starboard", slot=2, target="pontbriand"))
    assert not outcome.ok and outcome.reason == "the shot can strike the port or the stern: choose one"
    chosen = apply(state, DeclareShot(attacker="herts", location="starboard", slot=2, target="pontbriand",
                                      target_location="stern"))
    assert chosen.ok and chosen.state.shots[0].target_location == "stern"


def test_h4_3_companion_solutions_lists_both_locations_with_their_odds(tmp_path, capsys):
    data = {"format": "leviathans-scenario/1", "ruleset": "quick-start", "house_rules": {"one_hex_ships": True},
            "ships": [{"id": "herts", "side": "British", "card": shipped("hml-hertfordshire").dump(),
                       "bow": "1010", "facing": "N"},
                      {"id": "pontbriand", "side": "French", "card": shipped("pontbriand").dump(),
                       "bow": "1410", "facing": "NE"}]}
    path = tmp_path / "h4-3.json"
    path.write_text(json.dumps(data))
    code = main(["solutions", str(path), "--attacker", "herts", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = [r for r in json.loads(out) if r["weapon"]["location"] == "starboard"]
    assert rows and all(r["range"] == 4 for r in rows)
    for row in rows:
        assert [loc["location"] for loc in row["locations"]] == ["port", "stern"]
        assert all("no_effect" in loc and "slot_destroyed" in loc for loc in row["locations"])


# --- H4-4 Stacking and pivot -----------------------------------------------------------------------


def test_h4_4_a_one_hex_ship_pivots_in_place():
    placement = Placement(Hex.at(10, 10), 0, 2, one_hex=True)
    turned = placement.turned(+1)
    assert turned.bow == Hex.at(10, 10) and turned.facing == 1 and turned.hexes == (Hex.at(10, 10),)
    assert Placement(Hex.at(10, 10), 0, 2).turned(+1).bow != Hex.at(10, 10)  # plain: about the centre hex
    # and as a move: two hexes forward (enter 2), then starboard in 1010
    state = table(ship("herts", "British", shipped("hml-hertfordshire"), "1012", "N"), one_hex=True,
                  phase="movement")
    state = state.model_copy(update={"initiative": "British"})
    for kind in ("forward", "forward", "starboard"):
        outcome = apply(state, Step(ship="herts", step=kind))
        assert outcome.ok, outcome.reason
        state = outcome.state
    herts = state.ship("herts")
    assert herts.bow == Hex.at(10, 10) and herts.facing == 1 and herts.hexes == (Hex.at(10, 10),)


def test_h4_4_stacking_stays_quick_start():
    state = table(ship("herts", "British", shipped("hml-hertfordshire"), "1011", "N"),
                  ship("pelletier", "French", shipped("pelletier"), "1010", "S"), one_hex=True, phase="movement")
    state = state.model_copy(update={"initiative": "French"})  # Type 2 moves first
    state = apply(state, Step(ship="herts", step="forward")).state
    outcome = apply(state, EndMove(ship="herts"))
    assert not outcome.ok and outcome.reason == "HML Hertfordshire may not end its move sharing a hex with Pelletier"


def test_place_under_h4_needs_room_for_the_bow_hex_only():
    # plain Quick-Start: a Type 2 with its bow on row 18 facing N has its stern off a 19-row board (row 20)
    state = table(ship("herts", "British", shipped("hml-hertfordshire"), "1010", "N"), one_hex=True,
                  phase="setup")
    assert apply(state, Place(ship="herts", bow="1018", facing="N")).ok
    plain = table(ship("herts", "British", shipped("hml-hertfordshire"), "1010", "N"), one_hex=False,
                  phase="setup")
    assert "off the board" in apply(plain, Place(ship="herts", bow="1018", facing="N")).reason


# --- scenario build and set_house_rules keep the flag in step ----------------------------------------


def scenario(one_hex):
    return load_scenario({
        "format": "leviathans-scenario/1", **({"house_rules": {"one_hex_ships": True}} if one_hex else {}),
        "ships": [{"id": "pelletier", "side": "French", "card": shipped("pelletier").dump(), "bow": "1009",
                   "facing": "N"},
                  {"id": "herts", "side": "British", "card": shipped("hml-hertfordshire").dump(), "bow": "1010",
                   "facing": "N"}]})


def test_a_scenario_under_h4_builds_one_hex_ships_standing_bow_to_stern():
    state = build_state(scenario(one_hex=True), {})
    assert all(s.one_hex for s in state.ships) and state.ship("pelletier").hexes == (Hex.at(10, 9),)
    with pytest.raises(FormatError, match="share hex 1010"):
        build_state(scenario(one_hex=False), {})


def test_set_house_rules_switches_every_ship_and_refuses_a_switch_that_stacks_ships():
    state = build_state(scenario(one_hex=True), {})
    off = apply(state, SetHouseRules(house_rules=HouseRules()))
    assert not off.ok and off.reason == "HML Hertfordshire (herts) and Pelletier (pelletier) share hex 1010"
    apart = table(ship("herts", "British", shipped("hml-hertfordshire"), "1010", "N"),
                  ship("pelletier", "French", shipped("pelletier"), "2010", "S"), one_hex=False, phase="setup")
    on = apply(apart, SetHouseRules(house_rules=H4))
    assert on.ok and all(s.one_hex for s in on.state.ships)
    assert on.events[0].text == "House rules now in use: one-hex ships."
    back = apply(on.state, SetHouseRules(house_rules=HouseRules()))
    assert back.ok and not any(s.one_hex for s in back.state.ships)
    assert back.state == apart


def test_with_every_house_rule_off_placements_are_todays():
    herts = ship("herts", "British", shipped("hml-hertfordshire"), "1010", "N")
    assert herts.placement == Placement(Hex.at(10, 10), 0, 2) and len(herts.hexes) == 3


# --- the properties of the arc tests, for one-hex ships ----------------------------------------------


def one_hex(state):
    return with_house_rules(state, H4)


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(-20, 20), st.integers(-20, 20), st.integers(1, 5))
def test_one_hex_translating_or_rotating_a_position_changes_no_firing_solution(state, dq, dr, rotation):
    state = one_hex(state)
    before = solution_table(state)
    assert solution_table(moved(state, shift=Hex(dq, dr))) == before
    assert solution_table(moved(state, rotation=rotation)) == before


@settings(max_examples=30, deadline=None)
@given(positions())
def test_one_hex_six_rotations_return_the_start(state):
    state = one_hex(state)
    turned = state
    for _ in range(6):
        turned = moved(turned, rotation=1)
        assert all(s.one_hex and len(s.hexes) == 1 for s in turned.ships)
    assert turned == state


@settings(max_examples=60, deadline=None)
@given(positions())
def test_one_hex_mirroring_a_position_swaps_port_and_starboard_and_nothing_else(state):
    def swap_card(s):
        locs = {SWAP.get(k, k): v for k, v in s.card.locations.items()}
        dmg = {SWAP.get(k, k): v for k, v in s.damage.items()}
        return s.model_copy(update={"card": s.card.model_copy(update={"locations": locs}), "damage": dmg})

    state = one_hex(state)
    before = solution_table(state)
    mirrored = moved(state, mirror=True)
    mirrored_cards = mirrored.model_copy(update={"ships": [swap_card(s) for s in mirrored.ships]})
    assert solution_table(mirrored_cards, rename=lambda loc: SWAP.get(loc, loc)) == before


@settings(max_examples=40, deadline=None)
@given(positions())
def test_one_hex_every_location_fires_from_the_bow_hex(state):
    state = one_hex(state)
    for s in state.ships:
        placement = s.placement
        assert placement.hexes == (s.bow,) and placement.pivot == s.bow
        assert all(placement.location_hex(loc) == s.bow for loc in s.card.locations)
        for sol in firing_solutions(state, s.id):
            assert sol.range is None or sol.range >= 1
