"""Decisive Victory's turn (spec §4-7, §11.5, §13): command points and abilities, initiative with
its exact odds, movement in batches with its limits, close action and collisions, end of turn.
Worked examples DV-2, DV-15 and DV-16 with the spec's values."""

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from companion.engine.decisive_victory.batches import batch_size, best_score, next_batch, opening_batch
from companion.engine.decisive_victory.game import apply
from companion.engine.decisive_victory.initiative import initiative_odds
from companion.engine.decisive_victory.movement import movement_limits
from companion.engine.decisive_victory.odds import damage_dice_odds
from companion.engine.decisive_victory.scenario import build_dv_state, load_dv_scenario
from companion.engine.decisive_victory.state import Batch

SAMPLE = Path(__file__).resolve().parent.parent / "fleets" / "decisive-victory" / "sample.json"


def sample():
    return build_dv_state(load_dv_scenario(json.loads(SAMPLE.read_text())))


def ok(state, action):
    outcome = apply(state, action)
    assert outcome.ok, getattr(outcome, "reason", "")
    return outcome.state, outcome.events


def refused(state, action):
    outcome = apply(state, action)
    assert not outcome.ok
    return outcome.reason


def with_ship(state, ship_id, **changes):
    return state.model_copy(update={"ships": [s.model_copy(update=changes) if s.id == ship_id else s
                                              for s in state.ships]})


def grid_boxes(state, ship_id, system, count):
    ship = state.ship(ship_id)
    return frozenset(state.grid_of(ship).boxes_of(system)[:count])


def in_command():
    state, _ = ok(sample(), {"kind": "start_game"})
    return state


def in_movement(first_faces=None):
    state, _ = ok(in_command(), {"kind": "end_command"})
    state, _ = ok(state, {"kind": "roll_initiative", "faces": first_faces or {"British": [6], "Japanese": [1]}})
    return state


# --- command phase (§5) ---------------------------------------------------------------------------

def test_command_points_are_generated_on_entry_to_the_command_phase():
    state, events = ok(sample(), {"kind": "start_game"})
    assert state.phase == "command"
    assert {s.id: s.cp for s in state.ships} == {"hms-sample": 3, "hms-dash": 2, "hms-dart": 1,
                                                 "ijn-mihon": 3, "ijn-kaze": 2, "ijn-nami": 1}
    assert [e.data["cp"] for e in events if e.kind == "command_points"] == [3, 2, 1, 3, 2, 1]


def test_a_damaged_command_system_gives_one_less_and_a_disabled_none():
    start = sample()
    cruiser = start.ship("hms-sample")
    com = start.grid_of(cruiser).boxes_of("Com")
    damaged = with_ship(start, "hms-sample", boxes=frozenset(com[:start.grid_of(cruiser).threshold("cruiser")]))
    if start.status(damaged.ship("hms-sample"), "Com") == "damaged":
        state, _ = ok(damaged, {"kind": "start_game"})
        assert state.ship("hms-sample").cp == 2   # admiral 3 − 1
    disabled = with_ship(start, "hms-sample", boxes=frozenset(com))
    state, _ = ok(disabled, {"kind": "start_game"})
    assert state.ship("hms-sample").cp == 0


def test_abilities_are_paid_by_the_ship_or_its_flagship():
    state = in_command()
    state, events = ok(state, {"kind": "use_ability", "ship": "hms-dash", "ability": "concentrate_fire",
                               "payer": "hms-sample"})
    assert state.ship("hms-sample").cp == 1 and state.ship("hms-dash").cp == 2
    assert state.ship("hms-dash").abilities == ["concentrate_fire"]
    assert refused(state, {"kind": "use_ability", "ship": "hms-dart", "ability": "scuttle",
                           "payer": "hms-sample"}) == "HMS Sample has 1 CP: Scuttle costs 2"
    assert "only the ship itself or its side's flagship" in refused(
        state, {"kind": "use_ability", "ship": "hms-dart", "ability": "evasive", "payer": "hms-dash"})
    assert "already declared Concentrate Fire" in refused(
        state, {"kind": "use_ability", "ship": "hms-dash", "ability": "concentrate_fire"})


