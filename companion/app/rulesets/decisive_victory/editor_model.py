"""The Decisive Victory editor's state, without flet: a ship record, the hit grid and Table 1 as
drafts, every field editable, problems in plain words naming the field (spec decisive-victory.md
§3, §10.1, §2.2, §17).

Each draft is the file as it is saved (a plain dict); the checks are the engine's own models
(`ShipRecord`, `HitGrid`, `SuccessTable`), so the editor accepts exactly the files the CLI and a
game accept.  Saving goes to the group's own files (app/rulesets/decisive_victory/group.py); a new game plays the
group's grid and Table 1 in place of the reconstructed ones (`dv_group.build_group_game`).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from ....engine.cards import FormatError
from ....engine.decisive_victory.grid import COLUMNS, RECONSTRUCTED as RECONSTRUCTED_GRID, SYSTEMS, HitGrid
from ....engine.decisive_victory.records import SHIP_FORMAT, ShipRecord
from ...editor_model import WHOLE_NUMBER_ERRORS, Edited, Problem, field_words
from .air_model import TYPES as FLIGHT_TYPES  # noqa: F401 (the editor's flight types)
from ....engine.decisive_victory.table1 import HIGHEST, LOWEST, RECONSTRUCTED as RECONSTRUCTED_TABLE, SuccessTable

Path = tuple  # a place in a draft: ("weapons", 1, "fire_control")

CLASSES = {"destroyer": "Destroyer", "cruiser": "Cruiser", "capital": "Capital ship"}
ARMORS = ("deck", "belt", "underwater")
KINDS = {"gun": "Gun battery", "torpedo": "Torpedo tubes"}
ARCS = ("fore", "aft", "port", "starboard", "all")
FIELD_WORDS = {
    "id": "record id", "name": "name", "nation": "nation", "class": "class", "speed": "speed",
    "turning_class": "turning class", "armor": "armour", "deck": "deck", "belt": "belt", "underwater": "underwater",
    "critical_damage_threshold": "critical damage threshold (CDT)", "collision_rating": "collision rating (CR)",
    "aa": "AA score", "spotter_planes": "spotter planes", "weapons": "weapon systems",
    "fire_control": "fire control (FC)", "strength": "strength (S)", "damage": "damage dice (D)",
    "salvoes": "salvoes", "radar": "gunnery radar", "dual_purpose_aa": "dual-purpose AA", "mounts": "mounts",
    "arcs": "arcs", "max_range": "maximum range", "kind": "kind", "flight_deck": "flight deck",
    "launch_per_turn": "launches a turn", "lands_in_combat": "lands in combat", "flights": "flights",
    "type": "type", "quality": "quality", "rows": "rows", "dice": "1st die", "cells": "cells",
    "thresholds": "thresholds", "destroyer": "destroyer", "cruiser": "cruiser", "capital": "capital ship",
    "bands": "bands", "totals": "totals", "sources": "sources", "notes": "notes",
}
#: Numbers a record may leave empty (null): typed as nothing.
OPTIONAL_NUMBERS = {"collision_rating", "radar", "max_range"}


class Draft(Edited):
    """A Decisive Victory file being edited: its data, a version per change, and its problems."""

    model: type[BaseModel] = BaseModel

    def __init__(self, data: dict[str, Any], saved: bool = False):
        self.data = copy.deepcopy(data)
        self.version = 0
        self.saved_version = 0 if saved else -1
        self._problems: tuple[int, list[Problem]] | None = None

    def set_number(self, path: Path, text: Any) -> None:
        """A number typed in: a whole number when it is one; empty is null for a field that may be
        left out, else kept as typed (a problem says so)."""
        raw = str(text).strip() if text is not None else ""
        value: Any
        if raw == "" and path[-1] in OPTIONAL_NUMBERS:
            value = None
        else:
            try:
                value = int(raw)
            except ValueError:
                value = raw
        self.set(path, value)

    def saved(self) -> None:
        self.saved_version = self.version

    def set_verified(self, verified: bool) -> None:
        self.data["sources"] = {**(self.data.get("sources") or {"notes": ""}), "verified": bool(verified)}
        self.changed()

    def set_notes(self, notes: str) -> None:
        self.data["sources"] = {"verified": self.verified, **(self.data.get("sources") or {}), "notes": notes}
        self.changed()

    # --- checking -------------------------------------------------------------------

    def _own_checks(self) -> list[Problem]:
        return []

    def _check(self) -> list[Problem]:
        problems = self._own_checks()
        if problems:  # a field typed in a way the model cannot read: say that first
            return problems
        return list(dict.fromkeys(self._model_problems()))  # each once, in the model's order

    def _model_problems(self) -> list[Problem]:
        try:
            self.model.model_validate(self._clean())
        except ValidationError as exc:
            return [self._plain(error) for error in exc.errors()]
        return []

    def _clean(self) -> dict[str, Any]:
        return copy.deepcopy(self.data)

    def _plain(self, error: Any) -> Problem:
        path = tuple(error["loc"])
        kind = error["type"]
        while len(path) > 1 and isinstance(path[-1], str) and self.get(path, _MISSING) is _MISSING \
                and kind != "missing":  # a union's branch name pydantic adds ("int", "str")
            path = path[:-1]
        where = self.describe(path)
        value = self.get(path)
        if kind == "string_pattern_mismatch":
            return Problem(path, f"{where} '{value}' may hold letters, digits, '-', '_' and '.', starting with a "
                                 "letter or digit")
        if kind == "literal_error":
            return Problem(path, f"{where} '{value}' is not one of {error['ctx']['expected']}")
        return Problem(path, field_words(where, value, error, WHOLE_NUMBER_ERRORS + ("decimal_parsing", "float_parsing")))

    def built(self) -> Any:
        """The file as it would be saved (FormatError with the first problem if it cannot be)."""
        _refuse(self.problems())
        return self.model.model_validate(self._clean())

    def describe(self, path: Path) -> str:
        words = [FIELD_WORDS.get(str(p), str(p).replace("_", " ")) for p in path if not isinstance(p, int)]
        text = " ".join(words) or "The file"
        return text[0].upper() + text[1:]


_MISSING = object()


# --- a ship record ---------------------------------------------------------------------------

def new_weapon(kind: str, taken: list[str]) -> dict[str, Any]:
    """A fresh weapon system of `kind` with an id no other system of the ship has."""
    weapon: dict[str, Any] = {"id": _free_id("guns" if kind == "gun" else "torpedoes", taken),
                              "name": "Gun battery" if kind == "gun" else "Torpedo tubes",
                              "kind": kind, "fire_control": 3, "strength": 4 if kind == "gun" else 10,
                              "damage": 1 if kind == "gun" else 3, "mounts": 1, "arcs": [], "max_range": None}
    if kind == "gun":
        weapon.update(radar=None, dual_purpose_aa=0)
    else:
        weapon["salvoes"] = 2
    return weapon


def new_ship_data() -> dict[str, Any]:
    return {"format": SHIP_FORMAT, "id": "new-ship", "name": "New ship", "nation": "", "class": "destroyer",
            "speed": 18, "turning_class": 3, "armor": {"deck": 1, "belt": 3, "underwater": 2},
            "critical_damage_threshold": 3, "collision_rating": None, "aa": 1, "spotter_planes": 0,
            "weapons": [new_weapon("gun", [])], "flight_deck": None, "flights": [], "hit_grid": None,
            "sources": {"verified": True, "notes": ""}}


class ShipDraft(Draft):
    """A Decisive Victory ship record being edited (`decisive-victory-ship/1`, §17.1)."""

    model = ShipRecord

    def __init__(self, data: dict[str, Any], saved: bool = False, taken: tuple[str, ...] = ()):
        super().__init__(data, saved)
        self.saved_id: str | None = data.get("id") if saved else None
        self.taken = taken  # ids of the group's other records

    @classmethod
    def new(cls, taken: tuple[str, ...] = ()) -> "ShipDraft":
        data = new_ship_data()
        data["id"] = _free_id("new-ship", taken)
        return cls(data, taken=taken)

    @classmethod
    def of(cls, record: ShipRecord, saved: bool = True, taken: tuple[str, ...] = ()) -> "ShipDraft":
        return cls(record.dump(), saved=saved, taken=taken)

    def add_weapon(self, kind: str = "gun") -> None:
        self.data["weapons"].append(new_weapon(kind, [w.get("id") for w in self.data["weapons"]]))
        self.changed()

    def remove_weapon(self, index: int) -> None:
        del self.data["weapons"][index]
        self.changed()

    def set_weapon_kind(self, index: int, kind: str) -> None:
        """Gun or torpedo: torpedoes carry salvoes, guns radar and dual-purpose AA (`003:91`, `003:93`)."""
        weapon = self.data["weapons"][index]
        if weapon.get("kind") == kind:
            return
        weapon["kind"] = kind
        if kind == "torpedo":
            weapon.pop("radar", None)
            weapon.pop("dual_purpose_aa", None)
            weapon["salvoes"] = 2
        else:
            weapon.pop("salvoes", None)
            weapon.update(radar=None, dual_purpose_aa=0)
        self.changed()

    def set_arc(self, index: int, arc: str, on: bool) -> None:
        arcs = [a for a in self.data["weapons"][index].get("arcs", []) if a != arc] + ([arc] if on else [])
        self.data["weapons"][index]["arcs"] = [a for a in ARCS if a in arcs]
        self.changed()

    def set_flight_deck(self, on: bool) -> None:
        self.data["flight_deck"] = {"launch_per_turn": 1, "lands_in_combat": True} if on else None
        self.changed()

    def add_flight(self, kind: str = "fighter") -> None:
        taken = [f.get("id") for f in self.data["flights"]]
        self.data["flights"].append({"id": _free_id("flight", tuple(taken)), "name": "", "type": kind,
                                     "quality": 2, "slow": False, "radar": False, "naval": True})
        self.changed()

    def remove_flight(self, index: int) -> None:
        del self.data["flights"][index]
        self.changed()

    def _own_checks(self) -> list[Problem]:
        problems = []
        if not str(self.data.get("name", "")).strip():
            problems.append(Problem(("name",), "Name is empty: every ship record needs a name"))
        ident = str(self.data.get("id", ""))
        if ident in self.taken:
            problems.append(Problem(("id",), f"Record id '{ident}' is another of the group's ships: give this "
                                             "one its own (scenarios name a ship by it)"))
        for i, weapon in enumerate(self.data.get("weapons", [])):
            if not str(weapon.get("name", "")).strip():
                problems.append(Problem(("weapons", i, "name"), f"{self.describe(('weapons', i))} name is empty"))
        return problems

    def _check(self) -> list[Problem]:
        """Its own checks (empty names, an id another record has), then the model's."""
        own = self._own_checks()
        paths = {p.path for p in own}
        return own + [p for p in self._model_problems() if p.path not in paths]

    def _clean(self) -> dict[str, Any]:
        data = copy.deepcopy(self.data)
        for key in ("name", "nation", "id"):
            if isinstance(data.get(key), str):
                data[key] = data[key].strip()
        for weapon in data.get("weapons", []):
            if isinstance(weapon.get("name"), str):
                weapon["name"] = weapon["name"].strip()
        return data

    def describe(self, path: Path) -> str:
        """A field in plain words: ("weapons", 1, "fire_control") -> 'Weapon 2 (4 in DP battery) fire control (FC)'."""
        path = tuple(path)
        if path[:1] in (("weapons",), ("flights",)) and len(path) > 1 and isinstance(path[1], int):
            item = self.get(path[:2], {}) or {}
            noun = "Weapon" if path[0] == "weapons" else "Flight"
            name = str(item.get("name", "")).strip() or item.get("id", "")
            where = f"{noun} {path[1] + 1}" + (f" ({name})" if name else "")
            rest = [FIELD_WORDS.get(str(p), str(p)) for p in path[2:] if not isinstance(p, int)]
            return " ".join([where, *rest])
        if path[:1] == ("armor",) and len(path) > 1:
            return f"{FIELD_WORDS.get(str(path[1]), str(path[1])).capitalize()} armour"
        return Draft.describe(self, path)

    record = Draft.built


