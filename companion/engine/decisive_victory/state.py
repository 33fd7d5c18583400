"""Decisive Victory game state as plain, frozen data (spec §14.1).

A ship carries its record (§17.1), its commander and command points, its
speed mode and this turn's move, its damage points and minor damage, the
boxes marked on its grid and what they do to its systems (§10.2), and the
per-turn marks maintenance clears (§11.5).  Positions are optional plots in
exact inches [R-1].  There are no hexes: distances are measured at the table.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer

from ..cards import StrictModel
from ..common import Ships
from ..roller import DieRoll, Roller
from .grid import RECONSTRUCTED as RECONSTRUCTED_GRID, SYSTEMS, Box, HitGrid, SystemStatus, system_status
from .inches import Degrees, Inches
from .records import COMMAND_SCORE, FlightRecord, Rank, ShipRecord
from .table1 import RECONSTRUCTED as RECONSTRUCTED_TABLE, SuccessTable

RULESET: Final = "decisive-victory"
Phase = Literal["setup", "command", "initiative", "aircraft", "movement", "attacks", "maintenance", "over"]
SpeedMode = Literal["full", "half", "stop"]
Rudder = Literal["free", "ahead", "port", "starboard"]
Removed = Literal["sunk", "abandoned", "scuttled", "by_hand"]
Stage = Literal["landed", "attacking", "on_target", "returning", "cap", "destroyed", "out"]

#: Sets written sorted, so a saved state reads the same every time.
Boxes = Annotated[frozenset[tuple[int, int]], PlainSerializer(lambda s: [list(b) for b in sorted(s)], return_type=list[list[int]])]
Names = Annotated[frozenset[str], PlainSerializer(sorted, return_type=list[str])]


class Plot(StrictModel):
    """Where a ship stands, when the players plot it (§1.2): inches from the table's left and
    bottom edges, heading in degrees clockwise from table north (the far edge)."""

    x: Inches
    y: Inches
    heading: Degrees = Fraction(0)


class DVShip(BaseModel):
    """One ship in play (§14.1)."""

    model_config = ConfigDict(frozen=True)

    id: str
    side: str
    name: str = Field(default="", description="This ship's own name (several ships may share a record)")
    record: ShipRecord
    commander: Rank = "lieutenant"
    flagship: bool = False
    cp: int = Field(default=0, description="Command points this turn (003:28)")
    speed_mode: SpeedMode = "full"
    mode_changed: bool = False
    move_done: bool = False
    inches_moved: Inches = Fraction(0)
    turns_made: int = 0
    turn_carried: bool = Field(default=False, description="May turn at the start of its next move (003:46)")
    position: Plot | None = None
    damage_points: int = 0
    minor_damage: int = 0
    boxes: Boxes = frozenset()
    rudder: Rudder = "free"
    salvoes_left: dict[str, int] = {}
    aa_spent: int = 0
    dp_used_for_aa: Names = frozenset()
    abilities: list[str] = Field(default=[], description="Abilities declared this turn (003:154)")
    damage_control: dict[str, Literal["ignore_damaged", "disabled_as_damaged"]] = {}
    systems_fired: Names = frozenset()
    radar: dict[str, bool] = {}
    illuminated: bool = False
    making_smoke: bool = False
    close_action_with: Names = frozenset()
    abandon_paid: bool = False
    attacked: bool = Field(default=False, description="Its activation in this turn's attacks phase is over (§8.1)")
    maintenance_done: Names = Field(default=frozenset(), description="Maintenance steps done this phase (§11)")
    system_rolls_due: list[str] = Field(default=[], description="System rolls its boxes triggered, not yet rolled (§10.3)")
    removed: Removed | None = None

    @property
    def label(self) -> str:
        return self.name or self.record.name or self.id

    @property
    def command_score(self) -> int:
        return COMMAND_SCORE[self.commander]

    @property
    def in_play(self) -> bool:
        return self.removed is None


class Flight(BaseModel):
    """A flight of aircraft and its stage (§12.1): a carrier's or base's flight."""

    model_config = ConfigDict(frozen=True)

    id: str
    side: str
    record: FlightRecord
    base: str = Field(description="The ship or base it launches from and lands on")
    stage: Stage = "landed"
    counter: int = Field(default=0, description="Turns left in the attacking or returning stage")
    launch_counter: int = Field(default=0, description="The attacking-stage counter at launch [R-57]")
    entered_stage_turn: int = 0
    target: str | None = None
    on_table: bool = False
    moved_turn: int = Field(default=0, description="The turn it was last placed, moved or sent to intercept (§12.3)")
    attacked_turn: int = Field(default=0, description="The turn it last made an attack (§12.6, §12.7.2)")
    fired_on: dict[str, int] = Field(default={}, description="Ship or base -> the turn it last fired AA at it (§12.7.1 [R-60])")


class Base(BaseModel):
    """A land base (§3.5): AA points a turn and flights to launch."""

    model_config = ConfigDict(frozen=True)

    id: str
    side: str
    name: str = ""
    aa: int = 0
    aa_spent: int = 0


class Conditions(StrictModel):
    """The whole table's conditions (§8.4, §12.2 [R-54])."""

    night: bool = Field(default=False, strict=True)
    bad_weather: bool = Field(default=False, strict=True)
    air_range_unit: Literal["feet", "inches"] = "feet"


