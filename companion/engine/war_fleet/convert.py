"""Converting a Quick-Start card to War Fleet stats (seed 004, "Conversion").

Seed 004, "In the Grand Scheme of Things, Will it Really Make a Difference?
(Conversion)": "A standard Leviathan and its card can be converted easily".
The formulas are rules-notes 9, which is binding where the seed's own worked
examples disagree with its formulas (see tests/test_warfleet_convert.py for
every example, printed value beside computed value):

- "New Structural Integrity": the card's SI divided by 2, rounded up.
- "Movement Modifications": MP unchanged (the card's starting MP).
- "Standardizing the Breach Value (Resilience Stat)": the highest non-miss
  breach number of the location, plus all its armour bonuses, minus the mean
  of its Go dice rounded up; at least 2.
- "Destroyed Location Stats / Resilience": the middle one of the location's
  distinct non-miss breach numbers (two values, or a tie for the middle: the
  lower), minus the same rounded-up Go mean; at least 2.
- "SI (structural integrity) Modifier": the location's slot count / 2,
  rounded up (miss slots count: seed 004 "Scale" says so).
- "Location Starting Stats: Attack Values": with a crew slot in the location,
  the best crew die's mean rounded down is added to each band die's top, and
  the dice become the first step of the dial-up ladder whose top reaches that
  sum; without crew the dice are unchanged.  Several guns: the best gun.
- Ranges ("Calculating the ranges"): each divided by 6 and rounded to
  nearest; when both land on the same number, the long range keeps it and the
  short range gets one less ("always favor for the long range first").
- Traits: "Any gun with the Saturation Fire, Bracket Fire, and Turret Icons
  keep the trait".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from pydantic import ValidationError

from ..cards import Card, FormatError, GunSlot, Location, format_error
from ..dice import MAX_POOL_DICE, Pool, mean, parse_pool
from .dialup import canonical, smallest_reaching, top
from .stats import AttackStat, Band, LocationStats, WarFleetStats

#: "a single Leviathan War Fleet hex is 6 times as wide as a standard Leviathan game hex"
SCALE = 6
#: "Should the final result be less than 2, then it becomes 2. There is always a chance for failure."
LOWEST_RESILIENCE = 2


def pool_mean(pool: str) -> Fraction:
    """Exact mean total of a pool (as a card writes it)."""
    return sum((mean(d) for d in parse_pool(pool)), Fraction(0))


def go_mean(location: Location) -> int:
    """The location's Go dice averaged, rounded up (seed 004, "Resilience Stat")."""
    return math.ceil(pool_mean(location.go))


def _breaches(location: Location) -> list[int]:
    """Breach numbers of the non-miss slots ("ignoring the values for any miss slots")."""
    return [slot.breach for slot in location.slots if slot.kind != "miss" and slot.breach is not None]


def armour_bonus(location: Location) -> int:
    """All armour bonuses of the location ("Add all armor bonuses")."""
    return sum(slot.breach_modifier for slot in location.slots if slot.kind == "armor")


def resilience(location: Location) -> int:
    """Starting Resilience: highest non-miss breach + armour - rounded-up Go mean, at least 2."""
    breaches = _breaches(location)
    highest = max(breaches) if breaches else 0
    return max(LOWEST_RESILIENCE, highest + armour_bonus(location) - go_mean(location))