# --- the hit grid ------------------------------------------------------------------------------

def dice_text(dice: Any) -> str:
    """[2, 3] -> '2-3'; [1] -> '1'; anything else as it was typed."""
    if isinstance(dice, list) and dice and all(isinstance(d, int) for d in dice):
        return str(dice[0]) if len(dice) == 1 else f"{dice[0]}-{dice[-1]}"
    return str(dice)


def parse_dice(text: str) -> list[int] | None:
    """'2-3' or '2, 3' -> [2, 3]; '1' -> [1]; None when it is neither."""
    text = text.strip()
    match = re.fullmatch(r"(\d)\s*-\s*(\d)", text)
    if match:
        low, high = int(match.group(1)), int(match.group(2))
        return list(range(low, high + 1)) if low <= high else None
    parts = [p.strip() for p in text.split(",")]
    if parts and all(p.isdigit() for p in parts):
        return [int(p) for p in parts]
    return None


class GridDraft(Draft):
    """The group's hit-location grid being edited (`decisive-victory-hit-grid/1`, §10.1, §17.3).

    A cell the group sets is read from their printed grid: its reconstructed mark goes."""

    model = HitGrid

    @classmethod
    def of(cls, grid: HitGrid, saved: bool = True) -> "GridDraft":
        data = grid.dump()
        data["rows"] = [{**row, "dice_text": dice_text(row["dice"])} for row in data["rows"]]
        return cls(data, saved)

    def row(self, index: int) -> dict[str, Any]:
        return self.data["rows"][index]  # type: ignore[no-any-return]

    def set_cell(self, row: int, column: int, system: str) -> None:
        """Column 1-6 of row `row` (0-based) becomes `system`; the cell is no longer reconstructed."""
        cells = self.row(row)["cells"]
        cells[column - 1] = system
        self.row(row)["unverified"] = [c for c in self.row(row).get("unverified", []) if c != column]
        self.changed()

    def set_armor(self, row: int, armor: str) -> None:
        self.row(row)["armor"] = armor
        self.changed()

    def set_dice(self, row: int, text: str) -> None:
        self.row(row)["dice_text"] = text
        parsed = parse_dice(text)
        self.row(row)["dice"] = parsed if parsed is not None else text
        self.changed()

    def add_row(self) -> None:
        self.data["rows"].append({"dice": [6], "dice_text": "6", "armor": "underwater", "cells": ["Struct"] * COLUMNS,
                                  "unverified": []})
        self.changed()

    def remove_row(self, index: int) -> None:
        del self.data["rows"][index]
        self.changed()

    def _own_checks(self) -> list[Problem]:
        problems = []
        for i, row in enumerate(self.data["rows"]):
            if not isinstance(row.get("dice"), list):
                problems.append(Problem(("rows", i, "dice"), f"Row {i + 1} 1st die '{row.get('dice_text')}': write "
                                                             "the faces as 1, or 2-3, or 2, 3"))
        return problems

    def _clean(self) -> dict[str, Any]:
        data = copy.deepcopy(self.data)
        for row in data["rows"]:
            row.pop("dice_text", None)
        return data

    def describe(self, path: Path) -> str:
        path = tuple(path)
        if path[:1] == ("rows",) and len(path) > 1 and isinstance(path[1], int):
            row = self.get(path[:2], {}) or {}
            where = f"Row {path[1] + 1}" + (f" (1st die {dice_text(row.get('dice'))})" if row else "")
            rest = path[2:]
            if rest[:1] == ("cells",) and len(rest) > 1:
                return f"{where} column {rest[1] + 1}"
            return " ".join([where, *[FIELD_WORDS.get(str(p), str(p)) for p in rest]])
        if path[:1] == ("thresholds",) and len(path) > 1:
            return f"Threshold of a {FIELD_WORDS.get(str(path[1]), str(path[1]))}"
        return Draft.describe(self, path)

    grid = Draft.built


