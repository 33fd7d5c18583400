"""The fire plan (issue 17 "Beyond paper"): what chosen shots do to each target together.

Seed 001 "Combat" and rules-notes 6 and 8: all fire is simultaneous and damage
takes effect at the end of the turn, but a slot destroyed this turn is circled
at once, and a later breach roll that rolls a circled slot re-rolls it (and may
bring a keel roll, whose modifier counts circled slots).  Circled armour,
crew and Tesla Coils still work until the end of the turn, and a target's
location dice follow its movement, not its damage, so the one thing a shot
changes for the shots after it is the target's card: which slots are
destroyed, and whether the keel broke.  The shots are resolved in the order
given (the order the players roll them; the game resolves declared shots one
at a time, each on the card the earlier ones left).

Exact: each shot's outcome distribution comes from combat's breach odds
(`combat.breach_ways`, the integers `combat.breach_odds` is made of) on the
card as the earlier shots left it (never a second copy of the breach rules),
folded over every reachable card.  A card is tallied by what matters to the
outcome (issue 30, `Card`): per location, how many of its live slots of each
printed breach number the plan destroyed, and once no later shot strikes a
location, only how many it lost; and the keel.  The fold is in integers over
one common denominator; Fractions are made for the figures.  Shots at
different targets are independent, so each target is folded alone.  When more
than `MAX_EXACT_CARDS` tallies are held after a shot, the figures are sampled
instead: `SAMPLES` runs, each shot's outcome drawn with its exact chance on the
card the earlier shots left, from uniform numbers of an injected, seeded
roller (never the game's own roller, whose next dice are the game's secret),
each figure with a Wilson score interval at `Z` standard errors (for the mean
number of slots, the mean plus or minus `Z` standard errors).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .combat import BreachWays, Strike, breach_ways, fate, firing_solution
from ..dice import Colour, Pool
from ..kernel import Refusal
from ..roller import Roller, face_index
from .state import GameState, ShipState, SlotStatus

#: More tallies than this held for one target after a shot: the figures are sampled.
MAX_EXACT_CARDS = 4096
#: Runs of a sampled plan, and the interval's width in standard errors.
SAMPLES = 4000
Z = 3
#: The sampling roller's seed when none is injected (fixed: the same plan, the same figures).
PLAN_SEED = "fire plan"

#: A target's card as far as the plan changed it: slots destroyed by the plan, and the keel.
CardState = tuple[frozenset[tuple[str, int]], bool]
INTACT: CardState = (frozenset(), False)


@dataclass(frozen=True)
class PlannedShot:
    """One gun of one ship at one target: `target_location` None when a d6 picks the location at
    the roll (table rule two_locations "roll"), or when the shot can strike only one.  A named
    location is planned as named, whoever picks it at the table (a "what if it strikes there")."""

    attacker: str
    location: str
    slot: int
    target: str
    target_location: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "weapon": {"location": self.location, "slot": self.slot},
                "target": self.target, "target_location": self.target_location}


@dataclass(frozen=True)
class Figure:
    """A chance or a mean: exact (`low` = `high` = `value`), or sampled with its interval."""

    value: Fraction
    exact: bool = True
    low: float | None = None
    high: float | None = None

    @property
    def error(self) -> float:
        """The largest distance from the figure to an end of its interval (0 when exact)."""
        if self.exact or self.low is None or self.high is None:
            return 0.0
        return max(float(self.value) - self.low, self.high - float(self.value))

    def as_json(self) -> dict[str, Any]:
        if self.exact:
            return {"value": str(self.value), "exact": True}
        return {"value": str(self.value), "exact": False, "approx": round(float(self.value), 6),
                "low": round(self.low or 0.0, 6), "high": round(self.high or 0.0, 6),
                "error": round(self.error, 6)}


@dataclass(frozen=True)
class TargetPlan:
    """What the plan's shots at one target do to it, together."""

    target: str
    shots: tuple[PlannedShot, ...]
    ship_destroyed: Figure
    keel_break: Figure
    any_slot: Figure  # at least one slot destroyed by the plan
    expected_slots: Figure
    #: exact only: the chance of each number of slots the plan destroys
    slots: dict[int, Fraction]
    cards: int  # exact: the most tallies (cards by what matters) held after a shot; 0 when sampled
    samples: int  # runs (sampled), 0 when exact

    @property
    def exact(self) -> bool:
        return self.samples == 0

    def as_json(self) -> dict[str, Any]:
        return {
            "target": self.target, "exact": self.exact,
            "shots": [s.as_json() for s in self.shots],
            "ship_destroyed": self.ship_destroyed.as_json(), "keel_break": self.keel_break.as_json(),
            "any_slot": self.any_slot.as_json(), "expected_slots": self.expected_slots.as_json(),
            "slots": {str(n): str(p) for n, p in self.slots.items()},
            **({"cards": self.cards} if self.exact else {"samples": self.samples}),
        }


