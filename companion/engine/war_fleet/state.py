"""War Fleet game state as plain data (seed 004 "Rules"; seed 000 "Combat").

A War Fleet ship fills one hex (seed 004 "Scale") and has its War Fleet stats,
its source Quick-Start card when it has one (a pocket battle plays it at full
detail), where it stands, which locations are destroyed and whether it is a
casualty.  Damage "doesn't apply until the end of combat" for the ship's own
shots (seed 000 "Treating Casualties"): a location destroyed during this
combat is `destroyed_this_combat` and still makes its declared attack; at the
end of combat it becomes `destroyed` and casualties leave.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..board import Board
from ..cards import Card, Whole
from ..common import InitiativeRoll as InitiativeRoll, Ships
from ..hexes import Hex, facing_name
from ..roller import DieRoll, Roller
from ..quick_start.table_rules import TableRules
from .stats import REAR, LocationStats, WarFleetStats

@lru_cache(maxsize=65536)
def _hex_at(column: int, row: int) -> Hex:
    return Hex.at(column, row)


LocationStatus = Literal["destroyed", "destroyed_this_combat"]
Phase = Literal["setup", "initiative", "movement", "combat", "end", "over"]
RULESET: Final = "war-fleet"


class WarShip(BaseModel):
    """One War Fleet ship on the table."""

    model_config = ConfigDict(frozen=True)

    id: str
    side: str
    stats: WarFleetStats
    ship_name: str = Field(default="", description="This ship's own name (several ships may share a card)")
    source: Card | None = Field(default=None, description="The Quick-Start card, for pocket battles")
    column: Whole | None = None
    row: Whole | None = None
    facing: int = Field(default=0, ge=0, le=5, strict=True)
    destroyed: dict[str, LocationStatus] = {}
    casualty: bool = False
    lost: bool = False
    removed: bool = False
    # this turn's movement
    mp_spent: int = 0
    pivoted: bool = False
    move_done: bool = False
    # a pocket battle this ship is away fighting at Quick-Start scale
    pocket: int | None = None

    # --- where ---------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.ship_name or self.stats.name or self.id

    @property
    def ship_class(self) -> int:
        return self.stats.ship_class

    @property
    def placed(self) -> bool:
        return self.column is not None and self.row is not None

    @property
    def hex(self) -> Hex:
        if self.column is None or self.row is None:
            raise ValueError(f"{self.name} has not been placed")
        return _hex_at(self.column, self.row)

    def at(self, cell: Hex, facing: int | None = None, **changes: object) -> "WarShip":
        update = {"column": cell.column, "row": cell.row, **changes}
        if facing is not None:
            update["facing"] = facing % 6
        return self.model_copy(update=update)

    def describe_position(self, board: Board) -> str:
        if not self.placed:
            return "not placed"
        return f"{board.label(self.hex)} facing {facing_name(self.facing)}"

    # --- locations ---------------------------------------------------------

    @property
    def locations(self) -> dict[str, LocationStats]:
        return self.stats.locations

    def is_destroyed(self, location: str) -> bool:
        """Destroyed now (this combat or earlier): destroyed stats apply to hits on it."""
        return location in self.destroyed

    def fires(self, location: str) -> bool:
        """Has an attack it can make: a gun, and not destroyed before this combat.

        A location destroyed during this combat still fires its declared shot
        ("It resolves its attacks under the damage conditions from which it
        ended the movement phase", seed 000).
        """
        loc = self.locations.get(location)
        return bool(loc and loc.attack) and self.destroyed.get(location) != "destroyed"

    def resilience(self, location: str) -> int:
        """The number an attack die must reach: destroyed Resilience once destroyed."""
        loc = self.locations[location]
        return loc.destroyed_resilience if self.is_destroyed(location) else loc.resilience

    @property
    def rear_destroyed(self) -> bool:
        """Seed 004 "MP": rear destroyed, MP 0 and every attack against it dials up."""
        return REAR in self.destroyed

    def si_test_modifier(self, forcing: str) -> int:
        """Modifier of an SI test forced by a hit on `forcing` (destroyed by it or before):
        every destroyed location's SI modifier, the forcing one counted twice."""
        others = sum(self.locations[loc].si_modifier for loc in self.destroyed if loc != forcing)
        return others + 2 * self.locations[forcing].si_modifier

    def with_location(self, location: str, status: LocationStatus | None) -> "WarShip":
        destroyed = dict(self.destroyed)
        if status is None:
            destroyed.pop(location, None)
        else:
            destroyed[location] = status
        return self.model_copy(update={"destroyed": destroyed})

    # --- movement --------------------------------------------------------------

    @property
    def mp(self) -> int:
        """MP this turn: the stat, or 0 once the rear location is destroyed."""
        return 0 if self.rear_destroyed else self.stats.mp

    @property
    def mp_left(self) -> int:
        return max(0, self.mp - self.mp_spent)


class SITest(BaseModel):
    """One structural integrity test: dRed + modifiers against SI."""

    die: DieRoll
    modifier: int
    total: int
    si: int
    casualty: bool


class AttackRoll(BaseModel):
    """One roll of an attack (the main roll, or a saturation box's extra roll)."""

    dice: list[DieRoll]
    total: int
    resilience: int
    hit: bool
    effect: Literal["miss", "location_destroyed", "destroyed_location_hit", "already_casualty"]
    si_test: SITest | None = None


class AttackResult(BaseModel):
    pool: str
    rolls: list[AttackRoll]
    location_destroyed: bool = False
    casualty: bool = False
    text: str = ""


class Attack(BaseModel):
    """A declared attack: one location's attack, or several joined in bracket fire."""

    id: int
    attacker: str
    locations: list[str]
    target: str
    target_location: str
    result: AttackResult | None = None

    @property
    def bracket(self) -> bool:
        return len(self.locations) > 1


class ShipOutcome(BaseModel):
    """What a pocket battle did to one ship, in War Fleet terms."""

    model_config = ConfigDict(extra="forbid")

    casualty: bool = False
    destroyed_locations: list[str] = []


class Pocket(BaseModel):
    """Ships sent to fight a Quick-Start battle (seed 004: "pockets of ships")."""

    id: int
    ships: list[str]
    turn: int
    open: bool = True
    outcome: dict[str, ShipOutcome] | None = None
    game: str | None = None  # the Quick-Start game fighting it (the app's link, carried in the log)


class Settings(BaseModel):
    initiative_dice: str = Field(
        default="DBlack", description="The pool every side rolls for initiative and placement (seed 004: DBlack)"
    )
    bookkeeping: bool = Field(
        default=False, description="Record what the table did; rule objections become warnings"
    )
    table_rules: TableRules = TableRules()


class WarFleetState(BaseModel, Ships[WarShip]):
    """Everything about a War Fleet game at one moment.  Change it with `apply`."""

    model_config = ConfigDict(frozen=True)

    ruleset: Literal["war-fleet"] = RULESET
    name: str = ""
    board: Board = Board(columns=30, rows=20)
    turn: int = 1
    phase: Phase = "initiative"
    ships: list[WarShip] = []
    sides: list[str] = []
    placement_rolls: list[InitiativeRoll] = []
    placement_first: str | None = None
    #: sides from the placement-roll loser to the winner
    placement_order: list[str] = []
    initiative: str | None = None
    #: sides from the initiative loser to the winner: the movement order within a class
    initiative_order: list[str] = []
    initiative_rolls: list[InitiativeRoll] = []
    attacks: list[Attack] = []
    firing: bool = Field(default=False, description="A roll has been made: no more attacks may be declared")
    pockets: list[Pocket] = []
    roller: Roller = Roller(seed="00")
    settings: Settings = Settings()
    result: str | None = None
    winner: str | None = None
    conceded: list[str] = []

    def enemies_of(self, ship: WarShip) -> list[WarShip]:
        return [s for s in self.active_ships if s.side != ship.side and s.placed]

    def pocket(self, pocket_id: int) -> Pocket:
        for pocket in self.pockets:
            if pocket.id == pocket_id:
                return pocket
        raise KeyError(pocket_id)
