"""Issue 18, motion that helps: which slot flashes on the card (the one the latest resolved shot
destroyed) and which ship gets the map's brief ring (the one that moved last)."""

from __future__ import annotations

from cards_for_tests import position, ship, shipped

from companion.app import viewmodels as vm
from companion.app.motion import Hit, Motion, Moved, motion
from companion.engine.quick_start import actions as A
from companion.engine.quick_start.game import apply
from companion.engine.kernel import Event


def shot(n: int) -> Event:
    return Event(kind="shot", text=f"shot {n}", data={"shot": f"s{n}", "result": {}})


def destroyed(ship_id: str, location: str, slot: int) -> Event:
    """As game.py logs a hit: the ship, the location and the slot."""
    return Event(kind="slot_destroyed", text="destroyed", data={"ship": ship_id, "location": location, "slot": slot})


def moved(kind: str, ship_id: str) -> Event:
    return Event(kind=kind, text="moved", data={"ship": ship_id})


def test_the_latest_shots_destroyed_slot_is_the_hit():
    events = [shot(1), destroyed("a", "bow", 2), shot(2), destroyed("b", "port", 5)]
    assert motion(events).hit == Hit(4, "b", "port", 5)


def test_a_latest_shot_that_destroyed_nothing_flashes_nothing():
    assert motion([shot(1), destroyed("a", "bow", 2), shot(2)]).hit is None


def test_a_slot_marked_by_hand_is_no_shots_hit():
    marked = Event(kind="mark_slot", text="by hand", data={"ship": "a", "location": "bow", "slot": 1})
    assert motion([marked]).hit is None


def test_the_ship_that_moved_last_by_a_step_a_placing_or_a_path():
    events = [moved("place", "a"), moved("step", "b"), shot(1), moved("end_move", "c")]
    assert motion(events).moved == Moved(2, "b")
    assert motion(events + [moved("move_along", "c")]).moved == Moved(5, "c")
    assert motion([]) == Motion()


def test_a_real_placing_is_read_as_the_ship_that_moved():
    raven = ship("r", "British", shipped("hml-raven"), "1010")
    outcome = apply(position(raven), A.Place(ship="r", bow="1012", facing="N"))
    assert outcome.ok, getattr(outcome, "reason", "")
    assert motion(outcome.events).moved == Moved(1, "r")


def test_the_card_flashes_the_hit_only_on_the_ship_hit():
    raven = ship("r", "British", shipped("hml-raven"), "1010", damage={("bow", 2): "destroyed_this_turn"})
    state = position(raven)
    hit = motion([shot(1), destroyed("r", "bow", 2)]).hit
    assert vm.card_view(state, "r", hit).flash == (2, "bow", 2)
    assert vm.card_view(state, "r", Hit(2, "other", "bow", 2)).flash is None
    assert vm.card_view(state, "r").flash is None
