"""Every worked example of the Quick-Start rules (seed 001), one test each."""

from companion.engine.quick_start import apply
from companion.engine.quick_start.actions import DeclareShot, ResolveShot, TableFaces
from companion.engine.board import Board
from companion.engine.quick_start.combat import arc_and_range, firing_solution, struck_locations, weapon_hex
from companion.engine.dice import parse_pool
from companion.engine.footprint import Placement
from companion.engine.hexes import Hex
from companion.engine.quick_start.state import SlotStatus
from cards_for_tests import (
    armor, card, crew, engine, filler, gun, location, other, position, ship, tesla,
)

PONTBRIAND_138MM = gun("138mm", short=(6, "DYellow"), long=(12, "DBlue"), breach=12)
PONTBRIAND_65MM = gun("65mm", short=(3, "DBlue"), long=(6, "DGreen"), breach=11)


def pontbriand():
    """Pontbriand as far as seed 001 states it: SI 20, MP 3 + 3 + 6, port dice DBlack / 2DRed."""
    return card(
        "pontbriand", ship_type=2, si=20, enter=2, name="Pontbriand",
        bow=location([PONTBRIAND_138MM, crew("DGreen", 12), engine(3, 13), other(12), other(13), other(14)]),
        port=location([PONTBRIAND_65MM, PONTBRIAND_65MM, PONTBRIAND_65MM, PONTBRIAND_65MM,
                       engine(3, 13), other(14)], go="DBlack", stop="2DRed"),
        starboard=location([PONTBRIAND_65MM] * 4 + [tesla(13), other(14)]),
        stern=location([PONTBRIAND_138MM, engine(6, 12), other(13), other(14), other(15), other(12)]),
    )


def hertfordshire(crew_breach=12):
    port = location([gun("3 IN", breach=11), armor(1, 12), gun("5 IN", (5, "DBlue"), (10, "DGreen"), 13),
                     gun("3 IN", breach=15), armor(1, 16), crew("DGreen", 15)])
    bow = location([gun("6 IN", (6, "DYellow"), (12, "DBlue"), 12), crew("DGreen", crew_breach)] + filler()[:4])
    return card("hertfordshire", ship_type=2, si=20, name="HML Hertfordshire", bow=bow, port=port)


def raven():
    bow = location([gun("3 IN", (4, "DBlue"), (8, "DGreen"), 11), crew("DGreen", 12)] + filler()[:4])
    return card("raven", ship_type=1, si=16, enter=1, name="HML Raven", bow=bow)


def test_pontbriand_138mm_6_12_hex_bands():
    """'6/12 Hex': 1-6 hexes roll DYellow, 7-12 roll DBlue, beyond 12 no attack (p. 16)."""
    gun_slot = pontbriand().locations["bow"].slot(1)
    assert [gun_slot.band(r) for r in (1, 6, 7, 12, 13)] == ["short", "short", "long", "long", "out"]
    assert gun_slot.short.pool == parse_pool("DYellow") and gun_slot.long.pool == parse_pool("DBlue")
    # and on the map: a target straight ahead of the bow at 6, 7, 12 and 13 hexes
    board = Board(columns=30, rows=40)
    for distance, band, dice in ((6, "short", "DYellow"), (7, "long", "DBlue"), (12, "long", "DBlue"), (13, "out", None)):
        attacker = ship("pont", "French", pontbriand(), "1530", "N")
        target_bow = attacker.bow
        for _ in range(distance + 1):
            target_bow = target_bow.neighbour(0)  # its stern ends `distance` hexes ahead
        target = ship("t", "British", raven(), board.label(target_bow), "N")
        solution = firing_solution(attacker, "bow", 1, target)
        assert (solution.range, solution.band) == (distance, band)
        if dice:
            assert solution.strikes[0].pool[0].label == dice


def test_raven_3in_4_8_hex_bands():
    """The Raven's 3 IN: 4 hexes away rolls DBlue; 5 to 8 hexes would roll DGreen (p. 21)."""
    gun_slot = raven().locations["bow"].slot(1)
    assert gun_slot.band(4) == "short" and gun_slot.band(5) == "long"
    assert gun_slot.band(8) == "long" and gun_slot.band(9) == "out"