@dataclass(frozen=True)
class FirePlan:
    """The plan of every target, in the order the shots first name them."""

    targets: tuple[TargetPlan, ...]

    def target(self, ship_id: str) -> TargetPlan | None:
        return next((t for t in self.targets if t.target == ship_id), None)

    def as_json(self) -> list[dict[str, Any]]:
        return [t.as_json() for t in self.targets]


# --- the shots ------------------------------------------------------------------------------


def aimed(state: GameState, shot: PlannedShot) -> tuple[tuple[Fraction, Strike], ...]:
    """The strike(s) a planned shot rolls, with their chances: one, or two halves when a d6 picks.

    Raises `Refusal` in plain words when the gun cannot fire at the target or the location is
    not one it may strike (seed 001 "Determining Damage Arcs", rules-notes 4-5)."""
    attacker, target = state.ship(shot.attacker), state.ship(shot.target)
    if (shot.location, shot.slot) not in attacker.working_guns:
        raise Refusal(f"{attacker.card.name} has no working gun in {shot.location} slot {shot.slot}")
    solution = firing_solution(attacker, shot.location, shot.slot, target, state.table_rules)
    if not solution.strikes:
        raise Refusal(f"{target.card.name} is out of the arc or range of the {solution.name} ({shot.location})")
    if shot.target_location is not None:
        strike = solution.strike(shot.target_location)
        if strike is None:
            may = ", ".join(s.location for s in solution.strikes)
            raise Refusal(f"the {solution.name} ({shot.location}) cannot strike the {shot.target_location} "
                          f"of {target.card.name}: it may strike the {may}")
        return ((Fraction(1), strike),)
    if len(solution.strikes) == 1:
        return ((Fraction(1), solution.strikes[0]),)
    if solution.decided_by == "roll":  # 1-3 the first, 4-6 the second (table_play.py)
        half = Fraction(1, len(solution.strikes))
        return tuple((half, s) for s in solution.strikes)
    raise Refusal(f"the {solution.name} ({shot.location}) may strike the "
                  f"{' or the '.join(s.location for s in solution.strikes)} of {target.card.name}: name one")


def by_target(shots: Iterable[PlannedShot]) -> dict[str, list[PlannedShot]]:
    """The shots grouped by target, targets in the order first named, shots in the given order."""
    groups: dict[str, list[PlannedShot]] = {}
    for shot in shots:
        groups.setdefault(shot.target, []).append(shot)
    return groups


# --- the card by what matters ----------------------------------------------------------------


#: A target's card as far as the outcome goes (issue 30): how many slots of each `Card` class the
#: plan destroyed, and whether the keel broke.
Tally = tuple[tuple[int, ...], bool]