def test_a_disabled_command_system_cannot_take_points_from_the_flagship():
    start = sample()
    com = start.grid_of(start.ship("hms-dash")).boxes_of("Com")
    state, _ = ok(with_ship(start, "hms-dash", boxes=frozenset(com)), {"kind": "start_game"})
    reason = refused(state, {"kind": "use_ability", "ship": "hms-dash", "ability": "concentrate_fire",
                             "payer": "hms-sample"})
    assert reason == ("HMS Dash's command system is disabled: its flagship cannot pay for it "
                      "(HMS Dash has 0 CP, Concentrate Fire costs 2)")


def test_each_ability_of_the_table():
    state = in_command()
    state, _ = ok(state, {"kind": "use_ability", "ship": "hms-dart", "ability": "make_smoke"})
    assert state.ship("hms-dart").making_smoke and [s.ship for s in state.smoke] == ["hms-dart"]
    state, _ = ok(state, {"kind": "use_ability", "ship": "ijn-kaze", "ability": "scuttle"})
    assert state.ship("ijn-kaze").damage_points == state.ship("ijn-kaze").record.critical_damage_threshold
    state, _ = ok(state, {"kind": "use_ability", "ship": "ijn-mihon", "ability": "evasive"})
    assert "evasive" in state.ship("ijn-mihon").abilities
    assert "paid during movement" in refused(state, {"kind": "use_ability", "ship": "ijn-mihon",
                                                     "ability": "close_action"})
    assert "is working: Damage Control has nothing to do" in refused(
        state, {"kind": "use_ability", "ship": "ijn-mihon", "ability": "damage_control", "system": "Guns"})


def test_damage_control_once_a_system_a_turn():
    start = sample()
    guns = start.grid_of(start.ship("hms-sample")).boxes_of("Guns")
    state, _ = ok(with_ship(start, "hms-sample", boxes=frozenset(guns)), {"kind": "start_game"})
    assert "can only treat it as damaged" in refused(state, {"kind": "use_ability", "ship": "hms-sample",
                                                             "ability": "damage_control", "system": "Guns",
                                                             "mode": "ignore_damaged"})
    state, _ = ok(state, {"kind": "use_ability", "ship": "hms-sample", "ability": "damage_control", "system": "Guns"})
    assert state.ship("hms-sample").damage_control == {"Guns": "disabled_as_damaged"}
    assert "two points cannot ignore a disabled system" in refused(
        state, {"kind": "use_ability", "ship": "hms-sample", "ability": "damage_control", "system": "Guns"})


def test_abilities_only_in_the_command_phase():
    state = in_movement()
    assert "in the command phase" in refused(state, {"kind": "use_ability", "ship": "hms-dart",
                                                     "ability": "evasive"})


# --- initiative (§6, DV-2) ----------------------------------------------------------------------

def test_dv2_initiative_odds():
    assert initiative_odds(3, 2) == (F(7, 12), F(5, 36), F(5, 18), F(21, 31))
    assert 1 - initiative_odds(3, 2)[3] == F(10, 31)
    p_win, p_tie, p_lose, final = initiative_odds(5, 0)
    assert (p_tie, p_win, p_lose, final) == (F(1, 36), F(35, 36), 0, 1)


@pytest.mark.parametrize("a", range(6))
@pytest.mark.parametrize("b", range(6))
def test_initiative_odds_equal_the_counted_dice(a, b):
    faces = [(x, y) for x in range(1, 7) for y in range(1, 7)]
    wins = sum(1 for x, y in faces if x + a > y + b)
    ties = sum(1 for x, y in faces if x + a == y + b)
    p_win, p_tie, p_lose, final = initiative_odds(a, b)
    assert (p_win, p_tie, p_lose) == (F(wins, 36), F(ties, 36), F(36 - wins - ties, 36))
    assert final == F(wins, 36 - ties)


def test_dv2_a_tie_asks_for_a_reroll():
    state, _ = ok(in_command(), {"kind": "end_command"})
    mihon = state.ship("ijn-mihon")
    state = with_ship(state, "ijn-mihon", commander="captain")  # Admiral (3) vs Captain (2)
    assert (best_score(state, "British"), best_score(state, "Japanese")) == (3, 2)
    assert mihon.commander == "admiral"
    tied, events = ok(state, {"kind": "roll_initiative", "faces": {"British": [2], "Japanese": [3]}})
    assert [e.kind for e in events] == ["initiative_tie"] and tied.phase == "initiative"
    assert [r.total for r in tied.initiative_rolls] == [5, 5]
    done, events = ok(state, {"kind": "roll_initiative", "faces": {"British": [2, 1], "Japanese": [3, 4]}})
    assert done.initiative == "Japanese" and done.phase == "movement"
    assert events[1].data["rolls"][0]["dice"] == [{"colour": "D6", "face": 1}]


