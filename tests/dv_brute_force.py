"""A brute-force enumerator of Decisive Victory's dice, to check the exact odds of `odds.py`.

Every die face is enumerated and judged face by face with the rules of one roll
(`succeeds`, `save_result`, "4+" and "5+" read off the face); nothing here uses a
closed form.  Stages are independent dice, so their counts multiply: the attack
pair (36), then per hit its save pair and damage dice (6^(2+D)), then a gun's N7
bonus pair (`003:77`).  Slow by design: a test oracle, kept with the tests (spec §15, issue 16).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import product

from companion.engine.decisive_victory.grid import HitGrid
from companion.engine.decisive_victory.odds import (
    FACES, GRID, NO_EFFECT, TABLE_1, Attack, HitResult, Save, SuccessTable, box_of, damage_result, damage_target,
    gives_bonus_roll, hit_damage_dice, hit_row, hit_strength, hits, row_armour, save_result, succeeds,
)


def faces(dice: int) -> Iterator[tuple[int, ...]]:
    """Every sequence of `dice` d6 faces, each equally likely."""
    return product(FACES, repeat=dice)


def chance_of_success(m: int, table: SuccessTable = TABLE_1) -> Fraction:
    """P(2d6 test succeeds) by counting the 36 pairs."""
    return Fraction(sum(succeeds(a, b, m, table) for a, b in faces(2)), 36)


def save_chances(armour: int, strength: int, table: SuccessTable = TABLE_1) -> dict[Save, Fraction]:
    """The save's outcomes by counting the 36 pairs (a save not rolled still counts every pair)."""
    out = {s: Fraction(0) for s in Save}
    for a, b in faces(2):
        out[save_result(a, b, armour, strength, table)] += Fraction(1, 36)
    return out


def _hit(attack: Attack, row: int, table: SuccessTable, grid: HitGrid) -> dict[tuple[int, int, bool], Fraction]:
    """One hit in `row`: every save pair and every damage die, face by face (`003:60-65`);
    (damage points, minor damage, box marked)."""
    dice = hit_damage_dice(attack)
    armour: int = getattr(attack.armour, row_armour(row, grid))
    strength = hit_strength(attack, row, grid)
    out: dict[tuple[int, int, bool], Fraction] = {}
    rolls = list(faces(1 if dice == 0 else 2 + dice))
    for roll in rolls:
        save = None if dice == 0 else save_result(roll[0], roll[1], armour, strength, table)
        hit = damage_result(save, roll if dice == 0 else roll[2:], damage_target(attack), (0, 0))
        result = (hit.damage_points, hit.minor_damage, bool(hit.boxes))
        out[result] = out.get(result, Fraction(0)) + Fraction(1, len(rolls))
    return out


def _roll(attack: Attack, table: SuccessTable, grid: HitGrid, bonus: bool,
          by_row: dict[int, dict[tuple[int, int, bool], Fraction]]) -> dict[HitResult, Fraction]:
    """One attack roll (or the bonus roll) and everything its dice lead to."""
    out: dict[HitResult, Fraction] = {}
    for first, second in faces(2):
        branch = {NO_EFFECT: Fraction(1)}
        if hits(attack, first, second, table):
            row = hit_row(attack, first)
            if row not in by_row:
                by_row[row] = _hit(attack, row, table, grid)
            branch = {HitResult(d, m, frozenset({box_of(row, second, grid)}) if marked else frozenset()): p
                      for (d, m, marked), p in by_row[row].items()}
            if not bonus and gives_bonus_roll(attack, first, second):
                branch = _together(branch, _roll(attack, table, grid, True, by_row))
        for result, p in branch.items():
            out[result] = out.get(result, Fraction(0)) + p / 36
    return out


def _together(one: dict[HitResult, Fraction], other: dict[HitResult, Fraction]) -> dict[HitResult, Fraction]:
    out: dict[HitResult, Fraction] = {}
    for a, p in one.items():
        for b, q in other.items():
            key = HitResult(a.damage_points + b.damage_points, a.minor_damage + b.minor_damage, a.boxes | b.boxes)
            out[key] = out.get(key, Fraction(0)) + p * q
    return out


def attack_outcomes(attack: Attack, table: SuccessTable = TABLE_1, grid: HitGrid = GRID) -> dict[HitResult, Fraction]:
    """The joint distribution of what one attack leaves, by enumerating its dice (§15.4)."""
    return {k: p for k, p in _roll(attack, table, grid, False, {}).items() if p}
