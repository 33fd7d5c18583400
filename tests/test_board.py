"""Map coordinates, footprints and exact arcs (rules-notes 2-5)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from companion.engine.arcs import ARC_DEGREES, CORNERS, offset_in_wedge, range_in_wedge, wedge_for
from companion.engine.board import Board, deployment_edges
from companion.engine.footprint import LOCATION_HEX, Placement
from companion.engine.hexes import Hex, PositionError, parse_facing, parse_label

hexes = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))


def test_labels_are_column_then_row_and_even_columns_sit_lower():
    a, b = parse_label("0101"), parse_label("0201")
    assert a.neighbour(2) == b  # column 2 row 1 is south-east of column 1 row 1
    assert parse_label("0301").neighbour(4) == b  # and south-west of column 3 row 1
    assert parse_label("0812").neighbour(0) == parse_label("0811")
    assert Hex.at(8, 12).label() == "0812"


@given(st.integers(1, 120), st.integers(1, 120))
def test_label_round_trip(column, row):
    cell = Hex.at(column, row)
    assert (cell.column, cell.row) == (column, row)
    board = Board(columns=120, rows=120)
    assert board.parse(board.label(cell)) == cell


@given(hexes, hexes)
def test_distance_is_symmetric_and_six_rotations_return_the_start(a, b):
    assert a.distance(b) == b.distance(a)
    assert a.rotated(6) == a and a.rotated(1).rotated(5) == a
    assert a.rotated(1).distance() == a.distance()
    assert a.mirrored().mirrored() == a


def test_facings_read_names_and_numbers():
    assert [parse_facing(x) for x in ("N", "ne", "SE", "s", "SW", "nw", 3, "5")] == [0, 1, 2, 3, 4, 5, 3, 5]
    with pytest.raises(PositionError):
        parse_facing("E")


def test_bad_labels_and_hexes_off_the_board_are_plain_errors():
    board = Board()
    with pytest.raises(PositionError, match="off the board"):
        board.parse("3412")
    with pytest.raises(PositionError, match="not a hex label"):
        board.parse("12a4")
    with pytest.raises(PositionError, match="start at 01"):
        board.parse("0012")


def test_half_hex_ring_and_deployment_zone():
    board = Board()
    assert board.in_half_hex_ring(Hex.at(1, 5)) and board.in_half_hex_ring(Hex.at(33, 5))
    assert board.in_half_hex_ring(Hex.at(10, 19)) and not board.in_half_hex_ring(Hex.at(2, 2))
    north = Placement(Hex.at(10, 2), 3, 2)  # facing S, hexes in rows 2, 1 -> touches the ring
    assert deployment_edges(board, north.hexes) == set()
    assert deployment_edges(board, Placement(Hex.at(10, 3), 0, 2).hexes) == {"north"}  # rows 3-5
    assert deployment_edges(board, Placement(Hex.at(10, 6), 0, 2).hexes) == set()  # rows 6-8


def test_footprints_trail_behind_the_bow():
    for ship_type, count in ((1, 2), (2, 3), (3, 3), (4, 4)):
        placement = Placement(Hex(0, 0), 1, ship_type)
        assert len(placement.hexes) == count
        assert placement.hexes[1] == Hex(0, 0).neighbour(4)
        assert set(LOCATION_HEX[ship_type]) == set(placement_locations(placement))


def placement_locations(placement):
    return [loc for loc in LOCATION_HEX[placement.ship_type] if placement.location_hex(loc)]


def test_each_neighbour_is_in_exactly_one_quick_start_arc():
    for facing in range(6):
        for d in range(6):
            cell = Hex(0, 0).neighbour(d)
            arcs = [loc for loc in ("bow", "starboard", "stern", "port")
                    if offset_in_wedge(cell.q, cell.r, *wedge_for(loc, facing))]
            assert len(arcs) == 1


def test_origin_hex_is_in_none_of_its_own_arcs():
    assert not any(offset_in_wedge(0, 0, *wedge_for(loc, 0)) for loc in ARC_DEGREES)


def test_a_hex_a_spine_cuts_in_half_is_in_both_arcs():
    # The bow/starboard spine of a north-facing hex runs through the centre of (1, -2).
    assert offset_in_wedge(1, -2, *wedge_for("bow", 0))
    assert offset_in_wedge(1, -2, *wedge_for("starboard", 0))
    assert not offset_in_wedge(1, -2, *wedge_for("port", 0))
    # ...while (1, -1) and (0, -1) only touch it along an edge: one arc each.
    assert not offset_in_wedge(1, -1, *wedge_for("bow", 0))
    assert not offset_in_wedge(0, -1, *wedge_for("starboard", 0))


def _clip_area(polygon, a, b):
    """Area of the polygon's part on the inner side (cross > 0) of line a->b, exactly."""
    def side(p):
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    out = []
    for i, p in enumerate(polygon):
        q = polygon[(i + 1) % len(polygon)]
        sp, sq = side(p), side(q)
        if sp >= 0:
            out.append(p)
        if (sp > 0 > sq) or (sp < 0 < sq):
            t = Fraction(sp, sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _area(polygon):
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(polygon, polygon[1:] + polygon[:1]))) / 2


@settings(max_examples=300, deadline=None)
@given(st.integers(-7, 7), st.integers(-7, 7), st.sampled_from(sorted(ARC_DEGREES)), st.integers(0, 5))
def test_exact_arc_test_agrees_with_clipping_the_hex(dq, dr, loc, facing):
    """The separating-axis test equals 'the clipped hex has positive area'."""
    first, span = wedge_for(loc, facing)
    d1, d2 = CORNERS[first], CORNERS[(first + span) % 6]
    cx, cy = Hex(dq, dr).centre
    hexagon = [(Fraction(cx + x), Fraction(cy + y)) for x, y in CORNERS]
    clipped = _clip_area(hexagon, (0, 0), d1)
    clipped = _clip_area(clipped, d2, (0, 0)) if clipped else []
    expected = bool(clipped) and _area(clipped) > 0 and (dq, dr) != (0, 0)
    assert offset_in_wedge(dq, dr, first, span) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(-12, 12), st.integers(-12, 12), st.sampled_from(["bow", "starboard", "stern", "port"]))
def test_range_inside_the_arc_is_never_shorter_than_hex_distance(dq, dr, loc):
    wedge = wedge_for(loc, 0)
    found = range_in_wedge(Hex(0, 0), Hex(dq, dr), wedge)
    if offset_in_wedge(dq, dr, *wedge):
        assert found is not None and found >= Hex(dq, dr).distance()
    else:
        assert found is None


def test_range_straight_ahead_counts_the_target_not_the_weapon_hex():
    wedge = wedge_for("bow", 0)
    assert range_in_wedge(Hex(0, 0), Hex(0, -1), wedge) == 1
    assert range_in_wedge(Hex(0, 0), Hex(0, -8), wedge) == 8