def test_initiative_faces_missing_and_set_by_the_table():
    state, _ = ok(in_command(), {"kind": "end_command"})
    assert "Japanese's initiative: roll D6" in refused(state, {"kind": "roll_initiative", "faces": {"British": [4]}})
    assert "D6 has no face 7" in refused(state, {"kind": "roll_initiative", "faces": {"British": [7], "Japanese": [1]}})
    state, _ = ok(state, {"kind": "set_initiative", "side": "British"})
    assert state.initiative == "British" and state.batch == Batch(side="Japanese", left=3)


def test_initiative_rolled_by_the_seeded_roller_never_ties():
    state, _ = ok(in_command(), {"kind": "end_command"})
    state, _ = ok(state, {"kind": "roll_initiative"})
    assert state.initiative in ("British", "Japanese") and state.roller.counter >= 2


# --- batches (§7.1, R-12, R-13) -----------------------------------------------------------------

def test_batches_alternate_and_the_other_side_moves_the_rest():
    state = sample()
    assert batch_size(state, "British") == 3
    lieutenants = state.model_copy(update={"ships": [s.model_copy(update={"commander": "lieutenant"}) for s in state.ships]})
    assert best_score(lieutenants, "British") == 0 and batch_size(lieutenants, "British") == 1
    to_act = {"hms-sample", "ijn-mihon", "ijn-kaze"}
    batch = opening_batch(state, "British", to_act)
    assert batch == Batch(side="British", left=3)
    assert next_batch(state, batch, to_act - {"hms-sample"}) == Batch(side="Japanese", left=3)
    assert next_batch(state, Batch(side="Japanese", left=3), {"ijn-kaze"}) == Batch(side="Japanese", left=2)
    assert next_batch(state, Batch(side="Japanese", left=1), {"ijn-kaze"}) == Batch(side="Japanese", left=3)
    assert next_batch(state, Batch(side="Japanese", left=1), set()) is None


def test_movement_loser_first_in_batches_then_attacks():
    state = in_movement()                       # British 6 + 3 beats Japanese 1 + 3
    assert state.initiative == "British" and state.batch == Batch(side="Japanese", left=3)
    assert refused(state, {"kind": "end_move", "ship": "hms-dart"}) == "Japanese is moving now (3 ships more in its batch)"
    for ship in ("ijn-mihon", "ijn-kaze", "ijn-nami"):
        state, _ = ok(state, {"kind": "set_speed", "ship": ship, "mode": "half"})
        state, _ = ok(state, {"kind": "end_move", "ship": ship})
    assert state.batch == Batch(side="British", left=3)
    assert "has finished its move" in refused(state, {"kind": "move", "ship": "ijn-kaze", "inches": 1})
    state, _ = ok(state, {"kind": "move", "ship": "hms-sample", "inches": 10, "turns": 4})
    assert refused(state, {"kind": "end_movement"}).startswith("a full-speed move of 18\" needs at least 9\"")
    for ship in ("hms-dash", "hms-dart"):
        state, _ = ok(state, {"kind": "set_speed", "ship": ship, "mode": "half"})
    state, events = ok(state, {"kind": "end_movement"})
    assert state.phase == "attacks" and state.batch == Batch(side="British", left=3)
    assert all(s.move_done for s in state.ships)


# --- movement limits (§7.2-7.5, DV-15) -----------------------------------------------------------

def cruiser_moving():
    state = in_movement({"British": [1], "Japanese": [6]})   # British lose: they move first
    assert state.batch.side == "British"
    return state


