"""Everything players can do, as data.  Every change to a game is one of these.

Actions are what the store logs and replays; `apply` (game.py) is the one
door through which they change a game.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from ..cards import Facing, Whole
from .table_rules import HouseRules
from ..common import Concede as Concede, EndMove as EndMove, EndMovement as EndMovement, EndTurn as EndTurn
from ..common import Flag as Flag, SetBookkeeping as SetBookkeeping, SetInitiative as SetInitiative
from ..common import Step as Step, _Action as _Action


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


class ChooseLocation(_Action):
    """The target's side picks the location a shot strikes (table rule two_locations "target")."""

    kind: Literal["choose_location"] = "choose_location"
    shot: Whole
    location: str


class CancelShot(_Action):
    kind: Literal["cancel_shot"] = "cancel_shot"
    shot: Whole


class TableFaces(BaseModel):
    """Faces the players rolled: the pool in order, slot die and re-rolls, keel dice; `location`: the
    d6 that picks the struck location (table rule two_locations "roll"), when the shot has none yet."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pool: list[Whole] = []
    slot: list[Whole] = []
    keel: list[Whole] = []
    location: list[Whole] = []


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


# --- house rules (seed 002, shared/spec/house-rules.md) -------------------------------


class SetHouseRules(_Action):
    """Change the game's house rules (set-up or initiative only, R-H0.1)."""

    kind: Literal["set_house_rules"] = "set_house_rules"
    house_rules: HouseRules


class RollUnitInitiative(_Action):
    """H1: 1d10 for every ship in play, re-rolls for ties; `faces` (ship -> first face, then its
    re-roll face) enters table dice instead."""

    kind: Literal["roll_unit_initiative"] = "roll_unit_initiative"
    faces: dict[str, list[Whole]] | None = None


class SetMoveOrder(_Action):
    """H1: the table decided the move order another way: groups of ship ids, first moves first."""

    kind: Literal["set_move_order"] = "set_move_order"
    order: list[list[str]]


class RecordMove(_Action):
    """H1: a ship of a simultaneous group records its end position, sealed until the reveal."""

    kind: Literal["record_move"] = "record_move"
    ship: str
    bow: str
    facing: Facing
    moved: Flag | None = None


class SeizeInitiative(_Action):
    """H2: a lower-ranked ship seizes the initiative and moves now."""

    kind: Literal["seize_initiative"] = "seize_initiative"
    ship: str


class DeclareTurn(_Action):
    """H3: the ship will begin a turn (a marker placed); `side` with the declare_direction option."""

    kind: Literal["declare_turn"] = "declare_turn"
    ship: str
    side: Literal["port", "starboard"] | None = None


class CancelTurn(_Action):
    """H3: the declared turn is cancelled, losing the 1 MP the turn would have cost."""

    kind: Literal["cancel_turn"] = "cancel_turn"
    ship: str


class MoveAlong(_Action):
    """Issue 17, the movement planner's "Move there": a path of moves (steps, and under H3 declared
    or cancelled turns), each made by its own rules, taken as one action: one log entry, one undo."""

    kind: Literal["move_along"] = "move_along"
    ship: str
    steps: list[Annotated[Union[Step, DeclareTurn, CancelTurn], Field(discriminator="kind")]] = Field(
        min_length=1, max_length=200)


Action = Annotated[
    Union[
        RollInitiative, SetInitiative, Step, Place, EndMove, EndMovement, DeclareShot,
        CancelShot, ResolveShot, ChooseLocation, MarkSlot, SetKeel, StartGame, EndTurn, Concede, SetBookkeeping,
        SetHouseRules, RollUnitInitiative, SetMoveOrder, RecordMove, SeizeInitiative, DeclareTurn, CancelTurn,
        MoveAlong,
    ],
    Field(discriminator="kind"),
]


class ActionEnvelope(BaseModel):
    """For parsing an action from JSON: `ActionEnvelope(action=...)`."""

    action: Action
