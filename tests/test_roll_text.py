"""A breach roll's words say what it needed (issue 14.4): "12 against 15 (breach 13, armour +2): no
breach", so the players can check the app against the card."""

from __future__ import annotations

from companion.engine.quick_start import actions as A
from companion.engine.quick_start.combat import shot_pool
from companion.engine.quick_start.game import apply

from random_games import close_battle


def _shot_at_ravens_bow(marks: tuple[int, ...] = ()):
    """Pelletier's bow gun at HML Raven's bow (long range; the bow's armour slot gives +1), with
    these slots of Raven's bow destroyed by hand first."""
    state = close_battle()
    for slot in marks:
        state = apply(state, A.MarkSlot(ship="raven", location="bow", slot=slot, status="destroyed")).state
    state = apply(state, A.DeclareShot(attacker="pelletier", location="bow", slot=1, target="raven",
                                       target_location="bow")).state
    return state


def _resolve(state, face: int, slots: list[int]):
    shot = state.shots[0]
    dice = len(shot_pool(state.ship("pelletier"), "bow", 1, shot.band, state.ship("raven"), "bow"))
    outcome = apply(state, A.ResolveShot(shot=shot.id, table=A.TableFaces(pool=[face] * dice, slot=slots, keel=[])))
    assert outcome.ok, outcome.reason
    return outcome.state.shots[0].result


def test_a_roll_names_the_breach_number_and_the_armour_it_had_to_beat():
    state = _shot_at_ravens_bow()
    assert state.ship("raven").armour("bow") == 1
    low = _resolve(state, 1, [3])  # slot 3 of Raven's bow: breach 13, +1 armour
    assert f"slot die 3: {low.total} against 14 (breach 13, armour +1): no breach, no effect on HML Raven's bow" in low.text
    high = _resolve(state, 4, [3])
    assert high.total >= 14
    assert f"slot die 3: {high.total} against 14 (breach 13, armour +1): breach, HML Raven bow slot 3" in high.text


def test_a_location_without_armour_names_the_breach_number_alone():
    state = close_battle()
    state = apply(state, A.DeclareShot(attacker="hertfordshire", location="bow", slot=1, target="pontbriand",
                                       target_location="bow")).state
    outcome = apply(state, A.ResolveShot(shot=1, table=A.TableFaces(pool=[1, 1, 1, 1], slot=[1], keel=[])))
    assert "= 4; slot die 1: 4 against 12 (breach 12): no breach, no effect on Pontbriand's bow" in \
        outcome.state.shots[0].result.text


def test_a_critical_re_roll_names_the_re_rolled_slots_breach_number_alone():
    """Slot 1 already destroyed: the slot die goes round again, and the re-rolled slot's breach
    number is what the total must reach (the reading `resolve_breach` plays)."""
    state = _shot_at_ravens_bow(marks=(1,))
    result = _resolve(state, 4, [1, 3])
    assert f"slot die 1, re-rolled 3: {result.total} against 13 (breach 13 of the re-rolled slot): breach" in result.text


def test_a_miss_slot_needs_no_number():
    state = _shot_at_ravens_bow()
    assert _resolve(state, 4, [6]).text.endswith("slot die 6: a miss slot, the shot misses.")
