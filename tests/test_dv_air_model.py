"""The Decisive Victory aircraft screen model (app/rulesets/decisive_victory/air_model.py) on the shipped carrier strike
(fleets/decisive-victory/carrier-strike.json), the by-hand model (app/rulesets/decisive_victory/hand_model.py), and the
group's own grid and Table 1 in a new game (spec decisive-victory.md §12, §16, §18): each stage's
options are actions the engine takes, their odds are air_odds' exactly, and what the table typed
goes in the spec's shapes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.app.rulesets.decisive_victory import air_model as A
from companion.app.rulesets.decisive_victory import hand_model as H
from companion.app.rulesets.decisive_victory import model as M
from companion.engine.decisive_victory import air_odds as O
from companion.engine.decisive_victory.aircraft import flight_options
from companion.engine.decisive_victory.game import apply
from companion.engine.decisive_victory.odds import Armour
from companion.engine.decisive_victory.state import RECONSTRUCTED_GRID, RECONSTRUCTED_TABLE
from companion.files import shipped_fleets_dir
from companion.app.rulesets.decisive_victory.group import group_files


def carrier(seed: str = "air-model"):
    return M.sample_game(shipped_fleets_dir(), seed, scenario=M.CARRIER_FILE)


def act(state, action):
    outcome = apply(state, action)
    assert outcome.ok, (action, outcome.reason)
    return outcome.state


def aircraft_phase(state=None):
    """Turn 1's aircraft phase: started, command ended, American initiative by the table's dice."""
    state = state or carrier()
    for action in ({"kind": "start_game"}, {"kind": "end_command"},
                   {"kind": "roll_initiative", "faces": {"American": [5], "Japanese": [2]}}):
        state = act(state, action)
    assert state.phase == "aircraft"
    return state


def pick(state, flight_id, kind):
    return next(c for c in A.choices(state, flight_id) if c.action["kind"] == kind)


VB = "uss-carrier.vb"


def test_the_carrier_strike_has_flights_of_every_striking_kind_and_a_land_base():
    state = carrier()
    rows = {r.id: r for r in A.flight_rows(state)}
    assert list(rows) == ["uss-carrier.vf", VB, "uss-carrier.vt", "airfield.fighters"]
    assert rows[VB].stage == "On Target" and rows[VB].counter == "to be placed"
    assert rows[VB].target == "IJN Sample Cruiser" and rows[VB].base == "USS Sample Carrier"
    assert rows["uss-carrier.vt"].kind == "Torpedo bombers · quality 2 · slow" and rows["uss-carrier.vt"].stage == "Landed"
    assert rows["airfield.fighters"].base == "Island airfield"
    assert [b.id for b in state.bases] == ["airfield"]
    assert dict(M.SCENARIOS)[M.CARRIER_FILE] and dict(M.SCENARIOS)[M.SAMPLE_FILE]


def test_the_next_step_is_the_engines():
    state = aircraft_phase()
    assert A.phase_step(state).action == {"kind": "resolve_attacking"}
    state = act(state, A.phase_step(state).action)
    assert A.phase_step(state).action == {"kind": "resolve_returning"}
    state = act(state, A.phase_step(state).action)
    assert A.phase_step(state).action == {"kind": "end_aircraft"}
    assert A.phase_step(act(state, {"kind": "end_aircraft"})) is None


def test_every_on_target_option_is_an_action_the_engine_takes():
    state = act(aircraft_phase(), {"kind": "resolve_attacking"})
    listed = A.choices(state, VB)
    assert [c.action for c in listed] == [o.action for o in flight_options(state, state.flight(VB))]
    for c in listed:
        act(state, c.action)
    state = act(state, pick(state, VB, "place_flight").action)
    kinds = [c.action["kind"] for c in A.choices(state, VB)]
    assert "air_strike" in kinds and "aa_fire" in kinds
    for c in A.choices(state, VB):
        act(state, c.action)


def test_strike_odds_are_air_odds_whole_chain():
    state = act(act(aircraft_phase(), {"kind": "resolve_attacking"}), {"kind": "place_flight", "flight": VB})
    strike = next(c for c in A.choices(state, VB) if c.action == {"kind": "air_strike", "flight": VB, "target": "ijn-cruiser"})
    chain = O.strike_odds("dive_bomber", Armour(deck=3, belt=6, underwater=4), state.success_table)
    option = next(o for o in flight_options(state, state.flight(VB)) if o.action == strike.action)
    assert Fraction(option.odds["hit"]) == chain.hit == Fraction(2, 3)  # +5: 2/3 (§15.5)
    assert strike.odds[0] == f"Hit {M.percent(chain.hit)} at +5" == "Hit 66.7% (2/3) at +5"
    assert strike.odds[1] == f"Save fails {M.percent(Fraction(option.odds['save_fail']))}"
    assert strike.odds[2] == f"A damage point or more {M.percent(Fraction(option.odds['damage_point']))}"
    assert f"({chain.expected_damage_points})" in strike.odds[3]
    assert strike.dice == ("attack", "save", "damage") and strike.needs == "distance"


def test_aa_odds_are_air_odds_for_the_points_typed():
    state = act(act(aircraft_phase(), {"kind": "resolve_attacking"}), {"kind": "place_flight", "flight": VB})
    aa = next(c for c in A.choices(state, VB) if c.action["kind"] == "aa_fire" and c.action["ship"] == "ijn-cruiser")
    option = next(o for o in flight_options(state, state.flight(VB)) if o.action == aa.action)
    assert aa.side == "Japanese" and aa.action["points"] == 3
    for points in (1, 2, 3):
        lines = A.aa_lines(state, "ijn-cruiser", VB, points)
        assert M.percent(Fraction(option.odds[str(points)])) in lines[0]
    assert A.aa_lines(state, "ijn-cruiser", VB, 2) == (  # quality 2 against 2: +5, not driven off (003:205)
        "2 AA points at +5: destroyed 66.7% (2/3)", "Its strike goes in 33.3% (1/3)",
        "Then a damage point or more on IJN Sample Cruiser "
        + M.percent(O.damage_chance_after_aa(2, 2, "dive_bomber", Armour(deck=3, belt=6, underwater=4))))
    assert A.with_points(aa, "2") == {**aa.action, "points": 2}
    assert A.with_points(aa, "two") == "AA points are a whole number from 1, not 'two'"
    after = act(state, {**A.with_points(aa, "1"), "table": A.air_table(attack="1 1")})
    assert after.ship("ijn-cruiser").aa_spent == 1


def test_a_strike_with_table_dice_marks_a_box():
    state = act(act(aircraft_phase(), {"kind": "resolve_attacking"}), {"kind": "place_flight", "flight": VB})
    strike = next(c for c in A.choices(state, VB) if c.action.get("target") == "ijn-cruiser")
    action = {**A.with_inches(strike, "1", "distance"), "table": A.air_table(attack="3 4", save="1 1", damage="4 5 6")}
    after = act(state, action)
    assert after.ship("ijn-cruiser").boxes and after.ship("ijn-cruiser").damage_points >= 1
    assert after.flight(VB).stage == "returning"
    refused = apply(state, {**A.with_inches(strike, "2", "distance")})
    assert not refused.ok and "within 1\"" in refused.reason


def test_launch_needs_a_target_and_the_range_and_the_engine_takes_it():
    state = act(act(aircraft_phase(), {"kind": "resolve_attacking"}), {"kind": "resolve_returning"})
    launch = next(c for c in A.choices(state, "uss-carrier.vt") if c.needs == "launch")
    assert A.launch_action(launch, None, "30") == "Pick the flight's target first."
    assert A.launch_action(launch, "ijn-cruiser", "") .startswith("Give the range")
    action = A.launch_action(launch, "ijn-cruiser", "96")
    assert action == {"kind": "launch_flight", "flight": "uss-carrier.vt", "cap": False, "target": "ijn-cruiser",
                      "distance": "96"}
    assert A.band_of(state, "96") == "96\" is medium range"  # feet: 6'-12'
    after = act(state, action)
    row = next(r for r in A.flight_rows(after) if r.id == "uss-carrier.vt")
    assert (row.stage, row.counter) == ("Attacking", "3 turns to its target")  # medium 2, slow +1 (003:176)
    banded = A.launch_action(launch, "ijn-cruiser", "", "close")
    assert act(state, banded).flight("uss-carrier.vt").counter == 2
    cap = next(c for c in A.choices(state, "uss-carrier.vf") if c.action.get("cap"))
    assert act(state, A.launch_action(cap, None)).flight("uss-carrier.vf").stage == "cap"


def test_a_flight_goes_through_its_stages_to_on_target_and_back_to_land():
    state = act(act(aircraft_phase(), {"kind": "resolve_attacking"}), {"kind": "resolve_returning"})
    launch = next(c for c in A.choices(state, "uss-carrier.vt") if c.needs == "launch")
    state = act(act(state, A.launch_action(launch, "ijn-cruiser", "", "close")), {"kind": "end_aircraft"})
    seen = []
    for _ in range(6):
        state = state.model_copy(update={"phase": "aircraft", "turn": state.turn + 1})
        state = act(state, {"kind": "resolve_attacking"})
        seen.append(next(r.stage for r in A.flight_rows(state) if r.id == "uss-carrier.vt"))
        if seen[-1] == "On Target":
            break
    assert seen == ["Attacking", "On Target"]  # close 1 + slow 1: two attacking turns after launch
    state = act(state, pick(state, "uss-carrier.vt", "place_flight").action)
    strike = next(c for c in A.choices(state, "uss-carrier.vt") if c.action.get("target") == "ijn-kaze")
    assert strike.odds[0].endswith("at +5")
    state = act(state, {**strike.action, "table": A.air_table(attack="1 1", save="", damage="")})  # a miss
    assert next(r for r in A.flight_rows(state) if r.id == "uss-carrier.vt").stage == "Returning"
    for _ in range(6):
        state = act(state, {"kind": "resolve_returning"})
        land = [c for c in A.choices(state, "uss-carrier.vt") if c.action["kind"] == "land_flight"]
        if land:
            break
        state = state.model_copy(update={"turn": state.turn + 1, "attacking_resolved": state.turn + 1})
    state = act(state, land[0].action)
    assert next(r for r in A.flight_rows(state) if r.id == "uss-carrier.vt").stage == "Landed"


def test_air_to_air_odds_and_table_dice():
    state = act(act(aircraft_phase(), {"kind": "resolve_attacking"}), {"kind": "resolve_returning"})
    cap = next(c for c in A.choices(state, "uss-carrier.vf") if c.action.get("cap"))
    state = act(state, cap.action)
    state = state.model_copy(update={"flights": [f.model_copy(update={"stage": "on_target", "on_table": True})
                                                 if f.id == "airfield.fighters" else f for f in state.flights],
                                     "returning_resolved": 0})
    attack = pick(state, "uss-carrier.vf", "air_attack")
    assert attack.odds[0] == "Attack at +7: destroyed 83.3% (5/6)"  # quality 3 against 2 (003:205)
    assert attack.odds[1] == "Driven off 16.7% (1/6)"
    assert attack.odds[2] == "Its answer destroys Fighting squadron 44.4% (4/9)"  # 2 against 3: +3
    after = act(state, {**attack.action, "table": A.air_table(attack="3 4", answer="1 1")})
    assert after.flight("airfield.fighters").stage == "destroyed"


def test_table_dice_for_aircraft_in_the_spec_shape():
    assert A.air_table(attack="3 4", answer="", save="1,1", damage="4 5 6") == \
        {"attack": [3, 4], "save": [1, 1], "damage": [4, 5, 6]}
    with pytest.raises(ValueError, match="two dice"):
        A.air_table(attack="3")
    with pytest.raises(ValueError, match="not a face"):
        A.air_table(attack="3 7")


# --- the group's own grid and Table 1 (§18) ---------------------------------------------------


class MemoryStore:
    """A store without a folder: the group's files kept in memory (decisive_victory/group.group_files)."""


