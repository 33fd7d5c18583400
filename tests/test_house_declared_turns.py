"""House rule H3 "declared turns" (seed 002:32-34; shared/spec/house-rules.md 6, examples H3-1..H3-5)."""

import pytest

from companion.engine.quick_start import apply
from companion.engine.quick_start.actions import (
    CancelTurn, DeclareTurn, EndMove, EndTurn, Place, SetHouseRules, SetInitiative, Step,
)
from companion.engine.board import Board
from companion.engine.kernel import RefusalKind
from companion.engine.quick_start.ruleset import QUICK_START
from companion.engine.quick_start.table_rules import HouseRules
from cards_for_tests import card, engine, filler, gun, location, position, ship, shipped

H3 = HouseRules(declared_turns=True)


def moving(*ships, rules=H3):
    """The ships in the movement phase of a 33 x 19 board, the last side holding the initiative."""
    state = position(*ships, board=Board(), phase="movement")
    settings = state.settings.model_copy(update={"house_rules": rules})
    return state.model_copy(update={"initiative": state.sides[-1], "settings": settings})


def raven(rules=H3):
    return moving(ship("raven", "British", shipped("hml-raven"), "1012", "N"), rules=rules)


def pontbriand(rules=H3):
    return moving(ship("pontbriand", "French", shipped("pontbriand"), "1016", "N"), rules=rules)


def play(state, *actions):
    """Apply each action, which must be accepted; the final state."""
    for action in actions:
        outcome = apply(state, action)
        assert outcome.ok, f"{action}: {outcome.reason}"
        state = outcome.state
    return state


def refused(state, action):
    outcome = apply(state, action)
    assert not outcome.ok, f"{action} was accepted"
    return outcome.reason


def fwd(ship_id):
    return Step(ship=ship_id, step="forward")


def turn(ship_id, side):
    return Step(ship=ship_id, step=side)


# --- H3-1 HML Raven (enter 1, 9 MP), bow 1012 facing N -------------------------------------


def test_h3_1a_plain_quick_start_turns_after_one_hex():
    state = play(raven(HouseRules()), fwd("raven"), turn("raven", "starboard"))
    assert state.ship("raven").mp_left == 7 and state.ship("raven").facing == 1


def test_h3_1b_under_h3_the_turn_needs_a_declaration():
    state = play(raven(), fwd("raven"))
    reason = refused(state, turn("raven", "starboard"))
    assert reason == "HML Raven must declare its turn before turning (house rule: declared turns)"
    assert state.ship("raven").mp_left == 8 and state.ship("raven").facing == 0


def test_h3_1c_a_late_declaration_counts_from_where_it_was_made():
    state = play(raven(), fwd("raven"), DeclareTurn(ship="raven"))
    reason = refused(state, turn("raven", "starboard"))
    assert reason == "HML Raven declared its turn 0 hexes ago and must enter 1 hex after declaring before it turns"
    state = play(state, fwd("raven"), turn("raven", "starboard"))
    r = state.ship("raven")
    assert r.facing == 1 and r.mp_left == 6 and not r.turn_declared and r.entered_since_declared == 0


def test_h3_1d_declaring_at_the_start_moves_as_plain_quick_start():
    state = play(raven(), DeclareTurn(ship="raven"), fwd("raven"), turn("raven", "starboard"))
    plain = play(raven(HouseRules()), fwd("raven"), turn("raven", "starboard"))
    assert state.ship("raven").mp_left == 7
    assert state.ship("raven").placement == plain.ship("raven").placement


# --- H3-2 Pontbriand (enter 2, 12 MP), declaring late --------------------------------------


def test_h3_2_hexes_before_the_declaration_do_not_count():
    state = play(pontbriand(), fwd("pontbriand"), fwd("pontbriand"), fwd("pontbriand"))
    assert state.ship("pontbriand").mp_left == 9
    state = play(state, DeclareTurn(ship="pontbriand"), fwd("pontbriand"))
    p = state.ship("pontbriand")
    assert p.mp_left == 8 and p.entered_since_declared == 1 and p.entered_since_turn == 4
    assert "declared its turn 1 hex ago and must enter 2 hexes after declaring" in refused(state, turn("pontbriand", "port"))
    plain = state.model_copy(update={"settings": state.settings.model_copy(update={"house_rules": HouseRules()})})
    assert apply(plain, turn("pontbriand", "port")).ok  # plain Quick-Start: 4 hexes since the start of the move
    state = play(state, fwd("pontbriand"))
    assert state.ship("pontbriand").mp_left == 7
    state = play(state, turn("pontbriand", "port"))
    assert state.ship("pontbriand").mp_left == 6 and state.ship("pontbriand").facing == 5


# --- H3-3 Cancel ------------------------------------------------------------------------------


