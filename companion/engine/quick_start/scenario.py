"""Scenario files (formats.md "Scenario"): a table position to save, share and check.

`card` is a card id (looked up in a catalogue the caller provides: the engine
reads no files) or an inline card.  Bad positions are errors, not silent
fixes: a hex off the board, two ships sharing a hex, an unknown card id.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ..board import Board
from ..cards import Card, Facing, FormatError, validated
from ..footprint import Placement
from ..hexes import Hex, PositionError, facing_name, parse_facing
from ..names import GameName, SideName
from ..roller import Roller
from .state import GameState, Settings, ShipState, SlotStatus, check_ship_count
from .table_rules import HouseRules, TableRules

SCENARIO_FORMAT: Final = "leviathans-scenario/1"
#: A destroyed slot as a scenario file writes it: hashed, or circled this turn.
Marked = Literal["destroyed", "destroyed_this_turn"]


class ScenarioShip(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    side: SideName = Field(min_length=1)
    card: str | Card
    bow: str
    facing: Facing
    moved: bool = Field(default=False, strict=True)
    damage: dict[str, dict[str, Marked]] = {}
    keel_broken: bool = Field(default=False, strict=True)
    initiative_modifier: int | None = Field(default=None, strict=True, description="H1: the ship's own initiative modifier")


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["leviathans-scenario/1"] = SCENARIO_FORMAT
    ruleset: Literal["quick-start"] = "quick-start"
    name: GameName = ""
    board: Board = Board()
    turn: int = Field(default=1, ge=1, le=9999, strict=True)
    ships: Annotated[list[ScenarioShip], BeforeValidator(check_ship_count)]
    house_rules: HouseRules | None = None
    table_rules: TableRules | None = None


def load_scenario(data: Any) -> Scenario:
    return validated(Scenario, data, SCENARIO_FORMAT)


def build_state(scenario: Scenario, catalogue: dict[str, Card], roller: Roller | None = None) -> GameState:
    """A game state at the scenario's position; FormatError naming the bad ship."""
    board = scenario.board
    ships: list[ShipState] = []
    seen: set[str] = set()
    held: dict[Hex, str] = {}  # hex -> the ship holding it: one look-up per hex, not per pair of ships
    for index, entry in enumerate(scenario.ships):
        path = f"ships.{index}"
        if entry.id in seen:
            raise FormatError(f"two ships share the id '{entry.id}'", f"{path}.id")
        seen.add(entry.id)
        card = card_for(entry.card, catalogue, path)
        ship = _place_ship(entry, card, board, path, bool(scenario.house_rules and scenario.house_rules.one_hex_ships))
        for cell in ship.hexes:
            if cell in held:
                raise FormatError(f"{entry.id} and {held[cell]} share hex {board.label(cell)}", path)
        held.update((cell, entry.id) for cell in ship.hexes)
        ships.append(ship)
    sides = list(dict.fromkeys(s.side for s in ships))
    return GameState(
        board=board, turn=scenario.turn, phase="initiative", ships=ships, sides=sides,
        roller=roller or Roller(seed="00"),
        settings=Settings(house_rules=scenario.house_rules or HouseRules(),
                          table_rules=scenario.table_rules or TableRules()),
    )


def two_sides(sides: list[str]) -> list[str]:
    """The sides of a scenario to play (`companion new`, `validate`, the app's Load a scenario), if
    there are two or more; a FormatError in plain words if not (issue 25 part 8: a one-sided game has
    no one to fight and no initiative to roll).  A position only studied (`solutions`) may have one."""
    if len(sides) >= 2:
        return sides
    what = f"every ship here is on the {sides[0]} side" if sides else "it has no ships"
    raise FormatError(f"a scenario needs ships of two sides at least to play: {what}", "ships")


def card_for(card: str | Card, catalogue: dict[str, Card], path: str) -> Card:
    """A scenario ship's card: inline, or found by its id in the catalogue."""
    if isinstance(card, Card):
        return card
    if card not in catalogue:
        known = ", ".join(sorted(catalogue)) or "none loaded"
        raise FormatError(f"unknown card id '{card}' (known: {known})", f"{path}.card")
    return catalogue[card]


def _place_ship(entry: ScenarioShip, card: Card, board: Board, path: str, one_hex: bool = False) -> ShipState:
    try:
        bow = board.parse(entry.bow)
    except PositionError as exc:
        raise FormatError(str(exc), f"{path}.bow") from None
    facing = parse_facing(entry.facing)
    placement = Placement(bow, facing, card.type, one_hex)  # H4: the bow hex only
    off = [c for c in placement.hexes if not board.contains(c)]
    if off:
        raise FormatError(
            f"{entry.id} at {board.label(bow)} facing {facing_name(facing)} has its stern off the board",
            f"{path}.bow",
        )
    damage: dict[str, dict[int, SlotStatus]] = {}
    for location, slots in entry.damage.items():
        if location not in card.locations:
            raise FormatError(f"{card.name} has no location '{location}'", f"{path}.damage.{location}")
        for number, status in slots.items():
            if not number.isdigit() or not 1 <= int(number) <= 6:
                raise FormatError(f"slot '{number}' is not 1-6", f"{path}.damage.{location}")
            if card.locations[location].slot(int(number)).kind == "miss":
                raise FormatError(f"slot {number} is a miss slot and cannot be destroyed", f"{path}.damage.{location}.{number}")
            damage.setdefault(location, {})[int(number)] = SlotStatus(status)
    return ShipState(
        id=entry.id, side=entry.side, card=card, column=bow.column, row=bow.row,
        facing=facing, moved=entry.moved, damage=damage, keel_broken=entry.keel_broken,
        initiative_modifier=entry.initiative_modifier or 0, one_hex=one_hex,
    )


def scenario_of(state: GameState, name: str = "") -> Scenario:
    """The position of a game as a scenario (cards inline, so it stands alone)."""
    ships = [
        ScenarioShip(
            id=s.id, side=s.side, card=s.card, bow=state.board.label(s.bow),
            facing=facing_name(s.facing), moved=s.moved,
            damage={loc: {str(n): _marked(st) for n, st in slots.items()} for loc, slots in s.damage.items()},
            keel_broken=s.keel_broken, initiative_modifier=s.initiative_modifier or None,
        )
        for s in state.ships
        if not s.removed
    ]
    rules = state.settings
    return Scenario(name=name, board=state.board, turn=state.turn, ships=ships,
                    house_rules=rules.house_rules if rules.house_rules.names else None,
                    table_rules=rules.table_rules if rules.table_rules.chosen else None)


def _marked(status: SlotStatus) -> Marked:
    """How a scenario writes a slot's damage (a live slot is never in a ship's damage)."""
    if status is SlotStatus.DESTROYED:
        return "destroyed"
    if status is SlotStatus.DESTROYED_THIS_TURN:
        return "destroyed_this_turn"
    raise ValueError(f"a {status.value} slot is not damage")


def dump_scenario(scenario: Scenario) -> dict[str, Any]:
    return scenario.model_dump(mode="json", by_alias=True, exclude_none=True)