def test_dv15_movement_limits():
    state = cruiser_moving()
    cruiser = state.ship("hms-sample")
    assert (cruiser.record.speed, cruiser.record.turning_class) == (15, 2)
    full = movement_limits(state, cruiser)
    assert (full.minimum, full.allowance, full.turn_cost, full.angle) == (8, 15, 1, 90)
    half = movement_limits(state, cruiser.model_copy(update={"speed_mode": "half"}))
    assert (half.minimum, half.allowance) == (0, 8)
    stop = movement_limits(state, cruiser.model_copy(update={"speed_mode": "stop"}))
    assert (stop.minimum, stop.allowance) == (0, 0)
    moved, _ = ok(state, {"kind": "move", "ship": "hms-sample", "inches": 10, "turns": 4})
    assert movement_limits(moved, moved.ship("hms-sample")).spent == 14
    assert refused(state, {"kind": "move", "ship": "hms-sample", "inches": 7, "turns": 4}) == \
        "4 turns need 8\" moved; 7\" were moved"
    assert refused(state, {"kind": "move", "ship": "hms-sample", "inches": 12, "turns": 4}) == \
        "12\" and 4 turns spend 16\": full speed allows 15\""
    assert refused(state, {"kind": "end_move", "ship": "hms-sample"}) == \
        "a full-speed move of 15\" needs at least 8\": HMS Sample spent 0\""


def test_dv15_the_seeds_example_and_turning_damage():
    state = cruiser_moving()
    class1 = state.ship("hms-sample").record.model_copy(update={"turning_class": 1, "speed": 6})
    state = with_ship(state, "hms-sample", record=class1)
    state, _ = ok(state, {"kind": "move", "ship": "hms-sample", "inches": 2, "turns": 1})
    limits = movement_limits(state, state.ship("hms-sample"))
    assert (limits.left, limits.angle) == (3, 45)   # 2" + a turn (1") → 3" left
    turn = state.grid_of(state.ship("hms-dash")).boxes_of("Turn")
    damaged = with_ship(state, "hms-dash", boxes=frozenset(turn[:1]))   # a destroyer: 1 box damages
    assert damaged.status(damaged.ship("hms-dash"), "Turn") == "damaged"
    limits = movement_limits(damaged, damaged.ship("hms-dash"))
    record = damaged.ship("hms-dash").record
    assert (limits.turn_cost, limits.turning_class) == (2, max(1, record.turning_class - 1))


def test_dv15_speed_changes():
    state = cruiser_moving()
    assert refused(state, {"kind": "set_speed", "ship": "hms-sample", "mode": "stop"}) == \
        "HMS Sample cannot go from full speed to stop: it must change to half speed first"
    speed = state.grid_of(state.ship("hms-sample")).boxes_of("Speed")
    damaged = with_ship(state, "hms-sample", boxes=frozenset(speed[:2]))
    assert damaged.status(damaged.ship("hms-sample"), "Speed") == "damaged"
    assert movement_limits(damaged, damaged.ship("hms-sample")).allowance == 8   # ⌈15/2⌉
    stopped, _ = ok(damaged, {"kind": "set_speed", "ship": "hms-sample", "mode": "stop"})
    assert stopped.ship("hms-sample").speed_mode == "stop"
    half, _ = ok(state, {"kind": "set_speed", "ship": "hms-sample", "mode": "half"})
    assert refused(half, {"kind": "set_speed", "ship": "hms-sample", "mode": "stop"}) == \
        "HMS Sample has already changed speed this move"   # [R-14]
    moved, _ = ok(state, {"kind": "move", "ship": "hms-sample", "inches": 4})
    assert "at the beginning of its move" in refused(moved, {"kind": "set_speed", "ship": "hms-sample", "mode": "half"})


def test_dv15_a_turn_carried_to_the_next_turn():
    state = cruiser_moving()
    state, _ = ok(state, {"kind": "move", "ship": "hms-sample", "inches": 11, "turns": 4})   # 15" spent, 3" since the last turn
    state, events = ok(state, {"kind": "end_move", "ship": "hms-sample"})
    assert state.ship("hms-sample").turn_carried and events[0].data["turn_carried"] is True
    assert "has no turn carried" in refused(state, {"kind": "move", "ship": "hms-dash", "inches": 2,
                                                    "use_carried_turn": True})


def test_a_carried_turn_is_made_before_moving_2_inches():
    state = with_ship(cruiser_moving(), "hms-sample", turn_carried=True)
    state, _ = ok(state, {"kind": "move", "ship": "hms-sample", "inches": 0, "turns": 1, "use_carried_turn": True})
    assert movement_limits(state, state.ship("hms-sample")).spent == 1   # it still pays 1" [R-16]


