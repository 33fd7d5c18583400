"""Who may do what in a shared game: the roles a device can hold, and `may`.

A device holds one side, or is the shared screen (read-only, for a TV), or
the whole table (every side: the one-device game, the host's default).
`may(role, action, state)` says in plain words why a role may not take an
action, or None; `may_undo` and `may_redo` say the same of the last change.
No flet here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.ruleset import AnyRuleset, GameStateLike, Unmoved
from ..store.game import LogEntry, undo_stacks

TABLE, SIDE, SCREEN = "table", "side", "screen"


@dataclass(frozen=True)
class Role:
    """What one device may do in one game: `table` (every side), one `side`, or `screen`."""

    kind: str
    side: str | None = None

    @classmethod
    def table(cls) -> "Role":
        return cls(TABLE)

    @classmethod
    def screen(cls) -> "Role":
        return cls(SCREEN)

    @classmethod
    def holding(cls, side: str) -> "Role":
        return cls(SIDE, side)

    @property
    def key(self) -> str:
        """A stable string id: `table`, `screen` or `side:British`."""
        return f"{SIDE}:{self.side}" if self.kind == SIDE else self.kind

    @classmethod
    def from_key(cls, key: str) -> "Role":
        if key in (TABLE, SCREEN):
            return cls(key)
        if key.startswith(f"{SIDE}:") and len(key) > len(SIDE) + 1:
            return cls.holding(key[len(SIDE) + 1:])
        raise ValueError(f"not a role: {key!r} (table, screen or side:NAME)")

    @property
    def read_only(self) -> bool:
        return self.kind == SCREEN

    def sees(self, ruleset: AnyRuleset, state: Any) -> Any:
        """What this device is shown of `state`: the whole table sees everything, a side or the
        shared screen only what the ruleset lets it (`Ruleset.view_for`: hidden information)."""
        return state if self.kind == TABLE else ruleset.view_for(state, self.side)


def action_data(action) -> dict[str, Any]:
    return action if isinstance(action, dict) else action.model_dump(mode="json")


def action_side(action, state: GameStateLike, ruleset: AnyRuleset) -> str | None:
    """The side an action belongs to, or None for a table action, a shot no longer in play or an unknown kind."""
    data = action_data(action)
    if data.get("kind") not in ruleset.side_of:
        return None
    return ruleset.side(data, state)


def _subject(data: dict[str, Any], state: GameStateLike, side: str, ruleset: AnyRuleset) -> str:
    """'HML Raven is a British ship' (the ship the action names, attacking or acting) or 'that
    belongs to British': what the action touches."""
    ship = data.get("attacker", data.get("ship"))
    if isinstance(ship, str) and state.has_ship(ship):
        found = state.ship(ship)
        return f"{ruleset.ship_name(found)} is a {side} ship"
    return f"that belongs to {side}"


def may(role: Role | None, action, state: GameStateLike, ruleset: AnyRuleset) -> str | None:
    """Why `role` may not take `action` now, in plain words; None if it may.

    Only who may act is decided here; whether the rules allow the action is
    `engine.apply`'s business.  Table actions (initiative, starting the game,
    ending movement or the turn, the rule-check switch) are anyone's who holds
    a side: every player takes those steps together.  A side may concede only
    for itself.
    """
    if role is None:
        return "This device has not joined this game yet: pick a side or the shared screen first."
    if role.kind == SCREEN:
        return "This is the shared screen: it shows the game to everyone and cannot change it."
    if role.kind == TABLE:
        return None
    data = action_data(action)
    kind = data.get("kind")
    if kind in ruleset.table_actions:
        return None
    if kind not in ruleset.side_of:  # fail closed: a kind the rules give to no side and not to the table
        return f"This device holds {role.side}: {kind!r} is not an action of {ruleset.name} it can take."
    side = action_side(data, state, ruleset)
    if side is None or side == role.side:
        return None
    if kind == "concede":
        return f"Only a device holding {side} can concede for {side}; this device holds {role.side}."
    verb = ruleset.action_words.get(str(kind), "act for it")  # kind is a key of side_of here: a str
    return f"{_subject(data, state, side, ruleset)}: only a device holding {side} can {verb}. This device holds {role.side}."


# --- a turn no side can stall (issue 35): a side's device ends only its own side's moves ---------------


def others_unmoved(role: Role | None, action, state: GameStateLike, ruleset: AnyRuleset) -> dict[str, Unmoved]:
    """The ships of the sides other than `role`'s whose moves `action` would end unmade (ending
    movement: `Ruleset.ends_moves`); every side's for the whole table, nothing for another action."""
    own = role.side if role is not None and role.kind == SIDE else None
    return {side: unmoved for side, unmoved in ruleset.ends_moves(state, action_data(action)).items()
            if side != own and unmoved.ships}


def _listed(names: tuple[str, ...], most: int = 4) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def unmoved_words(side: str, unmoved: Unmoved) -> str:
    """'French has 20 ships still to move (Pontbriand, ... and 16 more; Pontbriand's sealed move
    record not yet revealed)'."""
    count = len(unmoved.ships)
    sealed = ""
    if unmoved.sealed:
        records = "record" if len(unmoved.sealed) == 1 else "records"
        sealed = f"; the sealed move {records} of {_listed(unmoved.sealed)} not yet revealed"
    return (f"{side} has {count} ship{'s' if count != 1 else ''} still to move "
            f"({_listed(unmoved.ships)}{sealed})")


