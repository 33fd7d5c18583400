"""Quick-Start's answers to the after-action report (issue 17): its rolls to rate, each shot's damage
against expected, its ships lost and their names (the `Ruleset` capabilities, engine/report_damage.py).

A breach roll and its keel roll are the firing side's (high is good for it), an initiative roll the
rolling side's; the slot die and the d6 that picks a location are not luck in one direction and are
left out (docs/rule-readings.md, "After-action report").  A shot's expectation is its exact odds as
declared (seed 001 "Combat", rules-notes 6; `combat.breach_odds`): on the position it is rolled in, at
the location it was declared at, the chance of each slot destroyed and of the keel breaking; when a d6
picks between two locations (table rule two_locations "roll"), the even mixture of the two
(`table_play.LocationRoll`).  The expected slots are the sum of the slot chances.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from ..kernel import Event
from .location_choice import shot_strikes
from ..ruleset import ShipMarks
from ..report_damage import RollMark, ShotMark, dice_mark, event_result, initiative_marks, kept
from .state import GameState, ShipState


def rated_rolls(state: GameState, action: Any, events: Sequence[Event]) -> list[RollMark]:
    """The luck-bearing rolls of one action from `state` (the position before it)."""
    turn, marks = int(state.turn), []
    shooter = {s.id: state.ship(s.attacker).side for s in state.shots if state.has_ship(s.attacker)}
    for event in events:
        marks += initiative_marks(turn, event)
        if event.kind == "shot" and event.data.get("shot") in shooter:
            side, result = shooter[event.data["shot"]], event.data["result"]
            marks += kept([dice_mark(turn, side, "breach", result["pool"]),
                           dice_mark(turn, side, "keel", result["keel_dice"])])
    return marks


def expected_damage(state: GameState, action: Any, events: Sequence[Event]) -> ShotMark | None:
    """The shot `action` resolved from `state`, with its exact expectation; None for any other action."""
    if action.kind != "resolve_shot":
        return None
    result = event_result(events, "shot", "shot", action.shot)
    shot = next((s for s in state.shots if s.id == action.shot), None)
    if result is None or shot is None:
        return None
    attacker = state.ship(shot.attacker)
    strikes = shot_strikes(state, shot)  # a d6 picks evenly between two strikes
    slots = sum((sum(s.odds.slot_destroyed.values(), Fraction(0)) for s in strikes), Fraction(0)) / len(strikes)
    keel = sum((s.odds.keel_break for s in strikes), Fraction(0)) / len(strikes)
    gun = attacker.card.locations[shot.location].gun(shot.slot)
    struck = next((e.data["location"] for e in events if e.kind == "slot_destroyed"), None)
    return ShotMark(
        turn=int(state.turn), side=attacker.side, attacker=attacker.id, location=shot.location, slot=shot.slot,
        gun=gun.name, target=shot.target, slots=int(result["outcome"] == "slot_destroyed"),
        target_location=shot.target_location or struck or " or ".join(s.location for s in strikes),
        keel=int(result["outcome"] == "keel_break"), slots_expected=slots, keel_expected=keel)


def ships_lost(before: GameState, after: GameState, events: Sequence[Event]) -> Iterable[str]:
    """The ships an action destroyed (a broken keel, the half-hexes at the edge)."""
    return [e.data["ship"] for e in events if e.kind == "ship_destroyed" and isinstance(e.data.get("ship"), str)]


def ship_name(ship: ShipState) -> str:
    return ship.card.name


def ship_marks(ship: ShipState) -> ShipMarks:
    """Where it stands, its slots marked destroyed or damaged, and whether it is out of the game."""
    return ShipMarks((ship.column, ship.row, ship.facing), sum(len(slots) for slots in ship.damage.values()),
                     ship.removed)
