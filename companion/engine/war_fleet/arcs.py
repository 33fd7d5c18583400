"""Arcs, turret arcs, range and the struck location at War Fleet scale.

Seed 004 "Observe the Bigger Picture (Scale)" and "Firing Arcs": every ship
fills one hex, and the Quick-Start arcs are "shrunk down to one hex".  So a
location's arc is the Quick-Start wedge of rules-notes 4 drawn from the ship's
single hex (the Quick-Start `in_wedge`, exact, is reused as it is).

Turrets (seed 000 "Mechanic's Primer on Turrets"; rules-notes 9): a turret
may also fire into the adjacent arcs, but a side turret never past the ship's
centre line (the line of hexes from bow to stern through its hex).  Turret
arcs are data in `TURRET_DEGREES`, decided with the same exact arithmetic:
the arc is cut into 30-degree cones and a hex is in the arc when any part of
its inside is inside one of them (so a centre-line hex, cut in half by the
line, is in both side turrets' arcs; table rule `side_turret_centre_line`
"stops" takes the hexes the line cuts out of the side turrets' extensions).
Turret extensions never decide the damage location.

Range (reading): the number of War Fleet hexes between the two ships' hexes
(hex distance), counting the target's hex; 0 when they share a hex (table rule
`warfleet_range_zero` "none": no attack at range 0).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from functools import lru_cache

from ..arcs import CORNERS, _cross, in_wedge, offset_in_wedge, wedge_for
from ..hexes import Hex
from ..quick_start.table_rules import TableRules

#: Turret arcs in degrees clockwise from the ship's facing: the location's own
#: arc and both neighbouring arcs, side turrets clipped at the centre line
#: (0 and 180 degrees).  One table to change if a group reads it otherwise.
TURRET_DEGREES: dict[str, tuple[int, int]] = {
    # Types 1-3: bow, starboard, stern, port
    "bow": (-150, 150),       # port + bow + starboard
    "starboard": (0, 180),    # bow + starboard + stern, clipped at the centre line
    "stern": (30, 330),       # starboard + stern + port
    "port": (180, 360),       # stern + port + bow, clipped at the centre line
    # Type 4 (six locations): the same rule with its finer ring of arcs
    "starboard_bow": (0, 150),
    "starboard_quarter": (30, 180),
    "port_quarter": (180, 330),
    "port_bow": (210, 360),
}
TYPE_4_TURRETS = {"bow": (-90, 90), "stern": (90, 270)}
#: The turrets clipped at the centre line (every one but the bow and the stern).
SIDE_TURRETS = frozenset(TURRET_DEGREES) - {"bow", "stern"}

#: Directions every 30 degrees clockwise from north, in `Hex.centre` units:
#: even steps point at the neighbouring hex centres, odd steps at corners.
_NEIGHBOUR_CENTRES = ((0, -2), (3, -1), (3, 1), (0, 2), (-3, 1), (-3, -1))
DIRECTIONS_30 = tuple(
    _NEIGHBOUR_CENTRES[k // 2] if k % 2 == 0 else CORNERS[k // 2] for k in range(12)
)


@lru_cache(maxsize=100_000)
def _meets_cone(dq: int, dr: int, step: int) -> bool:
    """Does the inside of the hex at (dq, dr) meet the open 30-degree cone
    from direction `step` to `step + 1` (steps of 30 degrees from north)?

    Separating axes: the cone's two rays and the hex's six edges.
    """
    if dq == 0 and dr == 0:
        return False
    d1, d2 = DIRECTIONS_30[step % 12], DIRECTIONS_30[(step + 1) % 12]
    cx, cy = Hex(dq, dr).centre
    vertices = [(cx + x, cy + y) for x, y in CORNERS]
    if all(_cross(*d1, vx, vy) <= 0 for vx, vy in vertices):
        return False
    if all(_cross(vx, vy, *d2) <= 0 for vx, vy in vertices):
        return False
    for i in range(6):
        (ax, ay), (bx, by) = vertices[i], vertices[(i + 1) % 6]
        ex, ey = bx - ax, by - ay
        if _cross(ex, ey, -ax, -ay) <= 0 and _cross(ex, ey, *d1) <= 0 and _cross(ex, ey, *d2) <= 0:
            return False
    return True


@lru_cache(maxsize=200_000)
def offset_in_degrees(dq: int, dr: int, start: int, end: int) -> bool:
    """Is the hex at axial offset (dq, dr) in the arc from `start` to `end` degrees
    (clockwise from north, multiples of 30)?"""
    if start % 30 or end % 30 or end <= start:
        raise ValueError(f"an arc runs clockwise between multiples of 30 degrees, not {start}..{end}")
    return any(_meets_cone(dq, dr, k) for k in range(start // 30, end // 30))


def in_degrees(origin: Hex, target: Hex, start: int, end: int, facing: int) -> bool:
    """Is `target` in the arc `start..end` degrees from `facing`, drawn from `origin`?"""
    d = target - origin
    turn = 60 * facing
    return offset_in_degrees(d.q, d.r, start + turn, end + turn)


def turret_degrees(location: str, locations: Collection[str] = ()) -> tuple[int, int]:
    """The turret arc of a location of a ship with these `locations`.

    On a six-location ship (Type 4) the bow and stern turrets reach only the
    neighbouring bow and quarter arcs.
    """
    six = "starboard_bow" in locations or "port_bow" in locations
    if six and location in TYPE_4_TURRETS:
        return TYPE_4_TURRETS[location]
    return TURRET_DEGREES[location]


def in_firing_arc(origin: Hex, facing: int, location: str, target: Hex, turret: bool = False,
                  locations: Collection[str] = (), rules: TableRules = TableRules()) -> str | None:
    """`arc` when the target hex is in the location's own arc, `turret` when only
    the turret's extended arc reaches it, `point blank` when they share the hex,
    else None."""
    if target == origin:
        return "point blank"
    if in_wedge(origin, target, wedge_for(location, facing)):
        return "arc"
    if turret and in_turret_extension(origin, facing, location, target, locations, rules):
        return "turret"
    return None


def in_turret_extension(origin: Hex, facing: int, location: str, target: Hex, locations: Collection[str],
                        rules: TableRules) -> bool:
    """Does the location's turret arc reach `target` (another hex than the ship's)?

    Table rule `side_turret_centre_line`: "reaches" (the app's reading) counts
    every hex with any part on the turret's side of the centre line, so a hex
    the line cuts in half is in both side turrets' arcs; "stops" lets a side
    turret reach only the hexes wholly on its own side (seed 000: a side turret
    "cannot exceed 180 degrees, or the line of hexes that bisects the ship").
    """
    start, end = turret_degrees(location, locations=locations)
    if not in_degrees(origin, target, start, end, facing):
        return False
    if rules.side_turret_centre_line == "stops" and location in SIDE_TURRETS:
        return not on_centre_line(origin, facing, target)
    return True


def on_centre_line(origin: Hex, facing: int, target: Hex) -> bool:
    """Is `target` one of the hexes the ship's centre line (bow to stern through its hex) cuts?

    The line runs through the hex centres dead ahead and dead astern; every
    other hex lies wholly on one side of it.
    """
    return (target - origin).rotated(-facing).q == 0


def war_fleet_range(origin: Hex, target: Hex) -> int:
    """Range in War Fleet hexes: the hex distance, 0 in the same hex."""
    return origin.distance(target)


def range_problem(range_: int, rules: TableRules) -> str | None:
    """Why no attack may be made at this range by this table's rules, or None.

    Table rule `warfleet_range_zero`: "allowed" (the app's reading; seed 004:
    "a range of 0, or point blank, is possible"), or "none": no attack at range 0.
    """
    if range_ == 0 and rules.warfleet_range_zero == "none":
        return "the two ships share a hex (range 0), and this table plays no attack at range 0"
    return None


def struck_locations(target_hex: Hex, target_facing: int, locations: Iterable[str], attacker_hex: Hex) -> list[str]:
    """The target's locations whose own (non-turret) arc holds the attacker's hex.

    Seed 000 "Aim For the Big One!": "The standard, arc of a location that can
    attack the attacker's ship is the location that will be hit."  Two (a hex
    a spine cuts in half): the attacker picks.  In the same hex every location
    can be struck and the attacker picks (reading).
    """
    d = attacker_hex - target_hex
    return list(_struck(d.q, d.r, target_facing, tuple(locations)))


@lru_cache(maxsize=100_000)
def _struck(dq: int, dr: int, facing: int, names: tuple[str, ...]) -> tuple[str, ...]:
    if dq == 0 and dr == 0:
        return names
    return tuple(name for name in names if offset_in_wedge(dq, dr, *wedge_for(name, facing)))
