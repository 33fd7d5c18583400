"""Decisive Victory aircraft (spec §12, §15.1 rows 17-18, §15.5, §16): the stages of the aircraft
phase, CAP, air to air, AA fire and strikes with the whole hit chain, launches and landings.
Worked examples DV-17 and DV-18 with the spec's exact values; refusals in words; table faces
and the roller."""

from fractions import Fraction as F

import pytest

from companion.engine.decisive_victory import air_odds as O
from companion.engine.decisive_victory.aircraft import flight_options
from companion.engine.decisive_victory.air_options import next_step
from companion.engine.decisive_victory.game import apply
from companion.engine.decisive_victory.odds import Armour, save_odds
from companion.engine.decisive_victory.records import FlightRecord, ShipRecord
from companion.engine.decisive_victory.state import Base, Conditions, DVShip, DVState, Flight, Settings

CRUISER_ARMOUR = Armour(deck=3, belt=6, underwater=4)


def cruiser(**more):
    return ShipRecord.model_validate({
        "id": "cruiser", "name": "Cruiser", "class": "cruiser", "speed": 15, "turning_class": 2,
        "armor": {"deck": 3, "belt": 6, "underwater": 4}, "critical_damage_threshold": 5, "aa": 3,
        "weapons": [{"id": "main", "kind": "gun", "fire_control": 4, "strength": 6, "damage": 2},
                    {"id": "dp", "kind": "gun", "fire_control": 2, "strength": 3, "damage": 1, "dual_purpose_aa": 2}],
        **more})


def carrier(nation="American", lands_in_combat=True):
    return ShipRecord.model_validate({
        "id": "carrier", "name": "Carrier", "nation": nation, "class": "capital", "speed": 15, "turning_class": 1,
        "armor": {"deck": 2, "belt": 4, "underwater": 3}, "critical_damage_threshold": 6, "aa": 2, "weapons": [],
        "flight_deck": {"launch_per_turn": 1, "lands_in_combat": lands_in_combat}})


def flight(fid, side, kind, quality=2, base="cv", stage="landed", **more):
    record = FlightRecord(id=fid, type=kind, quality=quality, slow=more.pop("slow", False),
                          radar=more.pop("radar", False), naval=more.pop("naval", True))
    return Flight(id=fid, side=side, record=record, base=base, stage=stage, **more)


def game(flights=(), phase="aircraft", turn=1, night=False, nation="American", lands_in_combat=True, **more):
    ships = [DVShip(id="cv", side="Blue", record=carrier(nation, lands_in_combat), commander="captain", cp=2,
                    flagship=True),
             DVShip(id="ca", side="Blue", record=cruiser(), commander="commander", cp=1),
             DVShip(id="red", side="Red", record=cruiser(), commander="captain", cp=2, flagship=True),
             DVShip(id="red2", side="Red", record=cruiser(), commander="lieutenant")]
    return DVState(sides=["Blue", "Red"], ships=ships, flights=list(flights), phase=phase, turn=turn,
                   initiative="Blue", bases=[Base(id="field", side="Red", name="Airfield", aa=2)],
                   conditions=Conditions(night=night), **more)


def ok(state, action):
    outcome = apply(state, action)
    assert outcome.ok, getattr(outcome, "reason", "")
    return outcome.state, outcome.events


def refused(state, action):
    outcome = apply(state, action)
    assert not outcome.ok, "accepted"
    return outcome.reason


def kinds(events):
    return [e.kind for e in events]


def on_target(state):
    """Past the attacking stage: the On Target stage of this turn."""
    return ok(state, {"kind": "resolve_attacking"})[0]


def landed_stage(state):
    state = on_target(state) if state.attacking_resolved != state.turn else state
    return ok(state, {"kind": "resolve_returning"})[0]


def next_turn(state):
    return state.model_copy(update={"turn": state.turn + 1, "phase": "aircraft"})


# --- DV-17 aircraft: AA then a dive bomber ----------------------------------------------------


