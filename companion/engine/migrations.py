"""Older card and fleet files, upgraded to the version this app reads.

Every file carries a `format` tag with a version (formats.md).  A file of an
older version is upgraded here, one version step at a time, before it is
validated; a newer version than the app knows is left alone, and validation
then refuses it in plain words ("newer than this app understands").

Version history (docs/formats.md, "Format versions"):

- `leviathans-card/0`: the first card layout.  It spelled three things
  differently from version 1: `class_name` for `class`, `si` for
  `structural_integrity`, and the armour slot kind `"armour"` for `"armor"`.
- `leviathans-fleet/0`: a fleet of version-0 cards.  Its ships need not carry
  a format tag of their own; an untagged ship in a version-0 fleet is a
  version-0 card.

Migrations never change the caller's data: each step works on a copy.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from .format_error import FormatError

CARD_FAMILY = "leviathans-card"
FLEET_FAMILY = "leviathans-fleet"
CARD_VERSION = 1
FLEET_VERSION = 1

#: A file's data as JSON reads it, before validation: any values under string keys.
JSONObject = dict[str, Any]


def version_of(data: Any, family: str) -> int | None:
    """The version number of a `family/N` format tag, or None if it is not one."""
    tag = data.get("format") if isinstance(data, dict) else None
    if not isinstance(tag, str):
        return None
    name, _, version = tag.partition("/")
    if name != family or not version.isdigit():
        return None
    return int(version)


def _rename(data: JSONObject, old: str, new: str) -> JSONObject:
    """`old` renamed to `new`, keeping the key's place.  When both are present the
    old key stays, so validation names it ("unknown field") instead of guessing."""
    if old not in data or new in data:
        return data
    return {(new if key == old else key): value for key, value in data.items()}


# --- one step per version ------------------------------------------------------


def _card_0_to_1(data: JSONObject) -> JSONObject:
    data = copy.deepcopy(data)
    data["format"] = f"{CARD_FAMILY}/1"
    data = _rename(data, "class_name", "class")
    data = _rename(data, "si", "structural_integrity")
    locations = data.get("locations")
    if isinstance(locations, dict):
        for location in locations.values():
            slots = location.get("slots") if isinstance(location, dict) else None
            for slot in slots if isinstance(slots, list) else ():
                if isinstance(slot, dict) and slot.get("kind") == "armour":
                    slot["kind"] = "armor"
    return data


def _fleet_0_to_1(data: JSONObject) -> JSONObject:
    data = copy.deepcopy(data)
    data["format"] = f"{FLEET_FAMILY}/1"
    ships = data.get("ships")
    if isinstance(ships, list):
        data["ships"] = [
            {"format": f"{CARD_FAMILY}/0", **ship} if isinstance(ship, dict) and "format" not in ship else ship
            for ship in ships
        ]
    return data


#: version N -> the function that turns version N into version N + 1.
CARD_STEPS: dict[int, Callable[[JSONObject], JSONObject]] = {0: _card_0_to_1}
FLEET_STEPS: dict[int, Callable[[JSONObject], JSONObject]] = {0: _fleet_0_to_1}


# --- the entry points load_card / load_fleet call ----------------------------------


def migrate_card(data: Any) -> Any:
    """Card data upgraded to the current version; anything else returned as it is."""
    version = version_of(data, CARD_FAMILY)
    while version is not None and version < CARD_VERSION and version in CARD_STEPS:
        data = CARD_STEPS[version](data)
        version = version_of(data, CARD_FAMILY)
    return data


def migrate_fleet(data: Any) -> Any:
    """Fleet data upgraded to the current version, its ships included."""
    version = version_of(data, FLEET_FAMILY)
    while version is not None and version < FLEET_VERSION and version in FLEET_STEPS:
        data = FLEET_STEPS[version](data)
        version = version_of(data, FLEET_FAMILY)
    if version == FLEET_VERSION and isinstance(data.get("ships"), list):
        ships = data["ships"]
        for i, ship in enumerate(ships):
            ship_version = version_of(ship, CARD_FAMILY)
            if ship_version is not None and ship_version > CARD_VERSION:
                raise FormatError(
                    f"'{ship['format']}' is newer than this app understands "
                    f"({CARD_FAMILY}/{CARD_VERSION}); update the app",
                    f"ships.{i}.format",
                )
        migrated = [migrate_card(ship) for ship in ships]
        if any(new is not old for new, old in zip(migrated, ships)):
            data = {**data, "ships": migrated}
    return data


# --- Decisive Victory files (spec decisive-victory.md §17) ------------------------------------
#
# Every Decisive Victory file carries a `family/N` tag (§17: "unknown versions are refused in
# plain words; older versions are upgraded").  Version 1 is the first the spec describes: there
# is no version 0 to upgrade, so `DV_STEPS` is empty and a `/0` tag (or any version with no
# step) is refused in plain words.  A file may hold others (a fleet its ships, a ship its own
# grid, a scenario its records, inline ships, grid and Table 1): each one's tag is checked and
# upgraded where it sits, and a refusal names its JSON path.

DV_SHIP_FAMILY = "decisive-victory-ship"
DV_FLEET_FAMILY = "decisive-victory-fleet"
DV_GRID_FAMILY = "decisive-victory-hit-grid"
DV_TABLE_FAMILY = "decisive-victory-success-table"
DV_SCENARIO_FAMILY = "decisive-victory-scenario"
#: The version of each Decisive Victory format this app reads.
DV_VERSIONS: dict[str, int] = {DV_SHIP_FAMILY: 1, DV_FLEET_FAMILY: 1, DV_GRID_FAMILY: 1, DV_TABLE_FAMILY: 1,
                               DV_SCENARIO_FAMILY: 1}
#: family -> {version N -> the function that turns version N into N + 1}; none yet (spec §17).
DV_STEPS: dict[str, dict[int, Callable[[JSONObject], JSONObject]]] = {family: {} for family in DV_VERSIONS}
#: Where files of another format sit inside one: (JSON path with "*" for every list item, family).
DV_NESTED: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    DV_SHIP_FAMILY: ((("hit_grid",), DV_GRID_FAMILY),),
    DV_FLEET_FAMILY: ((("ships", "*"), DV_SHIP_FAMILY),),
    DV_SCENARIO_FAMILY: ((("records", "*"), DV_SHIP_FAMILY), (("ships", "*", "ship"), DV_SHIP_FAMILY),
                         (("hit_grid",), DV_GRID_FAMILY), (("success_table",), DV_TABLE_FAMILY)),
}


def dv_family_of(data: Any) -> str | None:
    """The Decisive Victory family a file's tag names (`decisive-victory-ship/1` -> its family)."""
    tag = data.get("format") if isinstance(data, dict) else None
    family = tag.partition("/")[0] if isinstance(tag, str) else ""
    return family if family in DV_VERSIONS else None


