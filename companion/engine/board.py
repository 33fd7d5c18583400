"""The playing area: its labelled hexes, the half-hex ring and deployment zones.

Rules-notes 2: a board is `columns x rows` labelled hexes; its outermost ring
stands for the half-hexes along the table edge (seed 001 "Half-hexes").
Default Quick-Start board: 33 x 19.  Seed 001 "Getting Started": ships deploy
within four hexes of a map edge.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field

from .hexes import Hex, PositionError, parse_label

DEPLOYMENT_DEPTH = 4
#: The largest board, in hexes a side (docs/formats.md "Limits"): six times
#: the Quick-Start board (33 x 19) across, ten times the War Fleet one (30 x 20).
MAX_SIDE = 200


class Board(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    columns: int = Field(default=33, ge=3, le=MAX_SIDE, strict=True)
    rows: int = Field(default=19, ge=3, le=MAX_SIDE, strict=True)

    @property
    def digits(self) -> int:
        return max(2, len(str(self.columns)), len(str(self.rows)))

    def label(self, cell: Hex) -> str:
        return f"{cell.column:0{self.digits}d}{cell.row:0{self.digits}d}"

    def contains(self, cell: Hex) -> bool:
        return 1 <= cell.column <= self.columns and 1 <= cell.row <= self.rows

    def parse(self, label: str) -> Hex:
        """A label on this board, or PositionError saying why not."""
        text = str(label).strip()
        cell = parse_label(text, self.digits if len(text) == 2 * self.digits else None)  # else: read by its length
        if not self.contains(cell):
            raise PositionError(
                f"hex {text} is off the board ({self.columns} columns x {self.rows} rows)"
            )
        return cell

    def in_half_hex_ring(self, cell: Hex) -> bool:
        """Is this hex one of the half-hexes along the table edge?"""
        return cell.column in (1, self.columns) or cell.row in (1, self.rows)

    def cells(self) -> Iterator[Hex]:
        for column in range(1, self.columns + 1):
            for row in range(1, self.rows + 1):
                yield Hex.at(column, row)


def deployment_edges(board: Board, cells: tuple[Hex, ...]) -> set[str]:
    """The map edges the whole ship is within four hexes of.

    None of them when any part is off the map or in the half-hex ring: the entire ship
    must be on the map (seed 001 "Getting Started").
    """
    if any(not board.contains(c) or board.in_half_hex_ring(c) for c in cells):
        return set()
    depth = {
        "north": max(c.row - 1 for c in cells),
        "south": max(board.rows - c.row for c in cells),
        "west": max(c.column - 1 for c in cells),
        "east": max(board.columns - c.column for c in cells),
    }
    return {edge for edge, d in depth.items() if d <= DEPLOYMENT_DEPTH}
