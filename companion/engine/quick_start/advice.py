"""The shot advisor (issue 17 "Beyond paper"): each gun's options ranked by what they are worth.

An option is one working gun at one target location it may strike (seed 001
"Determining Damage Arcs", rules-notes 4-6), read from `combat.firing_solutions`
(the one list of what a ship may shoot at) and valued from its exact
`combat.breach_odds`: the chance of destroying a slot, the expected slots
destroyed, the chance of breaking the keel, the chance the ship counts as
destroyed.  One breach roll destroys at most one slot, so for one shot the
expected slots equal the chance of destroying one; they differ in a fire
plan (fire_plan.py).

Ranking (a reading, docs/rule-readings.md): the chance the ship is destroyed
first (a destroyed ship leaves play at the end of the turn with all its guns,
and counts toward the game's end: seed 001 "Ending the Game"); then the
expected slots destroyed (damage stays, weakens the ship's next turns, and
raises every later keel roll: rules-notes 6); then the keel chance (already
inside the first figure, so it only parts otherwise equal options).  Equal
options keep the order of `firing_solutions` (enemy, then the card's location
order).

Who picks the location (table rule two_locations, table_play.py): the
attacker, one option per location; a d6 at the roll, one option worth the
even mixture of the two; the target's side, one option worth the location
the target's side would choose, the worse of the two for the attacker by the
same ranking.  A gun's best option is marked only when it can do anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from .combat import FiringSolution, Odds, firing_solutions
from .fire_plan import PlannedShot
from .state import GameState
from .table_play import Chooser, LocationRoll


@dataclass(frozen=True)
class Value:
    """What one shot is worth, exactly."""

    slot: Fraction  # P(a slot destroyed)
    expected_slots: Fraction
    keel_break: Fraction
    ship_destroyed: Fraction

    @classmethod
    def of(cls, odds: Odds | LocationRoll) -> "Value":
        slot = sum(odds.slot_destroyed.values(), Fraction(0))
        return cls(slot, slot, odds.keel_break, odds.ship_destroyed)

    @property
    def rank_key(self) -> tuple[Fraction, Fraction, Fraction]:
        """Higher is better: ship destroyed, then expected slots, then keel."""
        return (self.ship_destroyed, self.expected_slots, self.keel_break)

    @property
    def worth_anything(self) -> bool:
        return bool(self.slot or self.keel_break or self.ship_destroyed)

    def as_json(self) -> dict[str, str]:
        return {"slot": str(self.slot), "expected_slots": str(self.expected_slots),
                "keel_break": str(self.keel_break), "ship_destroyed": str(self.ship_destroyed)}


@dataclass(frozen=True)
class Option:
    """One gun at one target location (None: a d6 picks at the roll), with its value."""

    attacker: str
    location: str
    slot: int
    gun: str
    target: str
    target_location: str | None
    decided_by: Chooser
    range: int | None
    band: str
    pool: str
    value: Value
    best: bool = False

    @property
    def shot(self) -> PlannedShot:
        """The option as a planned shot for fire_plan.py."""
        return PlannedShot(self.attacker, self.location, self.slot, self.target, self.target_location)

    def as_json(self) -> dict[str, Any]:
        return {"target": self.target, "target_location": self.target_location, "decided_by": self.decided_by,
                "range": self.range, "band": self.band, "pool": self.pool, "best": self.best,
                **self.value.as_json()}


@dataclass(frozen=True)
class GunAdvice:
    """One working gun's options, best first."""

    attacker: str
    location: str
    slot: int
    gun: str
    declared: bool  # the gun already has a shot declared this turn
    options: tuple[Option, ...] = field(default_factory=tuple)

    @property
    def best(self) -> Option | None:
        return next((o for o in self.options if o.best), None)

    def as_json(self) -> dict[str, Any]:
        return {"weapon": {"location": self.location, "slot": self.slot, "name": self.gun},
                "declared": self.declared, "options": [o.as_json() for o in self.options]}


def options_of(solution: FiringSolution) -> list[Option]:
    """The options of one gun at one ship: per location, or one when a d6 or the target picks."""
    def option(location: str | None, value: Value, pool: str) -> Option:
        return Option(solution.attacker, solution.location, solution.slot, solution.name, solution.target,
                      location, solution.decided_by, solution.range, solution.band, pool, value)

    mixed = solution.location_roll
    if mixed is not None:
        return [option(None, Value.of(mixed), " or ".join(s.pool.expanded for s in solution.strikes))]
    each = [option(s.location, Value.of(s.odds), s.pool.expanded) for s in solution.strikes]
    if solution.decided_by == "target" and each:
        return [min(each, key=lambda o: o.value.rank_key)]  # the target's side picks its best
    return each


def ranked(options: list[Option]) -> tuple[Option, ...]:
    """Best first (stable: equal options keep their order); the first marked best if worth anything."""
    order = sorted(options, key=lambda o: o.value.rank_key, reverse=True)
    if order and order[0].value.worth_anything:
        order[0] = replace(order[0], best=True)
    return tuple(order)


def advise(state: GameState, ship_id: str) -> tuple[GunAdvice, ...]:
    """Every working gun of a ship with its options ranked, in the card's order (none once it left play)."""
    attacker = state.ship(ship_id)
    if attacker.removed:
        return ()
    solutions = firing_solutions(state, ship_id)
    fired = {(s.location, s.slot) for s in state.shots if s.attacker == ship_id}
    return tuple(
        GunAdvice(ship_id, location, slot, attacker.card.locations[location].gun(slot).name,
                  (location, slot) in fired,
                  ranked([o for s in solutions if (s.location, s.slot) == (location, slot) for o in options_of(s)]))
        for location, slot in attacker.working_guns
    )


def best_shots(guns: tuple[GunAdvice, ...], undeclared_only: bool = True) -> list[PlannedShot]:
    """Each gun's best option as a planned shot (guns with a declared shot left out unless asked)."""
    return [g.best.shot for g in guns if g.best is not None and not (undeclared_only and g.declared)]


def side_ships(state: GameState, side: str) -> list[str]:
    """The ships of a side still in play, for the fire plan of a whole side."""
    return [s.id for s in state.active_ships if s.side == side]