class Card:
    """The target's card as the plan's shots change it, by what matters to the outcome.

    Two live slots of one location with the same printed breach number are alike to every later
    breach roll (its odds read a slot's breach and whether it is destroyed, the keel roll the
    breach numbers of the destroyed ones; circled armour still works) and to every figure (slots
    destroyed, the keel, wrecked locations, half the SI).  So a card is a `Tally`: per class
    (location, breach), how many of its live slots the plan destroyed, always the first ones by
    slot number (`slots`).  Far fewer tallies than sets of slots (issue 30: more targets exact).
    """

    def __init__(self, base: ShipState, locations: Iterable[str]):
        self.base = base
        struck = set(locations)
        self.locations = [loc for loc in base.card.locations if loc in struck]
        self.classes: list[tuple[str, tuple[int, ...]]] = []  # (location, its live slots of one breach)
        for loc in self.locations:
            alike: dict[int, list[int]] = {}
            for n, slot in enumerate(base.card.locations[loc].slots, start=1):
                if slot.kind != "miss" and not base.is_destroyed(loc, n):
                    alike.setdefault(slot.breach or 0, []).append(n)
            self.classes += [(loc, tuple(numbers)) for numbers in alike.values()]
        self.class_of = {(loc, n): i for i, (loc, numbers) in enumerate(self.classes) for n in numbers}
        self.of_location = {loc: tuple(i for i, (at, _) in enumerate(self.classes) if at == loc)
                            for loc in self.locations}
        self.start: Tally = ((0,) * len(self.classes), False)
        #: per location: its printed breaches, its slots destroyed before the plan, its armour, its losses
        self.printed = {loc: (tuple(None if s.kind == "miss" else s.breach for s in base.card.locations[loc].slots),
                              tuple(base.is_destroyed(loc, n) for n in range(1, 7)), base.armour(loc),
                              base.destroyed_count() + base.destroyed_count(loc)) for loc in self.locations}
        self._pools: dict[int, tuple[Colour, ...]] = {}
        self._fates: dict[tuple[tuple[int, ...], bool], tuple[bool, bool | None]] = {}

    def slots(self, tally: Tally) -> frozenset[tuple[str, int]]:
        """The slots the plan destroyed on the tally's representative card."""
        return frozenset((self.classes[i][0], n) for i, k in enumerate(tally[0]) for n in self.classes[i][1][:k])

    def after(self, tally: Tally, location: str, slot: int) -> Tally:
        """The tally once `slot` of `location` is destroyed too."""
        index = self.class_of[(location, slot)]
        found = list(tally[0])
        found[index] += 1
        return tuple(found), tally[1]

    def fate(self, tally: Tally) -> tuple[bool, bool | None]:
        """(does the ship count as destroyed, combat's fate of one more slot): read once per tally
        of slots per location and keel (all they depend on: the keel, wrecked locations, half the SI)
        from a representative card, that location's first live slots destroyed."""
        key = (self.per_location(tally), tally[1])
        if key not in self._fates:
            slots = frozenset((loc, n) for loc, lost in zip(self.locations, key[0])
                              for n in [n for i in self.of_location[loc] for n in self.classes[i][1]][:lost])
            ship = card_of(self.base, (slots, tally[1]))
            self._fates[key] = (ship.destruction is not None, fate(ship))
        return self._fates[key]

    def per_location(self, tally: Tally) -> tuple[int, ...]:
        """Slots the plan destroyed in each location."""
        return tuple(sum(tally[0][i] for i in self.of_location[loc]) for loc in self.locations)

    def retired(self, tally: Tally, locations: Iterable[str]) -> Tally:
        """The tally with these locations, which no later shot strikes, counted by location only
        (their losses kept in their first class): alike for every figure (`fate`)."""
        found = list(tally[0])
        for loc in locations:
            classes = self.of_location[loc]
            lost = sum(found[i] for i in classes)
            for i in classes:
                found[i] = 0
            found[classes[0]] = lost
        return tuple(found), tally[1]

    def ways(self, tally: Tally, strike: Strike) -> BreachWays:
        """`combat.breach_ways` of a strike on the tally's card: the key `combat.breach_odds`
        reads from a ship, read from the tally (slots destroyed by the plan added to the card's)."""
        loc = strike.location
        breaches, before, armour, lost = self.printed[loc]
        mine = {n for i in self.of_location[loc] for n in self.classes[i][1][:tally[0][i]]}
        destroyed = tuple(gone or n in mine for n, gone in enumerate(before, start=1))
        pool = self._pools.get(id(strike))
        if pool is None:
            pool = self._pools[id(strike)] = Pool(strike.pool).sorted_key
        return breach_ways(pool, strike.modifier, breaches, destroyed, armour,
                           lost + sum(tally[0]) + len(mine), self.base.card.structural_integrity)


