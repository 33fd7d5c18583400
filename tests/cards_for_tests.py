"""Cards and positions for engine tests, written like the rulebook's examples.

`card(...)` builds a valid card from short slot specs, so a test states only
what its rule needs.  `position(...)` builds a GameState from ships placed by
label and facing.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.engine.board import Board
from companion.engine.cards import Card, load_fleet
from companion.engine.roller import Roller
from companion.engine.quick_start.state import GameState, ShipState, SlotStatus
from companion.engine.footprint import LOCATION_HEX
from companion.engine.hexes import parse_facing


def gun(name="3 IN", short=(4, "DBlue"), long=(8, "DGreen"), breach=11):
    return {"kind": "gun", "name": name, "short": {"range": short[0], "dice": short[1]},
            "long": {"range": long[0], "dice": long[1]}, "breach": breach}


def crew(dice="DGreen", breach=12):
    return {"kind": "crew", "dice": dice, "breach": breach}


def armor(modifier=1, breach=13):
    return {"kind": "armor", "breach_modifier": modifier, "breach": breach}


def engine(mp=3, breach=12):
    return {"kind": "engine", "mp": mp, "breach": breach}


def tesla(breach=13):
    return {"kind": "tesla_coil", "breach": breach}


def miss():
    return {"kind": "miss"}


def other(breach=12, label="Bridge"):
    return {"kind": "other", "label": label, "breach": breach}


def location(slots, go="DBlack", stop="2DRed"):
    assert len(slots) == 6, "test cards need six slots per location"
    return {"go": go, "stop": stop, "slots": slots}


def filler(breach=12):
    """Five plain slots to pad a location around the slot a test cares about."""
    return [other(breach) for _ in range(5)]


def card(card_id="ship", ship_type=2, si=20, enter=2, name=None, **locations) -> Card:
    """A valid card; unspecified locations get a gun and filler slots."""
    locs = {}
    for loc in LOCATION_HEX[ship_type]:
        locs[loc] = locations.get(loc) or location([gun()] + filler())
    return Card.model_validate({
        "format": "leviathans-card/1", "id": card_id, "name": name or card_id.title(),
        "class": "Test class", "faction": "Test", "type": ship_type,
        "structural_integrity": si, "enter_hexes_before_turn": enter, "locations": locs,
    })


def ship(ship_id, side, the_card, bow, facing="N", moved=False, damage=None, board=None) -> ShipState:
    cell = (board or Board(columns=99, rows=99)).parse(bow)
    state = ShipState(id=ship_id, side=side, card=the_card, column=cell.column, row=cell.row,
                      facing=parse_facing(facing), moved=moved)
    for (loc, n), status in (damage or {}).items():
        state = state.with_status(loc, n, SlotStatus(status))
    return state


def position(*ships: ShipState, board: Board | None = None, phase="combat", seed="test") -> GameState:
    sides = list(dict.fromkeys(s.side for s in ships))
    return GameState(board=board or Board(), ships=list(ships), sides=sides, phase=phase,
                     roller=Roller.from_seed(seed))


FLEETS = Path(__file__).resolve().parents[1] / "fleets"


def shipped(card_id: str) -> Card:
    """A card of the shipped Quick-Start fleets (fleets/quick-start-*.json) by its id."""
    for name in ("quick-start-british.json", "quick-start-french.json"):
        for c in load_fleet(json.loads((FLEETS / name).read_text(encoding="utf-8"))).ships:
            if c.id == card_id:
                return c
    raise KeyError(card_id)
