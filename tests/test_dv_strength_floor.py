"""Decisive Victory: a gun's strength after range and close action is never below 0 (a reading the
spec does not state: docs/rule-readings.md, "Where the spec is silent"; issue 25 part 8)."""

from __future__ import annotations

from fractions import Fraction as F

from companion.engine.decisive_victory.odds import attack_from, hit_strength, save_odds

CRUISER = {"deck": 4, "belt": 6, "underwater": 4}


def gun(strength, distance, **more):
    return attack_from({"modifier": 0, "strength": strength, "damage": 2, "distance": distance,
                        "armour": CRUISER, **more})


def test_range_takes_a_gun_down_to_0_and_no_lower():
    assert hit_strength(gun(2, 16), 3) == 0  # -2 for two full 8"
    assert hit_strength(gun(2, 24), 3) == 0  # -3: floored, not -1
    assert hit_strength(gun(2, F(79, 2)), 3) == 0


def test_close_action_adds_after_range_then_the_floor():
    assert hit_strength(gun(2, 24, close_action=True), 3) == 1  # 2 - 3 + 2
    assert hit_strength(gun(0, 40, close_action=True), 3) == 0  # 0 - 5 + 2 = -3: floored


def test_underwater_halving_comes_after_the_floor():
    assert hit_strength(gun(2, 24), 6) == 0
    assert hit_strength(gun(5, 8), 6) == 2  # (5 - 1) halved


def test_a_floored_hit_saves_as_a_strength_0_hit():
    assert save_odds(6, hit_strength(gun(2, 40), 3)) == save_odds(6, 0)
