"""Decisive Victory aircraft: stage counters and the exact odds of attacks on and by flights
(spec §12.2, §12.6, §12.7, §15.1 rows 17-18, §15.5).

Nothing here rolls a die: the odds enumerate the 36 ordered pairs through odds.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .grid import HitGrid
from .inches import Inches
from .odds import (GRID, PAIRS, TABLE_1, Armour, Attack, AttackOdds, SuccessTable, Weapon, attack_odds,
                   is_natural_seven, succeeds, success_chance)
from .records import FlightType

RangeBand = Literal["close", "medium", "long"]
AirRangeUnit = Literal["feet", "inches"]

#: "It takes one turn to get to a target at close range (0’-6’), two turns ... medium range
#: (6’-12’), and three turns ... long range (12’+)" (`003:176`).
BAND_TURNS: dict[str, int] = {"close": 1, "medium": 2, "long": 3}
#: "Normal flights can move up to 48 inches, while slow flights can move up to 32" (`003:184`).
NORMAL_MOVE, SLOW_MOVE = 48, 32
CAP_REACH = 16  # "within 16 inches of an enemy base or carrier with a CAP" (003:185)
AA_SUPPORT = 3  # "Friendly ships within 3 inches of the attacking flight" (003:215)
STRIKE_MODIFIER = 5  # "All air to surface attacks are made using an attack roll with a +5 bonus" (003:219)


# --- stages (§12.2) -------------------------------------------------------------------------


def range_band(distance: Inches, unit: AirRangeUnit = "feet") -> RangeBand:
    """Close 0-6, medium 6-12, long beyond, in feet [R-54] (72" and 144") or in inches."""
    scale = 12 if unit == "feet" else 1
    if distance <= 6 * scale:
        return "close"
    return "medium" if distance <= 12 * scale else "long"


def attacking_turns(band: RangeBand, slow: bool) -> int:
    """The attacking-stage counter at launch: 1 / 2 / 3 by band, +1 if slow (`003:176`)."""
    return BAND_TURNS[band] + (1 if slow else 0)


def move_limit(slow: bool) -> int:
    """Inches a flight on the table may move in the On Target stage (`003:184`)."""
    return SLOW_MOVE if slow else NORMAL_MOVE


# --- attacks on flights (§12.6, §12.7.1) -----------------------------------------------------


def flight_attack_modifier(attack_quality: int, target_quality: int) -> int:
    """+7 if the attack's quality is higher than the flight's, +5 if equal, +3 if lower (`003:205`)."""
    if attack_quality > target_quality:
        return 7
    return 5 if attack_quality == target_quality else 3


def drives_off(attack_quality: int, target_quality: int) -> bool:
    """Only a higher-quality attack drives the flight off when it fails (`003:205`)."""
    return attack_quality > target_quality


FlightAttackResult = Literal["destroyed", "driven_off", "nothing"]


def flight_attack_result(first: int, second: int, attack_quality: int, target_quality: int,
                         table: SuccessTable = TABLE_1) -> FlightAttackResult:
    """One attack roll at a flight as rolled (`003:204-205`): success destroys it; a failed roll
    of a higher-quality attack drives it off; otherwise nothing."""
    if succeeds(first, second, flight_attack_modifier(attack_quality, target_quality), table):
        return "destroyed"
    return "driven_off" if drives_off(attack_quality, target_quality) else "nothing"


@dataclass(frozen=True)
class FlightAttackOdds:
    """The three outcomes of one attack on a flight (§15.5): 5/6, 2/3 or 4/9 destroyed, and
    driven off 1/6 for a higher-quality attack only."""

    destroyed: Fraction
    driven_off: Fraction
    nothing: Fraction

    @property
    def stays(self) -> Fraction:
        """P(the flight is neither destroyed nor driven off: its strike goes in)."""
        return self.nothing

    def as_json(self) -> dict[str, str]:
        return {"destroyed": str(self.destroyed), "driven_off": str(self.driven_off), "nothing": str(self.nothing)}


def flight_attack_odds(attack_quality: int, target_quality: int, table: SuccessTable = TABLE_1) -> FlightAttackOdds:
    """Exact odds of one attack on a flight, AA or air to air (§15.1 row 17)."""
    p = success_chance(flight_attack_modifier(attack_quality, target_quality), table)
    if drives_off(attack_quality, target_quality):
        return FlightAttackOdds(p, 1 - p, Fraction(0))
    return FlightAttackOdds(p, Fraction(0), 1 - p)


# --- air strikes (§12.7.2) ---------------------------------------------------------------------

#: Strength and damage dice of each striking flight (`003:220-223`); fighters strafe (`003:222`).
STRIKES: dict[str, tuple[Weapon, int, int]] = {
    "dive_bomber": (Weapon.DIVE_BOMBER, 8, 3),
    "torpedo_bomber": (Weapon.TORPEDO_BOMBER, 6, 3),
    "patrol_bomber": (Weapon.PATROL_BOMBER, 8, 4),
}
#: Inches from the flight to its target: "within 1 inch" (dive bombers, fighters), "within 3 inches"
#: (torpedo bombers) (`003:220-222`); patrol bombers are not on the board (`003:223`).
STRIKE_REACH: dict[str, int | None] = {"dive_bomber": 1, "torpedo_bomber": 3, "fighter": 1, "patrol_bomber": None}
#: The flights that go to the returning stage after their strike, hit or miss (`003:220-223`).
RETURN_AFTER_STRIKE = frozenset({"dive_bomber", "torpedo_bomber", "patrol_bomber"})


def can_strike(flight_type: FlightType) -> bool:
    """Float planes have no attack (§18)."""
    return flight_type in STRIKE_REACH


def strike_attack(flight_type: FlightType, armour: Armour) -> Attack:
    """The attack of a bomber's strike as odds.py reads it: +5 and nothing else [R-61]."""
    weapon, strength, damage = STRIKES[flight_type]
    return Attack(modifier=STRIKE_MODIFIER, weapon=weapon, strength=strength, damage=damage, armour=armour)


def strike_hits(flight_type: FlightType, first: int, second: int, table: SuccessTable = TABLE_1) -> bool:
    """The strike's attack roll: +5; a patrol bomber only on a N7 (`003:219, 003:223`)."""
    if flight_type == "patrol_bomber":
        return is_natural_seven(first, second)
    return succeeds(first, second, STRIKE_MODIFIER, table)


def strafing_chance(table: SuccessTable = TABLE_1) -> Fraction:
    """A fighter's strafing run: 1 minor damage when it hits at +5, no save (`003:222`)."""
    return Fraction(sum(strike_hits("fighter", a, b, table) for a, b in PAIRS), 36)


def strike_odds(flight_type: FlightType, armour: Armour, table: SuccessTable = TABLE_1,
                grid: HitGrid = GRID) -> AttackOdds:
    """The whole chain of a bomber's strike (§15.1 row 18, §15.4): hit, row, save, damage dice."""
    return attack_odds(strike_attack(flight_type, armour), table, grid)


def damage_chance_after_aa(aa_points: int, flight_quality: int, flight_type: FlightType, armour: Armour,
                           table: SuccessTable = TABLE_1, grid: HitGrid = GRID) -> Fraction:
    """P(the strike deals at least one damage point) when the target first spends `aa_points`
    of AA at the flight (0: no AA fire): the flight must survive and stay (§12.7.1), then strike."""
    goes_in = flight_attack_odds(aa_points, flight_quality, table).stays if aa_points else Fraction(1)
    hurt = 1 - strike_odds(flight_type, armour, table, grid).damage_points.get(0, Fraction(0))
    return goes_in * hurt
