"""Everything players can do, as data.  Every change to a game is one of these.

Actions are what the store logs and replays; `apply` (game.py) is the one
door through which they change a game.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, Strict, field_validator

from .cards import Whole, facing_value

#: true or false, never "yes" nor 1 (an action read from a log or a file)
Flag = Annotated[bool, Strict()]


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RollInitiative(_Action):
    """Roll 2DRed a side; `faces` (side -> two faces) enters table dice instead."""

    kind: Literal["roll_initiative"] = "roll_initiative"
    faces: dict[str, list[Whole]] | None = None


class SetInitiative(_Action):
    """The table decided initiative some other way."""

    kind: Literal["set_initiative"] = "set_initiative"
    side: str


class Step(_Action):
    kind: Literal["step"] = "step"
    ship: str
    step: Literal["forward", "port", "starboard"]


class Place(_Action):
    """Put a ship at a bow hex and facing, as the table says."""

    kind: Literal["place"] = "place"
    ship: str
    bow: str
    facing: str | int
    moved: Flag | None = None

    @field_validator("facing", mode="before")
    @classmethod
    def _facing(cls, value: object) -> object:
        return facing_value(value)


class EndMove(_Action):
    kind: Literal["end_move"] = "end_move"
    ship: str


class EndMovement(_Action):
    """Skip the remaining moves: every ship that has not moved stays put."""

    kind: Literal["end_movement"] = "end_movement"


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


class EndTurn(_Action):
    kind: Literal["end_turn"] = "end_turn"


class Concede(_Action):
    kind: Literal["concede"] = "concede"
    side: str


class SetBookkeeping(_Action):
    """Turn the rule checks off (or on): warnings instead of refusals."""

    kind: Literal["set_bookkeeping"] = "set_bookkeeping"
    on: Flag


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
