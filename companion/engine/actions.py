"""Everything players can do, as data.  Every change to a game is one of these.

Actions are what the store logs and replays; `apply` (game.py) is the one
door through which they change a game.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from .cards import Facing, Whole
from .common import Concede as Concede, EndMove as EndMove, EndMovement as EndMovement, EndTurn as EndTurn
from .common import Flag as Flag, SetBookkeeping as SetBookkeeping, SetInitiative as SetInitiative
from .common import Step as Step, _Action as _Action


class RollInitiative(_Action):
    """Roll 2DRed a side; `faces` (side -> two faces) enters table dice instead."""

    kind: Literal["roll_initiative"] = "roll_initiative"
    faces: dict[str, list[Whole]] | None = None


class Place(_Action):
    """Put a ship at a bow hex and facing, as the table says."""

    kind: Literal["place"] = "place"
    ship: str
    bow: str
    facing: Facing
    moved: Flag | None = None


class DeclareShot(_Action):
    kind: Literal["declare_shot"] = "declare_shot"
    attacker: str
    location: str
    slot: Whole
    target: str
    target_location: str | None = None


class CancelShot(_Action):
    kind: Literal["cancel_shot"] = "cancel_shot"
    shot: Whole


class TableFaces(BaseModel):
    """Faces the players rolled: the pool in order, slot die and re-rolls, keel dice."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pool: list[Whole] = []
    slot: list[Whole] = []
    keel: list[Whole] = []


class ResolveShot(_Action):
    kind: Literal["resolve_shot"] = "resolve_shot"
    shot: Whole
    table: TableFaces | None = None


class MarkSlot(_Action):
    """Mark or clear a slot by hand."""

    kind: Literal["mark_slot"] = "mark_slot"
    ship: str
    location: str
    slot: int = Field(ge=1, le=6, strict=True)
    status: Literal["live", "destroyed_this_turn", "destroyed"]


class SetKeel(_Action):
    """Mark (or clear) a broken keel by hand."""

    kind: Literal["set_keel"] = "set_keel"
    ship: str
    broken: Flag = True


class StartGame(_Action):
    """Deployment is done: roll initiative for turn 1."""

    kind: Literal["start_game"] = "start_game"


Action = Annotated[
    Union[
        RollInitiative, SetInitiative, Step, Place, EndMove, EndMovement, DeclareShot,
        CancelShot, ResolveShot, MarkSlot, SetKeel, StartGame, EndTurn, Concede, SetBookkeeping,
    ],
    Field(discriminator="kind"),
]


class ActionEnvelope(BaseModel):
    """For parsing an action from JSON: `ActionEnvelope(action=...)`."""

    action: Action
