"""War Fleet table rules (issue 15 D): the readings a group may play differently, each with
the app's reading as the default (docs/rule-readings.md "War Fleet"; rules-notes 9).

One test (or a few) per rule: `warfleet_initiative`, `warfleet_placement`,
`side_turret_centre_line`, `warfleet_range_zero`, `rear_destroyed_dialup`, each played both
ways through the game's one door, `apply`, on small positions or the shipped 20-against-20.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.engine.dice import parse_pool
from companion.engine.hexes import Hex
from companion.engine.quick_start.table_rules import TableRules
from companion.engine.war_fleet import apply
from companion.engine.war_fleet.actions import (
    DeclareAttack, EndCombat, EndMovement, EndTurn, Place, RollAttack, RollInitiative, RollPlacement,
    TableRollFaces,
)
from companion.engine.war_fleet.arcs import in_firing_arc, on_centre_line
from companion.engine.war_fleet.combat import attack_option, attack_options
from companion.engine.war_fleet.scenario import build_warfleet_state, load_warfleet_scenario
from companion.engine.war_fleet.stats import FOUR_LOCATIONS, SIX_LOCATIONS
from companion.engine.war_fleet.turn import placement_sequence, to_place
from companion.files import load_catalogue, shipped_fleets_dir
from warfleet_for_tests import attack, loc, stats, table, warship

SCENARIO = shipped_fleets_dir() / "war-fleet-20v20.json"
O = Hex(0, 0)
GRID = [Hex(q, r) for q in range(-6, 7) for r in range(-6, 7) if Hex(q, r) != O and Hex(q, r).distance() <= 6]


def ruled(state, **rules):
    """The same game played with these table rules."""
    settings = state.settings.model_copy(update={"table_rules": TableRules(**rules)})
    return state.model_copy(update={"settings": settings})


def ok(state, action):
    outcome = apply(state, action)
    assert outcome.ok, getattr(outcome, "reason", "")
    return outcome


def refused(state, action) -> str:
    outcome = apply(state, action)
    assert not outcome.ok
    return outcome.reason


def scenario_state(**rules):
    """The shipped twenty-against-twenty, its table rules set as a scenario file sets them."""
    data = json.loads(SCENARIO.read_text())
    data["table_rules"] = rules
    return build_warfleet_state(load_warfleet_scenario(data), load_catalogue())


# --- 1. warfleet_initiative ---------------------------------------------------------------------


def test_initiative_the_lowest_roll_wins_and_ties_are_rolled_again():
    """Table rule warfleet_initiative "lowest": the same roll-off, the lowest total wins."""
    highest, lowest = scenario_state(), scenario_state(warfleet_initiative="lowest")
    assert highest.settings.table_rules == TableRules()
    assert lowest.settings.table_rules.warfleet_initiative == "lowest"
    faces = RollInitiative(faces={"British": [11], "French": [4]})
    today = ok(highest, faces).state
    assert today.initiative == "British" and today.initiative_order == ["French", "British"]
    won = ok(lowest, faces)
    assert won.state.initiative == "French" and won.state.initiative_order == ["British", "French"]
    assert won.state.phase == "movement"
    assert "French wins the initiative (the lowest roll wins at this table)." in won.events[0].text
    tie = ok(lowest, RollInitiative(faces={"British": [6], "French": [6]}))
    assert tie.state.phase == "initiative" and tie.events[0].kind == "initiative_tie"
    rolled = ok(lowest, RollInitiative()).state  # the roller rolls until there is no tie
    totals = {r.side: r.total for r in rolled.initiative_rolls}
    assert rolled.initiative == min(totals, key=totals.__getitem__)


def unplaced(**rules):
    ships = [warship(f"b{c}{i}", "British", stats(f"B{c}{i}", ship_class=c), None) for c in (3, 1) for i in (1, 2)]
    ships += [warship(f"f{c}", "French", stats(f"F{c}", ship_class=c), None) for c in (3, 2, 1)]
    return ruled(table(*ships, phase="setup"), **rules)


def test_placement_roll_the_lowest_roll_wins_and_the_highest_places_first():
    """warfleet_initiative "lowest" holds for the placement roll too: the loser (highest) places first."""
    faces = RollPlacement(faces={"British": [3], "French": [10]})
    today = ok(unplaced(), faces).state
    assert today.placement_first == "British" and today.placement_order == ["British", "French"]
    lowest = ok(unplaced(warfleet_initiative="lowest"), faces)
    assert lowest.state.placement_first == "French" and lowest.state.placement_order == ["French", "British"]
    assert "British wins (the lowest roll wins at this table); French places first." in lowest.events[0].text
    assert to_place(lowest.state) == ("French", 3)
    tie = ok(unplaced(warfleet_initiative="lowest"), RollPlacement(faces={"British": [8], "French": [8]}))
    assert tie.state.placement_first is None and tie.events[0].kind == "placement_tie"


# --- 2. warfleet_placement ------------------------------------------------------------------------


def test_placement_plain_alternation_lets_the_larger_fleet_place_last():
    """warfleet_placement "alternate": one ship each, the loser first, a side with nothing left
    skipped; "split" (today) divides the larger losing fleet among the winner's ships."""
    alternate = TableRules(warfleet_placement="alternate")
    assert placement_sequence({"L": 5, "W": 3}, ["L", "W"]) == list("LWLLWLLW")
    assert placement_sequence({"L": 5, "W": 3}, ["L", "W"], alternate) == list("LWLWLWLL")
    assert placement_sequence({"L": 3, "W": 5}, ["L", "W"], alternate) == list("LWLWLWWW")
    assert placement_sequence({"L": 4, "W": 4}, ["L", "W"], alternate) == list("LWLWLWLW")
    assert placement_sequence({"A": 2, "B": 1, "C": 2}, ["A", "B", "C"], alternate) == list("ABCAC")


