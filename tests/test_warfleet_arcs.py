"""War Fleet arcs, turret arcs, range and the struck location (seed 004 "Firing Arcs";
seed 000 "Aim For the Big One!", "Mechanic's Primer on Turrets"; rules-notes 9)."""

from __future__ import annotations

import pytest

from companion.engine.arcs import ARC_DEGREES, in_wedge, range_in_wedge, wedge_for
from companion.engine.hexes import Hex
from companion.engine.war_fleet.arcs import (
    TURRET_DEGREES, in_degrees, in_firing_arc, offset_in_degrees, struck_locations, turret_degrees,
    war_fleet_range,
)
from companion.engine.war_fleet.stats import FOUR_LOCATIONS, SIX_LOCATIONS

O = Hex(0, 0)
GRID = [Hex(q, r) for q in range(-7, 8) for r in range(-7, 8) if Hex(q, r) != O and Hex(q, r).distance() <= 7]


def rotate(cell: Hex, facing: int) -> Hex:
    return cell.rotated(facing)


@pytest.mark.parametrize("location", sorted(ARC_DEGREES))
def test_the_degree_arcs_agree_with_the_quick_start_wedges(location):
    """The turret arcs use 30-degree cones; on the Quick-Start wedges they give the same hexes."""
    start, end = ARC_DEGREES[location]
    for facing in range(6):
        for cell in GRID:
            assert in_degrees(O, cell, start, end, facing) == in_wedge(O, cell, wedge_for(location, facing)), (cell, facing)


def test_arcs_are_the_quick_start_wedges_from_the_one_hex():
    """'Simply use the arcs provided Leviathans ... but shrunk down to one hex.'"""
    for location in FOUR_LOCATIONS:
        for facing in range(6):
            for cell in GRID:
                expected = in_wedge(O, cell, wedge_for(location, facing))
                assert (in_firing_arc(O, facing, location, cell) == "arc") == expected


def test_a_bow_turret_reaches_both_side_arcs_but_not_the_stern_arc():
    """'turret arcs ... extend into the appropriate adjacent arc.'"""
    for facing in range(6):
        for cell in GRID:
            sides = any(in_wedge(O, cell, wedge_for(n, facing)) for n in ("port", "bow", "starboard"))
            assert (in_firing_arc(O, facing, "bow", cell, turret=True) is not None) == sides
    astern = Hex(0, 3)  # three hexes dead astern of a ship facing north
    assert in_firing_arc(O, 0, "bow", astern, turret=True) is None
    assert in_firing_arc(O, 0, "stern", astern, turret=True) == "arc"


def test_a_side_turret_never_fires_past_the_centre_line():
    """'Side turrets ... cannot exceed 180 degrees, or the line of hexes that bisects the ship down
    its center from front to rear.'  Facing north, the starboard turret reaches every hex with any
    part east of the centre line: the columns q >= 0 (the centre-line column itself, cut in half,
    is in both side turrets' arcs); the port turret the mirror image."""
    for facing in range(6):
        for cell in GRID:
            north_up = cell.rotated(-facing)  # the same hex as seen from a ship facing north
            starboard = in_firing_arc(O, facing, "starboard", cell, turret=True) is not None
            port = in_firing_arc(O, facing, "port", cell, turret=True) is not None
            assert starboard == (north_up.q >= 0), (cell, facing)
            assert port == (north_up.q <= 0), (cell, facing)


def test_a_side_turret_reaches_into_the_bow_and_stern_arcs_only_on_its_own_side():
    ahead_starboard = Hex(1, -3)   # in the bow arc, east of the centre line
    ahead_port = Hex(-1, -2)       # in the bow arc, west of it
    assert in_wedge(O, ahead_starboard, wedge_for("bow", 0)) and in_wedge(O, ahead_port, wedge_for("bow", 0))
    assert in_firing_arc(O, 0, "starboard", ahead_starboard) is None
    assert in_firing_arc(O, 0, "starboard", ahead_starboard, turret=True) == "turret"
    assert in_firing_arc(O, 0, "starboard", ahead_port, turret=True) is None


def test_type_4_turrets_reach_their_neighbouring_arcs():
    assert turret_degrees("bow", SIX_LOCATIONS) == (-90, 90)
    assert turret_degrees("stern", SIX_LOCATIONS) == (90, 270)
    assert turret_degrees("starboard_bow", SIX_LOCATIONS) == (0, 150)
    assert turret_degrees("port_quarter", SIX_LOCATIONS) == (180, 330)
    assert turret_degrees("bow", FOUR_LOCATIONS) == TURRET_DEGREES["bow"] == (-150, 150)


def test_range_is_the_hex_distance_which_is_the_in_arc_chain():
    """rules-notes 5 counts the chain of hexes inside the arc; at War Fleet scale, from one hex,
    that chain is never longer than the hex distance, so the two agree."""
    for location in ARC_DEGREES:
        for facing in range(6):
            wedge = wedge_for(location, facing)
            for cell in GRID:
                chain = range_in_wedge(O, cell, wedge)
                if chain is not None:
                    assert chain == war_fleet_range(O, cell)


def test_range_0_in_one_hex_is_point_blank():
    """'there is no stacking limit in War Fleet, so a range of 0, or point blank, is possible.'"""
    assert war_fleet_range(O, O) == 0
    for location in FOUR_LOCATIONS:
        assert in_firing_arc(O, 0, location, O) == "point blank"


def test_the_struck_location_is_the_one_whose_arc_holds_the_attacker():
    """'The standard, arc of a location that can attack the attacker's ship is the location that
    will be hit.'  A target facing north with the attacker dead ahead: its bow."""
    assert struck_locations(O, 0, FOUR_LOCATIONS, Hex(0, -2)) == ["bow"]
    assert struck_locations(O, 0, FOUR_LOCATIONS, Hex(3, 0)) == ["starboard"]
    assert struck_locations(O, 3, FOUR_LOCATIONS, Hex(0, -2)) == ["stern"]


def test_on_a_spine_the_attacker_picks_and_in_one_hex_any_location():
    on_spine = Hex(1, -2)  # cut in half by the bow/starboard spine of a ship facing north
    assert struck_locations(O, 0, FOUR_LOCATIONS, on_spine) == ["bow", "starboard"]
    assert struck_locations(O, 0, FOUR_LOCATIONS, O) == list(FOUR_LOCATIONS)


def test_every_hex_around_a_target_can_strike_some_location():
    for names in (FOUR_LOCATIONS, SIX_LOCATIONS):
        for facing in range(6):
            for cell in GRID:
                assert struck_locations(O, facing, names, cell)


def test_offset_in_degrees_refuses_arcs_not_on_30_degree_lines():
    with pytest.raises(ValueError, match="multiples of 30"):
        offset_in_degrees(1, 0, 0, 45)
