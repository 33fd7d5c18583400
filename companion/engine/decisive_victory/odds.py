"""Decisive Victory's dice and their exact odds (spec decisive-victory.md §2, §9, §15).

The 2d6 success test with its natural seven (`003:9`, §2.2), halving (`003:12`,
§2.3), the ordered first and second die (`003:54`, §2.4), the armour save
(`003:60,67`, §9.2), the damage dice (`003:61-65`, §9.3), the N7 bonus roll of
guns (`003:77`, §9.4), and the whole attack chain of §15.4, all as exact
Fractions.  Nothing here rolls a die: the odds enumerate the 36 ordered pairs,
and tests/dv_brute_force.py enumerates every die face to check them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from itertools import product
from math import comb
from typing import Any, Literal, NamedTuple

from pydantic import Field

from ..cards import StrictModel, validated
from .grid import RECONSTRUCTED as RECONSTRUCTED_GRID, HitGrid
from .table1 import RECONSTRUCTED, clamp
from .table1 import SuccessTable as SuccessTable  # re-exported: the odds take a group's own table

FACES = range(1, 7)
#: the 36 ordered (1st die, 2nd die) pairs, equally likely (`003:54`, §2.4)
PAIRS: tuple[tuple[int, int], ...] = tuple(product(FACES, FACES))
AUTOMATIC_SAVE = 13  # "13 or higher than" (003:67)
MOST_DAMAGE_DICE = 20  # a sanity bound on typed input, far above any weapon of the rules

ArmourName = Literal["deck", "belt", "underwater"]
Box = tuple[int, int]  # (row group 1-4, column 1-6), §10.1


# --- the 2d6 test (§2.2) -------------------------------------------------------------


#: Table 1 [R-5] and the hit grid [R-40] as `table1.py` and `grid.py` keep them (unverified
#: reconstructions); every function takes a group's own in their place.
TABLE_1: SuccessTable = RECONSTRUCTED
GRID: HitGrid = RECONSTRUCTED_GRID


def clamp_modifier(m: int) -> int:
    """The sum of all modifiers, kept within 0..9 (`003:9`, [R-6])."""
    return clamp(m)


def half(value: int) -> int:
    """Halving rounds up, after every addition and subtraction (`003:12`, §2.3)."""
    return -(-value // 2)


def is_natural_seven(first: int, second: int) -> bool:
    """A N7: one die a 3 and the other a 4 (`003:9`)."""
    return {first, second} == {3, 4}


def succeeds(first: int, second: int, m: int, table: SuccessTable = TABLE_1) -> bool:
    """The 2d6 test of §2.2 (`003:9`): 2 and 12 fail, a N7 succeeds, else the band of clamp(m)."""
    return table.succeeds(first, second, m)


_CHANCES: dict[tuple[int, tuple[tuple[int, int] | None, ...]], Fraction] = {}


def success_chance(m: int, table: SuccessTable = TABLE_1) -> Fraction:
    """P(the 2d6 test succeeds at modifier m), over the 36 ordered pairs, kept per band (§15.3)."""
    key = (clamp(m), tuple(band.totals for band in table.bands))
    if key not in _CHANCES:
        _CHANCES[key] = Fraction(sum(succeeds(a, b, m, table) for a, b in PAIRS), 36)
    return _CHANCES[key]


def successful_totals(m: int, table: SuccessTable = TABLE_1) -> list[int]:
    """The totals that succeed at m besides the N7 (the table's band without 2 and 12)."""
    totals = table.band(m).totals
    return [] if totals is None else [t for t in range(totals[0], totals[1] + 1) if t not in (2, 12)]


def one_die_chance(target: int) -> Fraction:
    """P(1d6 meets or exceeds `target`), "a 4+" (`003:8`, §2.1)."""
    return Fraction(max(0, min(6, 7 - target)), 6)


NATURAL_SEVEN = Fraction(2, 36)


# --- the armour save (§9.2) --------------------------------------------------------------


class Save(str, Enum):
    """What a save comes to (`003:60`): a critical success [R-36] has no effect at all."""

    CRITICAL = "critical"
    SUCCESS = "success"
    FAIL = "fail"


def save_is_rolled(armour: int, strength: int) -> bool:
    """No dice when the strength is 13 or more above the armour (`003:67`); [R-37] rolls
    them when the armour is 13 or more above, to see a N7."""
    return armour - strength > -AUTOMATIC_SAVE


def save_result(first: int, second: int, armour: int, strength: int, table: SuccessTable = TABLE_1) -> Save:
    """One save: 2d6 test at armour − strength (`003:60`), automatic at ±13 (`003:67`), a N7 critical."""
    diff = armour - strength
    if not save_is_rolled(armour, strength):
        return Save.FAIL
    if is_natural_seven(first, second):
        return Save.CRITICAL
    if diff >= AUTOMATIC_SAVE or succeeds(first, second, diff, table):
        return Save.SUCCESS
    return Save.FAIL


@dataclass(frozen=True)
class SaveOdds:
    """The three outcomes of one armour save (§15.5)."""

    critical: Fraction
    success: Fraction
    fail: Fraction

    def as_json(self) -> dict[str, str]:
        return {"critical": str(self.critical), "success": str(self.success), "fail": str(self.fail)}


def save_odds(armour: int, strength: int, table: SuccessTable = TABLE_1) -> SaveOdds:
    """(critical, success, fail) of a save (§15.5): (1/18, P(m) − 1/18, 1 − P(m)) with m = armour − strength."""
    diff = armour - strength
    if not save_is_rolled(armour, strength):
        return SaveOdds(Fraction(0), Fraction(0), Fraction(1))
    p = Fraction(1) if diff >= AUTOMATIC_SAVE else success_chance(diff, table)
    return SaveOdds(NATURAL_SEVEN, p - NATURAL_SEVEN, 1 - p)


# --- damage dice (§9.3) ---------------------------------------------------------------------


def binomial(dice: int, p: Fraction) -> dict[int, Fraction]:
    """P(k of `dice` dice succeed), each with chance p (§15.5)."""
    return {k: comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)}


