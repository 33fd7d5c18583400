"""Firing and damage arcs, decided exactly (rules-notes 4) and range inside them (5).

An arc is a wedge from the centre of a hex, bounded by two spines (rays from
the centre through hex corners).  A hex is in the arc when any part of its
interior lies inside the wedge's interior; a hex a spine cuts in half is in
both arcs, a hex that only touches a spine is not.  The test is the separating
axis theorem on integer coordinates (see `Hex.centre`), so no floating point
angle is ever compared.

Everything here depends only on the offset from the wedge's origin, so the
answers are cached per (offset, wedge).
"""

from __future__ import annotations

from functools import lru_cache

from .hexes import DIRECTIONS, Hex

#: Arc wedges of each location, in degrees clockwise from the ship's facing.
#: The one table to change if a group reads its printed arc diagrams otherwise.
ARC_DEGREES: dict[str, tuple[int, int]] = {
    "bow": (-30, 30),
    "starboard": (30, 150),
    "stern": (150, 210),
    "port": (210, 330),
    "starboard_bow": (30, 90),
    "starboard_quarter": (90, 150),
    "port_quarter": (210, 270),
    "port_bow": (270, 330),
}

#: Corner k of a hex, at 30 + 60k degrees clockwise from north (y south).
Corner = tuple[int, int]
CORNERS: tuple[Corner, ...] = ((1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1))


