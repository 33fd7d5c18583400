"""Pixel layout of the hex map: where each hex is drawn and which hex a tap hit.

Rules-notes 2: flat-topped hexes in vertical columns, even-numbered columns
half a hex lower, row 1 at the top.  The engine knows only integer axial
coordinates; pixels live here, in the app.  No flet imports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine.board import Board
from ..engine.hexes import Hex

SQRT3 = math.sqrt(3)


@dataclass(frozen=True)
class HexLayout:
    """Pixel positions for a board drawn with hexes of `size` (centre to corner)."""

    board: Board
    size: float = 30.0
    margin: float = 6.0

    @property
    def width(self) -> float:
        return self.size * (1.5 * (self.board.columns - 1) + 2) + 2 * self.margin

    @property
    def height(self) -> float:
        return self.size * SQRT3 * (self.board.rows + 0.5) + 2 * self.margin

    def centre(self, cell: Hex) -> tuple[float, float]:
        x = self.margin + self.size + 1.5 * self.size * cell.q
        y = self.margin + self.size * SQRT3 * (0.5 + cell.r + cell.q / 2)
        return x, y

    def corners(self, cell: Hex, inset: float = 0.0) -> list[tuple[float, float]]:
        """The six corners, starting east and going clockwise (y down)."""
        cx, cy = self.centre(cell)
        s = self.size - inset
        return [
            (cx + s * math.cos(math.radians(60 * k)), cy + s * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The hex under a pixel, or None off the board."""
        px = x - self.margin - self.size
        py = y - self.margin - self.size * SQRT3 / 2
        q = px / (1.5 * self.size)
        r = py / (self.size * SQRT3) - q / 2
        s = -q - r  # rounded as cube coordinates: the component furthest off is set from the other two
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        cell = Hex(int(rq), int(rr))
        return cell if self.board.contains(cell) else None

    def facing_point(self, cell: Hex, facing: int, fraction: float = 0.8) -> tuple[float, float]:
        """A point towards the middle of the hexside a facing points at."""
        cx, cy = self.centre(cell)
        angle = math.radians(-90 + 60 * facing)
        reach = self.size * SQRT3 / 2 * fraction
        return cx + reach * math.cos(angle), cy + reach * math.sin(angle)