def test_rudder_locked_ahead_and_destroyed_engines():
    state = with_ship(cruiser_moving(), "hms-sample", rudder="ahead")
    assert refused(state, {"kind": "move", "ship": "hms-sample", "inches": 4, "turns": 1}) == \
        "HMS Sample's rudder is locked ahead: it cannot turn"
    side = with_ship(cruiser_moving(), "hms-sample", rudder="port")
    _, events = ok(side, {"kind": "move", "ship": "hms-sample", "inches": 8})
    assert events[0].kind == "warning"
    speed = state.grid_of(state.ship("hms-sample")).boxes_of("Speed")
    dead = with_ship(cruiser_moving(), "hms-sample", boxes=frozenset(speed))
    assert refused(dead, {"kind": "move", "ship": "hms-sample", "inches": 1}) == \
        "HMS Sample's engines are destroyed: it cannot move at all"
    dead, _ = ok(dead, {"kind": "end_move", "ship": "hms-sample"})


# --- close action (§7.6, DV-16) ------------------------------------------------------------------

def test_dv16_collision_odds():
    assert 1 - damage_dice_odds(3, 4)[0] == F(7, 8)    # the cruiser's CR 3 at the destroyer
    assert 1 - damage_dice_odds(2, 4)[0] == F(3, 4)    # the destroyer's CR 2 at the cruiser


def test_dv16_collision_dice_from_the_table():
    state = cruiser_moving()
    assert (state.ship("hms-sample").record.collision_rating, state.ship("ijn-kaze").record.collision_rating) == (3, 2)
    need = refused(state, {"kind": "close_action", "ship": "hms-sample", "other": "ijn-kaze", "paid_by": None,
                           "table": {"ship": [4, 1]}})
    assert need.startswith("HMS Sample's collision dice (3 D6)")
    state, events = ok(state, {"kind": "close_action", "ship": "hms-sample", "other": "ijn-kaze", "paid_by": None,
                               "table": {"ship": [4, 1, 6], "other": [3, 5]}})
    assert (state.ship("ijn-kaze").damage_points, state.ship("hms-sample").damage_points) == (2, 1)
    assert events[0].data["dice"] == [{"colour": "D6", "face": f} for f in (4, 1, 6)]
    assert state.ship("hms-sample").close_action_with == {"ijn-kaze"}
    assert state.ship("ijn-kaze").close_action_with == {"hms-sample"}


def test_close_action_paid_by_either_ship_or_a_flagship():
    state = cruiser_moving()
    paid, _ = ok(state, {"kind": "close_action", "ship": "hms-dash", "other": "ijn-kaze", "paid_by": "ijn-kaze"})
    assert paid.ship("ijn-kaze").cp == 1 and paid.ship("hms-dash").close_action_with == {"ijn-kaze"}
    paid, _ = ok(state, {"kind": "close_action", "ship": "hms-dash", "other": "ijn-kaze", "paid_by": "hms-sample"})
    assert paid.ship("hms-sample").cp == 2
    assert "either ship, or its side's flagship" in refused(
        state, {"kind": "close_action", "ship": "hms-dash", "other": "ijn-kaze", "paid_by": "hms-dart"})
    no_cr = with_ship(state, "ijn-kaze", record=state.ship("ijn-kaze").record.model_copy(update={"collision_rating": None}))
    assert "has no collision rating (CR)" in refused(no_cr, {"kind": "close_action", "ship": "hms-dash",
                                                             "other": "ijn-kaze", "paid_by": None})
    ok(no_cr, {"kind": "close_action", "ship": "hms-dash", "other": "ijn-kaze", "paid_by": None,
               "collision_ratings": {"ijn-kaze": 1}})


# --- end of turn (§11.5, §13) --------------------------------------------------------------------

def test_end_turn_clears_the_turn_and_generates_command_points():
    state = in_command()
    state, _ = ok(state, {"kind": "use_ability", "ship": "hms-dart", "ability": "evasive"})
    state = state.model_copy(update={"phase": "maintenance"})
    state = with_ship(state, "hms-dart", move_done=True, inches_moved=F(5), turns_made=2, illuminated=True)
    state, events = ok(state, {"kind": "end_turn"})
    dart = state.ship("hms-dart")
    assert (state.turn, state.phase) == (2, "command")
    assert (dart.cp, dart.abilities, dart.move_done, dart.turns_made, dart.illuminated) == (1, [], False, 0, False)
    assert dart.making_smoke is False