def damage_dice_odds(dice: int, target: int = 4) -> dict[int, Fraction]:
    """How many of `dice` d6 show `target`+: 4+ (`003:61,63`), 3+ for torpedoes (`003:92`)."""
    return binomial(dice, one_die_chance(target))


class HitResult(NamedTuple):
    """What one hit, or a whole attack, leaves: damage points, minor damage, and the boxes
    aimed at by failed saves (before any spill down, §10.1)."""

    damage_points: int
    minor_damage: int
    boxes: frozenset[Box]


NO_EFFECT = HitResult(0, 0, frozenset())


def hit_damage_odds(save: SaveOdds, dice: int, target: int, box: Box) -> dict[HitResult, Fraction]:
    """One hit after its save (§9.3): failed → k damage points, dice − k minor, the box marked;
    success → k minor; critical → nothing.  Damage 0: no save, 1 minor on a 5+ (`003:65`)."""
    out: dict[HitResult, Fraction] = {}
    if dice == 0:
        _add(out, HitResult(0, 1, frozenset()), one_die_chance(5))
        _add(out, NO_EFFECT, 1 - one_die_chance(5))
        return out
    _add(out, NO_EFFECT, save.critical)
    for k, p in damage_dice_odds(dice, target).items():
        _add(out, HitResult(0, k, frozenset()), save.success * p)
        _add(out, HitResult(k, dice - k, frozenset({box})), save.fail * p)
    return out


def damage_result(save: Save | None, dice: Sequence[int], target: int, box: Box) -> HitResult:
    """One hit from its dice as rolled (§9.3): `save` None for a damage-0 hit (one die, 5+ gives
    1 minor, `003:65`); failed save: each `target`+ a damage point, each other die a minor, the
    box marked (`003:61`); success: each `target`+ a minor (`003:63`); critical: nothing."""
    if save is None:
        return HitResult(0, 1 if dice[0] >= 5 else 0, frozenset())
    good = sum(face >= target for face in dice)
    if save is Save.CRITICAL:
        return NO_EFFECT
    if save is Save.SUCCESS:
        return HitResult(0, good, frozenset())
    return HitResult(good, len(dice) - good, frozenset({box}))


