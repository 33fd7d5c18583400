"""Decisive Victory: corrections by hand (spec §16, "any" phase): the table is the truth.

The players mark or clear a grid box, set damage points, minor damage or the
rudder, take a ship off the table, switch the rule checks off, or concede.
Nothing is rolled and no rule objects; a changed system status is told.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..common import Concede, SetBookkeeping, _Action, concede, set_bookkeeping
from ..kernel import Handler, Refusal, Work
from .state import DVShip, DVState, Removed, Rudder
from .turn import over_if_ended


class MarkBox(_Action):
    """Mark (or clear, `marked` false) one box of a ship's grid: [row group, column] (§10.1)."""

    kind: Literal["mark_box"] = "mark_box"
    ship: str
    box: tuple[int, int]
    marked: bool = True


class SetDamage(_Action):
    kind: Literal["set_damage"] = "set_damage"
    ship: str
    points: int = Field(ge=0, le=999)


class SetMinor(_Action):
    kind: Literal["set_minor"] = "set_minor"
    ship: str
    minor: int = Field(ge=0, le=999)


class SetRudder(_Action):
    kind: Literal["set_rudder"] = "set_rudder"
    ship: str
    rudder: Rudder


class RemoveShip(_Action):
    """Take a ship off the table (sunk, abandoned, scuttled, or by hand)."""

    kind: Literal["remove_ship"] = "remove_ship"
    ship: str
    how: Removed = "by_hand"


def _mark_box(work: Work[DVState], action: MarkBox) -> None:
    ship: DVShip = work.ship(action.ship)
    grid = work.state.grid_of(ship)
    if action.box not in grid.all_boxes:
        raise Refusal(f"the hit grid has no box {list(action.box)}: rows 1-{len(grid.rows)}, columns 1-6")
    system = grid.cell(action.box)
    before = work.state.status(ship, system)
    boxes = ship.boxes | {action.box} if action.marked else ship.boxes - {action.box}
    work.state = work.state.with_ship(ship.model_copy(update={"boxes": boxes}))
    after = work.state.status(work.state.ship(ship.id), system)
    work.event("box_marked" if action.marked else "box_cleared",
               f"{ship.label}: box {list(action.box)} ({system}) {'marked' if action.marked else 'cleared'} by hand.",
               ship=ship.id, box=list(action.box), system=system)
    if after != before:
        work.event("system_status", f"{ship.label}'s {system} is now {after}.", ship=ship.id, system=system,
                   status=after)


#: What each setting by hand changes: the action's field, the ship's field, and the words told.
SETTINGS = {"set_damage": ("points", "damage_points", "{ship} has {value} damage points"),
            "set_minor": ("minor", "minor_damage", "{ship} has {value} minor damage"),
            "set_rudder": ("rudder", "rudder", "{ship}'s rudder: {value}")}


def _set(work: Work[DVState], action: SetDamage | SetMinor | SetRudder) -> None:
    given, field, words = SETTINGS[action.kind]
    value = getattr(action, given)
    ship: DVShip = work.ship(action.ship)
    work.state = work.state.with_ship(ship.model_copy(update={field: value}))
    work.event(action.kind, words.format(ship=ship.label, value=value) + " (set by hand).", ship=ship.id,
               **{given: value})


def _remove_ship(work: Work[DVState], action: RemoveShip) -> None:
    ship: DVShip = work.ship(action.ship)
    if not ship.in_play:
        raise Refusal(f"{ship.label} is already off the table ({ship.removed})")
    work.state = work.state.with_ship(ship.model_copy(update={"removed": action.how}))
    work.event("ship_removed", f"{ship.label} is removed ({action.how.replace('_', ' ')}).", ship=ship.id,
               how=action.how)
    if work.state.phase not in ("setup", "over"):
        over_if_ended(work)


ACTIONS: tuple[type[_Action], ...] = (MarkBox, SetDamage, SetMinor, SetRudder, RemoveShip, SetBookkeeping, Concede)
HANDLERS: dict[str, Handler] = {"mark_box": _mark_box, **dict.fromkeys(SETTINGS, _set), "remove_ship": _remove_ship,
                                "set_bookkeeping": set_bookkeeping, "concede": concede}
