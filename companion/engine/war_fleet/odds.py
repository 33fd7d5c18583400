"""Exact odds of one War Fleet attack at one target location (rules-notes 9).

Every roll of the attack at the location's Resilience (a destroyed one's once
it is destroyed); every hit forces an SI test: a dRed plus the SI modifiers of
the destroyed locations, the forcing one's doubled (combat.py).  Every
probability here is an exact fraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..dice import Colour, Pool, chance_at_least
from .dialup import canonical
from .state import WarShip

SI_DIE = Pool([Colour.RED])


@dataclass(frozen=True)
class AttackOdds:
    """What one declared attack can do to one target location.

    `location_destroyed`: the chance this attack destroys the location (0 when
    it is already destroyed); `casualty`: the chance the ship fails an SI test
    forced by this attack; `no_effect`: the chance that no roll reaches the
    Resilience.  The three overlap (a casualty usually destroyed the location).
    """

    pool: Pool
    rolls: int
    resilience: int
    si: int
    si_modifier: int
    already_destroyed: bool
    no_effect: Fraction
    location_destroyed: Fraction
    casualty: Fraction

    def as_json(self) -> dict[str, Any]:
        return {
            "pool": self.pool.expanded,
            "rolls": self.rolls,
            "resilience": self.resilience,
            "si": self.si,
            "si_modifier": self.si_modifier,
            "already_destroyed": self.already_destroyed,
            "no_effect": str(self.no_effect),
            "location_destroyed": str(self.location_destroyed),
            "casualty": str(self.casualty),
        }


@lru_cache(maxsize=100_000)
def _odds(pool_key: tuple[Colour, ...], rolls: int, intact: int, destroyed_res: int, destroyed: bool,
          si: int, modifier: int) -> tuple[Fraction, Fraction, Fraction]:
    """(no effect, location destroyed, casualty), exact.

    Roll by roll: a hit on the intact location destroys it, every hit forces an SI
    test, a failed test ends the attack (the ship is a casualty).  The weights are
    integers over one common denominator (each roll multiplies it by the pool's
    and the red die's outcomes), made into fractions once at the end.
    """
    p_intact, p_destroyed = chance_at_least(pool_key, intact), chance_at_least(pool_key, destroyed_res)
    q = chance_at_least(SI_DIE, si - modifier)  # dRed + modifier reaches SI: the ship becomes a casualty
    n = math.lcm(p_intact.denominator, p_destroyed.denominator)
    m = q.denominator
    hit = {False: p_intact.numerator * (n // p_intact.denominator),
           True: p_destroyed.numerator * (n // p_destroyed.denominator)}
    fail = q.numerator
    alive = {destroyed: 1}  # still afloat, by whether the location is destroyed
    newly = casualty = 0
    for _ in range(rolls):
        nxt = {False: 0, True: 0}
        newly, casualty = newly * n * m, casualty * n * m
        for is_destroyed, weight in alive.items():
            hits = weight * hit[is_destroyed]
            if not is_destroyed:
                newly += hits * m
            casualty += hits * fail
            nxt[True] += hits * (m - fail)
            nxt[is_destroyed] += weight * (n - hit[is_destroyed]) * m
        alive = nxt
    total = (n * m) ** rolls
    first = p_destroyed if destroyed else p_intact
    return (1 - first) ** rolls, Fraction(newly, total), Fraction(casualty, total)


def attack_odds(pool: Pool, rolls: int, target: WarShip, location: str) -> AttackOdds:
    """Exact odds of an attack of `rolls` rolls of `pool` at one location of `target`."""
    loc = target.locations[location]
    destroyed = target.is_destroyed(location)
    modifier = target.si_test_modifier(location)
    key = canonical(pool)
    if target.casualty:
        return AttackOdds(key, rolls, target.resilience(location), target.stats.si, modifier, destroyed,
                          Fraction(1), Fraction(0), Fraction(0))
    no_effect, newly, casualty = _odds(
        tuple(key), rolls, loc.resilience, loc.destroyed_resilience, destroyed, target.stats.si, modifier,
    )
    return AttackOdds(key, rolls, target.resilience(location), target.stats.si, modifier, destroyed,
                      no_effect, newly, casualty)
