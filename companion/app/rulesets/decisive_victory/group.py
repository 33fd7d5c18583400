"""The group's own Decisive Victory files, kept in the data folder beside the saved games
(spec decisive-victory.md §17, §18: "a group's own grid and Table 1 replace the reconstructed ones").

    <data folder>/decisive-victory/ships.json      decisive-victory-fleet/1: the group's ship records
    <data folder>/decisive-victory/hit-grid.json   decisive-victory-hit-grid/1: the group's hit grid
    <data folder>/decisive-victory/table-1.json    decisive-victory-success-table/1: the group's Table 1

Each file is an ordinary file of its format (`companion validate`, `companion print` and
`companion dv odds --grid/--table` read it as it is), written whole or not at all (atomic.py)
under the data folder's lock.  No file: the group has none of its own, and a new game plays the
reconstructed grid or Table 1.  A file that does not validate is named in `problems` and left
alone (never overwritten until the group saves again).

A new Decisive Victory game takes them through `build_group_game(store, scenario)`.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Iterable

from .files import load_dv_file
from ....engine.cards import FormatError
from ....engine.decisive_victory.grid import HitGrid
from ....engine.decisive_victory.records import FLEET_FORMAT, ShipFleet, ShipRecord
from ....engine.decisive_victory.scenario import DVScenario, build_dv_state
from ....engine.decisive_victory.state import DVState
from ....engine.decisive_victory.table1 import SuccessTable
from ....engine.roller import Roller
from ....store.atomic import StoreError, write_atomic, write_lock
from ....store.library import BesideTheGames
from .files import load_dv_data

FOLDER = "decisive-victory"
SHIPS_FILE = "ships.json"
GRID_FILE = "hit-grid.json"
TABLE_FILE = "table-1.json"
LOCK_FILE = ".decisive-victory.lock"


class GroupFiles:
    """The group's ship records, hit grid and Table 1: on disk under `folder`, or in memory."""

    def __init__(self, folder: str | Path | None = None):
        self.folder = None if folder is None else Path(folder) / FOLDER
        self._memory: dict[str, dict[str, Any]] = {}
        self._lock = threading.RLock()
        self.problems: list[str] = []

    # --- reading ---------------------------------------------------------------

    def _read(self, name: str) -> Any:
        """The validated file `name`, or None when the group has none (or it is bad: see problems)."""
        with self._lock:
            if self.folder is None:
                data = self._memory.get(name)
                if data is None:
                    return None

                return load_dv_data(data, name)
            path = self.folder / name
            if not path.exists():
                return None
            try:
                return load_dv_file(path)
            except FormatError as exc:
                message = f"{exc.in_file(str(path)).message}; it is left as it is and not used"
                if message not in self.problems:
                    self.problems.append(message)
                return None

    def ships(self) -> list[ShipRecord]:
        fleet = self._read(SHIPS_FILE)
        return list(fleet.ships) if isinstance(fleet, ShipFleet) else []

    def hit_grid(self) -> HitGrid | None:
        """The group's own grid, or None: play the reconstructed one."""
        grid = self._read(GRID_FILE)
        return grid if isinstance(grid, HitGrid) else None

    def success_table(self) -> SuccessTable | None:
        """The group's own Table 1, or None: play the reconstructed one."""
        table = self._read(TABLE_FILE)
        return table if isinstance(table, SuccessTable) else None

    # --- writing ---------------------------------------------------------------

    def save_ships(self, ships: list[ShipRecord]) -> ShipFleet:
        fleet = ShipFleet(name="The group's ships", ships=ships)
        self._write(SHIPS_FILE, {"format": FLEET_FORMAT, **fleet.dump()})
        return fleet

    def save_ship(self, ship: ShipRecord, replacing: str | None = None) -> ShipRecord:
        """Keep a ship record (replacing the one of id `replacing`, or of its own id)."""
        old = replacing or ship.id
        ships = [s for s in self.ships() if s.id not in (old, ship.id)]
        where = next((i for i, s in enumerate(self.ships()) if s.id == old), len(ships))
        ships.insert(min(where, len(ships)), ship)
        self.save_ships(ships)
        return ship

    def delete_ship(self, ship_id: str) -> None:
        self.save_ships([s for s in self.ships() if s.id != ship_id])

    def save_hit_grid(self, grid: HitGrid | None) -> None:
        """Keep the group's grid; None: no grid of its own (the reconstructed one is played)."""
        self._write(GRID_FILE, None if grid is None else grid.dump())

    def save_success_table(self, table: SuccessTable | None) -> None:
        self._write(TABLE_FILE, None if table is None else table.model_dump(mode="json"))

    def _write(self, name: str, data: dict[str, Any] | None) -> None:
        with self._lock:
            self.problems = [p for p in self.problems if name not in p]
            if self.folder is None:
                if data is None:
                    self._memory.pop(name, None)
                else:
                    self._memory[name] = json.loads(json.dumps(data))
                return
            path = self.folder / name
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                with write_lock(self.folder / LOCK_FILE, "the group's Decisive Victory files"):
                    if data is None:
                        path.unlink(missing_ok=True)
                    else:
                        write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
            except OSError as exc:
                raise StoreError(f"{path}: could not be saved ({exc.strerror or exc}); nothing was changed") from None


#: The group's files beside a store's games: `group_files(store)`.
group_files = BesideTheGames(GroupFiles)


def group_catalogue(files: GroupFiles, records: Iterable[ShipRecord] = ()) -> dict[str, ShipRecord]:
    """Ship records by id: `records` (the shipped ones), then the group's own (which win)."""
    return {**{r.id: r for r in records}, **{r.id: r for r in files.ships()}}


def build_group_game(store: Any, scenario: DVScenario, roller: Roller | None = None,
                     records: Iterable[ShipRecord] = ()) -> DVState:
    """A new Decisive Victory game from `scenario` played with the group's own files: its ship
    records found by id, and its hit grid and Table 1 in place of the reconstructed ones (when the
    group saved them; a scenario's own grid or table is replaced too, as `build_dv_state` does)."""
    files = group_files(store)
    return build_dv_state(scenario, group_catalogue(files, list(records)), hit_grid=files.hit_grid(),
                          success_table=files.success_table(), roller=roller)
