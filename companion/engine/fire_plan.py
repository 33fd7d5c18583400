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

Exact: each shot's outcome distribution comes from `combat.breach_odds` on the
card as the earlier shots left it (never a second copy of the breach rules),
folded over every reachable card (`Card state`: the set of slots this plan
destroyed, and the keel).  Shots at different targets are independent, so
each target is folded alone.  When more than `MAX_EXACT_CARDS` cards are
reachable, the figures are sampled instead: `SAMPLES` runs of
`combat.resolve_breach` with dice from an injected, seeded roller (never the
game's own roller, whose next dice are the game's secret), each figure with a
Wilson score interval at `Z` standard errors (for the mean number of slots,
the mean plus or minus `Z` standard errors).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .combat import Strike, breach_odds, firing_solution, resolve_breach
from .dice import Colour
from .kernel import Refusal
from .roller import Roller, RollerDice
from .state import GameState, ShipState, SlotStatus

#: More reachable cards than this for one target: the figures are sampled.
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

    def holds(self, true: Fraction) -> bool:
        """Is `true` within the stated error (tests: a sampled figure against the exact one)."""
        if self.exact:
            return self.value == true
        assert self.low is not None and self.high is not None
        return self.low - 1e-12 <= float(true) <= self.high + 1e-12

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
    cards: int  # reachable cards (exact), 0 when sampled
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


def card_of(base: ShipState, card: CardState) -> ShipState:
    """The target as a plan's card state leaves it: its slots circled, its keel."""
    destroyed, keel = card
    ship = base
    for location, n in sorted(destroyed):
        ship = ship.with_status(location, n, SlotStatus.DESTROYED_THIS_TURN)
    return ship.model_copy(update={"keel_broken": True}) if keel and not ship.keel_broken else ship


# --- exact ------------------------------------------------------------------------------------


def step(cards: dict[CardState, Fraction], base: ShipState,
         strikes: Sequence[tuple[Fraction, Strike]]) -> dict[CardState, Fraction]:
    """Every card after one more shot, with its chance: the shot's `breach_odds` on each card."""
    after: dict[CardState, Fraction] = {}
    for card, chance in cards.items():
        ship = card_of(base, card)
        destroyed, keel = card
        for share, strike in strikes:
            odds = breach_odds(strike.pool, strike.modifier, ship, strike.location)
            weight = chance * share
            _add(after, card, weight * odds.no_effect)
            _add(after, (destroyed, True), weight * odds.keel_break)
            for n, p in odds.slot_destroyed.items():
                if p:
                    _add(after, (destroyed | {(strike.location, n)}, keel), weight * p)
    return after


def _add(cards: dict[CardState, Fraction], card: CardState, chance: Fraction) -> None:
    if chance:
        cards[card] = cards.get(card, Fraction(0)) + chance


def exact_cards(base: ShipState, aims: Sequence[Sequence[tuple[Fraction, Strike]]],
                bound: int = MAX_EXACT_CARDS) -> dict[CardState, Fraction] | None:
    """The exact chance of every card the shots can leave, or None past `bound` cards."""
    cards: dict[CardState, Fraction] = {INTACT: Fraction(1)}
    for strikes in aims:
        cards = step(cards, base, strikes)
        if len(cards) > bound:
            return None
    return cards


def exact_plan(target: str, shots: Sequence[PlannedShot], base: ShipState,
               cards: dict[CardState, Fraction]) -> TargetPlan:
    """The figures of an exactly known distribution of cards."""
    slots: dict[int, Fraction] = {}
    destroyed = keel = Fraction(0)
    for card, chance in cards.items():
        slots[len(card[0])] = slots.get(len(card[0]), Fraction(0)) + chance
        if card[1]:
            keel += chance
        if card_of(base, card).destruction is not None:
            destroyed += chance
    slots = dict(sorted(slots.items()))
    expected = sum((n * p for n, p in slots.items()), Fraction(0))
    return TargetPlan(target, tuple(shots), Figure(destroyed), Figure(keel), Figure(1 - slots.get(0, Fraction(0))),
                      Figure(expected), slots, len(cards), 0)


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


def sample_run(base: ShipState, aims: Sequence[Sequence[tuple[Fraction, Strike]]],
               dice: RollerDice) -> tuple[ShipState, bool]:
    """One run of the shots: each roll through `combat.resolve_breach`, the card marked as the game
    does; the card after, and whether a keel roll broke the keel."""
    ship, keel = base, False
    for strikes in aims:
        strike = strikes[0][1]
        if len(strikes) > 1:  # a d6 picks: 1-3 the first, 4-6 the second
            strike = strikes[0 if dice.take(Colour.D6, "location").face <= 3 else 1][1]
        result = resolve_breach(strike.pool, strike.modifier, ship, strike.location, dice)
        if result.outcome == "slot_destroyed" and result.slot is not None:
            ship = ship.with_status(strike.location, result.slot, SlotStatus.DESTROYED_THIS_TURN)
        elif result.outcome == "keel_break":
            ship, keel = ship.model_copy(update={"keel_broken": True}), True
    return ship, keel


def sampled_plan(target: str, shots: Sequence[PlannedShot], base: ShipState,
                 aims: Sequence[Sequence[tuple[Fraction, Strike]]], roller: Roller, runs: int = SAMPLES) -> TargetPlan:
    """The figures of `runs` sampled runs, with their intervals."""
    dice = RollerDice(roller)
    destroyed = keel = any_slot = 0
    counts: list[int] = []
    before = base.destroyed_count()
    for _ in range(runs):
        ship, broke = sample_run(base, aims, dice)
        slots = ship.destroyed_count() - before
        counts.append(slots)
        destroyed += ship.destruction is not None
        keel += broke
        any_slot += slots > 0
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
        base = state.ship(target_id)
        aims = [aimed(state, shot) for shot in group]
        cards = exact_cards(base, aims, bound)
        if cards is not None:
            plans.append(exact_plan(target_id, group, base, cards))
        else:
            plans.append(sampled_plan(target_id, group, base, aims, roller or Roller.from_seed(PLAN_SEED), runs))
    return FirePlan(tuple(plans))
