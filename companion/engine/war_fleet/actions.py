"""Everything players can do in a War Fleet game, as data.

Actions are what the store logs and replays; `apply` (game.py) is the one door
through which they change a War Fleet game.  Kinds that mean the same as in
the Quick-Start game carry the same names (`roll_initiative`, `step`, ...).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field

from ..cards import StrictModel
from ..common import Concede as Concede, EndMove as EndMove, EndMovement as EndMovement, EndTurn as EndTurn
from ..common import SetBookkeeping as SetBookkeeping, SetInitiative as SetInitiative, Step as Step, _Action
from .state import ShipOutcome
from .stats import WarFleetStats


class RollPlacement(_Action):
    """Each side rolls the initiative dice (DBlack); the loser places first.
    `faces` (side -> faces) enters table dice instead."""

    kind: Literal["roll_placement"] = "roll_placement"
    faces: dict[str, list[int]] | None = None


class SetPlacementFirst(_Action):
    """The table decided who places first some other way."""

    kind: Literal["set_placement_first"] = "set_placement_first"
    side: str


class Place(_Action):
    """Put a ship on a hex with a facing: in set-up, or by hand as the table says."""

    kind: Literal["place"] = "place"
    ship: str
    hex: str
    facing: str | int


class RollInitiative(_Action):
    """Each side rolls the initiative dice; `faces` enters table dice instead."""

    kind: Literal["roll_initiative"] = "roll_initiative"
    faces: dict[str, list[int]] | None = None


class Pivot(_Action):
    """A ship that has spent no MP this turn spends them all to face any way."""

    kind: Literal["pivot"] = "pivot"
    ship: str
    facing: str | int


class EndGroup(_Action):
    """Every ship of the group moving now (one side's ships of one class) that has not
    finished its move stays where it is."""

    kind: Literal["end_group"] = "end_group"


class DeclareAttack(_Action):
    """Declare a location's attack (or a bracket of several locations) at a ship."""

    kind: Literal["declare_attack"] = "declare_attack"
    attacker: str
    locations: list[str] = Field(min_length=1)
    target: str
    target_location: str | None = None


class CancelAttack(_Action):
    kind: Literal["cancel_attack"] = "cancel_attack"
    attack: int


class TableRollFaces(StrictModel):
    """Faces rolled at the table: the attack dice in order, then each SI test's red die."""

    attack: list[int] = []
    si: list[int] = []


class RollAttack(_Action):
    kind: Literal["roll_attack"] = "roll_attack"
    attack: int
    table: TableRollFaces | None = None


class OpenPocket(_Action):
    """Send these ships to fight it out at Quick-Start scale (a pocket battle)."""

    kind: Literal["open_pocket"] = "open_pocket"
    ships: list[str] = Field(min_length=1)
    game: str | None = Field(default=None, max_length=64,
                             description="the Quick-Start game the app opened to fight it, if any")


class ResolvePocket(_Action):
    """Bring a pocket battle's result back: per ship, casualty and destroyed locations."""

    kind: Literal["resolve_pocket"] = "resolve_pocket"
    pocket: int
    ships: dict[str, ShipOutcome]


class EndCombat(_Action):
    """Damage takes full effect; casualties leave the map."""

    kind: Literal["end_combat"] = "end_combat"


class MarkLocation(_Action):
    """Mark a location destroyed (or repaired) by hand."""

    kind: Literal["mark_location"] = "mark_location"
    ship: str
    location: str
    status: Literal["live", "destroyed", "destroyed_this_combat"]


class SetStats(_Action):
    """Replace a ship's War Fleet stats (a converted card edited by hand)."""

    kind: Literal["set_stats"] = "set_stats"
    ship: str
    stats: WarFleetStats


class SetCasualty(_Action):
    kind: Literal["set_casualty"] = "set_casualty"
    ship: str
    casualty: bool = True


class MoveAlong(_Action):
    """Issue 17, the movement planner's "Move there": a path of steps and a pivot, each made by its
    own rules, taken as one action: one log entry, one undo."""

    kind: Literal["move_along"] = "move_along"
    ship: str
    steps: list[Annotated[Union[Step, Pivot], Field(discriminator="kind")]] = Field(min_length=1, max_length=200)


WarFleetAction = Annotated[
    Union[
        RollPlacement, SetPlacementFirst, Place, RollInitiative, SetInitiative, Step, Pivot, EndMove,
        EndGroup, EndMovement, DeclareAttack, CancelAttack, RollAttack, OpenPocket, ResolvePocket, EndCombat,
        EndTurn, MarkLocation, SetStats, SetCasualty, Concede, SetBookkeeping, MoveAlong,
    ],
    Field(discriminator="kind"),
]


class WarFleetActionEnvelope(BaseModel):
    """For parsing an action from JSON: `WarFleetActionEnvelope(action=...)`."""

    action: WarFleetAction