def test_hertfordshire_port_breach_numbers_with_both_armour():
    """Printed 11 12 13 15 16 15; both +1 armour slots working: 13 14 15 17 18 17 (p. 19)."""
    herts = ship("h", "British", hertfordshire(), "1010")
    assert herts.breach_numbers("port") == [13, 14, 15, 17, 18, 17]


def test_hertfordshire_port_breach_numbers_with_one_armour():
    """Once the first armour slot is destroyed: 12 13 14 16 17 16."""
    herts = ship("h", "British", hertfordshire(), "1010", damage={("port", 2): "destroyed"})
    assert herts.breach_numbers("port") == [12, 13, 14, 16, 17, 16]


def test_hertfordshire_port_breach_numbers_with_no_armour():
    herts = ship("h", "British", hertfordshire(), "1010",
                 damage={("port", 2): "destroyed", ("port", 5): "destroyed"})
    assert herts.breach_numbers("port") == [11, 12, 13, 15, 16, 15]


def test_armour_destroyed_this_turn_still_counts():
    """Damage takes effect at the end of the turn: a circled armour slot still works."""
    herts = ship("h", "British", hertfordshire(), "1010", damage={("port", 2): "destroyed_this_turn"})
    assert herts.breach_numbers("port") == [13, 14, 15, 17, 18, 17]


def test_pontbriand_mp_12_drops_to_6():
    """Engines 3 + 3 + 6 = 12; after the MP 6 engine is destroyed: 6 (p. 20)."""
    card_ = pontbriand()
    assert card_.starting_mp == 12
    fresh = ship("p", "French", card_, "1010")
    assert fresh.movement_points == 12
    circled = fresh.with_status("stern", 2, SlotStatus.DESTROYED_THIS_TURN)
    assert circled.movement_points == 12  # its MP were already spent this turn
    hashed = fresh.with_status("stern", 2, SlotStatus.DESTROYED)
    assert hashed.movement_points == 6


def test_four_tesla_coils_give_minus_4():
    """Four destroyed Tesla Coil Trim Tanks: -4 on every Gun Battery breach roll (p. 20)."""
    coils = location([tesla(), tesla(), tesla(), tesla(), gun(), other()])
    attacker_card = card("coiled", ship_type=2, bow=coils)
    attacker = ship("a", "A", attacker_card, "1010", "N",
                    damage={("bow", n): "destroyed" for n in (1, 2, 3, 4)})
    assert attacker.tesla_modifier == -4
    circled = ship("a", "A", attacker_card, "1010", "N",
                   damage={("bow", n): "destroyed_this_turn" for n in (1, 2, 3, 4)})
    assert circled.tesla_modifier == 0  # only from the following turn
    target = ship("t", "B", raven(), "1006", "S")
    solution = firing_solution(attacker, "bow", 5, target)
    assert solution.strikes and all(s.modifier == -4 for s in solution.strikes)


def _john_table():
    """John's ships (p. 21-22): Hertfordshire at range 8 and Raven at range 4, both on the Pontbriand's port.

    The Pontbriand has three destroyed slots outside its port location and
    entered a new hex this turn; the Hertfordshire's bow crew slot was
    destroyed in an earlier turn.
    """
    pont = ship("pontbriand", "French", pontbriand(), "2010", "N", moved=True, damage={
        ("bow", 4): "destroyed", ("starboard", 6): "destroyed", ("stern", 3): "destroyed_this_turn"})
    herts = ship("hertfordshire", "British", hertfordshire(), "1210", "NE",
                 damage={("bow", 2): "destroyed"})
    rav = ship("raven", "British", raven(), "1611", "NE")
    return position(herts, rav, pont)


def test_john_hertfordshire_shot():
    """Crew destroyed, range 8: DBlue & DBlack; 4 + 7 = 11 against slot 1's breach 11: destroyed."""
    state = _john_table()
    herts, pont = state.ship("hertfordshire"), state.ship("pontbriand")
    solution = firing_solution(herts, "bow", 1, pont)
    assert (solution.in_arc, solution.range, solution.band) == (True, 8, "long")
    assert [s.location for s in solution.strikes] == ["port"]
    assert solution.strikes[0].pool.expanded == "DBlue & DBlack"  # no DGreen: crew destroyed
    state = apply(state, DeclareShot(attacker="hertfordshire", location="bow", slot=1, target="pontbriand")).state
    outcome = apply(state, ResolveShot(shot=1, table=TableFaces(pool=[4, 7], slot=[1])))
    assert outcome.ok
    result = outcome.state.shots[0].result
    assert (result.total, result.outcome, result.slot) == (11, "slot_destroyed", 1)
    assert outcome.state.ship("pontbriand").status("port", 1) is SlotStatus.DESTROYED_THIS_TURN