def test_a_saved_group_table_and_grid_change_a_new_games_odds():
    store = MemoryStore()
    plain = M.sample_game(shipped_fleets_dir(), "g", store=store)
    assert H.tables_words(plain, plain.ships[0]) == "Hit grid: reconstructed · Table 1: reconstructed"
    before = M.preview(plain, "hms-sample", "main", "ijn-mihon", "10")
    files = group_files(store)
    bands = [b.model_copy(update={"totals": (6, 9), "unverified": False}) if b.modifier == 3 else b
             for b in RECONSTRUCTED_TABLE.bands]
    files.save_success_table(RECONSTRUCTED_TABLE.model_copy(update={"bands": bands, "name": "Our Table 1"}))
    rows = list(RECONSTRUCTED_GRID.rows)
    rows[0] = rows[0].model_copy(update={"cells": ["Struct"] * 6, "unverified": []})
    files.save_hit_grid(RECONSTRUCTED_GRID.model_copy(update={"rows": rows, "name": "Our grid"}))
    ours = M.sample_game(shipped_fleets_dir(), "g", store=store)
    assert M.ship_row(ours, ours.ships[0]).tables == \
        "Hit grid: the group's own (Our grid) · Table 1: the group's own (Our Table 1)"
    after = M.preview(ours, "hms-sample", "main", "ijn-mihon", "10")
    assert before.modifier == after.modifier == 3
    assert before.hit == Fraction(4, 9) and after.hit == Fraction(5, 9)  # totals 6-9 at +3: 20 of 36
    assert after.lines[-2] != before.lines[-2]  # the damage expected follows the grid and the table
    files.save_success_table(None)
    files.save_hit_grid(None)
    assert M.sample_game(shipped_fleets_dir(), "g", store=store).success_table == RECONSTRUCTED_TABLE