# --- Table 1 ------------------------------------------------------------------------------------

def band_text(totals: Any) -> str:
    if totals is None:
        return "N7 only"
    if isinstance(totals, list) and len(totals) == 2:
        low, high = totals
        return str(low) if low == high else f"{low}-{high}"
    return str(totals)


def parse_band(text: str) -> list[int] | None | str:
    """'6-8' -> [6, 8]; '7' -> [7, 7]; 'N7 only' or empty -> None; anything else the text itself."""
    clean = text.strip()
    if clean.lower() in ("", "n7", "n7 only", "none"):
        return None
    match = re.fullmatch(r"(\d{1,2})(?:\s*-\s*(\d{1,2}))?", clean)
    if match:
        low = int(match.group(1))
        return [low, int(match.group(2) or low)]
    return text


class TableDraft(Draft):
    """The group's Table 1 being edited (`decisive-victory-success-table/1`, §2.2): the totals that
    succeed at each modifier 0 to +9.  A band the group sets is no longer reconstructed."""

    model = SuccessTable

    @classmethod
    def of(cls, table: SuccessTable, saved: bool = True) -> "TableDraft":
        data = table.model_dump(mode="json")
        for band in data["bands"]:
            band["text"] = band_text(band["totals"])
        return cls(data, saved)

    def set_band(self, modifier: int, text: str) -> None:
        band = self.data["bands"][modifier - LOWEST]
        band["text"] = text
        band["totals"] = parse_band(text)
        band["unverified"] = False
        self.changed()

    def _own_checks(self) -> list[Problem]:
        return [Problem(("bands", i, "totals"), f"+{band['modifier']}: '{band['text']}' is not a band: write the "
                                                "totals as 6-8, one total as 7, or N7 only")
                for i, band in enumerate(self.data["bands"]) if isinstance(band.get("totals"), str)]

    def _clean(self) -> dict[str, Any]:
        data = copy.deepcopy(self.data)
        for band in data["bands"]:
            band.pop("text", None)
        return data

    def describe(self, path: Path) -> str:
        path = tuple(path)
        if path[:1] == ("bands",) and len(path) > 1 and isinstance(path[1], int):
            return f"Modifier +{path[1] + LOWEST}"
        return Draft.describe(self, path)

    table = Draft.built