def test_dv17_aa_odds_by_quality():
    assert O.flight_attack_odds(3, 2) == O.FlightAttackOdds(F(5, 6), F(1, 6), F(0))
    assert O.flight_attack_odds(2, 2) == O.FlightAttackOdds(F(2, 3), F(0), F(1, 3))
    assert O.flight_attack_odds(1, 2) == O.FlightAttackOdds(F(4, 9), F(0), F(5, 9))
    assert [O.flight_attack_modifier(q, 2) for q in (3, 2, 1)] == [7, 5, 3]


def test_dv17_the_dive_bombers_strike():
    odds = O.strike_odds("dive_bomber", CRUISER_ARMOUR)
    assert odds.hit == F(2, 3) and odds.rows[1] == F(2, 3) and odds.armour["deck"] == F(2, 3)
    save = save_odds(3, 8)
    assert (save.critical, save.success, save.fail) == (F(1, 18), F(0), F(17, 18))
    assert 1 - odds.damage_points[0] == F(119, 216) == F(2, 3) * F(17, 18) * F(7, 8)
    assert odds.bonus_hit == 0  # no N7 bonus roll: guns only


def test_dv17_overall_with_aa_spent():
    def overall(points):
        return O.damage_chance_after_aa(points, 2, "dive_bomber", CRUISER_ARMOUR)
    assert overall(3) == 0  # destroyed 5/6, else driven off: the strike never happens
    assert overall(2) == F(119, 648)
    assert overall(1) == F(595, 1944)
    assert overall(0) == F(119, 216)


def test_dv17_patrol_bomber_hits_only_on_a_natural_seven():
    odds = O.strike_odds("patrol_bomber", CRUISER_ARMOUR)
    assert odds.hit == F(1, 18)
    assert O.strike_attack("patrol_bomber", CRUISER_ARMOUR).strength == 8
    assert O.strike_attack("patrol_bomber", CRUISER_ARMOUR).damage == 4
    assert not O.strike_hits("patrol_bomber", 2, 5) and O.strike_hits("patrol_bomber", 4, 3)


def dive_bomber_over_the_cruiser():
    bomber = flight("sbd", "Blue", "dive_bomber", quality=2, stage="attacking", counter=1, launch_counter=2)
    return on_target(game([bomber])), "sbd"


def test_dv17_higher_aa_drives_the_flight_off_when_it_misses():
    state, sbd = dive_bomber_over_the_cruiser()
    state, _ = ok(state, {"kind": "place_flight", "flight": sbd})
    state, events = ok(state, {"kind": "aa_fire", "ship": "red", "flight": sbd, "points": 3,
                               "table": {"attack": [6, 6]}})
    aa = next(e for e in events if e.kind == "aa_fire")
    assert aa.data["modifier"] == 7 and aa.data["result"] == "driven_off"
    assert aa.data["dice"] == [{"colour": "D6", "face": 6, "role": "first"}, {"colour": "D6", "face": 6, "role": "second"}]
    assert state.flight(sbd).stage == "returning" and state.flight(sbd).counter == 2
    assert state.ship("red").aa_spent == 3
    assert "is not On Target" in refused(state, {"kind": "air_strike", "flight": sbd, "target": "red"})


def test_dv17_aa_destroys_on_a_success():
    state, sbd = dive_bomber_over_the_cruiser()
    state, _ = ok(state, {"kind": "place_flight", "flight": sbd})
    state, events = ok(state, {"kind": "aa_fire", "ship": "red", "flight": sbd, "points": 1,
                               "table": {"attack": [3, 3]}})  # +3: 6-8 succeed
    assert state.flight(sbd).stage == "destroyed" and "flight_destroyed" in kinds(events)


