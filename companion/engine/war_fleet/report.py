"""War Fleet's answers to the after-action report (issue 17; the `Ruleset` capabilities of
engine/report_damage.py): its rolls to rate, each attack's damage against expected, its ships lost.

An attack's dice are the attacking side's, an initiative roll the rolling side's.  An attack
(rules-notes 8) is read as a Quick-Start shot is: a location destroyed counts as a slot, a casualty
as a broken keel, against `odds.attack_odds` of its dialled-up pool (`game.declared_pool`) on the
position it is rolled in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from ..kernel import Event
from ..ruleset import ShipMarks
from ..report_damage import RollMark, ShotMark, dice_mark, event_result, initiative_marks, kept
from .game import declared_pool
from .odds import attack_odds
from .state import WarFleetState, WarShip

#: The events that take a ship out of the game (a casualty, off the map, removed).
LOSSES = ("casualty", "ship_lost", "ship_destroyed")


def rated_rolls(state: WarFleetState, action: Any, events: Sequence[Event]) -> list[RollMark]:
    """The luck-bearing rolls of one action from `state` (the position before it)."""
    turn, marks = int(state.turn), []
    attacker = {a.id: state.ship(a.attacker).side for a in state.attacks if state.has_ship(a.attacker)}
    for event in events:
        marks += initiative_marks(turn, event)
        if event.kind == "attack" and event.data.get("attack") in attacker:
            side = attacker[event.data["attack"]]
            marks += kept(dice_mark(turn, side, "attack", roll["dice"]) for roll in event.data["result"]["rolls"])
    return marks


def expected_damage(state: WarFleetState, action: Any, events: Sequence[Event]) -> ShotMark | None:
    """The attack `action` rolled from `state`, with its exact expectation; None for any other action."""
    if action.kind != "roll_attack":
        return None
    result = event_result(events, "attack", "attack", action.attack)
    attack = next((a for a in state.attacks if a.id == action.attack), None)
    if result is None or attack is None:
        return None
    attacker, target = state.ship(attack.attacker), state.ship(attack.target)
    slots = keel = Fraction(0)
    if not target.casualty:  # else nothing is rolled
        pool, rolls, _ = declared_pool(state, attack)
        odds = attack_odds(pool, rolls, target, attack.target_location)
        slots, keel = odds.location_destroyed, odds.casualty
    return ShotMark(
        turn=int(state.turn), side=attacker.side, attacker=attacker.id, location=" and ".join(attack.locations),
        slot=0, gun=" and ".join(attack.locations), target=attack.target, target_location=attack.target_location,
        slots=int(bool(result.get("location_destroyed"))), keel=int(bool(result.get("casualty"))),
        slots_expected=slots, keel_expected=keel)


def ships_lost(before: WarFleetState, after: WarFleetState, events: Sequence[Event]) -> Iterable[str]:
    """The ships an action made a casualty, lost off the map, or removed."""
    return [e.data["ship"] for e in events if e.kind in LOSSES and isinstance(e.data.get("ship"), str)]


def ship_marks(ship: WarShip) -> ShipMarks:
    """Where it stands, its locations marked, lost or removed, and a casualty."""
    return ShipMarks((ship.column, ship.row, ship.facing), len(ship.destroyed), ship.lost or ship.removed,
                     ship.casualty)
