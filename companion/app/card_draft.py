"""A ship card's draft, without flet: a new card's fields and what each field offers.

A new card (formats.md, "Ship card") is a plain dict: a Type's locations,
each with six slots laid out as on a printed card of that type.  The names,
choices and bounds here are what the card editor (editor_model.py) offers
for each field.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import CARD_FORMAT
from ..engine.dice import DIAL_UP_ORDER
from ..engine.footprint import LOCATION_HEX

KIND_NAMES = {
    "gun": "Gun battery", "crew": "Crew", "armor": "Armour", "engine": "Engine",
    "tesla_coil": "Tesla coil", "miss": "Miss", "other": "Other",
}
TYPE_NAMES = {1: "Type 1 · destroyer", 2: "Type 2 · light cruiser", 3: "Type 3 · armoured cruiser",
              4: "Type 4 · battleship"}
TRAITS = ("turret", "bracket")


def dice_choices() -> tuple[str, ...]:
    """The dice a card's fields offer: one d12, two of a colour, or two colours (higher first)."""
    order = [c.label for c in reversed(DIAL_UP_ORDER)]  # Black first
    singles = list(reversed(order))
    pairs = []
    for i, first in enumerate(order):
        pairs.append(f"2{first}")
        pairs.extend(f"{first} & {second}" for second in order[i + 1:])
    return tuple(singles + pairs)


DICE_CHOICES = dice_choices()

#: (lowest, highest) for every number on a card, by the field's last name.
BOUNDS = {
    "type": (1, 4), "structural_integrity": (1, 99), "enter_hexes_before_turn": (0, 12),
    "breach": (1, 40), "range": (0, 99), "mp": (0, 30), "breach_modifier": (0, 12), "saturation": (0, 12),
}
DEFAULTS = {"breach": 12, "range": 4, "mp": 3, "breach_modifier": 1, "saturation": 0,
            "structural_integrity": 18, "enter_hexes_before_turn": 1, "type": 1}


def slot_template(kind: str, breach: Any = 12) -> dict[str, Any]:
    """A fresh slot of `kind`, keeping a breach number."""
    slot: dict[str, Any] = {"kind": kind}
    if kind == "gun":
        slot.update(name="Gun", short={"range": 4, "dice": "DBlue"}, long={"range": 8, "dice": "DGreen"})
    elif kind == "crew":
        slot["dice"] = "DGreen"
    elif kind == "armor":
        slot["breach_modifier"] = 1
    elif kind == "engine":
        slot["mp"] = 3
    elif kind == "other":
        slot["label"] = ""
    slot["breach"] = breach
    return slot


_LAYOUT = {  # a new card's slots: kinds and breach numbers per location
    "bow": (("gun", 12), ("crew", 11), ("armor", 13), ("tesla_coil", 12), ("miss", 11), ("armor", 14)),
    "side": (("gun", 11), ("crew", 12), ("armor", 13), ("gun", 14), ("miss", 11), ("armor", 15)),
    "stern": (("gun", 12), ("crew", 11), ("engine", 13), ("engine", 14), ("armor", 13), ("miss", 11)),
}


def location_template(name: str) -> dict[str, Any]:
    layout = _LAYOUT.get(name, _LAYOUT["side"])
    side = name not in ("bow", "stern")
    return {"go": "DBlack" if side else "DRed", "stop": "2DRed" if side else "DRed & DBlue",
            "slots": [slot_template(kind, breach) for kind, breach in layout]}


def new_card_data(ship_type: int = 1) -> dict[str, Any]:
    return {
        "format": CARD_FORMAT, "name": "New ship", "class": "", "faction": "", "armament": "",
        "type": ship_type, "structural_integrity": 18, "enter_hexes_before_turn": 1,
        "locations": {name: location_template(name) for name in LOCATION_HEX[ship_type]},
        "sources": {"verified": True, "notes": ""},
    }


def dice_options(current: str | None) -> list[str]:
    """The dice choices, with the field's present value first if the list lacks it."""
    options = list(DICE_CHOICES)
    if current and current not in options:
        options.insert(0, current)
    return options
