"""The modifier of a Decisive Victory attack roll (spec decisive-victory.md §8.3-8.6).

Plain inputs (the facts the players measure or know), so the odds commands and
tests can build the `modifier` of `odds.Attack` without a game state: fire
control (`003:52`) with close action, damaged guns and split fire [R-24], and the
situational modifiers of §8.4, each with its reason; gunnery radar (`003:81`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from ..cards import StrictModel
from .odds import TABLE_1, SuccessTable, half, success_chance


def fire_control(base: int, close_action: bool = False, guns_damaged: bool = False, split: bool = False) -> int:
    """FC_eff (§8.4, [R-24]): +2 in close action (`003:161`), then halved if the gun system is
    damaged (`003:116`), then halved for a split secondary attack (`003:55`); additions first,
    halving rounds up (`003:12`)."""
    fc = base + (2 if close_action else 0)
    fc = half(fc) if guns_damaged else fc
    return half(fc) if split else fc


class AttackFacts(StrictModel):
    """What the table knows about one attack (§8.4); distances in inches, exact."""

    weapon: Literal["gun", "torpedo"] = "gun"
    fire_control: int = Field(ge=0, le=99)
    distance: Fraction = Field(ge=0, le=10_000)
    close_action: bool = False
    guns_damaged: bool = False
    split: bool = False
    night: bool = False
    japanese: bool = False
    illuminated: bool = False
    bad_weather: bool = False
    second_battery: bool = False
    target_stopped: bool = False
    smoke: bool = False
    target_evasive_turns: int = Field(default=0, ge=0, le=99)
    own_evasive_turns: int = Field(default=0, ge=0, le=99)
    concentrate_fire: bool = False
    spotter_distance: Fraction | None = Field(default=None, ge=0, le=10_000)
    radar_success: bool = False


def situational_modifiers(facts: AttackFacts) -> list[tuple[str, int]]:
    """Every modifier of §8.4 that applies, with its reason; FC_eff first.  A successful
    gunnery radar roll drops every negative one (`003:81`)."""
    gun = facts.weapon == "gun"
    fc = fire_control(facts.fire_control, facts.close_action and gun, facts.guns_damaged and gun, facts.split)
    ranged = facts.spotter_distance if gun and facts.spotter_distance is not None else facts.distance
    found = [
        ("fire control", fc),
        ("range (every full 8\")", -int(ranged // 8)) if gun else ("range (every full 3\")", -int(facts.distance // 3)),
        ("night", -3 if facts.japanese else -4) if facts.night and not facts.illuminated else ("night", 0),
        ("bad weather", -2 if facts.bad_weather else 0),
        ("second battery on the target", -1 if facts.second_battery and gun else 0),
        ("target at a complete stop", 5 if facts.target_stopped else 0),
        ("smoke", -2 if facts.smoke else 0),
        ("target's evasive maneuvers", -facts.target_evasive_turns),
        ("own evasive maneuvers", -facts.own_evasive_turns),
        ("concentrate fire", 2 if facts.concentrate_fire else 0),
    ]
    if facts.radar_success and gun:
        found = [(why, value) for why, value in found if value > 0 or why == "fire control"]
    return [(why, value) for why, value in found if value or why == "fire control"]


def attack_modifier(facts: AttackFacts) -> int:
    """The sum m of the attack roll (§8.4); clamped only when rolled (§2.2)."""
    return sum(value for _, value in situational_modifiers(facts))


def radar_modifier(radar: int, facts: AttackFacts) -> int:
    """The radar roll (`003:81`, [R-27]): the radar value plus the positive modifiers only
    (stopped +5, concentrate +2; close action is in FC_eff, not in this roll's base)."""
    positives = (5 if facts.target_stopped else 0) + (2 if facts.concentrate_fire else 0) \
        + (2 if facts.close_action else 0)
    return radar + positives


def hit_chance_with_radar(radar: int, facts: AttackFacts, table: SuccessTable = TABLE_1) -> Fraction:
    """P(the battery's attack hits) when it rolls for radar first (§8.5): P(radar) × P(hit without
    negatives) + (1 − P(radar)) × P(hit with them)."""
    radar_works = success_chance(radar_modifier(radar, facts), table)
    with_radar = success_chance(attack_modifier(facts.model_copy(update={"radar_success": True})), table)
    without = success_chance(attack_modifier(facts.model_copy(update={"radar_success": False})), table)
    return radar_works * with_radar + (1 - radar_works) * without
