"""The door every ruleset's `apply` goes through, written once.

`dispatch(handlers, state, action, ...)` parses the action, checks that the
game is not over, runs the ruleset's handler on a working area (`Work`) and
returns `Applied(state, events)` or `Refused(reason, kind)`: a refusal is data,
never an exception.  In bookkeeping mode the table is the truth: a rule
objection (`Work.rule`) becomes a logged warning and the action is recorded
as entered.

The refusal kinds follow boardgame.io's `ActionErrorType` (a design study in
ruleset-design.md): the screen can tell "not your turn" from "illegal" from
"game over", and still shows the plain reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Generic, Mapping, Protocol, TypeVar

from pydantic import BaseModel

from .roller import Roller


class SettingsLike(Protocol):
    """What the kernel reads of a game's settings: whether the rule checks are off."""

    @property
    def bookkeeping(self) -> bool: ...


class GameStateLike(Protocol):
    """What the kernel and the shared code (store, shared play, roles) read of any ruleset's state.

    Every ruleset's state (a frozen pydantic model with the `Ships` mixin) has
    these; nothing else of a state is read outside its ruleset's package.
    """

    @property
    def phase(self) -> str: ...

    @property
    def result(self) -> str | None: ...

    @property
    def settings(self) -> SettingsLike: ...

    @property
    def roller(self) -> Roller: ...

    def ship(self, ship_id: str) -> Any: ...

    def has_ship(self, ship_id: str) -> bool: ...

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any: ...


S = TypeVar("S", bound=GameStateLike)


class RefusalKind(StrEnum):
    """Why an action was refused, as data (the reason says it in words)."""

    MALFORMED = "malformed"    # not an action of this ruleset: bad JSON shape, unknown kind
    GAME_OVER = "game_over"    # the game has ended
    PHASE = "wrong_phase"      # not in this phase of the turn
    TURN = "not_your_turn"     # another ship or side moves now
    SIDE = "not_your_side"     # this device does not hold that side (shared play)
    ILLEGAL = "illegal"        # the rules forbid it


class Event(BaseModel):
    """Something that happened, in plain words, with the data behind it."""

    kind: str
    text: str
    data: dict[str, Any] = {}


@dataclass
class Applied(Generic[S]):
    """The action was taken: the new state and what happened."""

    state: S
    events: list[Event] = field(default_factory=list)
    ok: bool = True


@dataclass
class Refused:
    """The action was not taken; nothing changed.  `reason` in plain words, `kind` as data."""

    reason: str
    kind: RefusalKind = RefusalKind.ILLEGAL
    ok: bool = False


class Refusal(Exception):
    """Raised inside a handler to refuse; `dispatch` turns it into `Refused`."""

    def __init__(self, reason: str, kind: RefusalKind = RefusalKind.ILLEGAL):
        super().__init__(reason)
        self.kind = kind


class Work(Generic[S]):
    """Working area of one `apply` call: the state as it changes, and its events."""

    def __init__(self, state: S):
        self.state = state
        self.events: list[Event] = []

    def event(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind=kind, text=text, data=data))

    def rule(self, problem: str | None, kind: RefusalKind = RefusalKind.ILLEGAL) -> None:
        """A rule objection: refuse, or in bookkeeping mode record a warning."""
        if not problem:
            return
        if self.state.settings.bookkeeping:
            self.event("warning", f"Rule check off: {problem}")
        else:
            raise Refusal(problem, kind)

    def ship(self, ship_id: str) -> Any:
        if not self.state.has_ship(ship_id):
            raise Refusal(f"there is no ship '{ship_id}' in this game")
        return self.state.ship(ship_id)

    def update(self, **changes: Any) -> None:
        self.state = self.state.model_copy(update=changes)

    def phase(self, *phases: str, doing: str) -> None:
        """`doing` is allowed only in one of `phases`: a rule objection otherwise."""
        now = self.state.phase
        if now not in phases:
            self.rule(f"{doing} in the {' or '.join(phases)} phase (now: {now})", RefusalKind.PHASE)


Handler = Callable[[Work[Any], Any], None]


def dispatch(
    handlers: Mapping[str, Handler],
    state: S,
    action: Any,
    *,
    parse: Callable[[Any], Any],
    after_over: frozenset[str],
    rule_errors: tuple[type[Exception], ...] = (),
) -> Applied[S] | Refused:
    """Apply one action: the new state and events, or a refusal with its reason and kind.

    `parse` turns data from a log or a file into an action (raising `Refusal`
    with kind MALFORMED when it cannot); `after_over` are the kinds still
    taken when the game is over (marking the ship cards, the rule switch);
    `rule_errors` are the rule modules' own exceptions, refusals too.
    """
    try:
        action = parse(action)
    except Refusal as refusal:
        return Refused(str(refusal), refusal.kind)
    kind = getattr(action, "kind", None)
    handler = handlers.get(kind) if isinstance(kind, str) else None
    if handler is None:
        return Refused(f"not an action: {action!r}", RefusalKind.MALFORMED)
    if state.phase == "over" and kind not in after_over:
        return Refused(f"the game is over: {state.result}", RefusalKind.GAME_OVER)
    work = Work(state)
    try:
        handler(work, action)
    except Refusal as refusal:
        return Refused(str(refusal), refusal.kind)
    except rule_errors as exc:
        return Refused(str(exc))
    return Applied(work.state, work.events)