def test_dv17_equal_aa_misses_then_the_strike_goes_in_with_the_whole_chain():
    state, sbd = dive_bomber_over_the_cruiser()
    state, _ = ok(state, {"kind": "place_flight", "flight": sbd})
    state, events = ok(state, {"kind": "aa_fire", "ship": "red", "flight": sbd, "points": 2,
                               "table": {"attack": [6, 6]}})
    assert state.flight(sbd).stage == "on_target"  # equal quality: a miss does not drive it off
    state, events = ok(state, {"kind": "air_strike", "flight": sbd, "target": "red", "distance": "1",
                               "table": {"attack": [2, 5], "save": [1, 2], "damage": [4, 5, 1]}})
    assert kinds(events)[:4] == ["attack", "hit", "save", "damage"]
    hit = next(e for e in events if e.kind == "hit")
    assert hit.data["row"] == 1 and hit.data["box"] == [1, 5] and hit.data["strength"] == 8
    red = state.ship("red")
    assert (red.damage_points, red.minor_damage) == (2, 1)
    assert (1, 5) in red.boxes
    assert state.flight(sbd).stage == "returning" and state.flight(sbd).counter == 2


def test_strike_a_critical_save_does_nothing_and_a_miss_rolls_no_save():
    state, sbd = dive_bomber_over_the_cruiser()
    state, _ = ok(state, {"kind": "place_flight", "flight": sbd})
    after, events = ok(state, {"kind": "air_strike", "flight": sbd, "target": "red",
                               "table": {"attack": [4, 3], "save": [3, 4]}})
    assert next(e for e in events if e.kind == "save").data["result"] == "critical"
    assert after.ship("red").damage_points == 0 and not after.ship("red").boxes
    after, events = ok(state, {"kind": "air_strike", "flight": sbd, "target": "red", "table": {"attack": [1, 1]}})
    assert kinds(events) == ["attack", "flight_returning"]
    assert "does not use" in refused(state, {"kind": "air_strike", "flight": sbd, "target": "red",
                                             "table": {"attack": [1, 1], "save": [2, 2]}})


def test_strike_table_faces_missing_name_the_die_still_needed():
    state, sbd = dive_bomber_over_the_cruiser()
    state, _ = ok(state, {"kind": "place_flight", "flight": sbd})
    reason = refused(state, {"kind": "air_strike", "flight": sbd, "target": "red", "table": {"attack": [2, 5]}})
    assert "the armour save's 1st die" in reason
    reason = refused(state, {"kind": "air_strike", "flight": sbd, "target": "red",
                             "table": {"attack": [2, 5], "save": [1, 2], "damage": [4]}})
    assert "the strike's damage dice" in reason
    assert "no face 7" in refused(state, {"kind": "air_strike", "flight": sbd, "target": "red",
                                          "table": {"attack": [7, 1]}})


def test_strike_with_the_games_roller_records_every_die():
    state, sbd = dive_bomber_over_the_cruiser()
    state, _ = ok(state, {"kind": "place_flight", "flight": sbd})
    after, events = ok(state, {"kind": "air_strike", "flight": sbd, "target": "red"})
    rolled = [d for e in events for d in e.data.get("dice", [])]
    assert after.roller.counter == state.roller.counter + len(rolled) >= state.roller.counter + 2
    again, _ = ok(state, {"kind": "air_strike", "flight": sbd, "target": "red"})
    assert again == after  # the same seed rolls the same dice


def test_torpedo_bomber_strikes_row_6_without_halving_and_damages_on_3_up():
    tbf = flight("tbf", "Blue", "torpedo_bomber", stage="on_target", on_table=True, moved_turn=1, launch_counter=1)
    state = on_target(game([tbf]))
    state, events = ok(state, {"kind": "air_strike", "flight": "tbf", "target": "red",
                               "table": {"attack": [1, 6], "save": [1, 1], "damage": [3, 3, 2]}})
    hit = next(e for e in events if e.kind == "hit")
    assert hit.data["row"] == 6 and hit.data["strength"] == 6 and hit.data["armour"] == "underwater"
    assert state.ship("red").damage_points == 2 and (4, 6) in state.ship("red").boxes
    odds = O.strike_odds("torpedo_bomber", CRUISER_ARMOUR)
    assert odds.rows[6] == F(2, 3)
    assert "within 3\"" in refused(on_target(game([tbf])), {"kind": "air_strike", "flight": "tbf",
                                                            "target": "red", "distance": "3.5"})