@pytest.mark.parametrize("rule, sequence", [("split", "BFBFBBF"), ("alternate", "BFBFBFB")])
def test_placement_through_apply_follows_the_table_rule(rule, sequence):
    """Four British ships against three French, the British lose the placement roll."""
    state = ok(unplaced(warfleet_placement=rule), RollPlacement(faces={"British": [2], "French": [9]})).state
    spots = {"British": iter(["0505", "0507", "0509", "0511"]), "French": iter(["2005", "2007", "2009"])}
    seen = ""
    while state.phase == "setup":
        side, ship_class = to_place(state)
        seen += side[0]
        ship = next(s for s in state.ships if s.side == side and s.ship_class == ship_class and not s.placed)
        wrong = next((s for s in state.ships if s.side != side and not s.placed), None)
        if wrong is not None:
            assert "places a ship now" in refused(state, Place(ship=wrong.id, hex="1515", facing="N"))
        state = ok(state, Place(ship=ship.id, hex=next(spots[side]), facing="N")).state
    assert seen == sequence and state.phase == "initiative"


def test_placement_of_the_shipped_battle_alternates_by_class():
    """The twenty-against-twenty unplaced: with twenty ships a side both readings alternate."""
    for rule in ("split", "alternate"):
        state = scenario_state(warfleet_placement=rule)
        state = state.model_copy(update={"phase": "setup", "ships": [
            s.model_copy(update={"column": None, "row": None}) for s in state.ships]})
        state = ok(state, RollPlacement(faces={"British": [2], "French": [9]})).state
        assert to_place(state) == ("British", 4)


# --- 3. side_turret_centre_line --------------------------------------------------------------------


@pytest.mark.parametrize("names", [FOUR_LOCATIONS, SIX_LOCATIONS])
def test_a_side_turret_stops_short_of_the_hexes_the_centre_line_cuts(names):
    """side_turret_centre_line "stops": a side turret reaches only the hexes wholly on its own side
    (north up: q > 0 for starboard, q < 0 for port); "reaches" (today) also the column q = 0.
    The bow and stern turrets and every location's own arc are the same either way."""
    stops = TableRules(side_turret_centre_line="stops")
    cut = 0
    for location in names:
        for facing in range(6):
            for cell in GRID:
                today = in_firing_arc(O, facing, location, cell, True, names)
                played = in_firing_arc(O, facing, location, cell, True, names, stops)
                if today == "turret" and on_centre_line(O, facing, cell) and location not in ("bow", "stern"):
                    assert played is None, (location, facing, cell)
                    cut += 1
                else:
                    assert played == today, (location, facing, cell)
    assert cut > 0
    for facing in range(6):
        for cell in GRID:
            north_up = cell.rotated(-facing)
            side = "starboard" if names == FOUR_LOCATIONS else "starboard_bow"
            port = "port" if names == FOUR_LOCATIONS else "port_bow"
            if in_firing_arc(O, facing, side, cell, True, names, stops):
                assert north_up.q > 0
            if in_firing_arc(O, facing, port, cell, True, names, stops):
                assert north_up.q < 0


