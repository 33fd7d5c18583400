"""The War Fleet game through its one door, `apply` (seed 004 "Signal the Task Force for
Formation", "Game Sequence", "Ahead Full!"; rules-notes 9), and its scenario files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.engine.cards import FormatError
from companion.engine.war_fleet import apply
from companion.engine.war_fleet.actions import (
    DeclareAttack, EndCombat, EndMove, EndMovement, EndTurn, Pivot, Place, RollAttack, RollInitiative,
    RollPlacement, SetBookkeeping, SetInitiative, Step,
)
from companion.engine.war_fleet.combat import all_attack_options
from companion.engine.war_fleet.scenario import (
    build_warfleet_state, dump_warfleet_scenario, load_warfleet_scenario, scenario_of,
)
from companion.engine.war_fleet.turn import placement_sequence, to_move, to_place
from companion.files import load_catalogue, load_file, shipped_fleets_dir
from warfleet_for_tests import attack, loc, stats, table, warship

SCENARIO = shipped_fleets_dir() / "war-fleet-20v20.json"


def ok(state, action):
    outcome = apply(state, action)
    assert outcome.ok, getattr(outcome, "reason", "")
    return outcome.state


def refused(state, action) -> str:
    outcome = apply(state, action)
    assert not outcome.ok
    return outcome.reason


# --- set-up ------------------------------------------------------------------------------


def unplaced_fleets():
    ships = [warship(f"b{c}{i}", "British", stats(f"B{c}{i}", ship_class=c), None) for c in (3, 1) for i in (1, 2)]
    ships += [warship(f"f{c}", "French", stats(f"F{c}", ship_class=c), None) for c in (3, 2, 1)]
    return table(*ships, phase="setup")


def test_placement_roll_with_dblack_ties_rolled_again_and_the_loser_places_first():
    """'Each side should roll a d-Black. The side with the highest result wins. Re-roll ties.
    The loser starts by placing one of his or her highest class of ships first.'"""
    state = unplaced_fleets()
    assert "roll for placement first" in refused(state, Place(ship="b31", hex="0505", facing="N"))
    outcome = apply(state, RollPlacement(faces={"British": [7], "French": [7]}))
    assert outcome.ok and outcome.state.placement_first is None  # a tie: roll again
    state = ok(state, RollPlacement(faces={"British": [4], "French": [11]}))
    assert state.placement_first == "British" and state.placement_order == ["British", "French"]
    assert to_place(state) == ("British", 3)
    assert "highest class first" in refused(state, Place(ship="b11", hex="0505", facing="N"))
    rolled = apply(unplaced_fleets(), RollPlacement())
    assert rolled.ok and rolled.state.placement_first in ("British", "French")


def test_placement_alternates_by_class_and_a_ship_is_alone_in_its_hex():
    """'Set-up alternates back and forth until all ships have been placed.' and 'When Placing a
    ship, it must be the only one to occupy its hex.'"""
    state = ok(unplaced_fleets(), RollPlacement(faces={"British": [2], "French": [9]}))
    state = ok(state, Place(ship="b31", hex="0505", facing="SE"))
    assert to_place(state) == ("French", 3)  # British has 4 ships to French's 3: L W L W L L W
    assert "French places a ship now" in refused(state, Place(ship="b32", hex="0506", facing="N"))
    assert "must be alone in its hex" in refused(state, Place(ship="f3", hex="0505", facing="N"))
    for ship, cell in (("f3", "2005"), ("b32", "0507"), ("f2", "2007"), ("b11", "0509")):
        state = ok(state, Place(ship=ship, hex=cell, facing="N"))
    assert to_place(state) == ("British", 1)
    state = ok(state, Place(ship="b12", hex="0511", facing="N"))
    assert to_place(state) == ("French", 1)  # the winner places last
    state = ok(state, Place(ship="f1", hex="2009", facing="N"))
    assert state.phase == "initiative"


def test_the_winner_of_the_placement_roll_always_places_last():
    """Tip: 'the winner of the placement roll always gets to place at least one ship last ...
    divide the largest force as evenly as possible among the smallest'."""
    assert placement_sequence({"L": 3, "W": 5}, ["L", "W"]) == list("LWLWLWWW")
    assert placement_sequence({"L": 5, "W": 3}, ["L", "W"]) == list("LWLLWLLW")
    assert placement_sequence({"L": 4, "W": 4}, ["L", "W"]) == list("LWLWLWLW")
    assert placement_sequence({"A": 2, "B": 1, "C": 2}, ["A", "B", "C"]) == list("ABCAC")


# --- initiative and movement ----------------------------------------------------------------


def two_lines():
    ships = [
        warship("bb", "British", stats("BB", ship_class=4, mp=3), "0510", "N"),
        warship("bd", "British", stats("BD", ship_class=1, mp=4), "0610", "N"),
        warship("fc", "French", stats("FC", ship_class=2, mp=3), "1210", "S"),
        warship("fd", "French", stats("FD", ship_class=1, mp=4), "1310", "S"),
    ]
    return table(*ships, phase="initiative")