def catastrophic_chance(damage_points: int, threshold: int) -> Fraction:
    """P(sink) in maintenance step 1 (`003:137`, §11.1): roll one d6 per damage point when they
    reach the threshold; it sinks if the 4+ count reaches the threshold."""
    if damage_points < threshold:
        return Fraction(0)
    return sum((p for k, p in damage_dice_odds(damage_points).items() if k >= threshold), Fraction(0))


def _add(into: dict[HitResult, Fraction], key: HitResult, p: Fraction) -> None:
    if p:
        into[key] = into.get(key, Fraction(0)) + p


# --- one attack (§15.4) ---------------------------------------------------------------------


class Weapon(str, Enum):
    """What makes the attack: a ship's gun or torpedo system (§8), or an air strike (§12.7.2)."""

    GUN = "gun"
    TORPEDO = "torpedo"
    DIVE_BOMBER = "dive_bomber"
    TORPEDO_BOMBER = "torpedo_bomber"
    PATROL_BOMBER = "patrol_bomber"


TORPEDO_LIKE = (Weapon.TORPEDO, Weapon.TORPEDO_BOMBER)  # damage on a 3+ (003:92, [R-33])


class Armour(StrictModel):
    """The target's three armour values (§3.1)."""

    deck: int = Field(ge=0, le=99)
    belt: int = Field(ge=0, le=99)
    underwater: int = Field(ge=0, le=99)


class Attack(StrictModel):
    """The inputs of §15.4: the attack's total modifier (FC and every situational modifier,
    §8.4; clamped when rolled), the weapon, its strength and damage dice as printed, the
    measured distance in inches, the facts, and the target's armour."""

    modifier: int = Field(ge=-99, le=99)
    weapon: Weapon = Weapon.GUN
    strength: int = Field(ge=0, le=99)
    damage: int = Field(ge=0, le=MOST_DAMAGE_DICE)
    distance: Fraction = Field(default=Fraction(0), ge=0, le=10_000)
    bow_on: bool = False
    close_action: bool = False
    guns_damaged: bool = False
    armour: Armour


def attack_from(data: Mapping[str, Any]) -> Attack:
    """An Attack from plain data; FormatError naming the field and the problem."""
    return validated(Attack, dict(data))


def hits(attack: Attack, first: int, second: int, table: SuccessTable = TABLE_1) -> bool:
    """The attack roll: the 2d6 test at the modifier; a patrol bomber hits only on a N7 (`003:223`)."""
    if attack.weapon is Weapon.PATROL_BOMBER:
        return is_natural_seven(first, second)
    return succeeds(first, second, attack.modifier, table)


def gives_bonus_roll(attack: Attack, first: int, second: int) -> bool:
    """A gun hitting with a N7 rolls once more (`003:77`); the bonus roll does not chain [R-38]."""
    return attack.weapon is Weapon.GUN and is_natural_seven(first, second)


def hit_row(attack: Attack, first: int) -> int:
    """The grid row (1-6) of a hit (§9.1): guns adjust the 1st die (`003:78`) and clamp it [R-34];
    torpedoes and torpedo bombers count a 6 (`003:94,221`), dive bombers a 1 (`003:220`)."""
    if attack.weapon in TORPEDO_LIKE:
        return 6
    if attack.weapon is Weapon.DIVE_BOMBER:
        return 1
    if attack.weapon is Weapon.PATROL_BOMBER:
        return first
    shift = (1 if attack.distance <= 12 else 0) - (1 if attack.distance > 36 else 0) - (1 if attack.bow_on else 0)
    return max(1, min(6, first + shift))


def row_armour(row: int, grid: HitGrid = GRID) -> ArmourName:
    """The armour of a row as the grid labels it: 1 deck, 2-5 belt, 6 underwater on the printed
    grid, whose labels win over 3.4.1's text [R-35]."""
    return grid.armor_of(row)