def test_fighter_strafing_one_minor_damage_no_save_and_it_stays():
    f4f = flight("f4f", "Blue", "fighter", stage="on_target", on_table=True, moved_turn=1)
    state = on_target(game([f4f]))
    after, events = ok(state, {"kind": "air_strike", "flight": "f4f", "target": "red", "table": {"attack": [3, 5]}})
    assert after.ship("red").minor_damage == 1 and after.flight("f4f").stage == "on_target"
    assert "already attacked" in refused(after, {"kind": "air_strike", "flight": "f4f", "target": "red"})
    assert O.strafing_chance() == F(2, 3)
    assert "within 1\"" in refused(state, {"kind": "air_strike", "flight": "f4f", "target": "red", "distance": 2})


def test_float_planes_have_no_attack_and_only_enemy_ships_are_struck():
    planes = [flight("fp", "Blue", "float_plane", stage="on_target", on_table=True, moved_turn=1),
              flight("sbd", "Blue", "dive_bomber", stage="on_target", on_table=True, moved_turn=1)]
    state = on_target(game(planes))
    assert "float planes have no attack" in refused(state, {"kind": "air_strike", "flight": "fp", "target": "red"})
    assert "not an enemy ship" in refused(state, {"kind": "air_strike", "flight": "sbd", "target": "ca"})


# --- DV-18 aircraft stages ------------------------------------------------------------------------


def test_dv18_counter_at_launch():
    assert O.range_band(F(100)) == "medium" and O.attacking_turns("medium", slow=True) == 3
    assert O.range_band(F(72)) == "close" and O.range_band(F(145)) == "long"
    assert O.attacking_turns(O.range_band(F(100), "inches"), slow=True) == 4


def test_dv18_a_slow_torpedo_bomber_from_launch_to_landing():
    tbd = flight("tbd", "Blue", "torpedo_bomber", slow=True)
    state = landed_stage(game([tbd]))
    state, events = ok(state, {"kind": "launch_flight", "flight": "tbd", "base": "cv", "target": "red",
                               "distance": 100})
    assert (state.flight("tbd").stage, state.flight("tbd").counter) == ("attacking", 3)
    assert next(e for e in events if e.kind == "flight_launched").data["band"] == "medium"
    state, _ = ok(state, {"kind": "end_aircraft"})
    assert state.phase == "movement"
    counters = []
    for _ in (2, 3):
        state = on_target(next_turn(state))
        counters.append(state.flight("tbd").counter)
    assert counters == [2, 1] and state.flight("tbd").stage == "attacking"
    state, events = ok(next_turn(state), {"kind": "resolve_attacking"})  # turn 4
    assert state.turn == 4 and state.flight("tbd").stage == "on_target" and "flight_on_target" in kinds(events)
    state, _ = ok(state, {"kind": "place_flight", "flight": "tbd"})
    state, _ = ok(state, {"kind": "air_strike", "flight": "tbd", "target": "red", "table": {"attack": [1, 1]}})
    assert (state.flight("tbd").stage, state.flight("tbd").counter) == ("returning", 3)
    state, _ = ok(state, {"kind": "resolve_returning"})
    assert state.flight("tbd").counter == 3  # not decremented in the turn it came back
    assert "is not back" in refused(state, {"kind": "land_flight", "flight": "tbd", "base": "cv"})
    for turn, left in ((5, 2), (6, 1), (7, 0)):
        state = landed_stage(next_turn(state))
        assert (state.turn, state.flight("tbd").counter) == (turn, left)
    state, events = ok(state, {"kind": "land_flight", "flight": "tbd", "base": "cv"})
    assert state.flight("tbd").stage == "landed" and events[0].kind == "flight_landed"
    assert "just landed" in refused(state, {"kind": "launch_flight", "flight": "tbd", "distance": 10})


def test_dv18_landing_needs_a_working_deck_and_british_carriers_at_night():
    back = flight("tbd", "Blue", "torpedo_bomber", stage="returning", counter=0, radar=True)
    state = landed_stage(game([back], night=True))
    assert "unless the carrier is British" in refused(state, {"kind": "land_flight", "flight": "tbd", "base": "cv"})
    state = landed_stage(game([back], night=True, nation="British"))
    ok(state, {"kind": "land_flight", "flight": "tbd", "base": "cv"})
    deck = state.grid_of(state.ship("cv")).boxes_of("Flight")
    broken = state.with_ship(state.ship("cv").model_copy(update={"boxes": frozenset(deck)}))
    assert "flight deck is disabled: no landings" in refused(broken, {"kind": "land_flight", "flight": "tbd", "base": "cv"})