def test_initiative_with_dblack_or_an_agreed_pool():
    """'Each side rolls a dBlack' and the Tip: 'as long as all sides roll a matching set'."""
    state = two_lines()
    tie = apply(state, RollInitiative(faces={"British": [5], "French": [5]}))
    assert tie.ok and tie.state.phase == "initiative" and tie.events[0].kind == "initiative_tie"
    state2 = ok(state, RollInitiative(faces={"British": [12], "French": [3]}))
    assert state2.initiative == "British" and state2.initiative_order == ["French", "British"]
    assert state2.phase == "movement"
    blue = state.model_copy(update={"settings": state.settings.model_copy(update={"initiative_dice": "2DBlue"})})
    assert "enter 2DBlue for British" in refused(blue, RollInitiative(faces={"British": [5], "French": [5, 1]}))
    rolled = ok(blue, RollInitiative())
    assert all(len(r.dice) == 2 for r in rolled.initiative_rolls)


def test_movement_by_class_from_the_highest_initiative_loser_first():
    """'Players alternate moving ships by class, highest to lowest, starting with the side that
    lost Initiative' and the Tip: a side missing a class is skipped."""
    state = ok(two_lines(), SetInitiative(side="French"))
    order = []
    while to_move(state):
        order.append(to_move(state))
        side, ship_class = to_move(state)
        ship = next(s for s in state.ships if s.side == side and s.ship_class == ship_class and not s.move_done)
        state = ok(state, EndMove(ship=ship.id))
    assert order == [("British", 4), ("French", 2), ("British", 1), ("French", 1)]
    assert state.phase == "combat"


def test_a_step_is_one_mp_forward_or_one_hexside_with_no_turning_limit():
    """'Move into the hex directly in front of it' and 'Change its current facing by one
    hex-side. Note that there is no limit'."""
    state = ok(two_lines(), SetInitiative(side="French"))
    assert "British: class 4 ships move now" in refused(state, Step(ship="fd", step="forward"))
    for step in ("starboard", "starboard", "starboard"):
        state = ok(state, Step(ship="bb", step=step))
    bb = state.ship("bb")
    assert bb.facing == 3 and bb.mp_left == 0 and bb.hex == state.ship("bb").hex
    assert "no MP left" in refused(state, Step(ship="bb", step="forward"))
    state = ok(state, EndMove(ship="bb"))
    state = ok(state, Step(ship="fc", step="forward"))
    assert state.board.label(state.ship("fc").hex) == "1211"


def test_a_ship_that_has_not_moved_may_spend_all_its_mp_to_face_any_way():
    """'A ship that hasn't spent MP that turn may sacrifice all its MP to turn and face any
    direction the controller wishes.'"""
    state = ok(two_lines(), SetInitiative(side="French"))
    pivoted = ok(state, Pivot(ship="bb", facing="S"))
    assert pivoted.ship("bb").facing == 3 and pivoted.ship("bb").mp_left == 0
    stepped = ok(state, Step(ship="bb", step="forward"))
    assert "only a ship that has not moved may pivot" in refused(stepped, Pivot(ship="bb", facing="S"))


def test_a_ship_that_moves_off_the_map_is_lost():
    """'Any ship that moves off the map, for any reason, is lost for the rest of the game.'"""
    edge = warship("e", "British", stats("E", mp=2), "0501", "N")
    state = table(edge, warship("f", "French", stats("F"), "1010", "N"), phase="movement",
                  initiative_order=["British", "French"])
    outcome = apply(state, Step(ship="e", step="forward"))
    assert outcome.ok and outcome.events[0].kind == "ship_lost"
    assert outcome.state.ship("e").removed and outcome.state.ship("e").lost


def test_any_number_of_ships_may_end_in_one_hex_and_fire_at_range_0():
    """'any number of ships may occupy a hex at the end of movement' and 'a range of 0, or
    point blank, is possible.'"""
    gun = attack((0, "DYellow"), (1, "DBlue"))
    a = warship("a", "British", stats("A", mp=1, stern=loc(gun=gun)), "1010", "N")
    b = warship("b", "French", stats("B"), "1009", "N")
    state = table(a, b, phase="movement", initiative_order=["French", "British"])
    state = ok(state, EndMove(ship="b"))
    state = ok(state, Step(ship="a", step="forward"))
    state = ok(state, EndMove(ship="a"))
    assert state.phase == "combat" and state.ship("a").hex == state.ship("b").hex
    options = all_attack_options(state)
    assert len(options) == 1 and options[0].range == 0 and options[0].bands == {"stern": "short"}
    assert [s.location for s in options[0].strikes] == ["bow", "port", "starboard", "stern"]
    assert "choose one" in refused(state, DeclareAttack(attacker="a", locations=["stern"], target="b"))


# --- a whole turn -------------------------------------------------------------------------------


