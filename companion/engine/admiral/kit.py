"""What the admiral asks of a ruleset (issue 38): its ships' shots with their exact odds, where a
ship stands, and a ship put at an end position of its reach.

A ruleset that the admiral can play carries an `AdmiralKit` on its `Ruleset` value (the field
`admiral`, beside the report's and the planner's capabilities); the search itself (search.py) is
written once and never asks which ruleset it plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Hashable

from ..hexes import Hex

#: A destroyed (Quick-Start) or casualty (War Fleet) enemy is worth this many damage results.
KILL_WEIGHT = 6


@dataclass(frozen=True)
class Shot:
    """One gun's (or location's) shot at one target, as `act` takes its declaration, with its exact
    odds: `hit` the chance of damage (a slot, a location destroyed), `kill` the chance the target is
    out of the fight (destroyed, a casualty)."""

    action: dict[str, Any]
    gun: Hashable  # one declaration a gun: shots of the same `gun` exclude each other
    target: str
    hit: Fraction
    kill: Fraction
    words: str  # '6" bow gun at Pontbriand's stern'

    @property
    def value(self) -> Fraction:
        return self.kill * KILL_WEIGHT + self.hit

    def reason(self) -> str:
        kill = f", {percent(self.kill)} to destroy" if self.kill else ""
        return f"{self.words}: {percent(self.hit)} to damage{kill}"


def percent(chance: Fraction) -> str:
    value = float(chance) * 100
    return f"{value:.0f}%" if value >= 1 or value == 0 else f"{value:.1f}%"


@dataclass(frozen=True)
class AdmiralKit:
    """A ruleset's answers for the admiral (every function is the engine's own rules, read)."""

    #: (state, ship id) -> every shot its guns not yet declared this turn could declare now
    shots: Callable[[Any, str], list[Shot]]
    #: (state, ship id, a `reach.Reached`) -> the state with the ship standing there (no turn check)
    place: Callable[[Any, str, Any], Any]
    #: ship -> the hex it stands in (its bow)
    where: Callable[[Any], Hex]
    #: ship -> the range (hexes) its guns are best at: the scripted baseline closes to it
    best_range: Callable[[Any], int]
    #: ship -> the longest range (hexes) of its guns: from further off no gun reaches
    max_range: Callable[[Any], int]
    #: ship -> whether its move this turn is over
    moved: Callable[[Any], bool]
    #: the kinds of the rolls of declared shots (the dice's step, taken by the table or a duel)
    rolls: tuple[str, ...]
    #: the table's steps a headless game takes, in the order of the turn
    table_steps: tuple[str, ...]
    #: a `reach.Reached` that costs the ship (Quick-Start: ending in the half-hexes destroys it)
    wasteful: Callable[[Any], bool] = lambda reached: False