def test_john_raven_shot_and_keel_roll():
    """DGreen 4 + DBlue 3 + DBlack 4 = 11; slot 1 again: keel roll 16 + 3 + 2 = 21 against SI 20."""
    state = _john_table()
    for attacker in ("hertfordshire", "raven"):
        state = apply(state, DeclareShot(attacker=attacker, location="bow", slot=1, target="pontbriand")).state
    state = apply(state, ResolveShot(shot=1, table=TableFaces(pool=[4, 7], slot=[1]))).state
    raven_solution = firing_solution(state.ship("raven"), "bow", 1, state.ship("pontbriand"))
    assert (raven_solution.range, raven_solution.band) == (4, "short")
    assert raven_solution.strikes[0].pool.expanded == "DBlue & DGreen & DBlack"
    pont = state.ship("pontbriand")
    assert pont.destroyed_count() == 4 and pont.destroyed_count("port") == 1
    outcome = apply(state, ResolveShot(shot=2, table=TableFaces(pool=[3, 4, 4], slot=[1, 1], keel=[8, 8])))
    assert outcome.ok, outcome
    result = outcome.state.shots[1].result
    assert result.total == 11 and result.slot_rolls == [1, 1]
    assert sum(d.face for d in result.keel_dice) == 16
    assert result.outcome == "keel_break"
    assert "16 + 5 = 21 against SI 20" in result.text
    assert outcome.state.ship("pontbriand").keel_broken


def test_keel_holds_below_si():
    """The same critical with 2DRed 14: 14 + 5 = 19 < SI 20, the keel holds."""
    state = _john_table()
    for attacker in ("hertfordshire", "raven"):
        state = apply(state, DeclareShot(attacker=attacker, location="bow", slot=1, target="pontbriand")).state
    state = apply(state, ResolveShot(shot=1, table=TableFaces(pool=[4, 7], slot=[1]))).state
    outcome = apply(state, ResolveShot(shot=2, table=TableFaces(pool=[3, 4, 4], slot=[1, 1], keel=[7, 7])))
    assert outcome.state.shots[1].result.outcome == "no_effect"
    assert not outcome.state.ship("pontbriand").keel_broken


def test_si_20_means_10_destroyed_slots_destroy_the_ship():
    """Pontbriand SI 20: 10 or more destroyed slots and the ship is destroyed (p. 23)."""
    slots = [(loc, n) for loc in ("bow", "port", "starboard", "stern") for n in (1, 2, 3)]
    nine = ship("p", "French", pontbriand(), "1010", damage={s: "destroyed" for s in slots[:9]})
    assert nine.destroyed_count() == 9 and nine.destruction is None
    ten = ship("p", "French", pontbriand(), "1010", damage={s: "destroyed" for s in slots[:10]})
    assert ten.destruction == "10 destroyed slots reach half its SI 20"


def test_location_with_every_slot_destroyed_destroys_the_ship_miss_slots_counting():
    bow = location([gun(), crew(), other(), other(), {"kind": "miss"}, {"kind": "miss"}])
    target = ship("d", "A", card("d", ship_type=1, si=30, bow=bow), "1010",
                  damage={("bow", n): "destroyed" for n in (1, 2, 3, 4)})
    assert target.destruction == "every slot of its bow is destroyed"


def test_type_1_pivot_on_bow():
    """A Type 1 ship occupies 2 hexes and pivots on the front hex (p. 11)."""
    placement = Placement(Hex.at(10, 10), 0, 1)
    turned = placement.turned(+1)
    assert turned.bow == placement.bow and turned.facing == 1
    assert turned.hexes[1] == placement.bow.neighbour(4)  # stern swings to the SW


def test_type_2_pivot_on_centre():
    """A Type 2 ship occupies 3 hexes and pivots on the middle hex (p. 11)."""
    placement = Placement(Hex.at(10, 10), 0, 2)
    centre = placement.hexes[1]
    turned = placement.turned(-1)
    assert turned.hexes[1] == centre and turned.facing == 5
    assert turned.bow == centre.neighbour(5) and turned.hexes[2] == centre.neighbour(2)
