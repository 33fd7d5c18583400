"""Decisive Victory's maintenance phase through `apply` (spec decisive-victory.md §10.3, §11, §16):
worked examples DV-13, DV-14 and DV-19 with the spec's exact values, the order of the steps,
`maintenance_left` in words, and the system rolls a box calls for."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest

from companion.engine.decisive_victory.damage import mark_box
from companion.engine.decisive_victory.maintenance import maintenance_left
from companion.engine.decisive_victory.odds import catastrophic_chance
from companion.engine.decisive_victory.state import DVState, Flight, Smoke
from companion.engine.decisive_victory.records import FlightRecord

from dv_for_tests import act, changed, kinds, of_kind, refused, sample_game


def maintenance(**ships) -> DVState:
    state = sample_game(phase="maintenance")
    for ship_id, changes in ships.items():
        state = changed(state, ship_id.replace("_", "-"), **changes)
    return state


def roll(state, ship, step, **table):
    return act(state, kind="maintenance_roll", ship=ship, step=step, **({"table": table} if table else {}))


# --- DV-13 maintenance ------------------------------------------------------------------------------


def test_dv13_catastrophic_odds():
    assert catastrophic_chance(6, 5) == F(7, 64)
    assert catastrophic_chance(3, 3) == F(1, 8)
    assert catastrophic_chance(2, 3) == 0
    assert catastrophic_chance(6, 4) == F(11, 32)


def test_dv13_the_steps_in_order_through_apply():
    state = maintenance(ijn_mihon={"damage_points": 6, "minor_damage": 8})  # cruiser, CDT 5
    assert maintenance_left(state) == "IJN Mihon: the catastrophic damage test (6 damage points, CDT 5)"
    assert refused(state, kind="maintenance_roll", ship="ijn-mihon", step="minor") == \
        "IJN Mihon first needs the catastrophic damage test (6 damage points, CDT 5)"
    assert refused(state, kind="maintenance_roll", ship="ijn-mihon", step="catastrophic", table={"dice": [4] * 5}) == \
        "catastrophic damage die 6 of 6: roll D6 and enter its face"
    result = roll(state, "ijn-mihon", "catastrophic", dice=[4, 4, 4, 4, 1, 1])
    assert of_kind(result, "catastrophic")[0].data["count"] == 4 and result.state.ship("ijn-mihon").in_play
    state = result.state
    assert maintenance_left(state) == "IJN Mihon: 2 minor damage grid rolls (8 minor damage)"
    result = roll(state, "ijn-mihon", "minor", grid=[[1, 1], [2, 2]])
    mihon = result.state.ship("ijn-mihon")
    assert mihon.minor_damage == 0 and mihon.boxes == {(1, 1), (2, 2)} and len(of_kind(result, "grid_roll")) == 2
    assert maintenance_left(result.state) is None
    result = act(result.state, kind="trade_damage", ship="ijn-mihon", blocks=2, table={"grid": [[6, 1], [6, 6]]})
    assert result.state.ship("ijn-mihon").damage_points == 0
    assert [e.data["traded"] for e in of_kind(result, "trade_damage")] == [True, True]
    assert "has done that step" in refused(result.state, kind="trade_damage", ship="ijn-mihon", blocks=1)


def test_dv13_a_ship_sinks_when_the_4_plus_reach_its_cdt():
    state = maintenance(ijn_mihon={"damage_points": 6})
    result = roll(state, "ijn-mihon", "catastrophic", dice=[4, 5, 6, 4, 5, 1])
    assert result.state.ship("ijn-mihon").removed == "sunk" and of_kind(result, "catastrophic")[0].data["sunk"]
    assert maintenance_left(result.state) is None


def test_dv13_a_destroyer_under_its_cdt_takes_no_test():
    state = maintenance(ijn_kaze={"damage_points": 2})
    assert refused(state, kind="maintenance_roll", ship="ijn-kaze", step="catastrophic") == \
        "IJN Kaze has 2 damage points, under its CDT 3: no test"


def test_the_roller_rolls_every_catastrophic_die():
    state = maintenance(ijn_kaze={"damage_points": 3})
    result = roll(state, "ijn-kaze", "catastrophic")
    assert len(of_kind(result, "catastrophic")[0].data["dice"]) == 3 == result.state.roller.counter


def test_trading_stops_at_the_bottom_of_the_grid_and_the_3_points_stay():
    column = frozenset({(1, 6), (2, 6), (3, 6), (4, 6)})
    state = maintenance(ijn_mihon={"damage_points": 6, "boxes": column, "maintenance_done": frozenset({"catastrophic", "minor"})})
    result = act(state, kind="trade_damage", ship="ijn-mihon", blocks=2, table={"grid": [[1, 6]]})
    assert result.state.ship("ijn-mihon").damage_points == 7  # +1, the 3 points stay, trading stops
    assert [e.data["traded"] for e in of_kind(result, "trade_damage")] == [False]


# --- DV-14 abandon ship --------------------------------------------------------------------------------


def test_dv14_abandon_ship_paid_once_a_phase():
    state = maintenance(hms_dash={"damage_points": 6, "cp": 2, "minor_damage": 1})  # destroyer CDT 3, captain
    state = roll(state, "hms-dash", "catastrophic", dice=[1] * 6).state
    assert maintenance_left(state) == "HMS Dash: pay 2 CP or abandon ship (6 damage points, 2 × CDT 6)"
    assert refused(state, kind="maintenance_roll", ship="hms-dash", step="minor") == \
        "HMS Dash first needs pay 2 CP or abandon ship (6 damage points, 2 × CDT 6)"
    state = act(state, kind="pay_abandon", ship="hms-dash", payer="hms-dash").state
    assert state.ship("hms-dash").cp == 0 and state.ship("hms-dash").abandon_paid
    state = roll(state, "hms-dash", "minor").state
    state = changed(state, "hms-dash", damage_points=7)  # after step 3
    assert maintenance_left(state) is None  # no second payment this phase
    # next turn, still at 6 or more: pay again
    state = act(changed(state, "hms-dash", cp=2).model_copy(update={"phase": "attacks"}), kind="end_attacks").state
    state = roll(state, "hms-dash", "catastrophic", dice=[1] * 7).state
    assert "pay 2 CP or abandon ship" in maintenance_left(state)


def test_dv14_a_ship_with_0_cp_whose_flagship_has_1_is_abandoned():
    state = maintenance(hms_dash={"damage_points": 6, "cp": 0, "maintenance_done": frozenset({"catastrophic"})},
                        hms_sample={"cp": 1})
    assert refused(state, kind="pay_abandon", ship="hms-dash", payer="hms-sample") == \
        "HMS Sample has 1 CP: keeping the crew aboard costs 2"
    assert refused(state, kind="pay_abandon", ship="hms-dash") == "HMS Dash has 0 CP: keeping the crew aboard costs 2"
    result = act(state, kind="abandon", ship="hms-dash")
    assert result.state.ship("hms-dash").removed == "abandoned"
    assert refused(maintenance(), kind="abandon", ship="hms-dash").startswith("HMS Dash has 0 damage points")


def test_the_flagship_pays_for_a_ship():
    state = maintenance(hms_dash={"damage_points": 6, "maintenance_done": frozenset({"catastrophic"})},
                        hms_sample={"cp": 3})
    state = act(state, kind="pay_abandon", ship="hms-dash", payer="hms-sample").state
    assert state.ship("hms-sample").cp == 1 and state.ship("hms-dash").abandon_paid


# --- struct +2 (R-49) --------------------------------------------------------------------------------


def test_a_disabled_structure_adds_2_before_step_1():
    boxes = frozenset({(3, 2), (3, 3), (3, 5)})
    state = maintenance(ijn_mihon={"boxes": boxes, "damage_points": 3})
    assert maintenance_left(state) == "IJN Mihon: +2 damage points for its disabled structure"
    state = roll(state, "ijn-mihon", "struct").state
    assert state.ship("ijn-mihon").damage_points == 5
    assert maintenance_left(state) == "IJN Mihon: the catastrophic damage test (5 damage points, CDT 5)"
    assert "past that step" in refused(roll(state, "ijn-mihon", "catastrophic", dice=[1] * 5).state,
                                       kind="maintenance_roll", ship="ijn-mihon", step="struct")


# --- DV-19 other system rolls ---------------------------------------------------------------------------


def rudder_due(state: DVState) -> DVState:
    ship = state.ship("ijn-mihon")
    for box in [(3, 1), (3, 6), (4, 1)]:
        ship, _ = mark_box(state, ship, box, "test")
    ship, events = mark_box(state, ship, (4, 6), "test")
    assert [k for k, _, _ in events][-2:] == ["system_disabled", "system_roll_due"]
    return state.with_ship(ship)


def test_dv19_the_rudder_ahead_5_6_port_1_12_starboard_1_12():
    state = rudder_due(maintenance())
    assert maintenance_left(state) == "IJN Mihon: the rudder roll (a d6, and a d6 for the side on a 1)"
    found = Counter()
    for die, side in product(range(1, 7), repeat=2):
        table = {"dice": [die]} | ({"side": [side]} if die == 1 else {})
        found[roll(state, "ijn-mihon", "rudder", **table).state.ship("ijn-mihon").rudder] += F(1, 36)
    assert found == {"ahead": F(5, 6), "port": F(1, 12), "starboard": F(1, 12)}
    assert refused(state, kind="maintenance_roll", ship="ijn-mihon", step="rudder", table={"dice": [1]}) == \
        "the rudder's side die (1-3 port, 4-6 starboard): roll D6 and enter its face"
    done = roll(state, "ijn-mihon", "rudder", dice=[2]).state
    assert maintenance_left(done) is None and done.ship("ijn-mihon").system_rolls_due == []


def test_the_rudder_roll_may_be_made_in_the_attacks_phase_as_soon_as_it_is_due():
    state = rudder_due(sample_game())
    assert roll(state, "ijn-mihon", "rudder", dice=[6]).state.ship("ijn-mihon").rudder == "ahead"


def flights_aboard(state: DVState, ship: str, count: int) -> DVState:
    record = FlightRecord(id="f", type="dive_bomber", quality=2)
    flights = [Flight(id=f"f{i}", side=state.ship(ship).side, record=record, base=ship) for i in range(1, count + 1)]
    return state.model_copy(update={"flights": flights})


def test_dv19_flight_deck_damaged_with_2_flights_each_lost_half_and_a_grid_roll():
    state = flights_aboard(maintenance(), "ijn-mihon", 2)
    ship, events = mark_box(state, state.ship("ijn-mihon"), (2, 4), "test")
    state = state.with_ship(ship)
    assert ship.system_rolls_due == ["flight_deck"]
    assert refused(state, kind="maintenance_roll", ship="ijn-mihon", step="flight_deck", table={"dice": [4, 3]}) == \
        "grid roll 1's 1st die: roll D6 and enter its face"
    result = roll(state, "ijn-mihon", "flight_deck", dice=[4, 3], grid=[[1, 1]])
    assert [f.stage for f in result.state.flights] == ["destroyed", "landed"]
    assert result.state.ship("ijn-mihon").boxes == {(2, 4), (1, 1)}
    lost = Counter()
    for a, b in product(range(1, 7), repeat=2):
        grid = [[1, c] for c in range(1, 1 + (a >= 4) + (b >= 4))]
        after = roll(state, "ijn-mihon", "flight_deck", dice=[a, b], **({"grid": grid} if grid else {})).state
        lost[after.flights[0].stage] += F(1, 36)
    assert lost["destroyed"] == F(1, 2)


def test_dv19_torpedo_system_disabled_1_salvo_left_a_damage_point_with_2_3():
    state = maintenance(ijn_mihon={"salvoes_left": {"torpedoes": 3}})
    ship, _ = mark_box(state, state.ship("ijn-mihon"), (3, 4), "test")
    state = state.with_ship(ship)
    assert ship.salvoes_left == {"torpedoes": 1} and ship.system_rolls_due == ["torpedoes"]
    outcomes = Counter()
    for face in range(1, 7):
        result = roll(state, "ijn-mihon", "torpedoes", dice=[face], **({"grid": [[1, 1]]} if face >= 3 else {}))
        mihon = result.state.ship("ijn-mihon")
        assert mihon.salvoes_left == {"torpedoes": 0}
        outcomes[mihon.damage_points] += F(1, 6)
        assert len(of_kind(result, "grid_roll")) == (face >= 3)
    assert outcomes == {1: F(2, 3), 0: F(1, 3)}


def test_dv19_smoke_removed_with_1_3():
    state = maintenance().model_copy(update={"smoke": [Smoke(id="s1", ship="hms-sample", turn=1)]})
    assert maintenance_left(state) == "smoke s1: its drift roll"
    removed = sum(F(1, 6) for face in range(1, 7)
                  if not act(state, kind="drift_smoke", smoke="s1", table={"drift": [face]}).state.smoke)
    assert removed == F(1, 3)
    drifted = act(state, kind="drift_smoke", smoke="s1", table={"drift": [4]}).state
    assert drifted.smoke[0].drifted == 4 and maintenance_left(drifted) is None
    assert refused(drifted, kind="drift_smoke", smoke="s1") == "smoke s1 has drifted this turn"


def test_minor_damage_under_3_is_cleared_without_a_roll():
    state = maintenance(hms_dart={"minor_damage": 2})
    result = roll(state, "hms-dart", "minor")
    assert result.state.ship("hms-dart").minor_damage == 0 and not of_kind(result, "grid_roll")
    assert result.state.roller.counter == 0


@pytest.mark.parametrize("seed", ["a1", "b2", "c3"])
def test_a_seeded_attacks_phase_then_maintenance_until_the_turn_may_end(seed):
    """Every ship fires every system at close range with the roller, then each ship's maintenance is
    rolled as `next_due` asks until `maintenance_left` is None; end_turn refuses before, takes after."""
    from companion.engine.decisive_victory.activation import current_batch
    from companion.engine.decisive_victory.attacks import attack_options
    from companion.engine.decisive_victory.maintenance import next_due
    from companion.engine.roller import Roller
    state = sample_game().model_copy(update={"roller": Roller(seed=seed)})
    while (batch := current_batch(state)) is not None:
        ship = next(s for s in state.ships if s.side == batch.side and s.in_play and not s.attacked)
        enemies = [s for s in state.ships if s.side != ship.side and s.in_play]
        for option in attack_options(state, ship).systems:
            if enemies[0].id in option.targets:
                state = act(state, kind="declare_attack", ship=ship.id, system=option.system, target=enemies[0].id,
                            distance="2").state
        for attack in [a for a in state.attacks if a.ship == ship.id]:
            state = act(state, kind="roll_attack", attack=attack.id).state
        state = act(state, kind="end_activation", ship=ship.id).state
    state = act(state, kind="end_attacks").state
    assert any(s.damage_points or s.minor_damage for s in state.ships)
    for _ in range(200):
        due = next((s, d) for s in state.ships if s.in_play for d in [next_due(state, s)] if d) \
            if maintenance_left(state) else None
        if due is None:
            break
        assert refused(state, kind="end_turn").startswith("maintenance is not done: ")
        ship, (step, _) = due
        state = act(state, kind="abandon", ship=ship.id).state if step == "abandon" else \
            roll(state, ship.id, step).state
    assert maintenance_left(state) is None
    after = act(state, kind="end_turn").state
    assert after.phase in ("command", "over")
