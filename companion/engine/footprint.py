"""Where a ship stands: its hexes, the hex each location fires from, its pivot.

Rules-notes section 3 and seed 001 "Slots" (p. 12): a Type 1 ship's side
weapons sit in its bow hex, a Type 2's in its centre hex.  The ship's position
is its bow hex and facing; its other hexes trail straight behind it.

House rule H4 "one-hex ships" (seed 002:21, house-rules.md 7.2): a one-hex
placement fills only its bow hex; every location fires from it and its damage
arc is drawn from it, and the ship pivots in place.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hexes import Hex

#: Per type: number of hexes, and for each location the index (0 = bow hex)
#: of the hex its weapons fire from and its damage arc is drawn from.
LOCATION_HEX: dict[int, dict[str, int]] = {
    1: {"bow": 0, "port": 0, "starboard": 0, "stern": 1},
    2: {"bow": 0, "port": 1, "starboard": 1, "stern": 2},
    3: {"bow": 0, "port": 1, "starboard": 1, "stern": 2},
    4: {"bow": 0, "port_bow": 1, "starboard_bow": 1, "port_quarter": 2, "starboard_quarter": 2, "stern": 3},
}
HEX_COUNT = {1: 2, 2: 3, 3: 3, 4: 4}
PIVOT_HEX = {1: 0, 2: 1, 3: 1, 4: 1}


@dataclass(frozen=True, slots=True)
class Placement:
    """A ship's bow hex and facing, with its type: everything geometry needs.

    `one_hex` (house rule H4): the ship fills its bow hex only.
    """

    bow: Hex
    facing: int
    ship_type: int
    one_hex: bool = False

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """The ship's hexes, bow first."""
        back = (self.facing + 3) % 6
        cells = [self.bow]
        for _ in range(self.hex_count - 1):
            cells.append(cells[-1].neighbour(back))
        return tuple(cells)

    @property
    def hex_count(self) -> int:
        return 1 if self.one_hex else HEX_COUNT[self.ship_type]

    def location_hex(self, location: str) -> Hex:
        return self.bow if self.one_hex else self.hexes[LOCATION_HEX[self.ship_type][location]]

    @property
    def pivot(self) -> Hex:
        return self.bow if self.one_hex else self.hexes[PIVOT_HEX[self.ship_type]]

    def forward(self) -> "Placement":
        """One hex forward into the faced hex."""
        return Placement(self.bow.neighbour(self.facing), self.facing, self.ship_type, self.one_hex)

    def turned(self, hexsides: int) -> "Placement":
        """Turn about the pivot hex: +1 to starboard, -1 to port (a one-hex ship turns in place)."""
        facing = (self.facing + hexsides) % 6
        index = 0 if self.one_hex else PIVOT_HEX[self.ship_type]
        bow = self.pivot
        for _ in range(index):
            bow = bow.neighbour(facing)
        return Placement(bow, facing, self.ship_type, self.one_hex)

    def transformed(self, shift: Hex = Hex(0, 0), rotation: int = 0, mirror: bool = False) -> "Placement":
        """Rotate (60-degree steps clockwise about the origin), mirror, then shift."""
        bow, facing = self.bow, self.facing
        if mirror:
            bow, facing = bow.mirrored(), (6 - facing) % 6
        bow, facing = bow.rotated(rotation), (facing + rotation) % 6
        return Placement(bow + shift, facing, self.ship_type, self.one_hex)
