"""The Quick-Start table rules at work (issue 15 C): each rule's switch in one function.

A table rule (`TableRules`, table_rules.py) is a reading a group may play
differently; every default is the app's reading (docs/rule-readings.md), and
with every default these functions give exactly what the game gave before.

crew_slots, `crew_dice` (docs/rule-readings.md "The breach roll"; seed 001
"Crew Slot" speaks of "a Crew Slot", printed cards have two in one location,
the Pelletier's sides): "add", every working crew slot of the weapon's location
adds its dice; "best", only the working crew slot whose dice have the highest
mean face count (a tie: the first on the card).

type4_sides, `arc_of` (rules-notes 3-4, docs "Map and arcs"): "beam", a Type 4
ship's side arcs split at the beam (starboard bow +30..+90 degrees from the
mid-fore hex, starboard quarter +90..+150 from the mid-aft hex).  "simple", the
four simple Quick-Start arcs (bow -30..+30, starboard +30..+150, stern
+150..+210, port +210..+330) on a Type 4 ship:
  - firing: each location still fires from its own hex (bow: bow hex, starboard
    and port bow: mid-fore, quarters: mid-aft, stern: stern hex); a starboard
    bow or starboard quarter gun fires into the whole starboard wedge
    +30..+150 drawn from its own hex (port: +210..+330);
  - damage: a location's damage arc is its arc drawn from its own hex, so the
    starboard side of a Type 4 is struck when the firing weapon's hex lies in
    the starboard wedge from the mid-fore hex or from the mid-aft hex (the
    union: no hex abeam falls between the two); a side struck offers both its
    locations, the starboard bow and the starboard quarter, and the attacker
    chooses fore or aft (`whole_sides`); mirrored for port;
  - when no damage arc holds the weapon's hex (a hex between the bow hex's
    30-degree spine and the mid-fore hex's), the wedges drawn from the pivot
    (the mid-fore hex) decide, as for every ship, and a side found there again
    offers fore and aft.

two_locations, `who_decides` (docs "Map and arcs": "Two: the attacker
chooses"): "attacker", the attacker names the location; "target", the target's
side chooses after the declaration; "roll", a d6 at the roll decides (1-3 the
first of the two in the card's location order, 4-6 the second).  The fore or
aft choice of a simple Type 4 side is the attacker's whatever this rule says
(it is type4_sides' own rule), as is a choice among more than two locations.
The flow of a shot declared without a location is in location_choice.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Sequence

from ..arcs import wedge_for
from ..cards import CrewSlot
from ..dice import Pool, mean
from .state import ShipState
from .table_rules import TableRules

if TYPE_CHECKING:
    from .combat import Strike

#: Today's readings: every table rule at its default.
DEFAULT_RULES = TableRules()

#: Under "simple" Type 4 sides: the simple arc each side location fires into and is struck through.
SIMPLE_SIDES = {"starboard_bow": "starboard", "starboard_quarter": "starboard",
                "port_bow": "port", "port_quarter": "port"}

Chooser = Literal["attacker", "target", "roll"]


# --- crew_slots -----------------------------------------------------------------------------


def crew_dice(ship: ShipState, location: str, rules: TableRules = DEFAULT_RULES) -> Pool:
    """The crew dice a shot from `location` adds: every working crew slot's, or only the best's."""
    if rules.crew_slots == "add":
        return ship.crew_dice(location)
    crews = [slot.pool for loc, n, slot in ship.slots_of_kind(CrewSlot) if loc == location and ship.works(loc, n)]
    return max(crews, key=pool_mean, default=Pool())  # max keeps the first of equals: the first on the card


def pool_mean(pool: Pool) -> Fraction:
    """The mean total of a pool (a crew slot's "mean face")."""
    return sum((mean(colour) for colour in pool), Fraction(0))


# --- type4_sides ----------------------------------------------------------------------------


def arc_of(ship: ShipState, location: str, rules: TableRules = DEFAULT_RULES) -> str:
    """The arc (a key of arcs.ARC_DEGREES) a location fires into and is struck through:
    its own, or under simple Type 4 sides the whole side its location belongs to."""
    if rules.type4_sides == "simple" and ship.card.type == 4:
        return SIMPLE_SIDES.get(location, location)
    return location


def location_wedge(ship: ShipState, location: str, rules: TableRules = DEFAULT_RULES) -> tuple[int, int]:
    """The wedge of a location's firing and damage arc, turned with the ship (arcs.wedge_for)."""
    return wedge_for(arc_of(ship, location, rules), ship.facing)


def whole_sides(ship: ShipState, found: Sequence[str], rules: TableRules = DEFAULT_RULES) -> list[str]:
    """The locations a shot may strike, in the card's order, once the arcs holding the weapon
    are `found`: under simple Type 4 sides a side struck offers both its locations."""
    arcs = {arc_of(ship, loc, rules) for loc in found}
    return [loc for loc in ship.card.locations if arc_of(ship, loc, rules) in arcs]


# --- two_locations --------------------------------------------------------------------------


def who_decides(rules: TableRules, target: ShipState, choices: Sequence[str]) -> Chooser:
    """Who picks the location of a shot that can strike `choices`: the table rule when they are
    two locations of two arcs, else the attacker (fore or aft of a simple side, or one choice)."""
    if len(choices) != 2 or len({arc_of(target, loc, rules) for loc in choices}) < 2:
        return "attacker"
    return rules.two_locations


@dataclass(frozen=True)
class LocationRoll:
    """The exact odds of a shot whose location a d6 decides: the 1/2-1/2 mixture of its two
    strikes (two_locations "roll"); slot chances are keyed by (location, slot)."""

    strikes: tuple["Strike", ...]

    def _mean(self, values: Sequence[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values)

    @property
    def no_effect(self) -> Fraction:
        return self._mean([s.odds.no_effect for s in self.strikes])

    @property
    def any_damage(self) -> Fraction:
        return 1 - self.no_effect

    @property
    def keel_break(self) -> Fraction:
        return self._mean([s.odds.keel_break for s in self.strikes])

    @property
    def ship_destroyed(self) -> Fraction:
        return self._mean([s.odds.ship_destroyed for s in self.strikes])

    @property
    def slot_destroyed(self) -> dict[tuple[str, int], Fraction]:
        share = Fraction(1, len(self.strikes))
        return {(s.location, n): share * p for s in self.strikes for n, p in s.odds.slot_destroyed.items()}

    def as_json(self) -> dict[str, Any]:
        return {
            "locations": [s.location for s in self.strikes],
            "no_effect": str(self.no_effect),
            "slot_destroyed": {f"{loc} {n}": str(p) for (loc, n), p in self.slot_destroyed.items()},
            "keel_break": str(self.keel_break),
            "ship_destroyed": str(self.ship_destroyed),
        }
