"""Ship and game state as plain data, and what a ship card's damage means.

Seed 001 "Damage" (p. 19-20): a slot destroyed this turn is circled and still
works until the end of the turn; at the end of the turn it is hashed and does
nothing from then on.  Rules-notes 6-8 fix the readings used here.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from ..board import Board
from ..common import InitiativeRoll as InitiativeRoll, Ships
from ..cards import ArmorSlot, Card, CrewSlot, EngineSlot, GunSlot, TeslaCoilSlot
from ..dice import Pool
from ..footprint import Placement
from ..hexes import Hex, facing_name
from ..roller import DieRoll, Roller
from .table_rules import HouseRules, TableRules


class SlotStatus(str, Enum):
    LIVE = "live"
    DESTROYED_THIS_TURN = "destroyed_this_turn"  # circled
    DESTROYED = "destroyed"  # hashed


Damage = dict[str, dict[int, SlotStatus]]
#: One kind of slot (a slot class of cards.py), for `ShipState.slots_of_kind`.
SlotKind = TypeVar("SlotKind")

#: Ships a scenario or an imported game may hold (docs/formats.md "Limits"): five
#: times the 40 ships of the twenty-against-twenty War Fleet battle.
MAX_SHIPS = 200


def check_ship_count(ships: object) -> object:
    """A pydantic "before" check: a list of more than MAX_SHIPS ships is refused
    before any is read (a 2,000-ship file gets its answer at once)."""
    if isinstance(ships, list) and len(ships) > MAX_SHIPS:
        raise ValueError(f"a table holds at most {MAX_SHIPS} ships; this one has {len(ships)}")
    return ships


class ShipState(BaseModel):
    """One ship on the table: its card, where it stands, its damage, its move."""

    model_config = ConfigDict(frozen=True)

    id: str
    side: str
    card: Card
    column: int = Field(strict=True)
    row: int = Field(strict=True)
    facing: int = Field(ge=0, le=5, strict=True)
    moved: bool = Field(default=False, strict=True)
    damage: Damage = {}
    # this turn's movement
    mp_spent: int = 0
    entered_since_turn: int = 0
    turned_in_this_hex: bool = False
    move_done: bool = False
    # house rules (seed 002): H1's ship modifier, H3's declared turn
    initiative_modifier: int = Field(default=0, strict=True)
    turn_declared: bool = False
    entered_since_declared: int = 0
    declared_side: Literal["port", "starboard"] | None = None
    one_hex: bool = Field(default=False, strict=True, description="H4: the ship fills its bow hex only")
    turn_mp: int | None = Field(
        default=None, ge=0,
        description="This turn's MP, fixed once the turn's movement began and an engine was marked by hand "
                    "(None: counted from the engines)",
    )
    # destruction
    keel_broken: bool = False
    left_board: bool = False
    removed: bool = False

    # --- geometry ------------------------------------------------------

    @property
    def bow(self) -> Hex:
        return Hex.at(self.column, self.row)

    @property
    def placement(self) -> Placement:
        return Placement(self.bow, self.facing, self.card.type, self.one_hex)

    @property
    def hexes(self) -> tuple[Hex, ...]:
        return self.placement.hexes

    def at(self, placement: Placement, **changes: object) -> "ShipState":
        bow = placement.bow
        return self.model_copy(
            update={"column": bow.column, "row": bow.row, "facing": placement.facing, **changes}
        )

    def describe_position(self, board: Board) -> str:
        return f"{board.label(self.bow)} facing {facing_name(self.facing)}"

    # --- slots ---------------------------------------------------------

    def status(self, location: str, slot: int) -> SlotStatus:
        return self.damage.get(location, {}).get(slot, SlotStatus.LIVE)

    def works(self, location: str, slot: int) -> bool:
        """A slot works unless it was destroyed in an earlier turn (hashed)."""
        return self.status(location, slot) is not SlotStatus.DESTROYED

    def is_destroyed(self, location: str, slot: int) -> bool:
        return self.status(location, slot) is not SlotStatus.LIVE

    def with_status(self, location: str, slot: int, status: SlotStatus) -> "ShipState":
        damage = {loc: dict(slots) for loc, slots in self.damage.items()}
        slots = damage.setdefault(location, {})
        if status is SlotStatus.LIVE:
            slots.pop(slot, None)
        else:
            slots[slot] = status
        damage = {loc: slots for loc, slots in damage.items() if slots}
        return self.model_copy(update={"damage": damage})

    def slots_of_kind(self, kind: type[SlotKind]) -> Iterator[tuple[str, int, SlotKind]]:
        """(location, slot number, slot) for every slot of one kind (GunSlot, CrewSlot, ...)."""
        for location, loc in self.card.locations.items():
            for number, slot in enumerate(loc.slots, start=1):
                if isinstance(slot, kind):
                    yield location, number, slot

    # --- derived values (seed 001 pp. 8-20) ----------------------------

    @property
    def movement_points(self) -> int:
        """MP this turn: engines not destroyed in an earlier turn (seed 001 p. 20).

        The MP are those "available at the start of a turn" (seed 001
        "Movement"): an engine marked destroyed by hand once the turn's
        movement began is lost from the next turn (`turn_mp` holds this turn's).
        """
        if self.turn_mp is not None:
            return self.turn_mp
        return self.engine_mp

    @property
    def engine_mp(self) -> int:
        """MP of every engine not destroyed in an earlier turn, counted now."""
        return sum(slot.mp for loc, n, slot in self.slots_of_kind(EngineSlot) if self.works(loc, n))

    @property
    def mp_left(self) -> int:
        return max(0, self.movement_points - self.mp_spent)

    @property
    def tesla_modifier(self) -> int:
        """-1 per Tesla Coil Trim Tank destroyed in an earlier turn (seed 001 p. 20)."""
        return -sum(1 for loc, n, _ in self.slots_of_kind(TeslaCoilSlot) if not self.works(loc, n))

    def armour(self, location: str) -> int:
        """Breach modifier of every working armour slot of a location (seed 001 p. 19)."""
        return sum(
            slot.breach_modifier
            for loc, n, slot in self.slots_of_kind(ArmorSlot)
            if loc == location and self.works(loc, n)
        )

    def breach_numbers(self, location: str) -> list[int | None]:
        """Breach numbers of a location with armour included (None for miss slots)."""
        extra = self.armour(location)
        return [
            None if slot.kind == "miss" else slot.breach + extra
            for slot in self.card.locations[location].slots
        ]

    def crew_dice(self, location: str) -> Pool:
        """Dice of every working crew slot in a location."""
        crews = (slot.pool for loc, n, slot in self.slots_of_kind(CrewSlot) if loc == location and self.works(loc, n))
        return sum(crews, Pool())

    def location_dice(self, location: str) -> Pool:
        """`go` dice if the ship entered a new hex this turn, else `stop` dice."""
        return self.card.locations[location].dice(self.moved)

    def destroyed_count(self, location: str | None = None) -> int:
        """Destroyed slots (circled or hashed), miss slots not counted."""
        return sum(
            len(slots) for loc, slots in self.damage.items() if location in (None, loc)
        )

    def location_wrecked(self, location: str) -> bool:
        """Every slot of the location destroyed, miss slots counting as destroyed."""
        loc = self.card.locations[location]
        return all(
            slot.kind == "miss" or self.is_destroyed(location, n)
            for n, slot in enumerate(loc.slots, start=1)
        )

    @property
    def destruction(self) -> str | None:
        """Why the ship counts as destroyed (seed 001 "Ending the Game"), or None."""
        if self.keel_broken:
            return "its keel broke"
        if self.left_board:
            return "it ended its move in the half-hexes at the table edge"
        for location in self.card.locations:
            if self.location_wrecked(location):
                return f"every slot of its {location.replace('_', ' ')} is destroyed"
        si = self.card.structural_integrity
        if 2 * self.destroyed_count() >= si:
            return f"{self.destroyed_count()} destroyed slots reach half its SI {si}"
        return None

    @property
    def working_guns(self) -> list[tuple[str, int]]:
        return [(loc, n) for loc, n, _ in self.slots_of_kind(GunSlot) if self.works(loc, n)]


#: What one breach roll did (seed 001 "Breach Roll", "Critical Damage").
ShotOutcome = Literal["miss", "no_effect", "slot_destroyed", "keel_break"]


class ShotResult(BaseModel):
    """Every die of one breach roll and what it did; first the d6 that picked the struck location
    when the table rule two_locations is "roll" (first, so the dice read in the order rolled)."""

    location_roll: DieRoll | None = None
    pool: list[DieRoll]
    modifier: int = 0
    slot_rolls: list[int]
    keel_dice: list[DieRoll] = []
    total: int
    outcome: ShotOutcome
    slot: int | None = None
    text: str = ""


#: The range band a declared shot rolls (seed 001 "Range").
FiringBand = Literal["short", "long"]


class Shot(BaseModel):
    """A declared shot: one gun slot at one target location.

    `target_location` is None while the location is still to be decided (table rule
    two_locations: the target's side chooses, or a d6 at the roll), between `may_strike`.
    """

    id: int
    attacker: str
    location: str
    slot: int
    target: str
    target_location: str | None
    may_strike: list[str] = []
    band: FiringBand = "long"
    result: ShotResult | None = None


class Settings(BaseModel):
    bookkeeping: bool = Field(
        default=False, description="Record positions, marks and rolls as entered; warn, never refuse"
    )
    house_rules: HouseRules = HouseRules()
    table_rules: TableRules = TableRules()


class UnitInitiative(BaseModel):
    """H1: one ship's initiative roll (house-rules.md 4.6): 1d10 + modifier, and its re-roll on a tie."""

    ship: str
    modifier: int
    first: DieRoll
    first_total: int
    reroll: DieRoll | None = None
    reroll_total: int | None = None


class SealedMove(BaseModel):
    """H1: a ship's secretly recorded end position, revealed with its simultaneous group."""

    ship: str
    bow: str
    facing: int
    moved: bool


Phase = Literal["setup", "initiative", "movement", "combat", "over"]


class GameState(BaseModel, Ships[ShipState]):
    """Everything about a game at one moment. Plain data; change it with `apply`."""

    model_config = ConfigDict(frozen=True)

    ruleset: Literal["quick-start"] = "quick-start"
    board: Board = Board()
    turn: int = Field(default=1, ge=1, strict=True)
    phase: Phase = "initiative"
    ships: list[ShipState] = []
    sides: list[str] = []
    initiative: str | None = None
    initiative_rolls: list[InitiativeRoll] = []
    shots: list[Shot] = []
    roller: Roller = Roller(seed="00")
    settings: Settings = Settings()
    result: str | None = None
    winner: str | None = None
    conceded: list[str] = []
    # house rules (seed 002): H1's rolls, move order and sealed records; H2's mover stack
    unit_initiative: list[UnitInitiative] = []
    move_order: list[list[str]] = []
    movers: list[str] = []
    sealed_moves: dict[str, SealedMove] = {}

    @property
    def house_rules(self) -> HouseRules:
        return self.settings.house_rules

    @property
    def table_rules(self) -> TableRules:
        return self.settings.table_rules

    def enemies_of(self, ship: ShipState) -> list[ShipState]:
        return [s for s in self.active_ships if s.side != ship.side]

    def loser(self) -> str | None:
        if self.initiative is None:
            return None
        others = [s for s in self.sides if s != self.initiative]
        return others[0] if others else None


def position_problem(state: GameState) -> str | None:
    """Why a game's starting position cannot be played, naming the ships, or None.

    For a position read from a file (an imported game): too many ships, a ship
    off the board, two ships sharing a hex (seed 001 "Movement": a ship "may
    not end its move" sharing a hex; nor does it start so).  One pass over the
    hexes, indexed: near-linear in the number of ships.
    """
    if len(state.ships) > MAX_SHIPS:
        return f"a table holds at most {MAX_SHIPS} ships; this one has {len(state.ships)}"
    board = state.board
    held: dict[Hex, ShipState] = {}
    for ship in state.active_ships:
        for cell in ship.hexes:
            if not board.contains(cell):
                return f"{ship.card.name} ({ship.id}) stands off the board at {ship.describe_position(board)}"
            other = held.get(cell)
            if other is not None and other.id != ship.id:
                return f"{ship.card.name} ({ship.id}) and {other.card.name} ({other.id}) share hex {board.label(cell)}"
            held[cell] = ship
    return None