def test_a_side_turret_attack_dead_ahead_is_offered_or_refused_by_the_table_rule():
    """A starboard turret gun; the enemy two hexes dead ahead, on the centre line."""
    gun = attack((1, "DYellow"), (3, "DBlue"), traits=["turret"], name="T gun")
    a = warship("a", "British", stats("A", starboard=loc(gun=gun)), "1010", "N")
    t = warship("t", "French", stats("T"), "1008", "S")
    today = table(a, t)
    option = attack_option(today, a, "starboard", t)
    assert option.possible and option.reach == {"starboard": "turret"} and option.pool == parse_pool("DBlue")
    assert [o.locations for o in attack_options(today, "a")] == [("starboard",)]
    stops = ruled(today, side_turret_centre_line="stops")
    assert attack_options(stops, "a") == []
    assert attack_option(stops, a, "starboard", t).problem == "T is outside the arc of the starboard T gun"
    assert "outside the arc" in refused(stops, DeclareAttack(attacker="a", locations=["starboard"], target="t"))
    off_the_line = stops.with_ship(t.at(Hex.at(11, 8)))  # one column to starboard: wholly on its side
    assert attack_option(off_the_line, a, "starboard", off_the_line.ship("t")).possible


# --- 4. warfleet_range_zero -------------------------------------------------------------------------


def same_hex(**rules):
    gun = attack((1, "DYellow"), (2, "DBlue"), name="gun")
    a = warship("a", "British", stats("A", bow=loc(gun=gun), stern=loc(gun=gun)), "1010", "N")
    t = warship("t", "French", stats("T"), "1010", "SE")
    return ruled(table(a, t), **rules)


def test_range_0_allowed_or_none():
    """warfleet_range_zero "allowed" (today): every location with an attack fires, the attacker
    picks the struck location; "none": no attack offered, a declared one refused in plain words."""
    today = same_hex()
    options = attack_options(today, "a")
    assert {o.locations for o in options} == {("bow",), ("stern",)}
    assert all(o.range == 0 and [s.location for s in o.strikes] == list(FOUR_LOCATIONS) for o in options)
    ok(today, DeclareAttack(attacker="a", locations=["bow"], target="t", target_location="port"))
    none = same_hex(warfleet_range_zero="none")
    assert attack_options(none, "a") == []
    reason = "the two ships share a hex (range 0), and this table plays no attack at range 0"
    assert attack_option(none, none.ship("a"), "bow", none.ship("t")).problem == reason
    assert refused(none, DeclareAttack(attacker="a", locations=["bow"], target="t")) == reason
    impossible = attack_options(none, "a", impossible=True)
    assert {o.problem for o in impossible} == {reason}
    apart = none.with_ship(none.ship("t").at(Hex.at(10, 9)))  # one hex ahead: range 1 is untouched
    assert [o.locations for o in attack_options(apart, "a")] == [("bow",)]


def test_range_0_none_in_bookkeeping_is_a_warning():
    state = same_hex(warfleet_range_zero="none")
    state = state.model_copy(update={"settings": state.settings.model_copy(update={"bookkeeping": True})})
    done = ok(state, DeclareAttack(attacker="a", locations=["bow"], target="t", target_location="bow"))
    assert any(e.kind == "warning" and "no attack at range 0" in e.text for e in done.events)


# --- 5. rear_destroyed_dialup ---------------------------------------------------------------------


