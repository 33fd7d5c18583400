"""Decisive Victory's answers to the after-action report (issue 25; the `Ruleset` capabilities of
engine/report_damage.py): its rolls rated in their exact odds, each attack's damage against expected,
its ships lost and their names.

A 2d6 roll is a test (§2.2), so its luck is where its outcome falls, not its total: the attack roll
ranks miss < hit < a gun's N7 hit (which brings the bonus roll, `003:77`), the N7 bonus roll miss < hit,
each over the 36 ordered pairs with the attack's own modifier and success table (`odds.hits`,
`odds.gives_bonus_roll`); these and the damage dice (how many show 4+, torpedoes 3+, `003:61,92`;
a damage-0 hit's one die 5+, `003:65`) are the attacking side's.  An armour save ranks fail < success <
critical (`003:60`, [R-36]; `odds.save_odds`) and is the saving side's; a save not rolled (`003:67`)
is not luck.  Initiative dice are the rolling side's.  Damage dealt is the damage points and minor
damage of the attack's damage dice against `odds.attack_odds` of the attack on the position it is
rolled in (§15.4; a box's spill past the bottom of the grid, `003:99-100`, is not in either).
Air strikes are not in the report yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from ..kernel import Event
from ..report_damage import ReportWords, RollMark, ShotMark, initiative_marks, rated
from .attack_facts import odds_attack
from .odds import (PAIRS, Attack, attack_odds, binomial, damage_dice_odds, damage_target, gives_bonus_roll, hits,
                   one_die_chance, save_odds)
from .state import DVAttack, DVShip, DVState

WORDS = ReportWords(
    dealt="damage points", dealt_short="damage points", second="minor damage", second_short="minor damage",
    shots="attacks rolled",
    luck_note="Each roll's percentile is where its outcome falls in its exact odds: P(a worse outcome) + half "
              "P(this one). Attack rolls (miss, hit, a gun's N7 hit), N7 bonus rolls and damage dice (how many "
              "succeed) count for the attacking side, armour saves (fail, success, critical) for the saving side, "
              "initiative dice for the rolling side.")
SAVE_RANK = {"fail": 0, "success": 1, "critical": 2}
MINOR_ONLY = 5  # a damage-0 hit's one die: 5+ one minor damage (003:65)


def rated_rolls(state: DVState, action: Any, events: Sequence[Event]) -> list[RollMark]:
    """The luck-bearing rolls of one action from `state` (the position before it)."""
    turn = int(state.turn)
    attack = _rolled(state, action)
    marks: list[RollMark] = []
    for event in events:
        marks += initiative_marks(turn, event)
    if attack is not None:
        marks += _chain_marks(state, attack, events)
    return marks


def _rolled(state: DVState, action: Any) -> DVAttack | None:
    if action.kind != "roll_attack":
        return None
    return next((a for a in state.attacks if a.id == action.attack), None)


def _chain_marks(state: DVState, attack: DVAttack, events: Sequence[Event]) -> list[RollMark]:
    """The attack's dice in the order rolled: attack and bonus rolls, saves, damage dice."""
    turn, odds = int(state.turn), odds_attack(state, attack)
    firer, target = state.ship(attack.ship).side, state.ship(attack.target).side
    damage_dice: dict[int, int] = {}
    marks: list[RollMark] = []
    for event in (e for e in events if e.data.get("attack") == attack.id):
        data = event.data
        if event.kind == "attack":
            marks.append(_attack_mark(turn, firer, odds, data, state))
        elif event.kind == "hit":
            damage_dice[data["hit"]] = data["damage_dice"]
        elif event.kind == "save" and data["dice"]:
            faces = [d["face"] for d in data["dice"]]
            chances = save_odds(data["modifier"], 0, state.success_table)
            marks.append(rated(turn, target, "save", f"2d6 at {data['modifier']:+d}", sum(faces),
                               {0: chances.fail, 1: chances.success, 2: chances.critical}, SAVE_RANK[data["result"]]))
        elif event.kind == "damage" and data["dice"]:
            marks.append(_damage_mark(turn, firer, odds, data, damage_dice.get(data["hit"], 1)))
    return marks


def _attack_mark(turn: int, side: str, odds: Attack, data: dict[str, Any], state: DVState) -> RollMark:
    """An attack roll ranks miss 0, hit 1, a gun's N7 hit 2; the bonus roll miss 0, hit 1."""
    bonus = data["roll"] == "bonus"

    def rank(first: int, second: int) -> int:
        hit = hits(odds, first, second, state.success_table)
        return int(hit) + int(hit and not bonus and gives_bonus_roll(odds, first, second))

    chances: dict[int, Fraction] = {}
    for first, second in PAIRS:
        chances[rank(first, second)] = chances.get(rank(first, second), Fraction(0)) + Fraction(1, 36)
    first, second = (d["face"] for d in data["dice"])
    return rated(turn, side, "bonus" if bonus else "attack", f"2d6 at {data['modifier']:+d}", first + second,
                 chances, rank(first, second))


def _damage_mark(turn: int, side: str, odds: Attack, data: dict[str, Any], dice: int) -> RollMark:
    """Damage dice rank by how many succeed (4+, torpedoes 3+); a damage-0 hit's die by its 5+."""
    faces = [d["face"] for d in data["dice"]]
    if dice == 0:
        return rated(turn, side, "minor", f"1d6 ({MINOR_ONLY}+)", faces[0], binomial(1, one_die_chance(MINOR_ONLY)),
                     int(faces[0] >= MINOR_ONLY))
    target = damage_target(odds)
    good = sum(face >= target for face in faces)
    return rated(turn, side, "damage", f"{len(faces)}d6 ({target}+)", good, damage_dice_odds(len(faces), target), good)


def expected_damage(state: DVState, action: Any, events: Sequence[Event]) -> ShotMark | None:
    """The attack `action` rolled from `state`: its damage points and minor damage against their
    exact expectation (§15.4); None for any other action."""
    attack = _rolled(state, action)
    if attack is None:
        return None
    ship, target = state.ship(attack.ship), state.ship(attack.target)
    chain = attack_odds(odds_attack(state, attack), state.success_table, state.grid_of(target))
    mine = [e.data for e in events if e.kind == "damage" and e.data.get("attack") == attack.id]
    weapon = ship.record.weapon(attack.system)
    return ShotMark(
        turn=int(state.turn), side=ship.side, attacker=ship.id, location=attack.system, slot=0,
        gun=weapon.name or weapon.id, target=target.id, target_location="",
        slots=sum(int(d["damage_points"]) for d in mine), keel=sum(int(d["minor_damage"]) for d in mine),
        slots_expected=chain.expected_damage_points, keel_expected=chain.expected_minor_damage)


def ships_lost(before: DVState, after: DVState, events: Sequence[Event]) -> Iterable[str]:
    """The ships an action took out of play (sunk, abandoned, removed at the table)."""
    return [s.id for s in before.ships if s.in_play and after.has_ship(s.id) and not after.ship(s.id).in_play]


def ship_name(ship: DVShip) -> str:
    return ship.label
