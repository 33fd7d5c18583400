"""Reading Decisive Victory files (spec decisive-victory.md §17): ships, fleets, hit grids, Table 1
and scenarios, each by its `format` tag, with every problem a FormatError naming the file.

The engine reads no files; `companion validate`, `companion print`, `companion schema` and the
app's DV editor read them here.  Older versions are upgraded and unknown ones refused by the
engine's loaders (engine/migrations.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Union

from pydantic import BaseModel

from ....engine.cards import FormatError
from ....engine.decisive_victory.grid import HitGrid, load_hit_grid
from ....engine.decisive_victory.records import FlightRecord, ShipFleet, ShipRecord, load_ship, load_ship_fleet
from ....engine.decisive_victory.scenario import load_dv_scenario, summary
from ....engine.decisive_victory.scenario import DVScenario as DVScenario, build_dv_state as build_dv_state  # commands/files
from ....engine.decisive_victory.table1 import SuccessTable, load_success_table
from ....engine.migrations import (DV_FLEET_FAMILY, DV_GRID_FAMILY, DV_SCENARIO_FAMILY, DV_SHIP_FAMILY,
                                DV_TABLE_FAMILY, dv_family_of)
from ....files import read_json
from ....files import shipped_fleets_dir

DVFile = Union[ShipRecord, ShipFleet, HitGrid, SuccessTable, DVScenario]

LOADERS: dict[str, Any] = {
    DV_SHIP_FAMILY: load_ship, DV_FLEET_FAMILY: load_ship_fleet, DV_GRID_FAMILY: load_hit_grid,
    DV_TABLE_FAMILY: load_success_table, DV_SCENARIO_FAMILY: load_dv_scenario,
}

#: `companion schema KIND`: every Decisive Victory format (spec §17), by a short name.
SCHEMAS: dict[str, type[BaseModel]] = {
    "dv-ship": ShipRecord, "dv-fleet": ShipFleet, "dv-flight": FlightRecord, "dv-hit-grid": HitGrid,
    "dv-table": SuccessTable, "dv-scenario": DVScenario,
}


def is_dv_data(data: Any) -> bool:
    """A file whose tag names a Decisive Victory format (any version: the loader judges it)."""
    tag = data.get("format") if isinstance(data, dict) else None
    return isinstance(tag, str) and tag.startswith("decisive-victory-")


def load_dv_data(data: Any, source: str = "") -> DVFile:
    """Data of any Decisive Victory format, validated; FormatError naming `source` and the path."""
    family = dv_family_of(data)
    try:
        if family is None:
            tag = data.get("format") if isinstance(data, dict) else None
            known = ", ".join(f"{f}/1" for f in LOADERS)
            raise FormatError(f"'{tag}' is not a Decisive Victory format this app knows ({known})", "format")
        loaded: DVFile = LOADERS[family](data)
        return loaded
    except FormatError as exc:
        raise exc.in_file(source) if source else exc from None


def load_dv_file(path: str | Path) -> DVFile:
    """A Decisive Victory file on disk, validated; FormatError naming the file."""
    return load_dv_data(read_json(path), Path(path).name)


def ship_records(loaded: list[DVFile]) -> list[ShipRecord]:
    """The ship records of ship and fleet files (and of a scenario's records), in order."""
    ships: list[ShipRecord] = []
    for item in loaded:
        if isinstance(item, ShipRecord):
            ships.append(item)
        elif isinstance(item, ShipFleet):
            ships.extend(item.ships)
        elif isinstance(item, DVScenario):
            ships.extend(item.records)
            ships.extend(s.ship for s in item.ships if isinstance(s.ship, ShipRecord))
    return ships


def describe(loaded: DVFile, catalogue: dict[str, ShipRecord] | None = None) -> str:
    """One line for `companion validate`."""
    if isinstance(loaded, ShipRecord):
        mark = "" if loaded.verified else ", unverified"
        return f"Decisive Victory ship {loaded.name} ({loaded.ship_class}{mark})"
    if isinstance(loaded, ShipFleet):
        return f"Decisive Victory fleet {loaded.name or '(no name)'}, {len(loaded.ships)} ships"
    if isinstance(loaded, HitGrid):
        mark = "" if loaded.verified else f", {len(loaded.unverified_boxes)} reconstructed cells (unverified)"
        return f"Decisive Victory hit grid {loaded.name or '(no name)'}, {len(loaded.rows)} rows{mark}"
    if isinstance(loaded, SuccessTable):
        mark = "" if loaded.verified else ", reconstructed bands (unverified)"
        return f"Decisive Victory Table 1 {loaded.name or '(no name)'}{mark}"
    return summary(build_dv_state(loaded, catalogue or {}))


def shipped_records() -> list[ShipRecord]:
    """The ship records of the shipped Decisive Victory files (`fleets/decisive-victory/`), each id
    once: the samples a group's new record may start from.  A broken file is passed over."""
    records: dict[str, ShipRecord] = {}
    for path in sorted((shipped_fleets_dir() / "decisive-victory").glob("*.json")):
        try:
            loaded = load_dv_file(path)
        except FormatError:
            continue
        for record in ship_records([loaded]):
            records.setdefault(record.id, record)
    return list(records.values())
