"""The hit-location grid as data, its boxes and the systems they stand for (spec §10, §17.3).

"You should keep a hit location table for every ship in the game ... Each
location can only be marked off once.  Once the location has been marked off,
any other hit to that location is applied to the next location down.  If you
have reached the bottom of the chart and could not apply damage, add one
additional damage point to the ship." (`003:98-100`)

The seed's grid lost most of its middle rows (`003:101-105`).  `RECONSTRUCTED`
is the spec's placeholder [R-40]: every legible cell as printed, the lost
cells filled in and listed per row in `unverified`, so a screen can mark them.
A group's own grid (a `decisive-victory-hit-grid/1` file) replaces it.
A box is (row group, column): the row's place in `rows` (1-4 on the printed
grid, "2-3" being one row [R-41]) and the 2nd die (1-6).
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..cards import Sources, Whole, StrictModel
from .validate import dv_validated

GRID_FORMAT: Final = "decisive-victory-hit-grid/1"
#: The systems the effects name (`003:108-124`).
SYSTEMS: Final = ("Com", "AA", "Flight", "Guns", "Turn", "Speed", "Torp", "Struct")
System = Literal["Com", "AA", "Flight", "Guns", "Turn", "Speed", "Torp", "Struct"]
Armor = Literal["deck", "belt", "underwater"]
ShipClass = Literal["destroyer", "cruiser", "capital"]
Box = tuple[int, int]
SystemStatus = Literal["working", "damaged", "disabled"]
COLUMNS: Final = 6


class GridRow(StrictModel):
    """One row of the grid: the 1st-die faces it takes, the armour it uses, six cells by 2nd die."""

    dice: list[Whole] = Field(min_length=1, description="1st-die faces of this row, e.g. [2, 3]")
    armor: Armor
    cells: list[System] = Field(description="The system of each column, 2nd die 1 to 6")
    unverified: list[Whole] = Field(default=[], description="Columns whose cell is reconstructed, not read from a printed grid")

    @field_validator("cells")
    @classmethod
    def _six_cells(cls, cells: list[System]) -> list[System]:
        if len(cells) != COLUMNS:
            raise ValueError(f"{len(cells)} cells, a row needs exactly {COLUMNS} (one per face of the 2nd die)")
        return cells

    @field_validator("unverified")
    @classmethod
    def _columns(cls, columns: list[int]) -> list[int]:
        bad = [c for c in columns if not 1 <= c <= COLUMNS]
        if bad:
            raise ValueError(f"column {bad[0]} is not a face of the 2nd die (1-6)")
        if len(set(columns)) != len(columns):
            raise ValueError("a column is listed twice")
        return columns


class Thresholds(StrictModel):
    """Marked boxes that damage a system, by class (`003:107`)."""

    destroyer: Whole = Field(default=1, ge=1, le=99)
    cruiser: Whole = Field(default=2, ge=1, le=99)
    capital: Whole = Field(default=3, ge=1, le=99)


class HitGrid(StrictModel):
    """A hit-location grid (§17.3): rows by 1st die, columns by 2nd die."""

    format: Literal["decisive-victory-hit-grid/1"] = GRID_FORMAT
    name: str = ""
    rows: list[GridRow]
    thresholds: Thresholds = Thresholds()
    sources: Sources | None = None

    @field_validator("rows")
    @classmethod
    def _dice_cover_one_to_six(cls, rows: list[GridRow]) -> list[GridRow]:
        faces = [face for row in rows for face in row.dice]
        if faces != list(range(1, 7)):
            raise ValueError(f"the rows' dice are {faces}: they must cover 1 to 6, each once, in order")
        return rows

    # --- reading the grid ---------------------------------------------------

    def group_of(self, first_die: int) -> int:
        """The row group (1-based) a 1st die lands in (§10.1 step 1)."""
        for index, row in enumerate(self.rows, start=1):
            if first_die in row.dice:
                return index
        raise ValueError(f"{first_die} is not a face of the 1st die (1-6)")

    def armor_of(self, first_die: int) -> Armor:
        return self.rows[self.group_of(first_die) - 1].armor

    def cell(self, box: Box) -> System:
        group, column = box
        return self.rows[group - 1].cells[column - 1]

    @property
    def all_boxes(self) -> list[Box]:
        return [(g, c) for g in range(1, len(self.rows) + 1) for c in range(1, COLUMNS + 1)]

    def boxes_of(self, system: str) -> list[Box]:
        return [box for box in self.all_boxes if self.cell(box) == system]

    def threshold(self, ship_class: ShipClass) -> int:
        return int(getattr(self.thresholds, ship_class))

    # --- the marks ----------------------------------------------------------

    @property
    def verified(self) -> bool:
        """Read from a printed grid: no cell reconstructed and the file says so (or says nothing)."""
        return not self.unverified_boxes and (self.sources is None or self.sources.verified)

    @property
    def unverified_boxes(self) -> list[Box]:
        """Every reconstructed cell, for the screen's mark."""
        return [(g, c) for g, row in enumerate(self.rows, start=1) for c in sorted(row.unverified)]

    def dump(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_defaults=False, exclude_none=True)