def middle_breach(location: Location) -> int | None:
    """The middle one of the distinct non-miss breach numbers; a tie (or two values): the lower."""
    values = sorted(set(_breaches(location)))
    if not values:
        return None
    return values[(len(values) - 1) // 2]


def destroyed_resilience(location: Location) -> int:
    """Resilience once destroyed: middle breach - rounded-up Go mean, at least 2."""
    middle = middle_breach(location)
    return max(LOWEST_RESILIENCE, (middle or 0) - go_mean(location))


def si_modifier(location: Location) -> int:
    """SI modifier of the destroyed location: its slot count / 2, rounded up."""
    return math.ceil(len(location.slots) / 2)


def crew_bonus(location: Location) -> int:
    """The best crew die's mean, rounded down; 0 without a crew slot."""
    means = [pool_mean(slot.dice) for slot in location.slots if slot.kind == "crew"]
    return math.floor(max(means)) if means else 0


def has_crew(location: Location) -> bool:
    return any(slot.kind == "crew" for slot in location.slots)


def convert_pool(dice: str, bonus: int, crewed: bool) -> Pool:
    """A band's dice: unchanged without crew; with crew, the ladder step reaching top + bonus
    (its dice not yet checked against a pool's size)."""
    pool = canonical(dice)
    return smallest_reaching(top(pool) + bonus) if crewed else pool


def war_fleet_range(hexes: int) -> int:
    """Quick-Start hexes / 6, rounded to nearest (a half rounds up)."""
    return (hexes + SCALE // 2) // SCALE


def convert_ranges(short: int, long: int) -> tuple[int, int]:
    """Both ranges / 6 rounded; on a tie the long keeps it and the short gets one less (not below 0)."""
    s, l = war_fleet_range(short), war_fleet_range(long)
    if s >= l:
        s = max(0, l - 1)
    return s, l


def convert_gun(gun: GunSlot, location: Location) -> AttackStat:
    bonus, crewed = crew_bonus(location), has_crew(location)
    short, long = convert_ranges(gun.short.range, gun.long.range)
    traits = list(dict.fromkeys(gun.traits))
    n_boxes = gun.boxes
    if n_boxes and "saturation" not in traits:
        traits.append("saturation")
    return AttackStat(
        name=gun.name,
        short=_band("short", short, gun.short.dice, bonus, crewed),
        long=_band("long", long, gun.long.dice, bonus, crewed),
        traits=traits,
        saturation=n_boxes,
    )


def _band(which: str, range_: int, dice: str, bonus: int, crewed: bool) -> Band:
    """One converted band; FormatError naming the band when its War Fleet dice are too many."""
    try:
        pool = convert_pool(dice, bonus, crewed)
    except ValueError as exc:  # a die that is not coloured cannot be dialled up
        raise FormatError(f"{dice}: {exc}", f"{which}.dice") from None
    if len(pool) > MAX_POOL_DICE:
        how = f" with the crew's +{bonus}" if crewed else ""
        raise FormatError(f"{dice}{how} converts to {len(pool)} War Fleet dice; a pool holds at most "
                          f"{MAX_POOL_DICE}", f"{which}.dice")
    return Band(range=range_, dice=pool.notation)


def _within(prefix: str, error: FormatError) -> FormatError:
    """The same problem, its JSON path under `prefix`."""
    return FormatError(error.problem, f"{prefix}.{error.path}" if error.path else prefix, error.source)


def _strength(attack: AttackStat) -> tuple[int, int, int, int, int, int]:
    return (
        top(attack.short.pool), top(attack.long.pool), attack.long.range, attack.short.range,
        attack.boxes, len(attack.traits),
    )


def convert_attack(location: Location) -> AttackStat | None:
    """The location's attack: its best gun, converted; None without a gun.

    "Best" (the seed only says a single gun is enough): the highest short-band
    dice, then long-band dice, then long range, short range, saturation boxes,
    traits; the first such gun on the card when they tie.
    """
    best: AttackStat | None = None
    for number, slot in enumerate(location.slots, start=1):
        if slot.kind != "gun":
            continue
        try:
            attack = convert_gun(slot, location)
        except FormatError as error:
            raise _within(f"slots.{number}", error) from None
        if best is None or _strength(attack) > _strength(best):
            best = attack
    return best


def convert_location(location: Location) -> LocationStats:
    try:
        return LocationStats(
            resilience=resilience(location),
            destroyed_resilience=destroyed_resilience(location),
            si_modifier=si_modifier(location),
            attack=convert_attack(location),
        )
    except ValidationError as exc:
        error = format_error(exc)
        raise FormatError(f"the War Fleet {error.path.replace('_', ' ')} {error.problem}") from None


def war_fleet_si(card: Card) -> int:
    """Half the card's SI, rounded up (seed 004, "New Structural Integrity")."""
    return -(-card.structural_integrity // 2)  # whole numbers: no float to overflow


def convert_card(card: Card) -> WarFleetStats:
    """War Fleet stats of a Quick-Start card.  Class is the card's Type (1-4).

    A card whose numbers convert beyond what War Fleet stats hold (a 20-dice
    gun dialled up past 20 dice) is a FormatError naming the card's field.
    """
    locations = {}
    for name, loc in card.locations.items():
        try:
            locations[name] = convert_location(loc)
        except FormatError as error:
            raise _within(f"locations.{name}", error) from None
    return WarFleetStats(
        card=card.id,
        name=card.name,
        ship_class=card.type,
        faction=card.faction,
        si=war_fleet_si(card),
        mp=card.starting_mp,
        locations=locations,
    )


# --- the working, for people ---------------------------------------------------------


@dataclass(frozen=True)
class LocationWorking:
    """Every intermediate number of one location's conversion, to show beside the card."""

    location: str
    highest_breach: int | None
    armour: int
    go: str
    go_mean: int
    breaches: tuple[int, ...]
    middle_breach: int | None
    slots: int
    crew_bonus: int
    crewed: bool
    gun: str | None
    stats: LocationStats
    source_bands: tuple[tuple[str, int], ...] = ()

    def lines(self) -> list[str]:
        s = self.stats
        out = [
            f"resilience {s.resilience} = highest breach {self.highest_breach} + armour {self.armour}"
            f" - {self.go} mean rounded up {self.go_mean}" + (" (at least 2)" if s.resilience == LOWEST_RESILIENCE else ""),
            f"destroyed resilience {s.destroyed_resilience} = middle of {list(self.breaches)} = {self.middle_breach}"
            f" - {self.go_mean}" + (" (at least 2)" if s.destroyed_resilience == LOWEST_RESILIENCE else ""),
            f"SI modifier {s.si_modifier} = {self.slots} slots / 2, rounded up",
        ]
        if s.attack is None:
            out.append("no attack (no gun)")
            return out
        if not self.crewed:
            out.append(f"attack from the {self.gun}: no crew, dice unchanged")
        else:
            out.append(f"attack from the {self.gun}: crew mean rounded down +{self.crew_bonus}")
        for band, (dice, range_) in zip(("short", "long"), self.source_bands):
            new = getattr(s.attack, band)
            sum_ = f"top {top(canonical(dice))} + {self.crew_bonus} = {top(canonical(dice)) + self.crew_bonus} -> " \
                if self.crewed else ""
            out.append(f"{band}: {dice} {sum_}{new.dice}; range {range_} / 6 -> {new.range}")
        return out


def _source_bands(location: Location) -> tuple[tuple[str, int], ...]:
    """(dice, range) of the short and long bands of the gun the attack came from (the first, on a tie)."""
    guns = [location.gun(n) for n in attack_slots(location)]
    if not guns:
        return ()
    return tuple((canonical(band.dice).notation, band.range) for band in (guns[0].short, guns[0].long))


def working(card: Card) -> list[LocationWorking]:
    """The conversion of each location, step by step."""
    result = []
    for name, loc in card.locations.items():
        breaches = tuple(sorted(set(_breaches(loc))))
        stats = convert_location(loc)
        result.append(LocationWorking(
            location=name,
            highest_breach=max(breaches) if breaches else None,
            armour=armour_bonus(loc),
            go=parse_pool(loc.go).notation,
            go_mean=go_mean(loc),
            breaches=breaches,
            middle_breach=middle_breach(loc),
            slots=len(loc.slots),
            crew_bonus=crew_bonus(loc),
            crewed=has_crew(loc),
            gun=stats.attack.name if stats.attack else None,
            stats=stats,
            source_bands=_source_bands(loc),
        ))
    return result


# --- which slots the conversion was taken from (for pockets between scales) -------------


def resilience_slots(location: Location) -> tuple[int, ...]:
    """Slot numbers carrying the location's highest non-miss breach number.

    Seed 004: the Resilience "has taken on the highest breach value in a single
    location under the logic that if you hit that, you can hit anything else".
    """
    breaches = _breaches(location)
    if not breaches:
        return ()
    highest = max(breaches)
    return tuple(n for n, slot in enumerate(location.slots, start=1)
                 if slot.kind != "miss" and slot.breach == highest)


def attack_slots(location: Location) -> tuple[int, ...]:
    """Slot numbers of every gun the conversion could have taken the attack from
    (the best gun, and every gun that converts to an attack just as strong)."""
    best = convert_attack(location)
    if best is None:
        return ()
    return tuple(
        n for n, slot in enumerate(location.slots, start=1)
        if slot.kind == "gun" and _strength(convert_gun(slot, location)) == _strength(best)
    )


def prioritised_slots(location: Location) -> dict[str, tuple[int, ...]]:
    """The slots the conversion prioritised (seed 004: "figuring out the damage from
    the aftermath is a simple matter of what slots were prioritized in the
    conversion process"): `resilience` and `attack`."""
    return {"resilience": resilience_slots(location), "attack": attack_slots(location)}


def location_lost(location: Location, destroyed: set[int]) -> bool:
    """Does a Quick-Start location with these destroyed slots count as a destroyed
    War Fleet location?  Reading (docs/rule-readings.md, War Fleet): yes when
    every slot its Resilience could come from is destroyed, or every gun its
    attack could come from is."""
    return any(slots and all(n in destroyed for n in slots) for slots in prioritised_slots(location).values())
