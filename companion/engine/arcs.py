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

from collections import deque
from functools import lru_cache

from .hexes import Hex

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
CORNERS = ((1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1))


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


@lru_cache(maxsize=200_000)
def _in_wedge_from_corner_0(dq: int, dr: int, span: int) -> bool:
    first = 0
    if dq == 0 and dr == 0:
        return False  # the origin hex is in none of its own arcs
    d1 = CORNERS[first]
    d2 = CORNERS[(first + span) % 6]
    cx, cy = Hex(dq, dr).centre
    vertices = [(cx + x, cy + y) for x, y in CORNERS]
    # Separated by a spine: the whole hex lies on or outside one bounding line.
    if all(_cross(*d1, vx, vy) <= 0 for vx, vy in vertices):
        return False
    if all(_cross(vx, vy, *d2) <= 0 for vx, vy in vertices):
        return False
    # Separated by a hex edge: the whole wedge lies on or outside that edge's line.
    for i in range(6):
        (ax, ay), (bx, by) = vertices[i], vertices[(i + 1) % 6]
        ex, ey = bx - ax, by - ay
        if (
            _cross(ex, ey, -ax, -ay) <= 0
            and _cross(ex, ey, *d1) <= 0
            and _cross(ex, ey, *d2) <= 0
        ):
            return False
    return True


def in_wedge(origin: Hex, target: Hex, wedge: tuple[int, int]) -> bool:
    d = target - origin
    return offset_in_wedge(d.q, d.r, wedge[0], wedge[1])


@lru_cache(maxsize=64)
def _wedge_ranges(span: int, radius: int) -> dict[tuple[int, int], int]:
    """Shortest chain length to every hex of the wedge within `radius` steps.

    Breadth-first from the origin, stepping only through hexes in the wedge
    (rules-notes 5: count the target, not the weapon's hex).
    """
    ranges: dict[tuple[int, int], int] = {}
    frontier = deque([(Hex(0, 0), 0)])
    while frontier:
        here, steps = frontier.popleft()
        for nxt in here.neighbours():
            key = (nxt.q, nxt.r)
            if key in ranges or nxt.distance() > radius:
                continue
            if _in_wedge_from_corner_0(nxt.q, nxt.r, span):
                ranges[key] = steps + 1
                frontier.append((nxt, steps + 1))
    return ranges


def _radius_for(distance: int) -> int:
    radius = 16
    while radius < distance + 4:
        radius *= 2
    return radius


def range_in_wedge(origin: Hex, target: Hex, wedge: tuple[int, int]) -> int | None:
    """Range from `origin` to `target` along hexes inside the wedge, or None."""
    d = target - origin
    first, span = wedge
    key = _canonical(d.q, d.r, first)
    if not _in_wedge_from_corner_0(*key, span):
        return None
    radius = _radius_for(d.distance())
    while True:
        found = _wedge_ranges(span, radius).get(key)
        if found is not None and found <= radius:
            return found
        if radius > 4096:
            return None
        radius *= 2
