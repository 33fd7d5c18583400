"""The direct range inside an arc (rules-notes 5), the oracle arcs.py's tables are checked against.

A breadth-first search from the wedge's origin out to a radius, stepping only through hexes in the
wedge (the separating-axis test, `arcs._in_wedge_from_corner_0`), the radius doubled until the hex
is found.  This was arcs.range_in_wedge before issue 27; the app asks the tables (`arcs.wedge_range`).
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from companion.engine.arcs import _canonical, _in_wedge_from_corner_0
from companion.engine.hexes import DIRECTIONS, Hex


@lru_cache(maxsize=64)
def _wedge_ranges(span: int, radius: int) -> dict[tuple[int, int], int]:
    """Shortest chain length to every hex of the wedge within `radius` steps."""
    ranges: dict[tuple[int, int], int] = {}
    frontier = deque([(0, 0, 0)])
    while frontier:
        q, r, steps = frontier.popleft()
        for dq, dr in DIRECTIONS:
            key = (q + dq, r + dr)
            if key in ranges or max(abs(key[0]), abs(key[1]), abs(key[0] + key[1])) > radius:
                continue
            if _in_wedge_from_corner_0(key[0], key[1], span):
                ranges[key] = steps + 1
                frontier.append((key[0], key[1], steps + 1))
    return ranges


def range_in_wedge(origin: Hex, target: Hex, wedge: tuple[int, int]) -> int | None:
    """Range from `origin` to `target` along hexes inside the wedge, or None."""
    d = target - origin
    first, span = wedge
    key = _canonical(d.q, d.r, first)
    if not _in_wedge_from_corner_0(*key, span):
        return None
    radius = 16
    while radius < d.distance() + 4:
        radius *= 2
    while True:
        found = _wedge_ranges(span, radius).get(key)
        if found is not None and found <= radius:
            return found
        if radius > 4096:
            return None
        radius *= 2
