"""Issue 11, rules defects: End movement and stacking, Place and `moved`, engines marked mid-move."""

from companion.engine.quick_start import apply
from companion.engine.quick_start.actions import (
    EndMove, EndMovement, EndTurn, MarkSlot, Place, SetBookkeeping, Step,
)
from companion.engine.board import Board
from cards_for_tests import card, engine, filler, gun, location, position, ship


def raven_like():
    stern = location([gun(), engine(3)] + filler()[:4])
    return card("raven", ship_type=1, si=16, enter=1, name="HML Raven", stern=stern)


def pont_like(enter=2):
    stern = location([gun(), engine(3), engine(3), engine(6)] + filler()[:2])
    return card("pont", ship_type=2, si=20, enter=enter, name="Pontbriand", stern=stern)


def moving(*ships, initiative=None):
    state = position(*ships, board=Board(), phase="movement")
    return state.model_copy(update={"initiative": initiative or state.sides[-1]})


# --- 1. End movement may not leave a ship inside another ship's hex -------------------


def _raven_under_the_pontbriand():
    """The Pontbriand (1007-1009) has ended its move; the Raven steps into 1009, under it."""
    raven = ship("r", "British", raven_like(), "1010", "N")
    pont = ship("p", "French", pont_like(), "1007", "N")
    state = moving(raven, pont, initiative="French")
    state = apply(state, EndMove(ship="p")).state
    state = apply(state, Step(ship="r", step="forward")).state
    assert apply(state, EndMove(ship="r")).ok is False  # the single ship's end-move refuses it
    return state


def test_end_movement_refuses_a_ship_left_sharing_a_hex_and_names_it():
    state = _raven_under_the_pontbriand()
    out = apply(state, EndMovement())
    assert not out.ok
    assert "HML Raven" in out.reason and "Pontbriand" in out.reason and "sharing a hex" in out.reason


def test_end_movement_in_bookkeeping_mode_warns_with_the_ship_named():
    state = apply(_raven_under_the_pontbriand(), SetBookkeeping(on=True)).state
    out = apply(state, EndMovement())
    assert out.ok and out.state.phase == "combat"
    warnings = [e.text for e in out.events if e.kind == "warning"]
    assert any("HML Raven" in w and "sharing a hex" in w for w in warnings), warnings


def test_end_movement_still_ends_the_moves_of_ships_standing_clear():
    raven = ship("r", "British", raven_like(), "1010", "N")
    pont = ship("p", "French", pont_like(), "2007", "N")
    out = apply(moving(raven, pont), EndMovement())
    assert out.ok and out.state.phase == "combat"


# --- 2. Place counts as moving only when the pivot hex changed -------------------------


def test_a_type_2_turned_about_its_centre_step_by_step_has_not_moved():
    pont = ship("p", "French", pont_like(enter=0), "1007", "N")  # centre 1008
    state = apply(moving(pont), Step(ship="p", step="starboard")).state
    assert state.ship("p").placement.pivot.label() == "1008"
    assert not state.ship("p").moved


def test_place_turning_a_type_2_about_its_centre_is_not_a_move():
    pont = ship("p", "French", pont_like(enter=0), "1007", "N")
    stepped = apply(moving(pont), Step(ship="p", step="starboard")).state.ship("p")
    out = apply(moving(pont), Place(ship="p", bow=stepped.bow.label(), facing=stepped.facing))
    assert out.ok
    placed = out.state.ship("p")
    assert placed.hexes == stepped.hexes and placed.placement.pivot.label() == "1008"
    assert not placed.moved, "same turn as step by step: stop dice, not go dice"
    assert placed.location_dice("bow") == stepped.location_dice("bow")


def test_place_into_a_new_pivot_hex_is_a_move():
    pont = ship("p", "French", pont_like(), "1007", "N")
    out = apply(moving(pont), Place(ship="p", bow="1006", facing="N"))
    assert out.ok and out.state.ship("p").moved


def test_the_players_may_say_otherwise_when_placing():
    pont = ship("p", "French", pont_like(enter=0), "1007", "N")
    turned = apply(moving(pont), Place(ship="p", bow="1108", facing="NE", moved=True))
    assert turned.ok and turned.state.ship("p").moved
    ahead = apply(moving(pont), Place(ship="p", bow="1006", facing="N", moved=False))
    assert ahead.ok and not ahead.state.ship("p").moved


# --- 3. Engines marked by hand mid-move: MP are fixed at the start of the turn ---------


def test_an_engine_marked_destroyed_by_hand_mid_move_keeps_its_mp_this_turn():
    pont = ship("p", "French", pont_like(), "1010", "N")  # 3 + 3 + 6 = 12 MP
    state = apply(moving(pont), Step(ship="p", step="forward")).state
    assert state.ship("p").mp_left == 11
    for status in ("destroyed", "destroyed_this_turn"):
        marked = apply(state, MarkSlot(ship="p", location="stern", slot=4, status=status))
        assert marked.ok and marked.state.ship("p").mp_left == 11, status
        assert apply(marked.state, Step(ship="p", step="forward")).ok


def test_an_engine_marked_by_hand_mid_move_is_lost_from_the_next_turn():
    pont = ship("p", "French", pont_like(), "1010", "N")
    state = apply(moving(pont), Step(ship="p", step="forward")).state
    state = apply(state, MarkSlot(ship="p", location="stern", slot=4, status="destroyed")).state
    state = apply(state, EndMove(ship="p")).state
    assert state.phase == "combat"
    ended = apply(state, EndTurn()).state
    assert ended.ship("p").movement_points == 6 and ended.ship("p").mp_left == 6


def test_an_engine_cleared_by_hand_mid_move_gives_its_mp_back_at_once():
    pont = ship("p", "French", pont_like(), "1010", "N", damage={("stern", 4): "destroyed"})
    state = apply(moving(pont), Step(ship="p", step="forward")).state
    assert state.ship("p").mp_left == 5
    cleared = apply(state, MarkSlot(ship="p", location="stern", slot=4, status="live")).state
    assert cleared.ship("p").mp_left == 11  # a correction: the engine was never lost


def test_an_engine_marked_before_the_turn_moves_counts_at_once():
    pont = ship("p", "French", pont_like(), "1010", "N")
    state = position(pont, phase="initiative")
    marked = apply(state, MarkSlot(ship="p", location="stern", slot=4, status="destroyed")).state
    assert marked.ship("p").movement_points == 6
