"""What the table's brief highlights point at (issue 18, "motion that helps"): the slot the latest
resolved shot destroyed, and the ship that moved last.  Read from the log's events; no rules here.

Each mark carries the number of its event in the log (1 = the first), so a view flashes a mark once,
when a later one comes, and not again when the same state is shown twice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol

MOVES = ("step", "place", "move_along")  # the events of a ship that moved (or was put down) on the map


class LogEvent(Protocol):
    kind: str
    data: dict


@dataclass(frozen=True)
class Hit:
    """The slot destroyed by the latest resolved shot."""

    event: int
    ship: str
    location: str
    slot: int


@dataclass(frozen=True)
class Moved:
    """The ship that moved last."""

    event: int
    ship: str


@dataclass(frozen=True)
class Motion:
    hit: Hit | None = None
    moved: Moved | None = None


def motion(events: Iterable[LogEvent]) -> Motion:
    """The latest shot's destroyed slot (none when that shot destroyed no slot) and the last ship
    that moved: a step, a placing or a planned path followed."""
    hit: Hit | None = None
    moved: Moved | None = None
    after_shot = False  # between the latest shot and the next one
    for number, event in enumerate(events, start=1):
        kind, data = event.kind, event.data
        if kind == "shot":
            hit, after_shot = None, True
        elif kind == "slot_destroyed" and after_shot:
            hit, after_shot = Hit(number, data["ship"], data["location"], int(data["slot"])), False
        elif kind in MOVES and "ship" in data:
            moved = Moved(number, data["ship"])
    return Motion(hit, moved)
