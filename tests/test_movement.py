"""Movement steps, MP, enter-before-turn, stacking and the half-hex ring (seed 001, rules-notes 7)."""

from companion.engine.quick_start import apply
from companion.engine.quick_start.actions import EndMove, Place, RollInitiative, SetInitiative, Step
from companion.engine.board import Board
from companion.engine.quick_start.movement import legal_steps
from cards_for_tests import card, engine, filler, gun, location, position, ship


def raven_like(mp=3):
    stern = location([gun(), engine(mp)] + filler()[:4])
    return card("raven", ship_type=1, si=16, enter=1, name="HML Raven", stern=stern)


def pont_like():
    stern = location([gun(), engine(3), engine(3), engine(6)] + filler()[:2])
    return card("pont", ship_type=2, si=20, enter=2, name="Pontbriand", stern=stern)


def moving(*ships, **kw):
    state = position(*ships, board=Board(), phase="movement", **kw)
    return state.model_copy(update={"initiative": state.sides[-1]})


def step(state, ship_id, kind):
    return apply(state, Step(ship=ship_id, step=kind))


def test_forward_costs_one_mp_and_marks_the_ship_moved():
    state = moving(ship("r", "British", raven_like(), "1010", "N"))
    out = step(state, "r", "forward")
    r = out.state.ship("r")
    assert out.ok and r.bow.label() == "1009" and r.mp_spent == 1 and r.moved


def test_raven_enters_one_hex_before_turning():
    state = moving(ship("r", "British", raven_like(), "1010", "N"))
    refused = step(state, "r", "starboard")
    assert not refused.ok and "must enter 1 hex before turning" in refused.reason
    state = step(state, "r", "forward").state
    state = step(state, "r", "starboard").state
    assert state.ship("r").facing == 1
    again = step(state, "r", "starboard")
    assert not again.ok and "only one hexside per hex" in again.reason


def test_pontbriand_enters_two_hexes_before_turning():
    state = moving(ship("p", "French", pont_like(), "1010", "N"))
    state = step(state, "p", "forward").state
    refused = step(state, "p", "port")
    assert not refused.ok and "must enter 2 hexes before turning" in refused.reason
    state = step(state, "p", "forward").state
    assert step(state, "p", "port").ok


def test_no_mp_left_refuses_every_step():
    state = moving(ship("r", "British", raven_like(mp=2), "1010", "N"))
    state = step(state, "r", "forward").state
    state = step(state, "r", "forward").state
    assert legal_steps(state.ship("r"), state.board)["forward"].startswith("HML Raven has no MP left")


def test_destroyed_engine_gives_no_mp_from_the_next_turn():
    r = ship("r", "British", raven_like(mp=3), "1010", "N", damage={("stern", 2): "destroyed"})
    assert r.movement_points == 0
    assert not step(moving(r), "r", "forward").ok


def test_ships_pass_through_but_may_not_end_sharing_a_hex():
    a = ship("r", "British", raven_like(), "1010", "N")
    b = ship("p", "French", pont_like(), "1007", "N")  # holds 1007-1009
    state = moving(a, b)
    state = state.model_copy(update={"initiative": "French"})  # British (loser) moves... Type 2 first
    state = apply(state, EndMove(ship="p")).state
    state = step(state, "r", "forward").state  # into 1009, under the Pontbriand
    refused = apply(state, EndMove(ship="r"))
    assert not refused.ok and "sharing a hex" in refused.reason
    for _ in range(2):
        state = step(state, "r", "forward").state  # through 1008 and 1007... still inside
    assert not apply(state, EndMove(ship="r")).ok


def test_movement_goes_by_type_with_the_initiative_loser_first():
    r = ship("r", "British", raven_like(), "1010", "N")
    h = ship("h", "British", pont_like(), "0515", "N")
    p = ship("p", "French", pont_like(), "2010", "N")
    l = ship("l", "French", raven_like(), "2515", "N")
    state = position(r, h, p, l, phase="initiative")
    state = apply(state, SetInitiative(side="French")).state
    refused = apply(state, Step(ship="p", step="forward"))
    assert not refused.ok and "British's Type 2 ships move now" in refused.reason
    order = []
    for ship_id in ("h", "p", "r", "l"):
        out = apply(state, EndMove(ship=ship_id))
        assert out.ok, out.reason
        state = out.state
        order.append(ship_id)
    assert state.phase == "combat"


