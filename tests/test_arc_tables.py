"""Geometry as tables (issue 30): arcs.py's looked-up answers equal the direct computation.

The tables (`arcs.wedge_range`, `arcs.offset_in_arc`, `arcs.ship_range`) and the direct
separating-axis test and breadth-first range (`in_wedge`, `arc_oracle.range_in_wedge`, rules-notes 4-5)
are compared on every offset between two hexes of the Quick-Start board, for every wedge a
location can have; and a whole ship's range against the smallest in-arc range of its hexes.
"""

from __future__ import annotations

import random

import pytest

from arc_oracle import range_in_wedge
from companion.engine import arcs
from companion.engine.arcs import ARC_DEGREES, in_wedge, offset_in_arc, ship_range, wedge_for, wedge_range
from companion.engine.board import Board
from companion.engine.hexes import DIRECTIONS, Hex

WEDGES = sorted({wedge_for(location, facing) for location in ARC_DEGREES for facing in range(6)})


def board_offsets(board: Board) -> list[Hex]:
    """Every offset from one hex of the board to another."""
    cells = [(c.q, c.r) for c in board.cells()]
    return [Hex(q, r) for q, r in sorted({(bq - aq, br - ar) for aq, ar in cells for bq, br in cells})]


OFFSETS = board_offsets(Board())


@pytest.mark.parametrize("wedge", WEDGES)
def test_the_tables_equal_the_direct_computation_on_every_offset_of_the_board(wedge):
    arcs.clear_tables()
    origin = Hex(0, 0)
    for offset in OFFSETS:
        inside = in_wedge(origin, offset, wedge)
        assert offset_in_arc(offset.q, offset.r, wedge) == inside, (wedge, offset)
        direct = range_in_wedge(origin, offset, wedge) if inside else None
        assert wedge_range(offset.q, offset.r, wedge) == direct, (wedge, offset)


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_a_ships_range_is_the_smallest_in_arc_range_of_its_hexes(count):
    rng = random.Random(count)
    origin = Hex(0, 0)
    for _ in range(3000):
        wedge, back = rng.choice(WEDGES), rng.randrange(6)
        bow = Hex(rng.randint(-30, 30), rng.randint(-30, 30))
        cells = [Hex(bow.q + n * DIRECTIONS[back][0], bow.r + n * DIRECTIONS[back][1]) for n in range(count)]
        ranges = [r for c in cells if in_wedge(origin, c, wedge) for r in [range_in_wedge(origin, c, wedge)]
                  if r is not None]
        assert ship_range(wedge, bow.q, bow.r, back, count) == (min(ranges) if ranges else None)


def test_far_offsets_still_agree_past_the_first_table():
    arcs.clear_tables()
    for wedge in WEDGES:
        for offset in (Hex(150, -40), Hex(-120, 199), Hex(3, 190), Hex(0, -199)):
            direct = range_in_wedge(Hex(0, 0), offset, wedge) if in_wedge(Hex(0, 0), offset, wedge) else None
            assert wedge_range(offset.q, offset.r, wedge) == direct
