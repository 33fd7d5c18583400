"""Hex coordinates as value objects, `CCRR` labels and facings.

Rules-notes section 2: flat-topped hexes in vertical columns; a hex is labelled
`CCRR` (column then row, 1-based); even-numbered columns sit half a hex lower;
row 1 is the north edge.  Facings 0 = N, 1 = NE, 2 = SE, 3 = S, 4 = SW, 5 = NW.

Internally a hex is axial (q, r) with q the 0-based column.  Pixel layout
lives in the app; the engine only knows exact integer geometry.
"""

from __future__ import annotations

from dataclasses import dataclass

FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")

#: Axial step for each facing (flat-topped hexes).
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


class PositionError(ValueError):
    """An impossible position: a bad label, a hex off the board, a bad facing."""


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """A hex in axial coordinates. Frozen and hashable; supports + and -."""

    q: int
    r: int

    def __add__(self, other: "Hex") -> "Hex":
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        return Hex(self.q - other.q, self.r - other.r)

    def neighbour(self, facing: int) -> "Hex":
        dq, dr = DIRECTIONS[facing % 6]
        return Hex(self.q + dq, self.r + dr)

    def distance(self, other: "Hex | None" = None) -> int:
        """Hex distance (number of steps) to `other` (default: the origin)."""
        dq = self.q - (other.q if other else 0)
        dr = self.r - (other.r if other else 0)
        return max(abs(dq), abs(dr), abs(dq + dr))

    def rotated(self, steps: int) -> "Hex":
        """Rotate about the origin by `steps` x 60 degrees clockwise."""
        q, r = self.q, self.r
        for _ in range(steps % 6):
            q, r = -r, q + r
        return Hex(q, r)

    def mirrored(self) -> "Hex":
        """Reflect across the north-south line through the origin."""
        return Hex(-self.q, self.r + self.q)

    @property
    def centre(self) -> tuple[int, int]:
        """Exact centre, with the y axis scaled by 1/sqrt(3) and doubled.

        In these units every hex centre and corner has integer coordinates and
        the sign of any cross product is the same as on the real map
        (rules-notes 4). y grows southward.
        """
        return 3 * self.q, 2 * self.r + self.q

    # --- offset labels -------------------------------------------------

    @property
    def column(self) -> int:
        return self.q + 1

    @property
    def row(self) -> int:
        return self.r + (self.q - (self.q & 1)) // 2 + 1

    @classmethod
    def at(cls, column: int, row: int) -> "Hex":
        """The hex at a 1-based column and row."""
        x, y = column - 1, row - 1
        return cls(x, y - (x - (x & 1)) // 2)

    def label(self, width: int = 2) -> str:
        return f"{self.column:0{width}d}{self.row:0{width}d}"

    def __str__(self) -> str:
        return self.label()


def parse_label(label: str, column_digits: int | None = None) -> Hex:
    """Read a `CCRR` label (more digits for wider boards)."""
    text = str(label).strip()
    if not text.isdigit() or len(text) < 4:
        raise PositionError(f"'{label}' is not a hex label: write column then row, like '0812'")
    if column_digits is None:
        column_digits = len(text) - 2
    column, row = int(text[:column_digits]), int(text[column_digits:])
    if column < 1 or row < 1:
        raise PositionError(f"'{label}' is not a hex label: columns and rows start at 01")
    return Hex.at(column, row)


def parse_facing(value: str | int) -> int:
    """A facing from N, NE, SE, S, SW, NW (any case) or 0-5."""
    if isinstance(value, bool):
        raise PositionError(f"'{value}' is not a facing")
    if isinstance(value, int):
        if 0 <= value <= 5:
            return value
        raise PositionError(f"facing {value} is not 0-5 (0 = N, clockwise)")
    text = str(value).strip().upper()
    if text in FACING_NAMES:
        return FACING_NAMES.index(text)
    if text.isdigit() and 0 <= int(text) <= 5:
        return int(text)
    raise PositionError(f"'{value}' is not a facing: use N, NE, SE, S, SW or NW")


def facing_name(facing: int) -> str:
    return FACING_NAMES[facing % 6]