def _refuse(problems: list[Problem]) -> None:
    if problems:
        more = len(problems) - 1
        raise FormatError(problems[0].text + (f" (and {more} more)" if more else ""))


def _free_id(stem: str, taken: tuple[str, ...] | list[str]) -> str:
    ident, n = stem, 2
    while ident in taken:
        ident, n = f"{stem}-{n}", n + 1
    return ident


# --- the editor: the group's files ---------------------------------------------------------------

class DVEditor:
    """The group's ship records, hit grid and Table 1 (decisive_victory/group.GroupFiles) being edited.

    `samples` are the shipped records a new ship may start from (a copy gets the group's own id).
    """

    def __init__(self, files: Any, samples: list[ShipRecord] = ()):  # type: ignore[assignment]
        self.files = files
        self.samples = list(samples)
        self.ships: list[ShipRecord] = files.ships()
        own_grid, own_table = files.hit_grid(), files.success_table()
        self.grid = GridDraft.of(own_grid or RECONSTRUCTED_GRID, saved=True)
        self.table = TableDraft.of(own_table or RECONSTRUCTED_TABLE, saved=True)
        self.own_grid, self.own_table = own_grid is not None, own_table is not None
        if not self.own_grid:  # saved, it is the group's grid, starting from the reconstruction
            self.grid.data["name"] = "Our grid (from the reconstructed one)"
        if not self.own_table:
            self.table.data["name"] = "Our Table 1 (from the reconstructed one)"
        self.ship: ShipDraft = self._draft_of(self.ships[0]) if self.ships else ShipDraft.new()

    def _taken(self, but: str | None) -> tuple[str, ...]:
        return tuple(s.id for s in self.ships if s.id != but)

    def _draft_of(self, record: ShipRecord) -> ShipDraft:
        return ShipDraft.of(record, saved=True, taken=self._taken(record.id))

    # --- choosing a ship ------------------------------------------------------------

    def choose(self, ship_id: str) -> None:
        self.ship = self._draft_of(next(s for s in self.ships if s.id == ship_id))

    def new_ship(self) -> None:
        self.ship = ShipDraft.new(self._taken(None))
        self.ship.changed()  # asked for: it is saved with the others

    def copy_sample(self, sample_id: str) -> None:
        """A new record starting from a shipped sample: its values, an id of the group's own."""
        record = next(s for s in self.samples if s.id == sample_id)
        data = record.dump()
        taken = self._taken(None)
        data["id"] = _free_id(record.id, taken)
        self.ship = ShipDraft(data, taken=taken)
        self.ship.changed()

    # --- saving ------------------------------------------------------------------------

    def save_ship(self) -> ShipRecord:
        """Keep the ship among the group's records (its old id replaced if it was renamed)."""
        record = self.ship.record()
        self.files.save_ship(record, replacing=self.ship.saved_id)
        self.ships = self.files.ships()
        self.ship.saved_id = record.id
        self.ship.taken = self._taken(record.id)
        self.ship.saved()
        return record

    def delete_ship(self) -> None:
        if self.ship.saved_id is not None:
            self.files.delete_ship(self.ship.saved_id)
            self.ships = self.files.ships()
        self.ship = self._draft_of(self.ships[0]) if self.ships else ShipDraft.new()

    def save_grid(self) -> HitGrid:
        grid = self.grid.grid()
        self.files.save_hit_grid(grid)
        self.grid.saved()
        self.own_grid = True
        return grid

    def reset_grid(self) -> None:
        """Back to the reconstructed grid: the group's own grid file is removed."""
        self.files.save_hit_grid(None)
        self.grid = GridDraft.of(RECONSTRUCTED_GRID, saved=True)
        self.grid.data["name"] = "Our grid (from the reconstructed one)"
        self.own_grid = False

    def save_table(self) -> SuccessTable:
        table = self.table.table()
        self.files.save_success_table(table)
        self.table.saved()
        self.own_table = True
        return table

    def reset_table(self) -> None:
        self.files.save_success_table(None)
        self.table = TableDraft.of(RECONSTRUCTED_TABLE, saved=True)
        self.table.data["name"] = "Our Table 1 (from the reconstructed one)"
        self.own_table = False


SYSTEM_CHOICES = SYSTEMS
MODIFIERS = tuple(range(LOWEST, HIGHEST + 1))