# --- the stages in order ------------------------------------------------------------------------


def test_stages_are_resolved_one_at_a_time_attacking_first():
    sbd = flight("sbd", "Blue", "dive_bomber", stage="on_target", launch_counter=1)
    state = game([sbd])
    assert "resolve the attacking stage first" in refused(state, {"kind": "place_flight", "flight": "sbd"})
    assert "resolve the attacking stage first" in refused(state, {"kind": "end_aircraft"})
    assert "resolve the attacking stage first" in refused(state, {"kind": "resolve_returning"})
    state = on_target(state)
    assert "already resolved this turn" in refused(state, {"kind": "resolve_attacking"})
    assert "after the returning stage is resolved" in refused(state, {"kind": "launch_flight", "flight": "sbd"})
    state = landed_stage(state)
    assert "On Target stage is over" in refused(state, {"kind": "place_flight", "flight": "sbd"})
    assert "aircraft phase" in refused(state.model_copy(update={"phase": "movement"}), {"kind": "resolve_attacking"})
    booked = state.model_copy(update={"settings": Settings(bookkeeping=True)})
    _, events = ok(booked, {"kind": "place_flight", "flight": "sbd"})
    assert events[0].kind == "warning"


def test_patrol_bombers_are_set_aside_and_only_their_target_fires_at_them():
    pby = flight("pby", "Red", "patrol_bomber", base="field", stage="attacking", counter=1, naval=False)
    state, events = ok(game([pby]), {"kind": "resolve_attacking"})
    assert "set aside" in next(e for e in events if e.kind == "flight_on_target").text
    assert "not placed on the board" in refused(state, {"kind": "place_flight", "flight": "pby"})
    assert "only the target ship" in refused(state, {"kind": "aa_fire", "ship": "ca", "flight": "pby", "points": 1,
                                                     "target": "cv"})
    state, _ = ok(state, {"kind": "aa_fire", "ship": "cv", "flight": "pby", "points": 1, "table": {"attack": [6, 6]}})
    state, events = ok(state, {"kind": "air_strike", "flight": "pby", "target": "cv", "table": {"attack": [2, 5]}})
    assert not next(e for e in events if e.kind == "attack").data["hit"]  # a 7, but not a N7
    assert state.flight("pby").stage == "returning"


def test_arrivals_placed_initiative_side_first_then_moves_within_48_or_32():
    arrivals = [flight("b1", "Blue", "dive_bomber", stage="attacking", counter=1, slow=True),
                flight("r1", "Red", "dive_bomber", base="field", stage="attacking", counter=1, naval=False)]
    state = on_target(game(arrivals))
    assert "places its arrivals first" in refused(state, {"kind": "place_flight", "flight": "r1"})
    state, _ = ok(state, {"kind": "place_flight", "flight": "b1"})
    state, _ = ok(state, {"kind": "place_flight", "flight": "r1"})
    assert "already been placed or moved" in refused(state, {"kind": "move_flight", "flight": "b1", "inches": 10})
    state = next_turn(state).model_copy(update={"attacking_resolved": 2})
    assert "moves at most 32\"" in refused(state, {"kind": "move_flight", "flight": "b1", "inches": 33})
    assert "moves its flights first" in refused(state, {"kind": "move_flight", "flight": "r1", "inches": 10})
    state, _ = ok(state, {"kind": "move_flight", "flight": "b1", "inches": "31.5"})
    assert "moves at most 48\"" in refused(state, {"kind": "move_flight", "flight": "r1", "inches": 49})
    ok(state, {"kind": "move_flight", "flight": "r1", "inches": 48})


