"""The one door for change of a Decisive Victory game: `apply(state, action)` (spec §16).

The same shape as the Leviathans rulesets: `kernel.dispatch` parses the
action, checks the phase and the rules through the handlers and returns
`Applied(state, events)` or `Refused(reason)`.  Each part of the turn keeps
its own actions and handlers in its own module (`ACTIONS`, `HANDLERS`):
turn.py (set-up, command, initiative, movement, end of turn), attacks.py,
maintenance.py, aircraft.py and by_hand.py (the table is the truth).
"""

from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import BaseModel, Field

from .. import common as C
from ..kernel import Applied, Handler, Refused, dispatch
from ..roller import NeedDice
from . import aircraft, attacks, by_hand, maintenance, turn
from .state import DVState

_MODULES = (turn, attacks, maintenance, aircraft, by_hand)

#: Every action of the game, each module's own.
ACTIONS: tuple[type[C._Action], ...] = tuple(a for m in _MODULES for a in m.ACTIONS)
HANDLERS: dict[str, Handler] = {kind: h for m in _MODULES for kind, h in m.HANDLERS.items()}

DVAction = Annotated[Union[ACTIONS], Field(discriminator="kind")]  # type: ignore[valid-type]


class DVActionEnvelope(BaseModel):
    """For parsing an action from JSON: `DVActionEnvelope(action=...)`."""

    action: DVAction


#: Kinds still taken when the game is over: the ship records can be corrected, the rule switch flipped.
AFTER_OVER = frozenset({"mark_box", "set_damage", "set_minor", "set_rudder", "set_bookkeeping"})

#: The rule modules' own refusals.
RULE_ERRORS: tuple[type[Exception], ...] = (NeedDice,)

parse_action = C.action_parser(DVActionEnvelope, HANDLERS, "not a Decisive Victory action")


def apply(state: DVState, action: Any) -> Applied[DVState] | Refused:
    """Apply one action; the new state and its events, or a refusal with the reason (kernel.dispatch)."""
    return dispatch(HANDLERS, state, action, parse=parse_action, after_over=AFTER_OVER, rule_errors=RULE_ERRORS)