def ends_others_moves(role: Role | None, action, state: GameStateLike, ruleset: AnyRuleset,
                      host: bool) -> str | None:
    """Why this device may not take `action`, which would end another side's moves unmade, or None.

    A device holding one side ends only its own side's moves: while another side still has ships to
    move (or a sealed H1 record to reveal), ending movement is that side's to do, and the refusal
    names them.  The host (`host`: the server's record of where the browser is) may end it for
    everyone, and every screen is told (`host_ended_note`); so may a device the host gave the whole
    table.  The engine's rule is unchanged: this says only who may take the step
    (docs/rule-readings.md, shared play)."""
    if role is None or role.kind != SIDE or host:
        return None
    left = others_unmoved(role, action, state, ruleset)
    if not left:
        return None
    sides = list(left)
    who = sides[0] if len(sides) == 1 else " and ".join(sides)
    return (f"{'; '.join(unmoved_words(side, u) for side, u in left.items())}: a device holding {who} ends "
            f"its own moves, or the host ends movement for everyone. This device holds {role.side}.")


def waiting_for(role: Role | None, action, state: GameStateLike, ruleset: AnyRuleset, host: bool) -> str | None:
    """What a side's device waits for before it may take `action` ("Waiting for French: 20 ships
    still to move"), or None when it may: its screens say so in place of a step it would be refused."""
    if ends_others_moves(role, action, state, ruleset, host) is None:
        return None
    left = others_unmoved(role, action, state, ruleset)
    return "Waiting for " + "; ".join(
        f"{side}: {len(u.ships)} ship{'s' if len(u.ships) != 1 else ''} still to move" for side, u in left.items())


def ends_own_moves(role: Role | None, host: bool) -> bool:
    """Whether ending movement on this device ends only its own side's moves (a side's device that
    is not the host's): its screens call the step "End my side's moves"."""
    return role is not None and role.kind == SIDE and not host


def host_ended_note(left: dict[str, Unmoved]) -> str:
    """What every screen says when the host ended movement while another side had ships to move."""
    parts = []
    for side, unmoved in left.items():
        count = len(unmoved.ships)
        parts.append(f"{side}'s {count} ship{'s' if count != 1 else ''} not moved ({_listed(unmoved.ships)}) "
                     f"stay{'' if count != 1 else 's'} where {'they are' if count != 1 else 'it is'}")
        if unmoved.sealed:
            parts.append(f"the sealed move record{'s' if len(unmoved.sealed) != 1 else ''} of "
                         f"{_listed(unmoved.sealed)} {'are' if len(unmoved.sealed) != 1 else 'is'} discarded unrevealed")
    return "The host ended movement: " + "; ".join(parts) + "."


#: Actions only the host's own browser takes, whatever role a device holds (issue 25 part 8): the
#: rule-check switch turns the checks off for every side at once, so no guest decides it alone.
HOST_ONLY = frozenset({"set_bookkeeping"})


def host_only(action, host: bool) -> str | None:
    """Why a device that is not the host may not take `action` (the rule-check switch), or None.
    `host` is the server's own record of the device (where its browser is), never the browser's word."""
    if host or action_data(action).get("kind") not in HOST_ONLY:
        return None
    return ("Only the host turns the rule checks off or on, on the computer running the app: "
            "it changes the game for every side.")


#: What every screen says when the rule checks go off (it stays until the next tap: it changes what
#: the rules refuse for everyone) or on again (it fades, as an answer does).
RULE_CHECKS_OFF = "Rule checks are off for the whole game: the rules warn and record, nothing is refused."
RULE_CHECKS_ON = "Rule checks are on again for the whole game."


def rule_checks_note(before: Any, after: Any) -> str | None:
    """The note every screen shows when the rule checks were turned off or on (by the switch, an
    undo or a redo), or None.  `before`: the state the screen showed; `after`: the game's now."""
    was = getattr(getattr(before, "settings", None), "bookkeeping", None)
    now = getattr(getattr(after, "settings", None), "bookkeeping", None)
    if was is None or now is None or was == now:
        return None
    return RULE_CHECKS_OFF if now else RULE_CHECKS_ON


def may_undo(role: Role | None, entries: list[LogEntry], state: GameStateLike,
             ruleset: AnyRuleset) -> str | None:
    """You may undo what you may do: the last action in effect must be one `role` could take."""
    return _may_change(role, undo_stacks(entries)[0], state, ruleset, "Not undone.")


def may_redo(role: Role | None, entries: list[LogEntry], state: GameStateLike,
             ruleset: AnyRuleset) -> str | None:
    """The same for redo: the last action undone must be one `role` could take."""
    return _may_change(role, undo_stacks(entries)[1], state, ruleset, "Not redone.")


def _may_change(role: Role | None, stack: list, state: GameStateLike, ruleset: AnyRuleset, prefix: str) -> str | None:
    if role is not None and role.kind == SCREEN:
        return may(role, {}, state, ruleset)
    if not stack:
        return None  # nothing to undo or redo: the game says so
    problem = may(role, stack[-1], state, ruleset)
    return None if problem is None else f"{prefix} {problem}"


#: The roles that are not a side, as a label names them (a sentence says "the whole table").
ROLE_LABELS = {TABLE: "Whole table", SCREEN: "Shared screen"}


def role_label(role: Role | None, none: str = "No role") -> str:
    """'Whole table', 'Shared screen' or the side: the role as a label (`none` for no role)."""
    return none if role is None else ROLE_LABELS.get(role.kind, role.side or "")


def role_words(role: Role | None) -> str:
    """'the whole table', 'the shared screen' or the side: the role in a sentence ('no role')."""
    if role is None or role.kind not in ROLE_LABELS:
        return role_label(role, "no role")
    return "the " + role_label(role).lower()
