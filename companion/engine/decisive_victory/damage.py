"""What a box marked on a ship's grid does at once (spec §9.5, §10.1-10.3), shared by attacks,
maintenance and air strikes.

"As soon as a ship takes a set amount of hits to a system that system becomes
damaged. When all of the boxes for a system are marked off, that system
becomes disabled." (`003:107`) [R-39]: the box, the system's new status, the
Struct "+3" (`003:124`) and the torpedo salvoes lost (`003:122`) happen at
once; the rolls a status calls for (flight deck `003:114`, torpedo system
`003:122`, rudder `003:118`) are noted on the ship (`system_rolls_due`) and
rolled by `maintenance_roll` before the ship's maintenance goes on.
"""

from __future__ import annotations

from typing import Any

from ..roller import DiceSource, DieRoll
from ..dice import Colour
from .grid import Box, mark
from .odds import box_name, half
from .state import DVShip, DVState

#: What a roll did, in order: (event kind, text, data), told by the handler that made it.
Events = list[tuple[str, str, dict[str, Any]]]

#: The roll a system's new status calls for (§15.1 rows 14-16).
ROLL_ON: dict[tuple[str, str], str] = {("Flight", "damaged"): "flight_deck", ("Torp", "disabled"): "torpedoes",
                                       ("Turn", "disabled"): "rudder"}
ROLL_WORDS: dict[str, str] = {"flight_deck": "the flight deck roll (a d6 for every flight embarked)",
                              "torpedoes": "the torpedo system roll (a d6 for every salvo left)",
                              "rudder": "the rudder roll (a d6, and a d6 for the side on a 1)"}


def die(roll: DieRoll, role: str | None = None) -> dict[str, Any]:
    """A die as events carry it (§16)."""
    return {"colour": roll.colour.value, "face": roll.face, **({"role": role} if role else {})}


def pair(dice: DiceSource, purpose: str) -> tuple[DieRoll, DieRoll]:
    """An ordered 2d6 roll: the 1st die, then the 2nd (`003:54`); purposes `<purpose>.first`, `.second`."""
    return dice.take(Colour.D6, f"{purpose}.first"), dice.take(Colour.D6, f"{purpose}.second")


def pair_json(first: DieRoll, second: DieRoll) -> list[dict[str, Any]]:
    return [die(first, "first"), die(second, "second")]


def mark_box(state: DVState, ship: DVShip, aimed: Box, why: str) -> tuple[DVShip, Events]:
    """Mark `aimed` on the ship's grid, spilling down its column [R-42]; the bottom reached: +1 damage
    point (`003:99-100`).  Then every system whose status changed, with its immediate effect: the
    ship after, and the events (kind, text, data) in order."""
    grid = state.grid_of(ship)
    before = {name: state.status(ship, name) for name in _systems(state, ship)}
    marking = mark(grid, ship.boxes, aimed)
    events: Events = []
    if marking.marked is None:
        ship = ship.model_copy(update={"damage_points": ship.damage_points + marking.extra_damage})
        events.append(("box_marked", f"{ship.label}: {why} at {box_name(aimed, grid)}: no box left down the column, "
                       f"+1 damage point ({ship.damage_points}).",
                       {"ship": ship.id, "aimed": list(aimed), "marked": None, "extra_damage": 1}))
        return ship, events
    ship = ship.model_copy(update={"boxes": ship.boxes | {marking.marked}})
    system = grid.cell(marking.marked)
    spill = f" (spilled down from {box_name(aimed, grid)})" if marking.spilled else ""
    events.append(("box_marked", f"{ship.label}: {why}: box {box_name(marking.marked, grid)} {system} marked{spill}.",
                   {"ship": ship.id, "aimed": list(aimed), "marked": list(marking.marked), "system": system,
                    "spilled": marking.spilled, "extra_damage": 0}))
    for name, was in before.items():
        now = state.status(ship, name)
        if now != was:
            ship = _changed(state, ship, name, was, now, events)
    return ship, events


def _systems(state: DVState, ship: DVShip) -> list[str]:
    return [s.system for s in state.systems(ship)]


def _changed(state: DVState, ship: DVShip, system: str, was: str, now: str, events: Events) -> DVShip:
    """A system became damaged and/or disabled: damaged first, both when it skips [R-43]."""
    steps = ["damaged", "disabled"] if was == "working" and now == "disabled" else [now]
    for status in steps:
        ship, effect = _effect(state, ship, system, status)
        events.append((f"system_{status}", f"{ship.label}: {system} {status}{effect}.",
                       {"ship": ship.id, "system": system, "status": status}))
        roll = ROLL_ON.get((system, status))
        if roll and _roll_applies(state, ship, roll) and roll not in ship.system_rolls_due:
            ship = ship.model_copy(update={"system_rolls_due": [*ship.system_rolls_due, roll]})
            events.append(("system_roll_due", f"{ship.label}: {ROLL_WORDS[roll]} is due.",
                           {"ship": ship.id, "roll": roll}))
    return ship


def _effect(state: DVState, ship: DVShip, system: str, status: str) -> tuple[DVShip, str]:
    """The immediate part of a status (§10.3): Struct damaged +3 damage points (`003:124`);
    Torp damaged loses ⌈n/2⌉ of each system's salvoes [R-47] (`003:122`)."""
    if system == "Struct" and status == "damaged":
        ship = ship.model_copy(update={"damage_points": ship.damage_points + 3})
        return ship, f": +3 damage points ({ship.damage_points})"
    if system == "Torp" and status == "damaged" and any(ship.salvoes_left.values()):
        left = {name: n - half(n) for name, n in ship.salvoes_left.items()}
        ship = ship.model_copy(update={"salvoes_left": left})
        return ship, ": half the torpedo salvoes lost (" + ", ".join(f"{k} {v} left" for k, v in left.items()) + ")"
    return ship, ""


def _roll_applies(state: DVState, ship: DVShip, roll: str) -> bool:
    """A roll with nothing to roll for is not due: no flight embarked, no salvo left [R-44]; the
    rudder only while it is free."""
    if roll == "flight_deck":
        return bool(embarked(state, ship))
    if roll == "torpedoes":
        return any(ship.salvoes_left.values())
    return ship.rudder == "free"


def embarked(state: DVState, ship: DVShip) -> list[str]:
    """The flights on board: based on the ship and landed (`003:114`)."""
    return [f.id for f in state.flights if f.base == ship.id and f.stage == "landed"]


def grid_roll(state: DVState, ship: DVShip, dice: DiceSource, purpose: str, why: str) -> tuple[DVShip, Events]:
    """One unmodified roll on the hit location table (§15.1 row 8): 1st die the row, 2nd die the
    column (`003:141,145`), then marked with spill like a hit."""
    first, second = pair(dice, purpose)
    grid = state.grid_of(ship)
    aimed = (grid.group_of(first.face), second.face)
    event = ("grid_roll", f"{ship.label}: {why}: grid roll {first.face}, {second.face}.",
             {"ship": ship.id, "dice": pair_json(first, second), "why": why})
    ship, events = mark_box(state, ship, aimed, why)
    return ship, [event, *events]
