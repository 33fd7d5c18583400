"""Combat declarations, end of turn, destroyed ships and the end of the game (rules-notes 6, 8)."""

from companion.engine.quick_start import apply
from companion.engine.quick_start.actions import Concede, DeclareShot, EndTurn, MarkSlot, ResolveShot, TableFaces
from companion.engine.quick_start.state import SlotStatus
from cards_for_tests import card, filler, gun, location, position, ship


def duel(**damage):
    a = ship("a", "A", card("a", ship_type=1, si=16), "1010", "N", damage=damage.get("a"))
    b = ship("b", "B", card("b", ship_type=1, si=16), "1006", "S", damage=damage.get("b"))
    return position(a, b)


def test_a_declared_shot_must_be_in_arc_and_range():
    state = duel()
    far = position(ship("a", "A", card("a", ship_type=1), "1018", "N"), ship("b", "B", card("b", ship_type=1), "1002", "N"))
    refused = apply(far, DeclareShot(attacker="a", location="bow", slot=1, target="b"))
    assert not refused.ok and "beyond the 3 IN's range of 8" in refused.reason
    behind = apply(state, DeclareShot(attacker="a", location="stern", slot=1, target="b"))
    assert not behind.ok and "outside the firing arc" in behind.reason
    ok = apply(state, DeclareShot(attacker="a", location="bow", slot=1, target="b"))
    assert ok.ok and ok.state.shots[0].target_location == "bow"


def test_each_gun_fires_once_a_turn():
    state = apply(duel(), DeclareShot(attacker="a", location="bow", slot=1, target="b")).state
    again = apply(state, DeclareShot(attacker="a", location="bow", slot=1, target="b"))
    assert not again.ok and "already fired this turn" in again.reason


def test_a_gun_destroyed_this_turn_still_fires_but_not_next_turn():
    circled = duel(a={("bow", 1): "destroyed_this_turn"})
    assert apply(circled, DeclareShot(attacker="a", location="bow", slot=1, target="b")).ok
    hashed = duel(a={("bow", 1): "destroyed"})
    out = apply(hashed, DeclareShot(attacker="a", location="bow", slot=1, target="b"))
    assert not out.ok and "destroyed in an earlier turn" in out.reason


def test_end_of_turn_strikes_circled_slots_through():
    state = apply(duel(), DeclareShot(attacker="a", location="bow", slot=1, target="b")).state
    # 3 IN short (range 4): DBlue + location 2DRed (b did not move)
    state = apply(state, ResolveShot(shot=1, table=TableFaces(pool=[6, 10, 10], slot=[2]))).state
    assert state.ship("b").status("bow", 2) is SlotStatus.DESTROYED_THIS_TURN
    pending = apply(duel(), DeclareShot(attacker="a", location="bow", slot=1, target="b")).state
    assert "declared but not resolved" in apply(pending, EndTurn()).reason
    after = apply(state, EndTurn())
    assert after.ok and after.state.turn == 2 and after.state.phase == "initiative"
    assert after.state.ship("b").status("bow", 2) is SlotStatus.DESTROYED


def test_keel_broken_ship_fires_this_turn_and_leaves_at_the_end():
    state = duel()
    state = apply(state, MarkSlot(ship="b", location="bow", slot=1, status="destroyed_this_turn")).state
    from companion.engine.quick_start.actions import SetKeel
    state = apply(state, SetKeel(ship="b")).state
    assert apply(state, DeclareShot(attacker="b", location="bow", slot=1, target="a")).ok
    ended = apply(state, EndTurn()).state
    assert ended.ship("b").removed and ended.phase == "over" and ended.winner == "A"
    assert ended.result.startswith("A wins: every B ship is destroyed")


def test_both_sides_destroyed_in_one_turn_is_a_draw():
    from companion.engine.quick_start.actions import SetKeel
    state = apply(duel(), SetKeel(ship="a")).state
    state = apply(state, SetKeel(ship="b")).state
    ended = apply(state, EndTurn()).state
    assert ended.phase == "over" and ended.winner is None and ended.result.startswith("Draw")


def test_a_side_whose_every_weapon_is_destroyed_loses():
    only_gun = location([gun()] + filler())
    a_card = card("a", ship_type=1, bow=only_gun, port=location(filler() + [filler()[0]]),
                  starboard=location(filler() + [filler()[0]]), stern=location(filler() + [filler()[0]]))
    state = position(ship("a", "A", a_card, "1010", "N", damage={("bow", 1): "destroyed_this_turn"}),
                     ship("b", "B", card("b", ship_type=1), "1005", "S"))
    ended = apply(state, EndTurn()).state
    assert ended.phase == "over" and ended.winner == "B" and "every A weapon is destroyed" in ended.result


def test_concession_ends_the_game_and_nothing_more_happens():
    ended = apply(duel(), Concede(side="B")).state
    assert ended.phase == "over" and ended.winner == "A"
    assert not apply(ended, EndTurn()).ok


def test_miss_slots_cannot_be_marked_destroyed():
    miss_bow = location([gun(), {"kind": "miss"}] + filler()[:4])
    state = position(ship("a", "A", card("a", ship_type=1, bow=miss_bow), "1010"), ship("b", "B", card("b", ship_type=1), "1005"))
    out = apply(state, MarkSlot(ship="a", location="bow", slot=2, status="destroyed"))
    assert not out.ok and "miss slot" in out.reason


def test_table_dice_that_run_out_ask_for_the_next_die():
    state = apply(duel(b={("bow", 2): "destroyed"}), DeclareShot(attacker="a", location="bow", slot=1, target="b")).state
    out = apply(state, ResolveShot(shot=1, table=TableFaces(pool=[6, 10, 10], slot=[2])))
    assert not out.ok and "re-roll" in out.reason
    wrong = apply(state, ResolveShot(shot=1, table=TableFaces(pool=[6, 10], slot=[2])))
    assert not wrong.ok and "enter 3 faces" in wrong.reason
    bad_face = apply(state, ResolveShot(shot=1, table=TableFaces(pool=[7, 10, 10], slot=[3])))
    assert not bad_face.ok and "DBlue has no face 7" in bad_face.reason


def test_rolled_shots_are_recorded_die_by_die_and_reproducible():
    state = apply(duel(), DeclareShot(attacker="a", location="bow", slot=1, target="b")).state
    first = apply(state, ResolveShot(shot=1))
    second = apply(state, ResolveShot(shot=1))
    assert first.state == second.state
    result = first.state.shots[0].result
    assert [d.colour.label for d in result.pool] == ["DBlue", "DRed", "DRed"]
    assert first.state.roller.counter == state.roller.counter + 3 + len(result.slot_rolls) + len(result.keel_dice)
