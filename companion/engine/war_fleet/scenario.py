"""War Fleet scenario files (`leviathans-warfleet-scenario/1`, docs/formats.md).

A War Fleet table position: the board, and every ship with its side, its
Quick-Start card (an id found in the catalogue, or inline) and/or its War
Fleet stats, its hex and facing, and its destroyed locations.  A ship with a
card and no stats gets the card's conversion; a ship with stats keeps them
(hand-edited stats) and its card stays its source for pocket battles.  A ship
without a hex is placed during set-up.  The engine reads no files: the caller
passes the catalogue of cards.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from ..board import Board
from ..cards import Card, Facing, FormatError, PoolText, validated
from ..hexes import PositionError, facing_name, parse_facing
from ..names import GameName, ShipName, SideName
from ..quick_start.table_rules import TableRules
from ..roller import Roller
from ..quick_start.scenario import card_for
from ..quick_start.state import check_ship_count
from .convert import convert_card
from .state import RULESET, Phase, Settings, WarFleetState, WarShip
from .stats import WarFleetStats

WARFLEET_SCENARIO_FORMAT: Final = "leviathans-warfleet-scenario/1"


class ScenarioWarShip(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    side: SideName = Field(min_length=1)
    name: ShipName = ""
    card: str | Card | None = None
    stats: WarFleetStats | None = None
    hex: str | None = None
    facing: Facing = "N"
    destroyed: list[str] = []

    @model_validator(mode="after")
    def _card_or_stats(self) -> Self:
        if self.card is None and self.stats is None:
            raise ValueError("a ship needs a card (id or inline) or War Fleet stats")
        return self


class WarFleetScenario(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["leviathans-warfleet-scenario/1"] = WARFLEET_SCENARIO_FORMAT
    ruleset: Literal["war-fleet"] = RULESET
    name: GameName = ""
    description: str = ""
    board: Board = Board(columns=30, rows=20)
    turn: int = Field(default=1, ge=1, le=9999, strict=True)
    initiative_dice: PoolText = "DBlack"
    table_rules: TableRules | None = None
    cards: list[Card] = Field(default=[], description="Quick-Start cards of this scenario, found by id before the catalogue")
    ships: Annotated[list[ScenarioWarShip], BeforeValidator(check_ship_count)]


def load_warfleet_scenario(data: Any) -> WarFleetScenario:
    """Validate a War Fleet scenario; FormatError naming the JSON path."""
    return validated(WarFleetScenario, data, WARFLEET_SCENARIO_FORMAT)


def build_warfleet_state(
    scenario: WarFleetScenario, catalogue: dict[str, Card], roller: Roller | None = None,
) -> WarFleetState:
    """A War Fleet game at the scenario's position; FormatError naming the bad ship.

    Any number of ships may share a hex (seed 004 "Ahead Full!": "any number
    of ships may occupy a hex"); a hex off the board is an error.  With every
    ship placed the game starts at initiative, else with set-up.
    """
    board = scenario.board
    catalogue = {**catalogue, **{card.id: card for card in scenario.cards}}
    ships: list[WarShip] = []
    seen: set[str] = set()
    for index, entry in enumerate(scenario.ships):
        path = f"ships.{index}"
        if entry.id in seen:
            raise FormatError(f"two ships share the id '{entry.id}'", f"{path}.id")
        seen.add(entry.id)
        card = None if entry.card is None else card_for(entry.card, catalogue, path)
        stats = _stats_for(entry, card, path)
        ship = WarShip(id=entry.id, side=entry.side, ship_name=entry.name, stats=stats, source=card,
                       facing=parse_facing(entry.facing))
        if entry.hex is not None:
            try:
                cell = board.parse(entry.hex)
            except PositionError as exc:
                raise FormatError(str(exc), f"{path}.hex") from None
            ship = ship.at(cell)
        for location in entry.destroyed:
            if location not in stats.locations:
                raise FormatError(f"{stats.name or entry.id} has no location '{location}'", f"{path}.destroyed")
            ship = ship.with_location(location, "destroyed")
        ships.append(ship)
    sides = list(dict.fromkeys(s.side for s in ships))
    phase: Phase = "initiative" if all(s.placed for s in ships) else "setup"
    return WarFleetState(
        name=scenario.name, board=board, turn=scenario.turn, phase=phase, ships=ships, sides=sides,
        roller=roller or Roller(seed="00"), settings=Settings(initiative_dice=scenario.initiative_dice,
                                                             table_rules=scenario.table_rules or TableRules()),
    )


def _stats_for(entry: ScenarioWarShip, card: Card | None, path: str) -> WarFleetStats:
    """The ship's own stats, else its card's conversion (`_card_or_stats`: it has one)."""
    if entry.stats is not None:
        return entry.stats
    if card is None:
        raise FormatError("a ship needs a card (id or inline) or War Fleet stats", path)
    return convert_card(card)


def scenario_of(state: WarFleetState, name: str = "") -> WarFleetScenario:
    """The position of a War Fleet game as a scenario that stands alone: each source
    card once in `cards`, ships naming it by id; stats written out only where
    they differ from the card's conversion (edited by hand)."""
    cards: dict[str, Card] = {}
    ships = []
    for s in state.ships:
        if s.removed:
            continue
        if s.source is not None:
            cards.setdefault(s.source.id, s.source)
        edited = s.source is None or convert_card(s.source) != s.stats
        ships.append(ScenarioWarShip(
            id=s.id, side=s.side, name=s.ship_name, card=s.source.id if s.source else None,
            stats=s.stats if edited else None,
            hex=state.board.label(s.hex) if s.placed else None, facing=facing_name(s.facing),
            destroyed=sorted(s.destroyed),
        ))
    rules = state.settings.table_rules  # left out when every one is the app's reading
    return WarFleetScenario(
        name=name or state.name, board=state.board, turn=state.turn, initiative_dice=state.settings.initiative_dice,
        table_rules=rules if rules.chosen else None, cards=list(cards.values()), ships=ships,
    )


def dump_warfleet_scenario(scenario: WarFleetScenario) -> dict[str, Any]:
    data = scenario.model_dump(mode="json", by_alias=True, exclude_none=True)
    data["cards"] = [card.dump() for card in scenario.cards]
    return data


def summary(state: WarFleetState) -> str:
    """One line for `companion validate`."""
    per_side = ", ".join(f"{sum(1 for s in state.ships if s.side == side)} {side}" for side in state.sides)
    return (f"War Fleet scenario, {len(state.ships)} ships ({per_side}) "
            f"on {state.board.columns} x {state.board.rows}")
