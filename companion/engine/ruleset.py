"""A game system as a value: what the store, shared play, the app and the CLI need of it.

A `Ruleset[S, A]` (generic in its state `S`, a `GameStateLike`: what the
kernel and shared code read of any state, and its action union `A`) holds a
system's state type, its action union (parsed and dumped
through a pydantic `TypeAdapter`), its handlers (run by `kernel.dispatch`),
who each action kind belongs to, its phases in words, its scenario format and
how to load one, and what a device holding one side may be shown of a game
(`view_for`: hidden information).  `QUICK_START` (quick_start/ruleset.py) and `WAR_FLEET`
(war_fleet/ruleset.py) are the values; `registry.py`, above them, holds `RULESETS`
and `find_ruleset(id)`, as python-chess's `VARIANTS`/`find_variant`.  What differs between
systems is asked of the value, never by its id or state type: optional capabilities (the
report's rated rolls and expected damage, the planner's `reach` and `trail`, shared play's
`action_words`, the admiral's kit), each with a default meaning "none".  A house rule is a
`variant(...)` of a ruleset with its own id, so a saved game can name the rules
it was played with.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Mapping, Sequence, TypeVar

from pydantic import TypeAdapter

from .hexes import Hex
from .kernel import Applied, Event, GameStateLike, Handler, Refusal, Refused, SettingsLike, dispatch

__all__ = ["AnyRuleset", "GameStateLike", "SettingsLike", "Ruleset", "Option", "PlanReach", "PlanTrail", "Unmoved"]

#: a ruleset's state: a frozen pydantic model with what the kernel reads (`GameStateLike`)
S = TypeVar("S", bound=GameStateLike)
#: a ruleset's action union (the parsed action objects)
A = TypeVar("A")

if TYPE_CHECKING:
    from .admiral.kit import AdmiralKit
    from .report_damage import ReportWords, RollMark, ShotMark

#: side_of entries: (action as JSON data, state) -> the side it belongs to, or None when the
#: thing it names is not in play (the game itself then refuses it).
SideOf = Callable[[Mapping[str, Any], Any], "str | None"]
#: candidates: (state, side or None for every side) -> the actions worth trying.
Candidates = Callable[[Any, "str | None"], Iterable[dict[str, Any]]]

# The after-action report's capabilities (engine/report.py asks each ruleset what differs):
#: (state before, action object, its events) -> the luck-bearing rolls of the action, rated.
RatedRolls = Callable[[Any, Any, Sequence[Event]], "Iterable[RollMark]"]
#: (state before, action object, its events) -> the shot or attack it resolved, damage against expected.
ExpectedDamage = Callable[[Any, Any, Sequence[Event]], "ShotMark | None"]
#: (state before, state after, events) -> the ids of the ships the action took out of the game.
ShipsLost = Callable[[Any, Any, Sequence[Event]], Iterable[str]]

# The movement planner's capabilities (app/planner_model.py asks each ruleset; None: no planner):
#: (state, ship id) -> every end position of the ship this turn (a `quick_start.reach.Reach`; Refusal
#: in plain words for a ship out of play)
PlanReach = Callable[[Any, str], Any]
#: (state, ship id, path of actions) -> the bow hex and facing after each action, the start first
PlanTrail = Callable[[Any, str, Sequence[Mapping[str, Any]]], "tuple[tuple[Hex, int], ...]"]


@dataclass(frozen=True)
class ShipMarks:
    """A ship in the few words a replay compares between two positions (app/replay_model.py)."""

    where: Any = None  # where it stands and faces, in any form equality compares
    damage: int = 0  # how many damage marks it carries
    gone: bool = False  # out of the game (destroyed, lost, sunk, removed)
    casualty: bool = False  # a casualty (War Fleet: still on the map, out of the fight)


@dataclass(frozen=True)
class Unmoved:
    """A side's ships whose moves a table action would end unmade (`Ruleset.ends_moves`): every
    ship still to move, and of those the ones whose sealed move record (house rule H1) is not yet
    revealed, by name."""

    ships: tuple[str, ...] = ()
    sealed: tuple[str, ...] = ()


#: (state, action as JSON data) -> each side's ships whose moves the action would end unmade (only
#: the sides with any); empty for an action that ends no move (shared play, issue 35)
EndsMoves = Callable[[Any, Mapping[str, Any]], Mapping[str, Unmoved]]


@dataclass(frozen=True)
class Option:
    """One action a side could take now, or (`problem` set) why it cannot, in the engine's words."""

    action: dict[str, Any]
    problem: str | None = None

    @property
    def possible(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class Ruleset(Generic[S, A]):
    """One game system (or a variant of one), generic in its state `S` and its action union `A`.

    The contract a ruleset keeps with the shared code: its state is a frozen pydantic model read
    through `GameStateLike` (and `turn`, `sides`, `ships`); the handler that ends the game emits an
    event of kind "game_over" (the store then reveals the game's dice seed, `verify` checks it).
    """

    id: str
    name: str
    state_type: type[S]  # a pydantic model class (its model_validate reads a saved state)
    actions: TypeAdapter[A]
    parse: Callable[[Any], A]  # data -> action object; raises kernel.Refusal (MALFORMED)
    handlers: Mapping[str, Handler]
    after_over: frozenset[str]
    table_actions: frozenset[str]
    side_of: Mapping[str, SideOf]
    phases: Mapping[str, str]
    scenario_format: str
    load_scenario: Callable[[Any], Any]
    build_state: Callable[..., S]  # (scenario, catalogue, roller) -> state
    describe: Callable[[S], str] = lambda state: ""  # a game's position in one line (validate, games)
    candidates: Candidates = lambda state, side: ()
    rule_errors: tuple[type[Exception], ...] = ()
    state_problem: Callable[[S], "str | None"] = lambda state: None  # an impossible position, in words
    save_scenario: Callable[[S, str], dict[str, Any]] | None = None  # (state, name) -> a scenario file's data
    readings: str = ""
    variant_of: str | None = field(default=None)
    #: (state, side or None) -> the state with what that side may not see taken out (`view_for`)
    view: Callable[[S, "str | None"], S] = lambda state, side: state
    #: the after-action report's capabilities (engine/report_damage.py): rolls rated, damage against
    #: expected, ships lost, a ship's name as the players know it, and the report's words
    rated_rolls: RatedRolls = lambda state, action, events: ()
    expected_damage: ExpectedDamage = lambda state, action, events: None
    ships_lost: ShipsLost = lambda before, after, events: ()
    ship_name: Callable[[Any], str] = lambda ship: str(ship.id)
    #: a ship's marks a replay compares (where, damage, gone); nothing known by default
    ship_marks: Callable[[Any], ShipMarks] = lambda ship: ShipMarks()
    report_words: "ReportWords | None" = None  # None: plain words ("damage dealt", "ships lost")
    #: what an action of a side does, in words, by kind: shared play's refusal says "only a device
    #: holding British can <words>" (a kind not here: "act for it")
    action_words: Mapping[str, str] = field(default_factory=dict)
    #: the movement planner (issue 17): every end position of a ship, and the path drawn on the map;
    #: None: this ruleset has no planner (the app offers none, `companion reach` says so)
    reach: PlanReach | None = None
    trail: PlanTrail | None = None
    #: the admiral (issue 38): what the app needs to fly one side (engine/admiral/); None: the app
    #: cannot play this ruleset (`companion admiral` and `duel` say so)
    admiral: "AdmiralKit | None" = None
    #: the ships of each side whose moves a table action (ending movement) would end unmade: shared
    #: play lets a device holding one side end only its own side's moves (issue 35)
    ends_moves: EndsMoves = lambda state, action: {}

    # --- actions ------------------------------------------------------------------

    def parse_action(self, data: Any) -> A:
        """The action object for data from a log, a file or a screen; ValueError saying what and where."""
        try:
            return self.parse(data)
        except Refusal as refusal:
            raise ValueError(str(refusal)) from None

    def dump_action(self, action: Any) -> dict[str, Any]:
        """An action as JSON data, as the log keeps it."""
        if isinstance(action, Mapping):
            return dict(action)
        data: dict[str, Any] = self.actions.dump_python(action, mode="json")
        return data

    def side(self, action: Any, state: S) -> str | None:
        """The side `action` belongs to; None for a table action or a thing no longer in play.

        KeyError for a kind this ruleset assigns neither to a side nor to the
        table: shared play refuses those (fail closed).
        """
        data = self.dump_action(action) if not isinstance(action, Mapping) else action
        kind = data.get("kind")
        if kind in self.table_actions:
            return None
        if not isinstance(kind, str):
            raise KeyError(kind)
        return self.side_of[kind](data, state)

    # --- the rules ----------------------------------------------------------------

    def apply(self, state: S, action: Any) -> Applied[S] | Refused:
        """One action through the kernel: `Applied(state, events)` or `Refused(reason, kind)`."""
        return dispatch(self.handlers, state, action, parse=self.parse, after_over=self.after_over,
                        rule_errors=self.rule_errors)

    def replay(self, state: S, actions: Iterable[Any]) -> S:
        """The state after `actions` (a log of accepted actions); ValueError naming the first refused."""
        for number, action in enumerate(actions, 1):
            outcome = self.apply(state, action)
            if isinstance(outcome, Refused):
                raise ValueError(f"action {number} is refused: {outcome.reason}")
            state = outcome.state
        return state

    def options(self, state: S, side: str | None = None) -> list[Option]:
        """The actions `side` (every side when None) could take now, each with the engine's reason if not.

        Each candidate is tried through `apply` on the state as it is, so the
        reasons are the rules' own words and never a second copy of them.
        """
        options = []
        for action in self.candidates(state, side):
            outcome = self.apply(state, action)
            options.append(Option(action, outcome.reason if isinstance(outcome, Refused) else None))
        return options

    def view_for(self, state: S, side: str | None) -> S:
        """What a device holding `side` (None: the shared screen, a spectator) may be sent of `state`.

        Hidden information (a house rule's secret moves) is taken out by the
        ruleset's `view`; Quick-Start and War Fleet hide nothing, so every
        device is sent the whole state.  The store keeps and replays the whole
        state: a view is only ever shown, never applied to.
        """
        return self.view(state, side)

    # --- variants -----------------------------------------------------------------

    def variant(self, id: str, name: str, **changes: Any) -> "Ruleset[S, A]":
        """The same ruleset with some parts changed (handlers, table actions, side_of, ...)."""
        return dataclasses.replace(self, id=id, name=name, variant_of=self.id, **changes)


#: a ruleset whose state and action types the caller does not know (the registry, the store, shared play)
AnyRuleset = Ruleset[Any, Any]


# --- who owns an action: the pieces every ruleset's `side_of` is built from ------------------------


def ship_side(field: str) -> Callable[[Mapping[str, Any], Any], str | None]:
    """The side of the ship an action names in `field` (None for a ship not in the game)."""
    def side(data: Mapping[str, Any], state: Any) -> str | None:
        ship = data.get(field)
        return state.ship(ship).side if isinstance(ship, str) and state.has_ship(ship) else None
    return side


def attacker_side(records: str, key: str, whose: str = "attacker") -> SideOf:
    """The side of the attacker (or of its `whose`: "target") of the declared shot or attack (in
    `state.<records>`) that an action names by its id in `key`."""
    def side(data: Mapping[str, Any], state: Any) -> str | None:
        record = next((r for r in getattr(state, records) if r.id == data.get(key)), None)
        if record is None or not state.has_ship(getattr(record, whose)):
            return None
        owner: str = state.ship(getattr(record, whose)).side
        return owner
    return side


def turn_candidates(table: Mapping[str, str], declarations: Callable[[Any, Any], Iterable[dict[str, Any]]],
                    records: str, roll: str, key: str) -> Candidates:
    """A ruleset's `candidates`: the table's step of the phase (`table`: phase -> kind); in
    movement each ship's steps and end of move; in combat each ship's declarations
    (`declarations(state, ship)`) and the `roll` of each declared shot or attack of
    `state.<records>` not yet rolled, named by its id in `key`."""
    owner = attacker_side(records, key)

    def candidates(state: Any, side: str | None) -> Iterable[dict[str, Any]]:
        kind = table.get(state.phase)
        if kind:
            yield {"kind": kind}
        ships = [s for s in state.active_ships if side is None or s.side == side]
        if state.phase == "movement":
            for ship in ships:
                for step in ("forward", "port", "starboard"):
                    yield {"kind": "step", "ship": ship.id, "step": step}
                yield {"kind": "end_move", "ship": ship.id}
        if state.phase == "combat":
            for ship in ships:
                yield from declarations(state, ship)
            for record in getattr(state, records):
                if record.result is None and (side is None or owner({key: record.id}, state) == side):
                    yield {"kind": roll, key: record.id}
    return candidates


def conceding_side(data: Mapping[str, Any], state: Any) -> str | None:
    """The side that concedes is the one the action names."""
    side = data.get("side")
    return side if isinstance(side, str) else None
