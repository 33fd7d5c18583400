"""Decisive Victory scenario files (`decisive-victory-scenario/1`, spec §17.4).

A table position: the conditions, every ship with its side, its record (an id
found in `records` or the caller's catalogue, or inline), commander, speed
mode, optional plot and damage (a position mid-game), the land bases and the
flights in the air.  Bad values are errors naming the JSON path, never silent
fixes.  The engine reads no files: the caller passes the catalogue of records
and, when the group has its own, the hit grid and Table 1 that replace the
reconstructed ones (§18).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BeforeValidator, Field

from ..cards import FormatError, Sources, Whole, StrictModel
from ..names import GameName, ShipName, SideName
from ..roller import Roller
from ..quick_start.state import check_ship_count
from .grid import HitGrid
from .records import FlightRecord, Rank, ShipRecord
from .state import (RULESET, Base, Conditions, DVShip, DVState, Flight, Plot, Rudder, SpeedMode, Stage, Table,
                    marked_boxes)
from .table1 import SuccessTable
from .validate import dv_validated
from .grid import RECONSTRUCTED as GRID
from .table1 import RECONSTRUCTED as TABLE

SCENARIO_FORMAT: Final = "decisive-victory-scenario/1"


class ScenarioShip(StrictModel):
    id: str = Field(min_length=1)
    side: SideName = Field(min_length=1)
    ship: str | ShipRecord = Field(description="A record id (scenario records or the fleets) or an inline record")
    name: ShipName = ""
    commander: Rank
    flagship: bool = Field(default=False, strict=True)
    speed_mode: SpeedMode = "full"
    position: Plot | None = None
    damage_points: Whole = Field(default=0, ge=0, le=999)
    minor_damage: Whole = Field(default=0, ge=0, le=999)
    boxes: list[tuple[Whole, Whole]] = Field(default=[], description="Marked boxes: [row group, column]")
    rudder: Rudder = "free"
    salvoes_left: dict[str, Whole] | None = None


class ScenarioBase(StrictModel):
    id: str = Field(min_length=1)
    side: SideName = Field(min_length=1)
    name: ShipName = ""
    aa: Whole = Field(default=0, ge=0, le=99)


class ScenarioFlight(StrictModel):
    id: str = Field(min_length=1)
    side: SideName = Field(min_length=1)
    flight: FlightRecord
    base: str = Field(min_length=1)
    stage: Stage = "landed"
    counter: Whole = Field(default=0, ge=0, le=99)
    launch_counter: Whole | None = Field(default=None, ge=0, le=99)
    target: str | None = None
    on_table: bool = Field(default=False, strict=True)


class DVScenario(StrictModel):
    format: Literal["decisive-victory-scenario/1"] = SCENARIO_FORMAT
    ruleset: Literal["decisive-victory"] = RULESET
    name: GameName = ""
    description: str = ""
    sources: Sources | None = None
    turn: Whole = Field(default=1, ge=1, le=9999)
    table: Table | None = None
    conditions: Conditions = Conditions()
    hit_grid: HitGrid | None = Field(default=None, description="The group's grid; null: the reconstructed one")
    success_table: SuccessTable | None = Field(default=None, description="The group's Table 1; null: the reconstructed one")
    records: list[ShipRecord] = Field(default=[], description="Ship records of this scenario, found by id before the fleets")
    ships: Annotated[list[ScenarioShip], BeforeValidator(check_ship_count)]
    bases: list[ScenarioBase] = []
    flights: list[ScenarioFlight] = []


def load_dv_scenario(data: Any) -> DVScenario:
    """Validate a Decisive Victory scenario; FormatError naming the JSON path."""
    return dv_validated(DVScenario, data, SCENARIO_FORMAT)


def dump_dv_scenario(scenario: DVScenario) -> dict[str, Any]:
    return scenario.model_dump(mode="json", by_alias=True)


def build_dv_state(scenario: DVScenario, catalogue: dict[str, ShipRecord] | None = None,
                   hit_grid: HitGrid | None = None, success_table: SuccessTable | None = None,
                   roller: Roller | None = None) -> DVState:
    """A game at the scenario's position; FormatError naming the bad entry.

    `hit_grid` and `success_table` (a group's own) replace the scenario's, which
    replace the reconstructed ones; a record's own grid still rules its ship.
    """
    records = {**(catalogue or {}), **{r.id: r for r in scenario.records}}
    state = DVState(name=scenario.name, description=scenario.description, turn=scenario.turn,
                    conditions=scenario.conditions, table=scenario.table, roller=roller or Roller(seed="00"))
    grid = hit_grid or scenario.hit_grid
    table = success_table or scenario.success_table
    state = state.model_copy(update={k: v for k, v in (("hit_grid", grid), ("success_table", table)) if v})
    ships = [_ship(entry, records, state, f"ships.{i}") for i, entry in enumerate(scenario.ships)]
    _check_unique([s.id for s in ships], "ships", "ship")
    ships = _flagships(ships)
    bases = [Base(id=b.id, side=b.side, name=b.name, aa=b.aa) for b in scenario.bases]
    _check_unique([s.id for s in ships] + [b.id for b in bases], "bases", "ship or base", offset=len(ships))
    state = state.model_copy(update={"ships": ships, "bases": bases,
                                     "sides": list(dict.fromkeys([s.side for s in ships] + [b.side for b in bases]))})
    return state.model_copy(update={"flights": _flights(scenario, state)})


def record_for(ship: str | ShipRecord, records: dict[str, ShipRecord], path: str) -> ShipRecord:
    """A scenario ship's record: inline, or found by id."""
    if isinstance(ship, ShipRecord):
        return ship
    if ship not in records:
        known = ", ".join(sorted(records)) or "none loaded"
        raise FormatError(f"unknown ship record '{ship}' (known: {known})", f"{path}.ship")
    return records[ship]


def _ship(entry: ScenarioShip, records: dict[str, ShipRecord], state: DVState, path: str) -> DVShip:
    record = record_for(entry.ship, records, path)
    grid = record.hit_grid or state.hit_grid
    rows = len(grid.rows)
    for k, (group, column) in enumerate(entry.boxes):
        if not (1 <= group <= rows and 1 <= column <= 6):
            raise FormatError(f"[{group}, {column}] is not a box: row group 1-{rows}, column 1-6", f"{path}.boxes.{k}")
        if (group, column) in entry.boxes[:k]:
            raise FormatError(f"box [{group}, {column}] is marked twice: each box is marked once (003:99)",
                              f"{path}.boxes.{k}")
    return DVShip(id=entry.id, side=entry.side, name=entry.name, record=record, commander=entry.commander,
                  flagship=entry.flagship, speed_mode=entry.speed_mode, position=entry.position,
                  damage_points=entry.damage_points, minor_damage=entry.minor_damage,
                  boxes=marked_boxes(list(entry.boxes)), rudder=entry.rudder,
                  salvoes_left=_salvoes(entry, record, path))


def _salvoes(entry: ScenarioShip, record: ShipRecord, path: str) -> dict[str, int]:
    carried = record.torpedo_salvoes
    for system, left in (entry.salvoes_left or {}).items():
        if system not in carried:
            raise FormatError(f"{record.name} has no torpedo system '{system}' (its torpedoes: "
                              f"{', '.join(carried) or 'none'})", f"{path}.salvoes_left.{system}")
        if left > carried[system]:
            raise FormatError(f"{left} salvoes left, but '{system}' carries {carried[system]}",
                              f"{path}.salvoes_left.{system}")
    return {**carried, **(entry.salvoes_left or {})}


def _flagships(ships: list[DVShip]) -> list[DVShip]:
    """At most one flagship a side, carrying its best commander [R-10]; none named: the ship of the
    single best commander (two share the best rank: the side names one in set-up)."""
    out = list(ships)
    for side in dict.fromkeys(s.side for s in ships):
        own = [i for i, s in enumerate(ships) if s.side == side]
        best = max(ships[i].command_score for i in own)
        named = [i for i in own if ships[i].flagship]
        if len(named) > 1:
            raise FormatError(f"{side} names {len(named)} flagships: a side has one", f"ships.{named[1]}.flagship")
        if named and ships[named[0]].command_score < best:
            raise FormatError(f"the flagship carries {side}'s highest-ranked commander (spec R-10): "
                              f"{ships[named[0]].label} has a {ships[named[0]].commander}",
                              f"ships.{named[0]}.flagship")
        tops = [i for i in own if ships[i].command_score == best]
        if not named and len(tops) == 1:
            out[tops[0]] = ships[tops[0]].model_copy(update={"flagship": True})
    return out


def _flights(scenario: DVScenario, state: DVState) -> list[Flight]:
    """Each ship's embarked flights, landed (id `<ship>.<flight>`), then the scenario's flights
    (one with an embarked flight's id replaces it)."""
    flights = {f"{s.id}.{f.id}": Flight(id=f"{s.id}.{f.id}", side=s.side, record=f, base=s.id)
               for s in state.ships for f in s.record.flights}
    carriers = {s.id: s.side for s in state.ships} | {b.id: b.side for b in state.bases}
    ground = {b.id for b in state.bases}
    ids = [f.id for f in scenario.flights]
    for i, entry in enumerate(scenario.flights):
        path = f"flights.{i}"
        if entry.id in ids[:i]:
            raise FormatError(f"two flights share the id '{entry.id}'", f"{path}.id")
        if entry.base not in carriers:
            raise FormatError(f"no ship or base '{entry.base}' (known: {', '.join(carriers) or 'none'})", f"{path}.base")
        if carriers[entry.base] != entry.side:
            raise FormatError(f"'{entry.base}' is {carriers[entry.base]}'s, not {entry.side}'s", f"{path}.base")
        if entry.base not in ground and not entry.flight.naval:
            raise FormatError("ground based flights can only land on ground bases (003:200)", f"{path}.base")
        if entry.target is not None and entry.target not in carriers:
            raise FormatError(f"no ship or base '{entry.target}'", f"{path}.target")
        launch = entry.counter if entry.launch_counter is None else entry.launch_counter
        flights[entry.id] = Flight(id=entry.id, side=entry.side, record=entry.flight, base=entry.base,
                                   stage=entry.stage, counter=entry.counter, launch_counter=launch,
                                   entered_stage_turn=scenario.turn, target=entry.target, on_table=entry.on_table)
    return list(flights.values())


def _check_unique(ids: list[str], where: str, noun: str, offset: int = 0) -> None:
    """FormatError at the first id met twice (`offset`: ids before the list `where` names)."""
    seen: set[str] = set()
    for i, item in enumerate(ids):
        if item in seen:
            raise FormatError(f"two entries share the {noun} id '{item}'", f"{where}.{i - offset}.id")
        seen.add(item)


def scenario_of(state: DVState, name: str = "") -> DVScenario:
    """A game's position as a scenario that stands alone: each record once in `records`, ships
    naming it by id; the game's grid and Table 1 written only when they are a group's own."""
    records: dict[str, ShipRecord] = {}
    ships = []
    for s in state.active_ships:
        records.setdefault(s.record.id, s.record)
        ships.append(ScenarioShip(
            id=s.id, side=s.side, ship=s.record.id, name=s.name, commander=s.commander, flagship=s.flagship,
            speed_mode=s.speed_mode, position=s.position, damage_points=s.damage_points,
            minor_damage=s.minor_damage, boxes=sorted(s.boxes), rudder=s.rudder,
            salvoes_left=s.salvoes_left if s.salvoes_left != s.record.torpedo_salvoes else None))
    embarked = {f"{s.id}.{f.id}" for s in state.ships for f in s.record.flights}
    flights = [ScenarioFlight(id=f.id, side=f.side, flight=f.record, base=f.base, stage=f.stage, counter=f.counter,
                              launch_counter=f.launch_counter, target=f.target, on_table=f.on_table)
               for f in state.flights if not (f.id in embarked and f.stage == "landed" and not f.on_table)]
    return DVScenario(
        name=name or state.name, description=state.description, turn=state.turn, table=state.table,
        conditions=state.conditions, hit_grid=None if state.hit_grid == GRID else state.hit_grid,
        success_table=None if state.success_table == TABLE else state.success_table,
        records=list(records.values()), ships=ships,
        bases=[ScenarioBase(id=b.id, side=b.side, name=b.name, aa=b.aa) for b in state.bases], flights=flights)


def summary(state: DVState) -> str:
    """One line for `companion validate`."""
    per_side = ", ".join(f"{sum(1 for s in state.ships if s.side == side)} {side}" for side in state.sides)
    marks = [] if state.hit_grid.verified else ["reconstructed hit grid"]
    marks += [] if state.success_table.verified else ["reconstructed Table 1"]
    return f"Decisive Victory scenario, {len(state.ships)} ships ({per_side})" + (
        f"; {' and '.join(marks)} (unverified)" if marks else "")