def test_h3_3_cancelling_loses_one_mp_and_a_new_declaration_counts_from_zero():
    state = play(pontbriand(), DeclareTurn(ship="pontbriand"), fwd("pontbriand"))
    assert state.ship("pontbriand").mp_left == 11
    outcome = apply(state, CancelTurn(ship="pontbriand"))
    assert outcome.ok and [e.kind for e in outcome.events] == ["turn_cancelled"]
    assert outcome.events[0].text == "Pontbriand cancels its declared turn: 1 MP lost (10 MP left)."
    state = outcome.state
    assert state.ship("pontbriand").mp_left == 10 and not state.ship("pontbriand").turn_declared
    state = play(state, fwd("pontbriand"))
    assert "must declare its turn" in refused(state, turn("pontbriand", "port"))
    state = play(state, DeclareTurn(ship="pontbriand"), fwd("pontbriand"), fwd("pontbriand"),
                 turn("pontbriand", "port"))
    assert state.ship("pontbriand").facing == 5 and state.ship("pontbriand").mp_left == 6


def test_h3_3_cancelling_with_no_mp_left_costs_nothing():
    state = play(pontbriand(), DeclareTurn(ship="pontbriand"), *[fwd("pontbriand")] * 12)
    assert state.ship("pontbriand").mp_left == 0 and state.ship("pontbriand").turn_declared
    outcome = apply(state, CancelTurn(ship="pontbriand"))
    assert outcome.ok and outcome.events[0].text == "Pontbriand cancels its declared turn: no MP left to lose."
    p = outcome.state.ship("pontbriand")
    assert p.mp_spent == 12 and not p.turn_declared


def test_cancel_needs_a_pending_declaration_and_declare_needs_none():
    assert refused(pontbriand(), CancelTurn(ship="pontbriand")) == "Pontbriand has no declared turn to cancel"
    state = play(pontbriand(), DeclareTurn(ship="pontbriand"))
    assert refused(state, DeclareTurn(ship="pontbriand")) == "Pontbriand already has a declared turn"


# --- H3-4 Lapse at the end of turn ---------------------------------------------------------------


def test_h3_4_a_pending_declaration_lapses_at_the_end_of_turn():
    state = play(raven(), DeclareTurn(ship="raven"), fwd("raven"), EndMove(ship="raven"))
    assert state.phase == "combat" and state.ship("raven").turn_declared
    outcome = apply(state, EndTurn())
    assert outcome.ok
    lapsed = [e for e in outcome.events if e.kind == "declaration_lapsed"]
    assert [e.data["ship"] for e in lapsed] == ["raven"]
    state = play(outcome.state, SetInitiative(side="British"))
    assert state.turn == 2 and state.phase == "movement" and not state.ship("raven").turn_declared
    state = play(state, fwd("raven"))
    assert "must declare its turn" in refused(state, turn("raven", "starboard"))
    state = play(state, DeclareTurn(ship="raven"), fwd("raven"), turn("raven", "starboard"))
    assert state.ship("raven").facing == 1


# --- H3-5 A card with enter 0 --------------------------------------------------------------------


def zero_card():
    stern = location([gun(), engine(6)] + filler()[:4])
    return card("nimble", ship_type=1, si=16, enter=0, name="HML Example", stern=stern)


def test_h3_5_a_ship_with_enter_0_turns_without_declaring():
    state = moving(ship("nimble", "British", zero_card(), "1012", "N"))
    state = play(state, turn("nimble", "starboard"))
    assert state.ship("nimble").facing == 1
    assert "already turned in this hex" in refused(state, turn("nimble", "starboard"))
    assert refused(state, DeclareTurn(ship="nimble")) == "HML Example need not declare: it may turn in any hex"


# --- who may declare, the direction sub-option, place, the toggle off -----------------------------


def test_only_the_ship_that_may_move_now_may_declare_or_cancel():
    # movement by type: the French Type 2 moves before the British Type 1 (R-H3.6)
    state = moving(ship("raven", "British", shipped("hml-raven"), "1012", "N"),
                   ship("pontbriand", "French", shipped("pontbriand"), "2016", "N"))
    outcome = apply(state, DeclareTurn(ship="raven"))
    assert not outcome.ok and outcome.kind is RefusalKind.TURN
    state = play(state, EndMove(ship="pontbriand"), DeclareTurn(ship="raven"), EndMove(ship="raven"))
    assert refused(state, CancelTurn(ship="raven")) == "ships move in the movement phase (now: combat)"


