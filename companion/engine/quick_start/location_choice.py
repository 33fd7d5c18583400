"""A shot that can strike two locations: who picks (table rule two_locations, issue 15 C).

docs/rule-readings.md "Map and arcs": "Two: the attacker chooses" is the app's
reading ("attacker": `declare_shot` names the location).  A group may play it
otherwise (`table_play.who_decides` is the switch):
  - "target": the shot is declared without a location; the target ship's side
    then chooses one of the two (`choose_location {shot, location}`), and the
    shot cannot be rolled before it has;
  - "roll": the shot is declared without a location; at the roll one d6 (from
    the game's roller, or a table die: `TableFaces.location`) picks the first
    of the two in the card's location order on 1-3, the second on 4-6, before
    the breach roll (whose pool holds the struck location's dice); the die is
    kept in the shot's result (`ShotResult.location_roll`).
A declared shot that names its location (every shot of an older save) stays
as it is.
"""

from __future__ import annotations

from .. import common as C
from .combat import Strike, breach_odds, shot_pool
from ..dice import Colour, Pool
from ..kernel import Refusal, Work
from ..roller import DieRoll
from .actions import ChooseLocation, TableFaces
from .state import GameState, ShipState, Shot
from .table_play import Chooser, who_decides

#: The table die of a location roll (`TableDice` purpose -> what a missing face is for).
LOCATION_NEEDS = {"location": "the location roll needs a d6 (1-3 the first location, 4-6 the second)"}


def declared_location(work: Work[GameState], target: ShipState, chosen: str | None,
                      choices: list[str]) -> str | None:
    """The location a shot is declared at, or None when the target's side or a d6 decides later."""
    who = who_decides(work.state.table_rules, target, choices)
    if who != "attacker":
        if chosen is None:
            return None
        work.rule(f"{_decider(who, target, choices)}: declare the shot without a location")
    return C.choose_location(work, chosen, choices, list(target.card.locations), target.card.name, "shot")


def _decider(who: Chooser, target: ShipState, choices: list[str]) -> str:
    first, second = (loc.replace("_", " ") for loc in choices)
    if who == "target":
        return f"{target.side} chooses the {first} or the {second} of {target.card.name} (table rule)"
    return f"a d6 picks the {first} (1-3) or the {second} (4-6) of {target.card.name} at the roll (table rule)"


def waiting_words(state: GameState, shot: Shot) -> str:
    """How a shot declared without a location will find it, in words ("" once it has one)."""
    if shot.target_location is not None:
        return ""
    target = state.ship(shot.target)
    who: Chooser = "roll" if state.table_rules.two_locations == "roll" else "target"
    return _decider(who, target, shot.may_strike)


def settle_location(work: Work[GameState], shot: Shot, table: TableFaces | None) -> tuple[Shot, DieRoll | None]:
    """The shot with its struck location, and the d6 that picked it (None when it had one)."""
    if shot.target_location is not None:
        return shot, None
    if work.state.table_rules.two_locations != "roll":
        raise Refusal(f"shot {shot.id} waits: {waiting_words(work.state, shot)}")
    die = C.rolled(work, table, LOCATION_NEEDS, lambda dice: dice.take(Colour.D6, "location"))
    where = shot.may_strike[0 if die.face <= 3 else 1]
    return shot.model_copy(update={"target_location": where}), die


def location_roll_words(die: DieRoll | None, location: str) -> str:
    """The start of a result's text when a d6 picked the location: "location d6 5: the starboard quarter. "."""
    return f"location d6 {die.face}: the {location.replace('_', ' ')}. " if die else ""


def choose_location(work: Work[GameState], action: ChooseLocation) -> None:
    """The target's side picks the location a shot strikes (two_locations "target")."""
    shot: Shot = C.declared(work, "shots", action.shot, "shot", "resolved")
    target = work.state.ship(shot.target)
    if action.location not in target.card.locations:
        raise Refusal(f"{target.card.name} has no location '{action.location}'")
    if shot.target_location is not None:
        raise Refusal(f"shot {shot.id} strikes the {shot.target_location.replace('_', ' ')} already")
    if work.state.table_rules.two_locations != "target":
        work.rule(f"shot {shot.id}: {waiting_words(work.state, shot)}")
    if action.location not in shot.may_strike:
        work.rule(f"shot {shot.id} can strike only the {' or the '.join(shot.may_strike)}")
    chosen = shot.model_copy(update={"target_location": action.location})
    work.update(shots=[chosen if s.id == shot.id else s for s in work.state.shots])
    work.event("choose_location", f"{target.side} chooses the {action.location.replace('_', ' ')} of "
               f"{target.card.name} for shot {shot.id}.", shot=shot.id, location=action.location)


def shot_pool_now(state: GameState, shot: Shot) -> Pool:
    """The breach pool a declared shot rolls: at its location, or, while the table rules still have
    that location to decide, at the first location it may strike (what a screen shows meanwhile)."""
    attacker, target = state.ship(shot.attacker), state.ship(shot.target)
    where = shot.target_location or shot.may_strike[0]
    return shot_pool(attacker, shot.location, shot.slot, shot.band, target, where, state.table_rules)


def shot_strikes(state: GameState, shot: Shot) -> list[Strike]:
    """What a declared shot would roll and could do: at its location, or (still to decide) at each
    location it may strike, in the card's order."""
    attacker, target = state.ship(shot.attacker), state.ship(shot.target)
    modifier = attacker.tesla_modifier
    strikes = []
    for where in [shot.target_location] if shot.target_location else shot.may_strike:
        pool = shot_pool(attacker, shot.location, shot.slot, shot.band, target, where, state.table_rules)
        strikes.append(Strike(where, pool, modifier, breach_odds(pool, modifier, target, where)))
    return strikes