class Table(StrictModel):
    """The table's size in inches (informational: the seed sets none, §18)."""

    width: Inches
    depth: Inches


class Batch(BaseModel):
    """Whose batch of ships moves or attacks now, and how many ships it may still take (§7.1, §8.1)."""

    model_config = ConfigDict(frozen=True)

    side: str
    left: int


class DVInitiativeRoll(BaseModel):
    """One side's initiative roll: 1d6 + its best command score (`003:39`)."""

    model_config = ConfigDict(frozen=True)

    side: str
    die: DieRoll
    score: int

    @property
    def total(self) -> int:
        return self.die.face + self.score


class AttackFacts(StrictModel):
    """What the players measured or saw for one attack (§1.2, §8.4)."""

    in_arc: bool = True
    bow_on: bool = False
    smoke: bool = False
    spotter_distance: Inches | None = None


class DVAttack(BaseModel):
    """An attack declared this turn (§16 `declare_attack`); the roll's results are the turn's work."""

    model_config = ConfigDict(frozen=True)

    id: int
    ship: str
    system: str
    target: str
    distance: Inches
    facts: AttackFacts = AttackFacts()
    full_fc: bool = True
    rolled: bool = False


class Smoke(BaseModel):
    """A smoke template laid by a ship making smoke (§5.3): the table moves it; the app counts it."""

    model_config = ConfigDict(frozen=True)

    id: str
    ship: str
    turn: int
    drifted: Inches = Fraction(0)
    drifted_turn: int = Field(default=0, description="The turn of its last maintenance drift roll (003:158)")


class StarShell(BaseModel):
    """A star shell fired this turn (§8.8): its scatter roll; the ships lit are entered by the players."""

    model_config = ConfigDict(frozen=True)

    ship: str
    system: str
    scatter: list[DieRoll] = []
    direction: DieRoll | None = None
    lit: list[str] = []


class Settings(BaseModel):
    bookkeeping: bool = Field(default=False, description="Record what the table did; rule objections become warnings")


class SystemState(BaseModel):
    """One system of one ship, as its grid and class make it (§10.2)."""

    model_config = ConfigDict(frozen=True)

    system: str
    boxes: int
    marked: int
    threshold: int
    status: SystemStatus


class DVState(BaseModel, Ships[DVShip]):
    """Everything about a Decisive Victory game at one moment (§14.1)."""

    model_config = ConfigDict(frozen=True)

    ruleset: Literal["decisive-victory"] = RULESET
    name: str = ""
    description: str = ""
    turn: int = 1
    phase: Phase = "setup"
    sides: list[str] = []
    ships: list[DVShip] = []
    flights: list[Flight] = []
    bases: list[Base] = []
    conditions: Conditions = Conditions()
    table: Table | None = None
    hit_grid: HitGrid = RECONSTRUCTED_GRID
    success_table: SuccessTable = RECONSTRUCTED_TABLE
    initiative: str | None = None
    initiative_rolls: list[DVInitiativeRoll] = []
    batch: Batch | None = None
    attacks: list[DVAttack] = []
    smoke: list[Smoke] = []
    star_shells: list[StarShell] = []
    maintenance_step: int = 0
    attacking_resolved: int = Field(default=0, description="The turn whose aircraft attacking stage was resolved (§12.1)")
    returning_resolved: int = Field(default=0, description="The turn whose aircraft returning stage was resolved (§12.1)")
    roller: Roller = Roller(seed="00")
    settings: Settings = Settings()
    result: str | None = None
    winner: str | None = None
    conceded: list[str] = []

    def grid_of(self, ship: DVShip) -> HitGrid:
        """The ship's own grid when its record has one, else the game's (§17.1 `hit_grid`)."""
        return ship.record.hit_grid or self.hit_grid

    def system(self, ship: DVShip, name: str) -> SystemState:
        grid = self.grid_of(ship)
        own = grid.boxes_of(name)
        return SystemState(system=name, boxes=len(own), marked=sum(1 for b in own if b in ship.boxes),
                           threshold=grid.threshold(ship.record.ship_class),
                           status=system_status(grid, ship.record.ship_class, ship.boxes, name))

    def systems(self, ship: DVShip) -> list[SystemState]:
        """Every system the grid names, in the seed's order (`003:108-124`)."""
        return [self.system(ship, name) for name in SYSTEMS]

    def status(self, ship: DVShip, name: str) -> SystemStatus:
        return system_status(self.grid_of(ship), ship.record.ship_class, ship.boxes, name)

    def flagship_of(self, side: str) -> DVShip | None:
        return next((s for s in self.ships if s.side == side and s.flagship and s.in_play), None)

    def flight(self, flight_id: str) -> Flight:
        for flight in self.flights:
            if flight.id == flight_id:
                return flight
        raise KeyError(flight_id)


def marked_boxes(boxes: list[Box]) -> frozenset[Box]:
    return frozenset((int(g), int(c)) for g, c in boxes)