def test_cap_intercepts_a_flight_placed_within_16_inches():
    flights = [flight("cap", "Blue", "fighter", stage="cap", on_table=True),
               flight("r1", "Red", "dive_bomber", base="field", stage="attacking", counter=1, naval=False)]
    state = on_target(game(flights))
    assert "was not placed or moved" in refused(state, {"kind": "intercept", "cap_flight": "cap", "flight": "r1"})
    state, _ = ok(state, {"kind": "place_flight", "flight": "r1"})
    assert "must be within 16\"" in refused(state, {"kind": "intercept", "cap_flight": "cap", "flight": "r1",
                                                    "distance": "16.5"})
    state, events = ok(state, {"kind": "intercept", "cap_flight": "cap", "flight": "r1", "distance": 16})
    assert events[0].kind == "intercept"
    assert "already intercepted" in refused(state, {"kind": "intercept", "cap_flight": "cap", "flight": "r1"})
    options = flight_options(state, state.flight("cap"))
    assert {"kind": "air_attack", "attackers": ["cap"], "target": "r1"} in [o.action for o in options]


def test_air_to_air_fighters_combine_and_the_target_answers_one():
    flights = [flight("f1", "Blue", "fighter", quality=2, stage="cap", on_table=True),
               flight("f2", "Blue", "fighter", quality=1, stage="cap", on_table=True),
               flight("r1", "Red", "fighter", quality=2, base="field", stage="on_target", on_table=True,
                      moved_turn=1, naval=False, launch_counter=2)]
    state = on_target(game(flights))
    after, events = ok(state, {"kind": "air_attack", "attackers": ["f1", "f2"], "target": "r1", "answer_at": "f2",
                               "table": {"attack": [1, 1], "answer": [3, 4]}})
    ours, theirs = [e for e in events if e.kind == "air_attack"]
    assert (ours.data["quality"], ours.data["modifier"], ours.data["result"]) == (3, 7, "driven_off")
    assert (theirs.data["modifier"], theirs.data["result"]) == (7, "destroyed")  # quality 2 against f2's 1
    assert after.flight("r1").stage == "returning" and after.flight("r1").counter == 2
    assert after.flight("f2").stage == "destroyed" and after.flight("f1").stage == "cap"
    assert "already attacked" in refused(after, {"kind": "air_attack", "attackers": ["f1"], "target": "r1"})
    reason = refused(state, {"kind": "air_attack", "attackers": ["f1"], "target": "r1", "table": {"attack": [1, 1]}})
    assert "the target flight's attack roll's 1st die" in reason
    bomber = [flight("b", "Blue", "dive_bomber", stage="on_target", on_table=True, moved_turn=1), flights[2]]
    assert "only fighter flights" in refused(on_target(game(bomber)), {"kind": "air_attack", "attackers": ["b"],
                                                                       "target": "r1"})


def test_aa_points_left_and_dual_purpose_batteries():
    sbd = flight("sbd", "Blue", "dive_bomber", quality=5, stage="on_target", on_table=True, moved_turn=1)
    state = on_target(game([sbd]))
    assert "has 3 AA points left this turn: 4 asked" in refused(state, {"kind": "aa_fire", "ship": "red",
                                                                         "flight": "sbd", "points": 4})
    after, _ = ok(state, {"kind": "aa_fire", "ship": "red", "flight": "sbd", "points": 5, "dual_purpose": ["dp"],
                          "table": {"attack": [6, 6]}})
    assert after.ship("red").aa_spent == 5 and after.ship("red").dp_used_for_aa == {"dp"}
    assert "already fired at" in refused(after, {"kind": "aa_fire", "ship": "red", "flight": "sbd", "points": 1})
    assert "not a dual purpose battery" in refused(state, {"kind": "aa_fire", "ship": "red", "flight": "sbd",
                                                           "points": 1, "dual_purpose": ["main"]})
    support = {"kind": "aa_fire", "ship": "red2", "flight": "sbd", "points": 1, "target": "red"}
    assert "only within 3\"" in refused(state, {**support, "distance": 4})
    ok(state, {**support, "distance": 3, "table": {"attack": [6, 6]}})
    ok(state, {"kind": "aa_fire", "ship": "field", "flight": "sbd", "points": 2, "target": "red",
               "table": {"attack": [6, 6]}})