def test_the_game_ends_when_a_side_has_no_ship():
    state = in_command().model_copy(update={"phase": "maintenance"})
    for ship in ("ijn-mihon", "ijn-kaze", "ijn-nami"):
        state = with_ship(state, ship, removed="sunk")
    state, events = ok(state, {"kind": "end_turn"})
    assert state.phase == "over" and state.winner == "British"
    assert state.result == "Japanese has no ship left in play. British wins."
    assert "the game is over" in refused(state, {"kind": "end_command"})


def test_the_end_movement_dialog_names_the_ships_that_must_still_move_and_offers_what_the_rules_allow():
    """Issue 28.1: "End movement?" said the ships not moved "stay where they are", then the rules
    refused it; it now names each full-speed ship short of its least move, with the inches still
    owed (§7.2, [R-15]), and offers that move or half speed instead of the refused step."""
    from companion.app.rulesets.decisive_victory.model import end_movement_step

    state = in_movement()
    for ship in ("ijn-mihon", "ijn-kaze", "ijn-nami"):
        state, _ = ok(state, {"kind": "set_speed", "ship": ship, "mode": "half"})
        state, _ = ok(state, {"kind": "end_move", "ship": ship})
    state, _ = ok(state, {"kind": "move", "ship": "hms-sample", "inches": 4})
    step = end_movement_step(state)
    assert not step.allowed
    assert step.confirm.startswith('HMS Sample is at full speed (15"): it must still move at least 4" more. ')
    assert 'HMS Dash is at full speed (18"): it must still move at least 9" more, or go to half speed or stop.' in step.confirm
    assert 'HMS Dart is at full speed (18"): it must still move at least 9" more' in step.confirm
    for option in step.options:  # each offered choice is one the rules take
        ok(state, option.action)
    by_ident = {o.ident: o for o in step.options}
    assert "dv-half-speed-hms-sample" not in by_ident  # it has moved: speed changes only before (§7.2)
    assert {"dv-least-move-hms-dash", "dv-half-speed-hms-dash"} <= set(by_ident)
    state, _ = ok(state, by_ident["dv-least-move-hms-sample"].action)
    for ship in ("hms-dash", "hms-dart"):
        assert end_movement_step(state).options  # still short: full speed, not moved
        state, _ = ok(state, {"kind": "set_speed", "ship": ship, "mode": "half"})
    assert state.ship("hms-sample").move_done  # the offered move ends its move too (issue 35)
    step = end_movement_step(state)
    assert step.allowed and not step.options
    assert step.confirm == "HMS Dash, HMS Dart have not moved: they stay where they are."
    ok(state, step.action)


def test_the_end_movement_dialogs_defaults_take_the_first_batch_through_to_the_second():
    """Issue 35 (Major 2): each "Move X ahead" of End movement's dialog moved the ship without ending
    its move, so the British batch never ended ("British's batch (3 more) moves" stayed) and the
    Japanese ships were refused.  Each default now moves the ship its least move and ends it."""
    from companion.app.rulesets.decisive_victory.model import banner, end_movement_step

    state = in_movement({"British": [1], "Japanese": [6]})  # Japanese win: the British batch moves first
    assert "British's batch (3 more) moves" in banner(state).detail
    for left, ship in zip((3, 2, 1), ("hms-sample", "hms-dash", "hms-dart")):
        assert f"British's batch ({left} more) moves" in banner(state).detail
        default = end_movement_step(state).options[0]
        assert default.ident == f"dv-least-move-{ship}" and default.label.endswith("ahead and end its move")
        state, events = ok(state, default.action)
        assert [e.kind for e in events] == ["move", "end_move", *(["batch"] if left == 1 else [])]
        assert state.ship(ship).move_done and state.ship(ship).inches_moved == state.ship(ship).record.speed // 2 + (
            state.ship(ship).record.speed % 2)
    assert "Japanese's batch (3 more) moves" in banner(state).detail
    ok(state, {"kind": "move", "ship": "ijn-mihon", "inches": 8})  # the Japanese ships move now