def astern(**rules):
    """Two British ships in 1010 facing north, each with a bow gun (DYellow at range 1); the
    French target one hex ahead facing away, so its stern (Resilience 7, destroyed 4, SI
    modifier 2; SI 12) is struck."""
    gun = attack((1, "DYellow"), (2, "DBlue"), name="6 IN")
    a = warship("a", "British", stats("A", bow=loc(gun=gun)), "1010", "N")
    c = warship("c", "British", stats("C", bow=loc(gun=gun)), "1010", "N")
    t = warship("t", "French", stats("T", si=12, mp=6, stern=loc(7, 4, 2)), "1009", "N")
    return ruled(table(a, c, t), **rules)


def stern_destroyed_by_the_first_attack(state):
    for attacker in ("a", "c"):
        state = ok(state, DeclareAttack(attacker=attacker, locations=["bow"], target="t")).state
    done = ok(state, RollAttack(attack=1, table=TableRollFaces(attack=[7], si=[1]))).state
    assert done.ship("t").destroyed == {"stern": "destroyed_this_combat"} and done.ship("t").mp == 0
    return done


def second_odds(state):
    option = attack_option(state.model_copy(update={"attacks": []}), state.ship("c"), "bow", state.ship("t"))
    return option.pool, option.dial_ups, option.strike("stern").odds


def test_rear_destroyed_dials_up_at_once_today():
    """'at_once': the second attack of the same combat dials up: DRed at destroyed Resilience 4
    (9 faces of 12 reach it), no effect 1/4; SI test dRed + 2 x 2 >= 12 (faces 8, 9, 10: 1/4):
    casualty 3/4 x 1/4 = 3/16."""
    state = stern_destroyed_by_the_first_attack(astern())
    pool, steps, odds = second_odds(state)
    assert pool == parse_pool("DRed") and steps == (("target's rear destroyed", 1),)
    assert (odds.no_effect, odds.location_destroyed, odds.casualty) == (Fraction(1, 4), 0, Fraction(3, 16))
    assert "the attack is DRed" in refused(state, RollAttack(attack=2, table=TableRollFaces(attack=[9, 1])))
    rolled = ok(state, RollAttack(attack=2, table=TableRollFaces(attack=[9], si=[1])))
    result = rolled.state.attacks[1].result
    assert result.pool == "DRed" and result.text.startswith("Dialled up (target's rear destroyed +1).")


def test_rear_destroyed_dials_up_from_the_next_combat():
    """'next_combat': the second attack of the same combat rolls DYellow (8 faces of 12 reach 4):
    no effect 1/3, casualty 2/3 x 1/4 = 1/6; a face of 9 is no DYellow face.  From the next
    turn's combat: DRed, as today."""
    state = stern_destroyed_by_the_first_attack(astern(rear_destroyed_dialup="next_combat"))
    pool, steps, odds = second_odds(state)
    assert pool == parse_pool("DYellow") and steps == ()
    assert (odds.no_effect, odds.location_destroyed, odds.casualty) == (Fraction(1, 3), 0, Fraction(1, 6))
    assert "DYellow" in refused(state, RollAttack(attack=2, table=TableRollFaces(attack=[9], si=[1])))
    rolled = ok(state, RollAttack(attack=2, table=TableRollFaces(attack=[5], si=[1])))
    result = rolled.state.attacks[1].result
    assert result.pool == "DYellow" and "Dialled up" not in result.text
    state = ok(rolled.state, EndCombat()).state
    state = ok(state, EndTurn()).state
    state = ok(state, RollInitiative(faces={"British": [9], "French": [2]})).state
    state = ok(state, EndMovement()).state
    assert state.phase == "combat" and state.turn == 2
    pool, steps, odds = second_odds(state)
    assert pool == parse_pool("DRed") and steps == (("target's rear destroyed", 1),)
    assert (odds.no_effect, odds.casualty) == (Fraction(1, 4), Fraction(3, 16))


def test_a_stern_marked_destroyed_before_the_game_dials_up_under_both_rules():
    """A scenario's destroyed stern was destroyed in an earlier combat: both readings dial up."""
    for rule in ("at_once", "next_combat"):
        state = astern(rear_destroyed_dialup=rule)
        state = state.with_ship(state.ship("t").with_location("stern", "destroyed"))
        assert attack_option(state, state.ship("a"), "bow", state.ship("t")).pool == parse_pool("DRed")