def test_declare_direction_names_the_side_and_holds_the_ship_to_it():
    rules = HouseRules(declared_turns=True, declare_direction=True)
    state = raven(rules)
    assert "name the side" in refused(state, DeclareTurn(ship="raven"))
    state = play(state, DeclareTurn(ship="raven", side="port"), fwd("raven"))
    assert state.ship("raven").declared_side == "port"
    assert refused(state, turn("raven", "starboard")) == "HML Raven declared a turn to port, not to starboard"
    state = play(state, turn("raven", "port"))
    assert state.ship("raven").facing == 5 and state.ship("raven").declared_side is None
    assert "names no side" in refused(raven(), DeclareTurn(ship="raven", side="port"))


def test_place_is_not_checked_against_declarations():
    state = play(raven(), Place(ship="raven", bow="1011", facing="NE"))  # R-H3.7: the table is the truth
    assert state.ship("raven").facing == 1


def test_without_h3_there_is_nothing_to_declare():
    assert refused(raven(HouseRules()), DeclareTurn(ship="raven")) == "declared turns are not in use in this game"


def test_bookkeeping_turns_undeclared_with_a_warning():
    state = raven()
    state = state.model_copy(update={"settings": state.settings.model_copy(update={"bookkeeping": True})})
    outcome = apply(play(state, fwd("raven")), turn("raven", "starboard"))
    assert outcome.ok and any("must declare its turn" in e.text for e in outcome.events if e.kind == "warning")


def test_options_offer_the_declaration_then_its_cancel():
    state = raven()
    declare = [o for o in QUICK_START.options(state, "British") if o.action["kind"] == "declare_turn"]
    assert [(o.action, o.possible) for o in declare] == [({"kind": "declare_turn", "ship": "raven"}, True)]
    state = play(state, DeclareTurn(ship="raven"))
    kinds = {o.action["kind"] for o in QUICK_START.options(state, "British") if o.possible}
    assert "cancel_turn" in kinds and "declare_turn" not in kinds
    assert not [o for o in QUICK_START.options(raven(HouseRules()), None) if "turn" in o.action["kind"]]


def test_set_house_rules_switches_h3_on_before_initiative_only():
    state = raven(HouseRules()).model_copy(update={"phase": "initiative"})
    outcome = apply(state, SetHouseRules(house_rules=H3))
    assert outcome.ok and outcome.state.house_rules.declared_turns
    assert outcome.events[0].text == "House rules now in use: declared turns."
    moving_now = apply(raven(HouseRules()), SetHouseRules(house_rules=H3))
    assert not moving_now.ok and moving_now.kind is RefusalKind.PHASE
    off = apply(state.model_copy(update={"phase": "setup"}), SetHouseRules(house_rules=HouseRules()))
    assert off.ok and off.events[0].text == "No house rules in use: the Quick-Start rules as printed."


def test_seize_without_unit_initiative_is_refused_in_plain_words():
    outcome = apply(raven(HouseRules()).model_copy(update={"phase": "setup"}),
                    {"kind": "set_house_rules", "house_rules": {"seize_initiative": True}})
    assert not outcome.ok and "seize the initiative needs unit initiative" in outcome.reason


# --- property (section 10): declaring at the start and after each facing change is plain Quick-Start ---


def _walk(plain, declared, ship_id, depth, steps=()):
    """Every step sequence up to `depth` (the count of sequences tried): plain Quick-Start and H3 (declaring at once and after each
    facing change) accept the same steps and leave the ship in the same place with the same MP."""
    if depth == 0:
        return 1
    count = 0
    for kind in ("forward", "port", "starboard"):
        a, b = apply(plain, Step(ship=ship_id, step=kind)), apply(declared, Step(ship=ship_id, step=kind))
        assert a.ok == b.ok, (steps + (kind,), a, b)
        count += 1
        if not a.ok:
            continue
        after = b.state
        if kind != "forward" and after.ship(ship_id).card.enter_hexes_before_turn >= 1:
            after = play(after, DeclareTurn(ship=ship_id))
        mine, theirs = a.state.ship(ship_id), after.ship(ship_id)
        assert (mine.placement, mine.mp_left) == (theirs.placement, theirs.mp_left)
        count += _walk(a.state, after, ship_id, depth - 1, steps + (kind,))
    return count


@pytest.mark.parametrize("ship_id, state", [
    ("raven", lambda rules: raven(rules)),
    ("pontbriand", lambda rules: pontbriand(rules)),
    ("nimble", lambda rules: moving(ship("nimble", "British", zero_card(), "1012", "N"), rules=rules)),
])
def test_declaring_at_once_and_after_each_turn_accepts_what_plain_quick_start_accepts(ship_id, state):
    declared = state(H3)
    if declared.ship(ship_id).card.enter_hexes_before_turn >= 1:
        declared = play(declared, DeclareTurn(ship=ship_id))
    assert _walk(state(HouseRules()), declared, ship_id, depth=9) > 300