def card_of(base: ShipState, card: CardState) -> ShipState:
    """The target as a plan's card state leaves it: its slots circled, its keel."""
    destroyed, keel = card
    ship = base
    for location, n in sorted(destroyed):
        ship = ship.with_status(location, n, SlotStatus.DESTROYED_THIS_TURN)
    return ship.model_copy(update={"keel_broken": True}) if keel and not ship.keel_broken else ship


def outcomes(card: Card, tally: Tally, strike: Strike) -> tuple[int, list[tuple[int, Tally]]]:
    """(whole, [(ways, tally after)]) of one strike on a tally: nothing, the keel, each slot."""
    ways = card.ways(tally, strike)
    found = [(ways.no_effect, tally), (ways.keel, (tally[0], True))]
    found += [(w, card.after(tally, strike.location, n)) for n, w in ways.slots if w]
    return ways.whole, [(w, t) for w, t in found if w]


# --- exact ------------------------------------------------------------------------------------


def exact_tallies(card: Card, aims: Sequence[Sequence[tuple[Fraction, Strike]]],
                  bound: int = MAX_EXACT_CARDS) -> tuple[dict[Tally, int], int, int] | None:
    """The exact chance of every tally the shots can leave, as (ways of each, common denominator,
    the most tallies held after any shot), or None past `bound` tallies after a shot.  Integers throughout: a shot's ways are over a denominator that
    depends only on its strike, so each shot multiplies the denominator once."""
    tallies: dict[Tally, int] = {card.start: 1}
    denominator = 1
    struck_later = [{strike.location for strikes in aims[n + 1:] for _, strike in strikes} for n in range(len(aims))]
    done: set[str] = set()
    most = 1
    for strikes, later in zip(aims, struck_later):
        wholes = [share.denominator * card.ways(card.start, strike).whole for share, strike in strikes]
        step = math.lcm(*wholes)
        after: dict[Tally, int] = {}
        for tally, chance in tallies.items():
            for (share, strike), whole in zip(strikes, wholes):
                weight = chance * share.numerator * (step // whole)
                for ways, then in outcomes(card, tally, strike)[1]:
                    after[then] = after.get(then, 0) + weight * ways
        tallies, denominator = after, denominator * step
        leaving = [loc for loc in card.locations if loc not in later and loc not in done and card.of_location[loc]]
        if leaving:  # no later shot strikes them: only how many each lost matters now
            done.update(leaving)
            merged: dict[Tally, int] = {}
            for tally, chance in tallies.items():
                then = card.retired(tally, leaving)
                merged[then] = merged.get(then, 0) + chance
            tallies = merged
        most = max(most, len(tallies))
        if most > bound:
            return None
    return tallies, denominator, most


def exact_plan(target: str, shots: Sequence[PlannedShot], card: Card, tallies: dict[Tally, int],
               denominator: int, most: int) -> TargetPlan:
    """The figures of an exactly known distribution of tallies."""
    slots: dict[int, int] = {}
    destroyed = keel = 0
    for tally, ways in tallies.items():
        lost = sum(tally[0])
        slots[lost] = slots.get(lost, 0) + ways
        keel += ways if tally[1] else 0
        destroyed += ways if card.fate(tally)[0] else 0
    chances = {n: Fraction(w, denominator) for n, w in sorted(slots.items())}
    expected = Fraction(sum(n * w for n, w in slots.items()), denominator)
    return TargetPlan(target, tuple(shots), Figure(Fraction(destroyed, denominator)), Figure(Fraction(keel, denominator)),
                      Figure(1 - chances.get(0, Fraction(0))), Figure(expected), chances, most, 0)


# --- sampled ----------------------------------------------------------------------------------


def wilson(hits: int, runs: int, z: float = Z) -> Figure:
    """A sampled chance with its Wilson score interval at `z` standard errors."""
    p = hits / runs
    centre = (p + z * z / (2 * runs)) / (1 + z * z / runs)
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / (1 + z * z / runs)
    return Figure(Fraction(hits, runs), False, max(0.0, centre - half), min(1.0, centre + half))


def sampled_mean(values: Sequence[int], z: float = Z) -> Figure:
    """A sampled mean with `z` standard errors either side."""
    runs = len(values)
    mean = Fraction(sum(values), runs)
    variance = sum((v - mean) ** 2 for v in values) / max(1, runs - 1)
    half = z * math.sqrt(variance / runs)
    return Figure(mean, False, float(mean) - half, float(mean) + half)


class Draws:
    """Uniform whole numbers from the injected roller: the same numbers its dice are made of
    (`roller.face_index`, one counter per 32 bits), rejection-sampled to be exactly uniform."""

    def __init__(self, roller: Roller):
        self.seed, self.counter = roller.seed, roller.counter

    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1, each equally likely."""
        words = max(1, (n.bit_length() + 31) // 32)
        span = 1 << (32 * words)
        limit = span - span % n
        while True:
            value = 0
            for _ in range(words):
                value = (value << 32) | face_index(self.seed, self.counter, 1 << 32)
                self.counter += 1
            if value < limit:
                return value % n


def sampled_plan(target: str, shots: Sequence[PlannedShot], card: Card,
                 aims: Sequence[Sequence[tuple[Fraction, Strike]]], roller: Roller, runs: int = SAMPLES) -> TargetPlan:
    """The figures of `runs` sampled runs, with their intervals: each shot's outcome drawn with its
    exact chance (`outcomes`, from combat's breach odds) on the card the earlier shots left; a
    d6 picks between two strikes (1-3 the first, 4-6 the second)."""
    draws = Draws(roller)
    table: dict[tuple[Tally, int, int], tuple[int, list[tuple[int, Tally]]]] = {}
    destroyed = keel = any_slot = 0
    counts: list[int] = []
    for _ in range(runs):
        tally = card.start
        for shot, strikes in enumerate(aims):
            pick = 0 if len(strikes) == 1 else (0 if draws.below(6) < 3 else 1)
            key = (tally, shot, pick)
            if key not in table:
                table[key] = outcomes(card, tally, strikes[pick][1])
            whole, found = table[key]
            value = draws.below(whole)
            for ways, then in found:
                if value < ways:
                    tally = then
                    break
                value -= ways
        lost = sum(tally[0])
        counts.append(lost)
        destroyed += card.fate(tally)[0]
        keel += tally[1]
        any_slot += lost > 0
    return TargetPlan(target, tuple(shots), wilson(destroyed, runs), wilson(keel, runs), wilson(any_slot, runs),
                      sampled_mean(counts), {}, 0, runs)


# --- the plan ---------------------------------------------------------------------------------


def fire_plan(state: GameState, shots: Sequence[PlannedShot], roller: Roller | None = None,
              bound: int = MAX_EXACT_CARDS, runs: int = SAMPLES) -> FirePlan:
    """Each target's figures when the chosen shots all go at it (issue 17).

    Exact while at most `bound` cards are reachable for the target, else sampled with the
    injected `roller` (default: a fixed seed, so the same plan gives the same figures)."""
    guns = [(s.attacker, s.location, s.slot) for s in shots]
    twice = next((g for n, g in enumerate(guns) if g in guns[:n]), None)
    if twice is not None:
        raise Refusal(f"{twice[0]}'s gun in {twice[1]} slot {twice[2]} is planned twice: one breach roll per gun "
                      "(seed 001 \"Combat\")")
    plans = []
    for target_id, group in by_target(shots).items():
        aims = [aimed(state, shot) for shot in group]
        card = Card(state.ship(target_id), {strike.location for strikes in aims for _, strike in strikes})
        found = exact_tallies(card, aims, bound)
        if found is not None:
            plans.append(exact_plan(target_id, group, card, *found))
        else:
            plans.append(sampled_plan(target_id, group, card, aims, roller or Roller.from_seed(PLAN_SEED), runs))
    return FirePlan(tuple(plans))