class Marking(BaseModel):
    """Where a hit on the grid ended (§10.1): the box marked, or none and one damage point."""

    model_config = ConfigDict(frozen=True)

    aimed: Box
    marked: Box | None
    extra_damage: int = 0

    @property
    def spilled(self) -> bool:
        return self.marked is not None and self.marked != self.aimed


def mark(grid: HitGrid, boxes: frozenset[Box], aimed: Box) -> Marking:
    """Mark the aimed box, or the first unmarked one below it in the same column [R-42];
    none left down to the bottom row: no box, +1 damage point (`003:99-100`)."""
    group, column = aimed
    for below in range(group, len(grid.rows) + 1):
        if (below, column) not in boxes:
            return Marking(aimed=aimed, marked=(below, column))
    return Marking(aimed=aimed, marked=None, extra_damage=1)


def system_status(grid: HitGrid, ship_class: ShipClass, boxes: frozenset[Box], system: str) -> SystemStatus:
    """Damaged at the class's threshold of marked boxes, disabled when every box is marked (`003:107`);
    a system with fewer boxes than the threshold is both at its last box [R-43]; no box, always working."""
    own = grid.boxes_of(system)
    marked = sum(1 for box in own if box in boxes)
    if not own or marked == 0:
        return "working"
    if marked == len(own):
        return "disabled"
    return "damaged" if marked >= grid.threshold(ship_class) else "working"


def load_hit_grid(data: Any) -> HitGrid:
    """A `decisive-victory-hit-grid/1` file, validated; FormatError naming the JSON path."""
    return dv_validated(HitGrid, data, GRID_FORMAT)


def _row(dice: list[int], armor: Armor, cells: str, unverified: list[int] = []) -> GridRow:
    return GridRow(dice=dice, armor=armor, cells=cells.split(), unverified=unverified)  # type: ignore[arg-type]


#: The spec's placeholder grid [R-40]: rows 1 and 6 as printed; row 2-3 columns 3-6 and
#: row 4-5 columns 4-6 lost in the seed text (`003:103-104`) and filled in, marked unverified.
RECONSTRUCTED: Final = HitGrid(
    name="Reconstructed grid (spec R-40)",
    rows=[
        _row([1], "deck", "AA AA Com Com AA AA"),
        _row([2, 3], "belt", "AA Guns Guns Flight Guns AA", [3, 4, 5, 6]),
        _row([4, 5], "belt", "Turn Struct Struct Torp Struct Turn", [4, 5, 6]),
        _row([6], "underwater", "Turn Speed Speed Speed Speed Turn"),
    ],
    sources=Sources(verified=False, notes=(
        "row 2-3 columns 3-6 and row 4-5 columns 4-6 are placeholders: the seed text lost them "
        "(003:103-104); the rest is as printed (003:101-105)")),
)
