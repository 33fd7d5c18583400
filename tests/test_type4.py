"""Type 4 ships (battleships): four hexes, six locations (rules-notes 3 and 4).

A Type 4 ship is bow, mid-fore, mid-aft and stern hexes; its bow weapons fire
from the bow hex, its fore sides (port bow, starboard bow) from the mid-fore
hex, its aft sides (port quarter, starboard quarter) from the mid-aft hex and
its stern weapons from the stern hex; it pivots on the mid-fore hex.  The side
arcs split at the beam: +30..+90 and +90..+150 degrees for the starboard bow
and quarter, mirrored for port.  Every test runs in all six facings, and the
port side is the starboard side mirrored.
"""

from __future__ import annotations

import json

import pytest

from companion.commands import main
from companion.engine.arcs import in_wedge, wedge_for
from companion.engine.quick_start.combat import arc_and_range, firing_solution, struck_locations, weapon_hex
from companion.engine.footprint import Placement
from companion.engine.hexes import Hex
from companion.files import load_catalogue
from cards_for_tests import position, ship

FACINGS = range(6)
LOCATIONS = ("bow", "starboard_bow", "starboard_quarter", "stern", "port_quarter", "port_bow")
#: Index of the hex each location fires from, and the hex direction (relative to the
#: facing) of a ray from it that lies inside the location's arc (0 = dead ahead).
ORIGIN = {"bow": 0, "starboard_bow": 1, "starboard_quarter": 2, "stern": 3, "port_quarter": 2, "port_bow": 1}
AHEAD_IN_ARC = {"bow": 0, "starboard_bow": 1, "starboard_quarter": 2, "stern": 3, "port_quarter": 4, "port_bow": 5}
BOW = Hex(15, 15)


@pytest.fixture(scope="module")
def cards():
    return load_catalogue()


def battleship(cards, ship_id, side, card_id, facing):
    """A Type 4 ship with its bow hex at BOW."""
    the_card = cards[card_id]
    assert the_card.type == 4
    return ship(ship_id, side, the_card, label(BOW), facing)


def label(cell: Hex) -> str:
    return f"{cell.column:02d}{cell.row:02d}"


def hexes_of(placement: Placement) -> dict[str, Hex]:
    return {loc: placement.hexes[ORIGIN[loc]] for loc in LOCATIONS}


def turned(offset: Hex, facing: int, port: bool = False) -> Hex:
    """An offset written for a ship facing N (starboard side), turned to `facing`
    (mirrored to the port side first when `port`)."""
    return (offset.mirrored() if port else offset).rotated(facing)


# --- footprint -------------------------------------------------------------------------


@pytest.mark.parametrize("facing", FACINGS)
def test_four_hexes_side_weapons_in_mid_fore_and_mid_aft_pivot_on_mid_fore(cards, facing):
    leviathan = battleship(cards, "lev", "British", "hml-leviathan-2025", facing)
    bow, mid_fore, mid_aft, stern = leviathan.hexes
    back = (facing + 3) % 6
    assert (mid_fore, mid_aft, stern) == (bow.neighbour(back), bow.neighbour(back).neighbour(back),
                                          bow.neighbour(back).neighbour(back).neighbour(back))
    assert weapon_hex(leviathan, "bow") == bow and weapon_hex(leviathan, "stern") == stern
    assert weapon_hex(leviathan, "port_bow") == weapon_hex(leviathan, "starboard_bow") == mid_fore
    assert weapon_hex(leviathan, "port_quarter") == weapon_hex(leviathan, "starboard_quarter") == mid_aft
    for hexsides in (+1, -1):
        after = leviathan.placement.turned(hexsides)
        assert after.hexes[1] == mid_fore and after.facing == (facing + hexsides) % 6