def test_aa_damaged_and_disabled():
    sbd = flight("sbd", "Blue", "dive_bomber", stage="on_target", on_table=True, moved_turn=1)
    state = on_target(game([sbd]))
    grid = state.grid_of(state.ship("red"))
    aa = grid.boxes_of("AA")
    damaged = state.with_ship(state.ship("red").model_copy(update={"boxes": frozenset(aa[:2])}))
    assert "has 2 AA points left" in refused(damaged, {"kind": "aa_fire", "ship": "red", "flight": "sbd", "points": 3})
    disabled = state.with_ship(state.ship("red").model_copy(update={"boxes": frozenset(aa)}))
    assert "has 0 AA points left" in refused(disabled, {"kind": "aa_fire", "ship": "red", "flight": "sbd", "points": 1})


# --- launches --------------------------------------------------------------------------------------


def test_launch_one_a_turn_then_1_cp_each_and_cap_for_fighters():
    flights = [flight("f1", "Blue", "fighter"), flight("f2", "Blue", "fighter"), flight("b1", "Blue", "dive_bomber")]
    state = landed_stage(game(flights))
    state, events = ok(state, {"kind": "launch_flight", "flight": "f1", "cap": True})
    assert state.flight("f1").stage == "cap" and state.flight("f1").on_table
    assert "only fighter flights may fly CAP" in refused(state, {"kind": "launch_flight", "flight": "b1", "cap": True})
    state, events = ok(state, {"kind": "launch_flight", "flight": "b1", "band": "close"})
    assert state.ship("cv").cp == 1 and "command_points" in kinds(events)
    state = state.with_ship(state.ship("cv").model_copy(update={"cp": 0}))
    assert "has 0 CP: an extra launch costs 1" in refused(state, {"kind": "launch_flight", "flight": "f2",
                                                                  "band": "long"})
    assert "needs the range to the target" in refused(landed_stage(game(flights)), {"kind": "launch_flight",
                                                                                    "flight": "b1"})


def test_the_flight_deck_is_disabled_no_launches():
    state = landed_stage(game([flight("b1", "Blue", "dive_bomber")]))
    deck = state.grid_of(state.ship("cv")).boxes_of("Flight")
    broken = state.with_ship(state.ship("cv").model_copy(update={"boxes": frozenset(deck)}))
    assert "flight deck is disabled: no launches" in refused(broken, {"kind": "launch_flight", "flight": "b1",
                                                                      "band": "close"})
    night = landed_stage(game([flight("b1", "Blue", "dive_bomber", radar=True)], night=True))
    assert "unless the carrier is British" in refused(night, {"kind": "launch_flight", "flight": "b1", "band": "close"})
    no_radar = landed_stage(game([flight("b1", "Blue", "dive_bomber")], night=True, nation="British"))
    assert "has no radar" in refused(no_radar, {"kind": "launch_flight", "flight": "b1", "band": "close"})


def test_a_carrier_that_landed_planes_launches_none():
    flights = [flight("back", "Blue", "dive_bomber", stage="returning", counter=0), flight("b1", "Blue", "dive_bomber")]
    state, _ = ok(landed_stage(game(flights)), {"kind": "land_flight", "flight": "back", "base": "cv"})
    assert "has landed aircraft this turn" in refused(state, {"kind": "launch_flight", "flight": "b1", "band": "close"})


def test_flights_of_a_carrier_unable_to_land_in_combat_are_out_with_nowhere_to_land():
    sbd = flight("sbd", "Blue", "dive_bomber", stage="on_target", on_table=True, moved_turn=1)
    state = on_target(game([sbd], lands_in_combat=False))
    state, events = ok(state, {"kind": "air_strike", "flight": "sbd", "target": "red", "table": {"attack": [1, 1]}})
    assert state.flight("sbd").stage == "out" and "flight_out" in kinds(events)