def migrate_dv(data: Any, family: str, path: str = "") -> Any:
    """A Decisive Victory file of `family` upgraded to the version this app reads, with every file
    inside it; FormatError naming the JSON path for a version newer than the app or one with no
    upgrade.  An untagged or foreign-tagged object is left for validation to name."""
    version = version_of(data, family)
    if version is not None:
        current = DV_VERSIONS[family]
        while version < current and version in DV_STEPS[family]:
            data = DV_STEPS[family][version](data)
            version = version_of(data, family) or current
        if version != current:
            _refuse_dv_version(f"{family}/{version}", family, path)
    if not isinstance(data, dict):
        return data
    for where, inner in DV_NESTED.get(family, ()):
        data = _migrate_at(data, where, inner, path)
    return data


def _refuse_dv_version(tag: str, family: str, path: str) -> None:
    current = f"{family}/{DV_VERSIONS[family]}"
    version = int(tag.rpartition("/")[2])
    if version > DV_VERSIONS[family]:
        problem = f"'{tag}' is newer than this app understands ({current}); update the app"
    else:
        problem = (f"'{tag}' is a version this app cannot upgrade: {current} is the first version of "
                   f"this file (spec decisive-victory.md 17); write the file as {current}")
    raise FormatError(problem, ".".join(part for part in (path, "format") if part))


def _migrate_at(data: JSONObject, where: tuple[str, ...], family: str, path: str) -> JSONObject:
    """`data` with the objects at `where` migrated (a copy only when one changed)."""
    key, rest = where[0], where[1:]
    value = data.get(key)
    here = f"{path}.{key}" if path else key
    if key == "*":  # never at the top: handled by the list case below
        return data
    if rest and rest[0] == "*":
        if not isinstance(value, list):
            return data
        items = [_migrate_item(item, rest[1:], family, f"{here}.{i}") for i, item in enumerate(value)]
        changed = any(new is not old for new, old in zip(items, value))
        return {**data, key: items} if changed else data
    new = _migrate_item(value, rest, family, here)
    return {**data, key: new} if new is not value else data


def _migrate_item(item: Any, rest: tuple[str, ...], family: str, path: str) -> Any:
    if not rest:
        return migrate_dv(item, family, path) if isinstance(item, dict) else item
    return _migrate_at(item, rest, family, path) if isinstance(item, dict) else item