# --- firing arcs and range: every location of a Type 4 attacker ----------------------------


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("location", LOCATIONS)
def test_every_location_of_a_type_4_fires_into_its_own_arc(cards, facing, location):
    """A Type 1 target four hexes out along a ray inside the location's arc (its stern three
    hexes away, pointing away): in arc at range 3, short band, striking the target's stern."""
    attacker = battleship(cards, "kam", "Russian", "kamchatka-2025", facing)
    direction = (facing + AHEAD_IN_ARC[location]) % 6
    origin = attacker.hexes[ORIGIN[location]]
    target_bow = origin
    for _ in range(4):
        target_bow = target_bow.neighbour(direction)
    target = ship("raven", "British", cards["hml-raven"], label(target_bow), direction)
    assert arc_and_range(attacker, location, target) == (True, 3)
    guns = [n for n, s in enumerate(attacker.card.locations[location].slots, 1) if s.kind == "gun"]
    assert guns, f"the Kamchatka has a gun in its {location}"
    solution = firing_solution(attacker, location, guns[0], target)
    assert solution.band == "short" and [s.location for s in solution.strikes] == ["stern"]
    # The opposite side's arc never holds it.
    opposite = {"bow": "stern", "stern": "bow", "starboard_bow": "port_bow", "port_bow": "starboard_bow",
                "starboard_quarter": "port_quarter", "port_quarter": "starboard_quarter"}[location]
    assert arc_and_range(attacker, opposite, target) == (False, None)


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("port", [False, True], ids=["starboard", "port"])
def test_the_beam_spines_of_the_side_arcs(facing, port):
    """The bow side arc ends at the beam spine of the mid-fore hex, the quarter arc starts at
    the beam spine of the mid-aft hex.  A hex the mid-fore's beam spine cuts in half is in the
    bow side arc only; one the mid-aft's cuts is in the quarter arc only; a hex between the two
    spines (its corners on both) is in neither side arc (it is in none of their interiors)."""
    side = "port" if port else "starboard"
    placement = Placement(BOW, facing, 4)
    mid_fore, mid_aft = placement.hexes[1], placement.hexes[2]
    fore, quarter = wedge_for(f"{side}_bow", facing), wedge_for(f"{side}_quarter", facing)
    for k in (1, 2, 5):
        on_fore_spine = mid_fore + turned(Hex(2 * k, -k), facing, port)
        on_aft_spine = mid_aft + turned(Hex(2 * k, -k), facing, port)
        between = mid_fore + turned(Hex(2 * k - 1, 1 - k), facing, port)
        assert (in_wedge(mid_fore, on_fore_spine, fore), in_wedge(mid_aft, on_fore_spine, quarter)) == (True, False)
        assert (in_wedge(mid_fore, on_aft_spine, fore), in_wedge(mid_aft, on_aft_spine, quarter)) == (False, True)
        assert (in_wedge(mid_fore, between, fore), in_wedge(mid_aft, between, quarter)) == (False, False)


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("port", [False, True], ids=["starboard", "port"])
def test_a_hex_on_a_spine_of_one_origin_is_in_both_arcs(facing, port):
    """From one hex, a hex cut in half by a spine is in both wedges the spine divides
    (rules-notes 4): the bow's 30-degree spine, and the mid-fore's beam spine."""
    side = "port" if port else "starboard"
    placement = Placement(BOW, facing, 4)
    bow, mid_fore = placement.hexes[0], placement.hexes[1]
    on_bow_spine = bow + turned(Hex(2, -4), facing, port)  # centre on the 30-degree ray from the bow hex
    assert in_wedge(bow, on_bow_spine, wedge_for("bow", facing))
    assert in_wedge(bow, on_bow_spine, wedge_for(side, facing))  # the Types 1-3 side wedge from that hex
    on_beam = mid_fore + turned(Hex(4, -2), facing, port)
    assert in_wedge(mid_fore, on_beam, wedge_for(f"{side}_bow", facing))
    assert in_wedge(mid_fore, on_beam, (wedge_for(f"{side}_quarter", facing)))