def test_ground_based_flights_land_only_on_ground_bases():
    back = flight("r1", "Red", "dive_bomber", base="field", stage="returning", counter=0, naval=False)
    state = landed_stage(game([back]))
    assert "is not Red's" in refused(state, {"kind": "land_flight", "flight": "r1", "base": "cv"})
    state, _ = ok(state, {"kind": "land_flight", "flight": "r1", "base": "field"})
    assert state.flight("r1").stage == "landed"


# --- options ---------------------------------------------------------------------------------------


def test_flight_options_follow_the_stage():
    flights = [flight("b1", "Blue", "dive_bomber"), flight("f1", "Blue", "fighter"),
               flight("r1", "Red", "dive_bomber", base="field", stage="attacking", counter=1, naval=False)]
    state = game(flights)
    assert flight_options(state, state.flight("b1")) == []
    state = on_target(state)
    assert [o.action for o in flight_options(state, state.flight("r1"))][0] == {"kind": "place_flight", "flight": "r1"}
    state, _ = ok(state, {"kind": "place_flight", "flight": "r1"})
    options = flight_options(state, state.flight("r1"))
    strikes = [o for o in options if o.action["kind"] == "air_strike"]
    assert {o.action["target"] for o in strikes} == {"cv", "ca"}
    assert next(o for o in strikes if o.action["target"] == "ca").odds["hit"] == "2/3"
    aa = [o for o in options if o.action["kind"] == "aa_fire"]
    assert {o.action["ship"] for o in aa} == {"cv", "ca"}
    assert next(o for o in aa if o.action["ship"] == "ca").odds == {"1": "4/9", "2": "2/3", "3": "5/6"}
    state = landed_stage(state)
    launches = [o.action for o in flight_options(state, state.flight("f1"))]
    assert {"kind": "launch_flight", "flight": "f1", "cap": True} in launches
    assert all(o.ok for o in [apply(state, {**a, "band": "close"}) if not a["cap"] else apply(state, a)
                              for a in launches])


@pytest.mark.parametrize("points, quality, destroyed, driven_off", [
    (3, 2, F(5, 6), F(1, 6)), (2, 2, F(2, 3), 0), (1, 2, F(4, 9), 0), (0, 0, F(2, 3), 0), (9, 1, F(5, 6), F(1, 6)),
])
def test_attack_odds_on_flights_against_the_36_pairs(points, quality, destroyed, driven_off):
    results = [O.flight_attack_result(a, b, points, quality) for a in range(1, 7) for b in range(1, 7)]
    assert F(results.count("destroyed"), 36) == destroyed
    assert F(results.count("driven_off"), 36) == driven_off
    odds = O.flight_attack_odds(points, quality)
    assert (odds.destroyed, odds.driven_off) == (destroyed, driven_off)


def test_a_whole_aircraft_phase_through_apply_from_initiative_to_movement():
    sbd = flight("sbd", "Blue", "dive_bomber", stage="attacking", counter=1, launch_counter=1)
    state = game([sbd], phase="initiative").model_copy(update={"initiative": None})
    state, events = ok(state, {"kind": "set_initiative", "side": "Blue"})
    assert state.phase == "aircraft" and next_step(state) == "resolve_attacking"
    state, _ = ok(state, {"kind": "resolve_attacking"})
    assert next_step(state) == "resolve_returning"
    state, _ = ok(state, {"kind": "place_flight", "flight": "sbd"})
    state, _ = ok(state, {"kind": "air_strike", "flight": "sbd", "target": "red", "table": {"attack": [6, 6]}})
    state, _ = ok(state, {"kind": "resolve_returning"})
    assert next_step(state) == "end_aircraft"
    state, events = ok(state, {"kind": "end_aircraft"})
    assert state.phase == "movement" and state.batch is not None and events[0].data == {"phase": "movement"}


def test_a_dual_purpose_battery_that_fired_aa_cannot_attack_surface_targets():
    from companion.engine.decisive_victory.attacks import _system_problem
    state = game([])
    red = state.ship("red").model_copy(update={"dp_used_for_aa": frozenset({"dp"})})
    assert "fired at aircraft this turn" in _system_problem(state, red, red.record.weapon("dp"))
    assert _system_problem(state, red, red.record.weapon("main")) is None