def test_one_turn_initiative_movement_combat_end():
    gun = attack((1, "DYellow"), (2, "DBlue"))
    a = warship("a", "British", stats("A", bow=loc(gun=gun)), "1010", "N")
    b = warship("b", "French", stats("B", si=2, bow=loc(2, 2, 1)), "1007", "S")
    state = table(a, b, phase="initiative")
    state = ok(state, RollInitiative(faces={"British": [3], "French": [9]}))
    state = ok(state, Step(ship="a", step="forward"))
    state = ok(state, EndMovement())
    assert state.phase == "combat"
    assert "ships move in the movement phase" in refused(state, Step(ship="b", step="forward"))
    state = ok(state, DeclareAttack(attacker="a", locations=["bow"], target="b"))
    assert "declared but not rolled" in refused(state, EndCombat())
    state = ok(state, RollAttack(attack=1))
    state = ok(state, EndCombat())
    assert state.phase == "end"
    end = apply(state, EndTurn())
    assert end.ok
    if end.state.ship("b").removed:
        assert end.state.phase == "over" and end.state.winner == "British"
    else:
        assert end.state.turn == 2 and end.state.phase == "initiative" and end.state.attacks == []
        assert all(not s.move_done and s.mp_spent == 0 for s in end.state.ships)


def test_bookkeeping_records_what_the_table_did_with_a_warning():
    state = ok(two_lines(), SetBookkeeping(on=True))
    outcome = apply(state, Step(ship="fd", step="forward"))
    assert outcome.ok and outcome.events[0].kind == "warning"


def test_a_malformed_action_is_refused_in_plain_words():
    assert refused(two_lines(), {"kind": "teleport"}).startswith("not a War Fleet action")


# --- scenario files ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def twenty():
    return build_warfleet_state(load_file(SCENARIO), load_catalogue())


def test_the_20_against_20_scenario(twenty):
    assert [sum(s.side == side for s in twenty.ships) for side in ("British", "French")] == [20, 20]
    assert twenty.phase == "initiative" and all(s.placed for s in twenty.ships)
    assert all(s.source is not None for s in twenty.ships)
    traits = {t for s in twenty.ships for l in s.locations.values() if l.attack for t in l.attack.traits}
    assert traits == {"turret"}  # the printed cards print turrets (T), no bracket or saturation mark
    assert {s.ship_class for s in twenty.ships} == {1, 2, 3, 4}
    assert len({s.name for s in twenty.ships}) == 40


def test_a_scenario_round_trips(twenty):
    data = dump_warfleet_scenario(scenario_of(twenty))
    again = build_warfleet_state(load_warfleet_scenario(json.loads(json.dumps(data))), load_catalogue())
    assert again.ships == twenty.ships
    assert all("stats" not in s for s in data["ships"])  # unedited stats come from the cards


def test_bad_scenarios_name_the_place():
    base = {"format": "leviathans-warfleet-scenario/1", "ships": [
        {"id": "a", "side": "British", "card": "hml-raven", "hex": "0101"}]}
    with pytest.raises(FormatError, match="ships.0.hex"):
        build_warfleet_state(load_warfleet_scenario({**base, "board": {"columns": 10, "rows": 10},
                                                     "ships": [dict(base["ships"][0], hex="1111")]}), load_catalogue())
    with pytest.raises(FormatError, match="unknown card id 'nope'"):
        build_warfleet_state(load_warfleet_scenario({**base, "ships": [dict(base["ships"][0], card="nope")]}), {})
    with pytest.raises(FormatError, match="card .id or inline. or War Fleet stats"):
        load_warfleet_scenario({**base, "ships": [{"id": "a", "side": "B"}]})
    with pytest.raises(FormatError, match="newer than this app"):
        load_warfleet_scenario({**base, "format": "leviathans-warfleet-scenario/9"})


def test_a_scenario_without_hexes_starts_with_set_up():
    data = {"format": "leviathans-warfleet-scenario/1", "ships": [
        {"id": "a", "side": "British", "card": "hml-raven"}, {"id": "b", "side": "French", "card": "pelletier"}]}
    state = build_warfleet_state(load_warfleet_scenario(data), load_catalogue())
    assert state.phase == "setup" and not any(s.placed for s in state.ships)


def test_companion_validate_and_attacks_read_the_scenario():
    done = subprocess.run([sys.executable, "-m", "companion", "validate", str(SCENARIO)], capture_output=True, text=True)
    assert done.returncode == 0 and "War Fleet scenario, 40 ships (20 British, 20 French)" in done.stdout
    listed = subprocess.run([sys.executable, "-m", "companion", "attacks", str(SCENARIO), "--attacker",
                             "hml-leviathan", "--all", "--json"], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    options = json.loads(listed.stdout)
    assert len(options) == 20 * 6 and all(o["problem"] for o in options)  # four hexes apart: out of range


def test_the_war_fleet_engine_is_a_library():
    code = ("import sys, companion.engine.war_fleet, companion.engine.war_fleet.pocket;"
            "print(sorted(m for m in ('flet', 'tinydb') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_end_group_ends_the_moves_of_the_group_moving_now():
    state = ok(two_lines(), SetInitiative(side="French"))
    outcome = apply(state, {"kind": "end_group"})
    assert outcome.ok and outcome.state.ship("bb").move_done
    assert to_move(outcome.state) == ("French", 2)