# --- damage arcs: every location of a Type 4 target ---------------------------------------------


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("location", LOCATIONS)
def test_every_location_of_a_type_4_target_can_be_struck(cards, facing, location):
    """A Type 1 attacker four hexes out along a ray inside the location's damage arc, facing the
    target: its bow gun fires, and the shot strikes that location and no other."""
    target = battleship(cards, "lev", "British", "hml-leviathan-2025", facing)
    direction = (facing + AHEAD_IN_ARC[location]) % 6
    spot = target.hexes[ORIGIN[location]]
    for _ in range(4):
        spot = spot.neighbour(direction)
    attacker = ship("pelletier", "French", cards["pelletier"], label(spot), (direction + 3) % 6)
    assert struck_locations(target, spot) == [location]
    gun = next(n for n, s in enumerate(attacker.card.locations["bow"].slots, 1) if s.kind == "gun")
    solution = firing_solution(attacker, "bow", gun, target)
    assert solution.band == "short" and [s.location for s in solution.strikes] == [location]
    assert solution.strikes[0].odds.any_damage > 0


@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("port", [False, True], ids=["starboard", "port"])
def test_damage_on_each_side_of_the_beam(facing, port):
    """Weapon hexes on the mid-fore's beam spine strike the bow side location, on the
    mid-aft's the quarter; between the two spines no damage arc holds the hex, and the wedges
    drawn from the pivot (the mid-fore hex) decide: the quarter (rules-notes 4; the reading is
    in docs/rule-readings.md)."""
    side = "port" if port else "starboard"
    cards = load_catalogue()
    target = ship("lev", "British", cards["hml-leviathan-2025"], label(BOW), facing)
    mid_fore, mid_aft = target.hexes[1], target.hexes[2]
    for k in (1, 3):
        assert struck_locations(target, mid_fore + turned(Hex(2 * k, -k), facing, port)) == [f"{side}_bow"]
        assert struck_locations(target, mid_aft + turned(Hex(2 * k, -k), facing, port)) == [f"{side}_quarter"]
        between = mid_fore + turned(Hex(2 * k - 1, 1 - k), facing, port)
        assert struck_locations(target, between) == [f"{side}_quarter"]


# --- companion solutions with two Type 4 ships ------------------------------------------------


def test_companion_solutions_type_4_against_type_4(tmp_path, capsys, cards):
    """The Kamchatka (facing N) with the HML Leviathan abeam to starboard, facing S: the
    Kamchatka's starboard side guns reach it, its port guns do not."""
    scenario = {"format": "leviathans-scenario/1", "ruleset": "quick-start", "board": {"columns": 33, "rows": 19},
                "turn": 1, "ships": [
                    {"id": "kamchatka", "side": "Russian", "card": "kamchatka-2025", "bow": "1008", "facing": "N"},
                    {"id": "leviathan", "side": "British", "card": "hml-leviathan-2025", "bow": "1614",
                     "facing": "S"}]}
    path = tmp_path / "type4.json"
    path.write_text(json.dumps(scenario))
    assert main(["solutions", str(path), "--attacker", "kamchatka", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    by_location = {}
    for entry in out:
        by_location.setdefault(entry["weapon"]["location"], []).append(entry)
    assert set(by_location) == set(LOCATIONS)
    assert all(not e["locations"] for loc in ("port_bow", "port_quarter") for e in by_location[loc])
    fired = [e for loc in ("starboard_bow", "starboard_quarter") for e in by_location[loc] if e["locations"]]
    assert fired, "the starboard side guns reach the Leviathan"
    struck = {s["location"] for e in fired for s in e["locations"]}
    assert struck <= {"starboard_bow", "starboard_quarter", "bow", "stern", "port_bow", "port_quarter"}
    for e in fired:
        for s in e["locations"]:
            total = sum(map(_fraction, s["slot_destroyed"].values())) + _fraction(s["no_effect"]) + \
                _fraction(s["keel_break"])
            assert total == 1
    assert main(["solutions", str(path), "--attacker", "leviathan"]) == 0
    assert "HML Leviathan" in capsys.readouterr().out


def _fraction(text):
    from fractions import Fraction
    return Fraction(text)