# --- by hand (§16) ------------------------------------------------------------------------------


def test_by_hand_choices_are_actions_the_engine_takes():
    state = aircraft_phase().model_copy(update={"phase": "initiative", "initiative": None})
    for c in H.initiative_choices(state):
        assert act(state, c.action).initiative == c.action["side"]
    state = carrier()
    for c in H.rudder_choices(state, "uss-cruiser"):
        assert act(state, c.action).ship("uss-cruiser").rudder == c.action["rudder"]
    for c in H.removal_choices(state, "ijn-kaze"):
        assert act(state, c.action).ship("ijn-kaze").removed == c.action["how"]
    assert [c.action for c in H.concede_choices(state, "Japanese")] == [{"kind": "concede", "side": "Japanese"}]
    assert len(H.concede_choices(state, None)) == 2
    on = H.bookkeeping_choice(state)
    checked_off = act(state, on.action)
    assert checked_off.settings.bookkeeping and H.bookkeeping_choice(checked_off).action == {"kind": "set_bookkeeping", "on": False}


def test_a_collision_with_table_dice_and_a_typed_rating():
    state = aircraft_phase()
    for kind in ("resolve_attacking", "resolve_returning", "end_aircraft"):
        state = act(state, {"kind": kind})
    assert state.phase == "movement" and state.batch.side == "Japanese"  # the initiative loser moves first
    kaze = state.ship("ijn-kaze")
    state = state.with_ship(kaze.model_copy(update={"record": kaze.record.model_copy(update={"collision_rating": None})}))
    assert [s.id for s in H.missing_ratings(state, "ijn-kaze", "ijn-nami")] == ["ijn-kaze"]
    base = {"kind": "close_action", "ship": "ijn-kaze", "other": "ijn-nami", "paid_by": None}
    assert H.collision_action(base, ratings={"ijn-kaze": "x"}) == "a collision rating is a whole number, not 'x'"
    assert "collision rating" in apply(state, base).reason  # none on record and none typed
    action = H.collision_action(base, "4 1 5", "5 6", {"ijn-kaze": "3"})
    assert action == {**base, "collision_ratings": {"ijn-kaze": 3}, "table": {"ship": [4, 1, 5], "other": [5, 6]}}
    after = act(state, action)  # each 4+ a damage point: Kaze's 4, 1, 5 at Nami; Nami's 5, 6 at Kaze
    assert after.ship("ijn-nami").damage_points == 2 and after.ship("ijn-kaze").damage_points == 2


def test_radar_and_illuminate_in_the_spec_shape():
    assert H.radar_action({"kind": "radar_roll", "ship": "a", "system": "main", "target": "b"}, "3 4")["table"] == {"radar": [3, 4]}
    assert H.radar_action({}, "3") == "the radar roll is two dice, 1st then 2nd: 1 were typed"
    assert H.illuminate_action([]) == "Pick the ships within 1\" of the star shell first."
    assert H.illuminate_action(["b", "a"]) == {"kind": "illuminate", "ships": ["a", "b"]}
    assert H.lit_candidates(carrier()) == []  # no star shell fired