def box_of(row: int, second: int, grid: HitGrid = GRID) -> Box:
    """The grid box a hit aims at: its row group [R-41] and the 2nd die's column (§10.1)."""
    return (grid.group_of(row), second)


def box_name(box: Box, grid: HitGrid = GRID) -> str:
    """A box as the spec writes it: "(2-3, 4)"."""
    dice = grid.rows[box[0] - 1].dice
    return f"({dice[0]}{'-' + str(dice[-1]) if len(dice) > 1 else ''}, {box[1]})"


def hit_strength(attack: Attack, row: int, grid: HitGrid = GRID) -> int:
    """S' of a hit (§9.2): guns −1 per full 8" (`003:72`), +2 in close action (`003:161`), then
    halved on underwater armour (`003:79`); never below 0."""
    strength = attack.strength
    if attack.weapon is Weapon.GUN:
        strength = max(0, strength - int(attack.distance // 8) + (2 if attack.close_action else 0))
        if row_armour(row, grid) == "underwater":
            strength = half(strength)
    return strength


def hit_damage_dice(attack: Attack) -> int:
    """D of a hit (§9.3): a damage-0 weapon has 1 in close action, guns +2 there [R-21]
    (`003:161`), then halved if the firer's guns are damaged (`003:116`, additions first `003:12`)."""
    dice = attack.damage
    if attack.close_action and dice == 0:
        dice = 1
    if attack.weapon is Weapon.GUN:
        dice += 2 if attack.close_action else 0
        dice = half(dice) if attack.guns_damaged else dice
    return dice


def damage_target(attack: Attack) -> int:
    """4+ for damage, 3+ for torpedoes (`003:92`, [R-33])."""
    return 3 if attack.weapon in TORPEDO_LIKE else 4


def hit_save_odds(attack: Attack, row: int, table: SuccessTable = TABLE_1, grid: HitGrid = GRID) -> SaveOdds:
    """The save of a hit in `row`; a damage-0 hit has none (`003:65`)."""
    if hit_damage_dice(attack) == 0:
        return SaveOdds(Fraction(0), Fraction(1), Fraction(0))
    armour: int = getattr(attack.armour, row_armour(row, grid))
    return save_odds(armour, hit_strength(attack, row, grid), table)


def one_hit_odds(attack: Attack, first: int, second: int, table: SuccessTable = TABLE_1,
                 grid: HitGrid = GRID) -> dict[HitResult, Fraction]:
    """What a hit rolled as (first, second) does (§15.4 step 2)."""
    row = hit_row(attack, first)
    save = hit_save_odds(attack, row, table, grid)
    return hit_damage_odds(save, hit_damage_dice(attack), damage_target(attack), box_of(row, second, grid))


@dataclass(frozen=True)
class AttackOdds:
    """The whole chain of one attack (§15.4), exact: `outcomes` is the joint distribution of
    what the attack leaves; the rest are read from the first roll (rows, armour, save) or
    from `outcomes`."""

    hit: Fraction
    bonus_hit: Fraction
    rows: dict[int, Fraction]
    armour: dict[str, Fraction]
    save: SaveOdds  # P(the first roll hits and its save ends so)
    outcomes: dict[HitResult, Fraction]

    @property
    def expected_hits(self) -> Fraction:
        return self.hit + self.bonus_hit

    @property
    def save_fail(self) -> Fraction:
        return self.save.fail

    @property
    def damage_points(self) -> dict[int, Fraction]:
        return _marginal(self.outcomes, lambda r: r.damage_points)

    @property
    def minor_damage(self) -> dict[int, Fraction]:
        return _marginal(self.outcomes, lambda r: r.minor_damage)

    @property
    def expected_damage_points(self) -> Fraction:
        return sum((k * p for k, p in self.damage_points.items()), Fraction(0))

    @property
    def expected_minor_damage(self) -> Fraction:
        return sum((k * p for k, p in self.minor_damage.items()), Fraction(0))

    @property
    def boxes(self) -> dict[Box, Fraction]:
        """P(a failed save of this attack aims at the box), before spill (§15.4)."""
        out: dict[Box, Fraction] = {}
        for result, p in self.outcomes.items():
            for box in result.boxes:
                out[box] = out.get(box, Fraction(0)) + p
        return dict(sorted(out.items()))

    def as_json(self, grid: HitGrid = GRID) -> dict[str, Any]:
        """Exact fractions as strings, like `companion dist --json`."""
        def strings(d: Mapping[Any, Fraction]) -> dict[str, str]:
            return {str(k): str(v) for k, v in d.items()}
        return {
            "hit": str(self.hit), "bonus_hit": str(self.bonus_hit), "expected_hits": str(self.expected_hits),
            "rows": strings(self.rows), "armour": strings(self.armour), "save": self.save.as_json(),
            "save_fail": str(self.save_fail),
            "damage_points": strings(self.damage_points), "minor_damage": strings(self.minor_damage),
            "expected_damage_points": str(self.expected_damage_points),
            "expected_minor_damage": str(self.expected_minor_damage),
            "boxes": {box_name(b, grid): str(p) for b, p in self.boxes.items()},
        }


def _marginal(outcomes: Mapping[HitResult, Fraction], key: Any) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for result, p in outcomes.items():
        out[key(result)] = out.get(key(result), Fraction(0)) + p
    top = max(out)
    return {k: out.get(k, Fraction(0)) for k in range(top + 1)}


def combine(one: Mapping[HitResult, Fraction], other: Mapping[HitResult, Fraction]) -> dict[HitResult, Fraction]:
    """Two independent hits together ("the attack deals damage twice", `003:77`)."""
    out: dict[HitResult, Fraction] = {}
    for a, p in one.items():
        for b, q in other.items():
            _add(out, HitResult(a.damage_points + b.damage_points, a.minor_damage + b.minor_damage,
                                a.boxes | b.boxes), p * q)
    return out


def bonus_roll_odds(attack: Attack, table: SuccessTable = TABLE_1, grid: HitGrid = GRID) -> dict[HitResult, Fraction]:
    """The N7 bonus roll (`003:77`, §9.4): same modifier, its own pair, location, save and damage."""
    out: dict[HitResult, Fraction] = {}
    for first, second in PAIRS:
        if not hits(attack, first, second, table):
            _add(out, NO_EFFECT, Fraction(1, 36))
            continue
        for result, p in one_hit_odds(attack, first, second, table, grid).items():
            _add(out, result, p / 36)
    return out


def attack_odds(attack: Attack, table: SuccessTable = TABLE_1, grid: HitGrid = GRID) -> AttackOdds:
    """§15.4: enumerate the 36 ordered pairs of the attack roll; a hit's row and column come
    from the same pair; a gun's N7 adds the bonus roll."""
    each = Fraction(1, 36)
    outcomes: dict[HitResult, Fraction] = {}
    rows = {r: Fraction(0) for r in FACES}
    armour = {name: Fraction(0) for name in ("deck", "belt", "underwater")}
    save = [Fraction(0)] * 3
    bonus: dict[HitResult, Fraction] | None = None
    bonus_hit = Fraction(0)
    for first, second in PAIRS:
        if not hits(attack, first, second, table):
            _add(outcomes, NO_EFFECT, each)
            continue
        row = hit_row(attack, first)
        rows[row] += each
        armour[row_armour(row, grid)] += each
        s = hit_save_odds(attack, row, table, grid)
        save = [save[0] + each * s.critical, save[1] + each * s.success, save[2] + each * s.fail]
        result = one_hit_odds(attack, first, second, table, grid)
        if gives_bonus_roll(attack, first, second):
            bonus = bonus if bonus is not None else bonus_roll_odds(attack, table, grid)
            bonus_hit += each * success_chance(attack.modifier, table)
            result = combine(result, bonus)
        for key, p in result.items():
            _add(outcomes, key, each * p)
    return AttackOdds(sum(rows.values(), Fraction(0)), bonus_hit, rows, armour, SaveOdds(*save), outcomes)
