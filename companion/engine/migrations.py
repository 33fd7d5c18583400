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
                from .cards import FormatError  # cards imports this module

                raise FormatError(
                    f"'{ship['format']}' is newer than this app understands "
                    f"({CARD_FAMILY}/{CARD_VERSION}); update the app",
                    f"ships.{i}.format",
                )
        migrated = [migrate_card(ship) for ship in ships]
        if any(new is not old for new, old in zip(migrated, ships)):
            data = {**data, "ships": migrated}
    return data
