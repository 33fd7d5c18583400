"""Decisive Victory's own files on the command line: `validate` and `print` of its ship, fleet,
hit grid, Table 1 and scenario files (spec decisive-victory.md §17).

The shared `validate` and `print` commands (files.py, print_cards.py) hand a
Decisive Victory file (`is_dv_data`) to these, so they never check its types.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..app.rulesets.decisive_victory import printing as dv_printing
from ..app.rulesets.decisive_victory.files import (
    DVScenario, build_dv_state, describe, is_dv_data, load_dv_file, ship_records,
)
from ..engine.cards import FormatError
from ..engine.decisive_victory.grid import RECONSTRUCTED, HitGrid
from ..engine.decisive_victory.records import ShipFleet, ShipRecord
from ..engine.quick_start.scenario import two_sides
from ..files import read_json
from .common import CommandError


def check_dv_file(path: str, fleets: list[str]) -> str | None:
    """A Decisive Victory file's one line (spec decisive-victory.md §17), or None for another format;
    a scenario naming ship ids finds them in the DV ship and fleet files given by --fleet."""
    if not is_dv_data(read_json(path)):
        return None
    loaded = load_dv_file(path)
    extra = [load_dv_file(p) for p in fleets if is_dv_data(read_json(p))]
    records = {r.id: r for r in ship_records(extra)}
    try:
        if isinstance(loaded, DVScenario):
            two_sides(build_dv_state(loaded, records).sides)
        return describe(loaded, records)
    except FormatError as exc:
        raise exc.in_file(Path(path).name) from None


def _records(files: list[str]) -> tuple[list[ShipRecord], Any, list[str]]:
    """The ship records of the ship and fleet files, the hit grid to print them with (a grid file's,
    else the reconstructed one) and the files' names; CommandError naming a file of another kind."""
    ships: list[ShipRecord] = []
    grid: Any = RECONSTRUCTED
    names = []
    for path in files:
        if not is_dv_data(read_json(path)):
            raise CommandError(f"{path}: is not a Decisive Victory file; print Leviathans cards separately")
        item = load_dv_file(path)
        if isinstance(item, HitGrid):
            grid = item
        elif isinstance(item, (ShipRecord, ShipFleet)):
            ships.extend(ship_records([item]))
            names.append(item.name)
        else:
            raise CommandError(f"{path}: is a {item.format.split('/')[0]} file; print the ship or fleet files "
                               "(a hit grid file is used for the ships' grid)")
    return ships, grid, names


def dv_records_page(files: list[str]) -> tuple[str, str]:
    """Decisive Victory ship records (spec decisive-victory.md 17.1) of ship and fleet files, and a hit
    grid file for the ships without their own grid (default: the reconstructed grid, marked): the
    printable page, and what it holds in words for `print` to say."""
    ships, grid, names = _records(files)
    if not ships:
        raise CommandError("no ship or fleet file among the files: nothing to print")
    title = names[0] if len(names) == 1 and names[0] else "Ship records"
    unverified = sum(1 for s in ships if not s.verified)
    note = f"; {unverified} sample or unverified, check against your records" if unverified else ""
    held = f"{len(ships)} ship record{'s' if len(ships) != 1 else ''}{note}"
    return dv_printing.render_records(ships, title, grid), held