def test_ending_a_move_in_the_half_hexes_destroys_the_ship():
    state = moving(ship("r", "British", raven_like(), "1003", "N"))
    state = step(state, "r", "forward").state  # bow now in row 2
    state = step(state, "r", "forward").state  # bow in row 1: the half-hex ring
    out = apply(state, EndMove(ship="r"))
    assert out.ok and out.state.ship("r").removed and out.state.ship("r").left_board


def test_stepping_off_the_board_is_refused():
    state = moving(ship("r", "British", raven_like(), "1001", "N"))
    out = step(state, "r", "forward")
    assert not out.ok and "leave the board" in out.reason


def test_place_at_accepts_the_table_position_and_records_moved():
    state = moving(ship("r", "British", raven_like(), "1010", "N"))
    out = apply(state, Place(ship="r", bow="1206", facing="SE", moved=True))
    r = out.state.ship("r")
    assert out.ok and r.bow.label() == "1206" and r.facing == 2 and r.moved
    off = apply(state, Place(ship="r", bow="4006", facing="N"))
    assert not off.ok and "off the board" in off.reason


def test_bookkeeping_mode_warns_instead_of_refusing():
    from companion.engine.quick_start.actions import SetBookkeeping
    state = moving(ship("r", "British", raven_like(), "1010", "N"))
    state = apply(state, SetBookkeeping(on=True)).state
    out = step(state, "r", "starboard")
    assert out.ok and out.state.ship("r").facing == 1
    assert any(e.kind == "warning" and "enter 1 hex" in e.text for e in out.events)


def test_initiative_ties_are_rolled_again_with_table_dice():
    state = position(ship("a", "A", raven_like(), "1010"), ship("b", "B", raven_like(), "2010"), phase="initiative")
    tie = apply(state, RollInitiative(faces={"A": [5, 5], "B": [4, 6]}))
    assert tie.ok and tie.state.phase == "initiative" and tie.state.initiative is None
    won = apply(tie.state, RollInitiative(faces={"A": [10, 9], "B": [1, 2]}))
    assert won.state.initiative == "A" and won.state.phase == "movement"
    bad = apply(state, RollInitiative(faces={"A": [11, 1], "B": [1, 2]}))
    assert not bad.ok and "DRed has no face 11" in bad.reason


def test_rolled_initiative_never_ties_and_is_recorded():
    state = position(ship("a", "A", raven_like(), "1010"), ship("b", "B", raven_like(), "2010"), phase="initiative")
    out = apply(state, RollInitiative())
    assert out.state.initiative in ("A", "B")
    rolls = out.state.initiative_rolls
    assert rolls[0].total != rolls[1].total
    assert out.state.roller.counter >= 4


def test_deployment_within_four_hexes_of_an_edge_opposite_the_enemy():
    from companion.engine.quick_start.actions import StartGame
    a = ship("a", "British", raven_like(), "1010", "N")
    b = ship("b", "French", raven_like(), "1012", "N")
    state = position(a, b, phase="setup")
    centre = apply(state, Place(ship="a", bow="1010", facing="N"))
    assert not centre.ok and "within 4 hexes of a map edge" in centre.reason
    state = apply(state, Place(ship="a", bow="1004", facing="S")).state  # rows 4 and 3: north edge
    same_edge = apply(state, Place(ship="b", bow="2004", facing="S"))
    assert not same_edge.ok and "opposite the enemy" in same_edge.reason
    state = apply(state, Place(ship="b", bow="2016", facing="N")).state  # rows 16-17: south edge
    started = apply(state, StartGame())
    assert started.ok and started.state.phase == "initiative"