def wedge_for(location: str, facing: int) -> tuple[int, int]:
    """(first corner index, span in 60-degree steps) of a location's arc."""
    start, end = ARC_DEGREES[location]
    first = ((start - 30) // 60 + facing) % 6
    return first, (end - start) // 60


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


def _canonical(dq: int, dr: int, first: int) -> tuple[int, int]:
    """Rotate an offset so that the wedge starts at corner 0 (arcs turn with the ship)."""
    rotated = Hex(dq, dr).rotated(-first)
    return rotated.q, rotated.r


def offset_in_wedge(dq: int, dr: int, first: int, span: int) -> bool:
    """Is the hex at axial offset (dq, dr) from the wedge's origin in the wedge?"""
    if first:
        dq, dr = _canonical(dq, dr, first)
    return _in_wedge_from_corner_0(dq, dr, span)


@lru_cache(maxsize=6)
def _separating_bounds(
    span: int,
) -> tuple[Corner, int, Corner, int, tuple[tuple[int, int, int], ...]]:
    """The separating-axis tests of a wedge from corner 0, as linear bounds on a hex centre.

    Every hex has the same corners around its centre c, so "all six vertices
    on or outside a line" is one inequality on c.  Returns the two spine
    bounds and the hex edges that can separate (whose line has the whole
    wedge on or outside it, wherever the hex is).
    """
    d1, d2 = CORNERS[0], CORNERS[span % 6]
    spine_1 = max(_cross(*d1, x, y) for x, y in CORNERS)
    spine_2 = max(_cross(x, y, *d2) for x, y in CORNERS)
    edges: list[tuple[int, int, int]] = []
    for i in range(6):
        (ax, ay), (bx, by) = CORNERS[i], CORNERS[(i + 1) % 6]
        ex, ey = bx - ax, by - ay
        if _cross(ex, ey, *d1) <= 0 and _cross(ex, ey, *d2) <= 0:
            edges.append((ex, ey, _cross(ex, ey, ax, ay)))
    return d1, spine_1, d2, spine_2, tuple(edges)


@lru_cache(maxsize=200_000)
def _in_wedge_from_corner_0(dq: int, dr: int, span: int) -> bool:
    """Separating axis theorem for the hex at (dq, dr) against the wedge's interior."""
    if dq == 0 and dr == 0:
        return False  # the origin hex is in none of its own arcs
    cx, cy = 3 * dq, 2 * dr + dq  # Hex.centre
    d1, spine_1, d2, spine_2, edges = _separating_bounds(span)
    # Separated by a spine: the whole hex lies on or outside one bounding line.
    if _cross(*d1, cx, cy) + spine_1 <= 0 or _cross(cx, cy, *d2) + spine_2 <= 0:
        return False
    # Separated by a hex edge: the origin (apex) lies on or outside that edge's line.
    return not any(-_cross(ex, ey, cx, cy) - c_a <= 0 for ex, ey, c_a in edges)


def in_wedge(origin: Hex, target: Hex, wedge: tuple[int, int]) -> bool:
    d = target - origin
    return offset_in_wedge(d.q, d.r, wedge[0], wedge[1])


def range_in_wedge(origin: Hex, target: Hex, wedge: tuple[int, int]) -> int | None:
    """Range from `origin` to `target` along hexes inside the wedge, or None (`wedge_range`)."""
    d = target - origin
    return wedge_range(d.q, d.r, wedge)


# --- tables (issue 30): the same answers, looked up -------------------------------------------------
#
# An arc and its ranges depend only on the offset of the target hex from the wedge's origin in the
# wedge's own frame.  `_bounds` turns the separating-axis test above into linear inequalities on the
# offset; `_RANGES` keeps, per span, the breadth-first ranges (`_Layers`) out to the widest radius
# asked for so far; `ship_range` answers a whole ship (a line of hexes) per wedge and shape.
# tests/test_arc_tables.py checks every answer against `in_wedge` and the direct breadth-first
# search out to a growing radius (tests/arc_oracle.py, the search this module made before issue 27).


def _turn_back(first: int) -> tuple[int, int, int, int]:
    """(a, b, c, d): rotating (q, r) by -first steps gives (a*q + b*r, c*q + d*r)."""
    q1, r1 = _canonical(1, 0, first)
    q2, r2 = _canonical(0, 1, first)
    return q1, q2, r1, r2


_TURN_BACK = tuple(_turn_back(first) for first in range(6))


@lru_cache(maxsize=8)
def _bounds(span: int) -> tuple[tuple[int, int, int], ...]:
    """The separating-axis test of a wedge from corner 0 as linear forms on the offset (dq, dr):
    the hex is in the wedge when every a*dq + b*dr + k is above 0 (and it is not the origin).
    The forms are those of `_in_wedge_from_corner_0` with the centre (3 dq, 2 dr + dq) put in."""
    (x1, y1), spine_1, (x2, y2), spine_2, edges = _separating_bounds(span)
    forms = [(x1 - 3 * y1, 2 * x1, spine_1), (3 * y2 - x2, -2 * x2, spine_2)]
    forms += [(3 * ey - ex, -2 * ex, -c_a) for ex, ey, c_a in edges]
    return tuple(forms)


class _Layers:
    """The breadth-first ranges of one wedge from corner 0, grown a layer at a time as far as asked.

    Breadth-first from the origin, stepping only through hexes in the wedge (rules-notes 5: count
    the target, not the weapon's hex).  Every hex of range k is found once layers 1..k are complete,
    whatever lies farther out, so a hex found is at its shortest chain."""

    def __init__(self, span: int):
        self.forms = _bounds(span)
        self.ranges: dict[tuple[int, int], int] = {}
        self.seen: set[tuple[int, int]] = {(0, 0)}
        self.frontier: list[tuple[int, int]] = [(0, 0)]
        self.depth = 0

    def grow(self) -> None:
        """Add the next layer: the hexes of the wedge next to the last layer and not yet seen."""
        self.depth += 1
        layer = []
        for q, r in self.frontier:
            for dq, dr in DIRECTIONS:
                cell = (q + dq, r + dr)
                if cell in self.seen:
                    continue
                self.seen.add(cell)
                if all(a * cell[0] + b * cell[1] + k > 0 for a, b, k in self.forms):
                    self.ranges[cell] = self.depth
                    layer.append(cell)
        self.frontier = layer


#: Per span: its layers grown so far.
_RANGES: dict[int, _Layers] = {}


def _canonical_range(q: int, r: int, span: int) -> int | None:
    """Range to the hex at (q, r) in the frame of a wedge from corner 0, or None (not in the wedge)."""
    if q == 0 and r == 0:
        return None
    for a, b, k in _bounds(span):
        if a * q + b * r + k <= 0:
            return None
    layers = _RANGES.get(span)
    if layers is None:
        layers = _RANGES[span] = _Layers(span)
    found = layers.ranges.get((q, r))
    if found is not None:
        return found
    most = 4 * max(abs(q), abs(r), abs(q + r)) + 16
    while layers.frontier and layers.depth < most:
        layers.grow()
        found = layers.ranges.get((q, r))
        if found is not None:
            return found
    return None  # not reached: a hex of a wedge is found at its hex distance (tests/test_arc_tables.py)


def wedge_range(dq: int, dr: int, wedge: tuple[int, int]) -> int | None:
    """The range along the wedge to the hex at offset (dq, dr) from its origin, None out of the wedge:
    `range_in_wedge` by table."""
    a, b, c, d = _TURN_BACK[wedge[0]]
    return _canonical_range(a * dq + b * dr, c * dq + d * dr, wedge[1])


@lru_cache(maxsize=200_000)
def ship_range(wedge: tuple[int, int], dq: int, dr: int, back: int, count: int) -> int | None:
    """The smallest range along the wedge to a ship of `count` hexes whose bow is at offset (dq, dr)
    from the wedge's origin and whose other hexes trail in direction `back`; None when none of its
    hexes is in the wedge (rules-notes 5: range to a ship is the smallest in-arc range).
    `_canonical_range` per hex, its bounds test inline (issue 30: most ships are out of the arc)."""
    a, b, c, d = _TURN_BACK[wedge[0]]
    span = wedge[1]
    forms = _bounds(span)
    layers = _RANGES[span].ranges if span in _RANGES else {}
    step_q, step_r = DIRECTIONS[back]
    q, r = a * dq + b * dr, c * dq + d * dr
    step_q, step_r = a * step_q + b * step_r, c * step_q + d * step_r
    best = None
    for _ in range(count):
        if q or r:
            for x, y, k in forms:
                if x * q + y * r + k <= 0:
                    break
            else:  # in the wedge: its range from the table (grown by `_canonical_range` when not in it)
                found = layers.get((q, r)) or _canonical_range(q, r, span)
                if found is not None and (best is None or found < best):
                    best = found
        q, r = q + step_q, r + step_r
    return best


def clear_tables() -> None:
    """Empty every table and cache of this module (benchmarks: a cold start)."""
    _RANGES.clear()
    for cached in (ship_range, _in_wedge_from_corner_0):
        cached.cache_clear()


def offset_in_arc(dq: int, dr: int, wedge: tuple[int, int]) -> bool:
    """`offset_in_wedge` by the linear forms of `_bounds` (no cache, no rotation of a Hex)."""
    if dq == 0 and dr == 0:
        return False
    a, b, c, d = _TURN_BACK[wedge[0]]
    q, r = a * dq + b * dr, c * dq + d * dr
    for x, y, k in _bounds(wedge[1]):
        if x * q + y * r + k <= 0:
            return False
    return True
