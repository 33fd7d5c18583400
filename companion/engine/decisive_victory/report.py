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
An air strike (§12.7.2) is read the same way: its attack roll at +5 (a patrol bomber's only on a N7,
`air_odds.strike_hits`) ranks miss < hit, its hit's save and damage dice as a ship's, and its damage
against `air_odds.strike_odds` (a fighter's strafing run: one minor damage at `strafing_chance`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from ..kernel import Event
from ..ruleset import ShipMarks
from ..report_damage import ReportWords, RollMark, ShotMark, initiative_marks, rated
from . import air_odds
from .attack_facts import odds_attack
from .odds import (PAIRS, Armour, Attack, attack_odds, binomial, damage_dice_odds, damage_target, gives_bonus_roll,
                   hits, one_die_chance, save_odds)
from .state import DVAttack, DVShip, DVState, Flight

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
    attack, strike = _rolled(state, action), _strike(state, action)
    marks: list[RollMark] = []
    for event in events:
        marks += initiative_marks(turn, event)
    if attack is not None:
        odds = odds_attack(state, attack)
        marks += _chain_marks(state, state.ship(attack.ship).side, state.ship(attack.target).side, odds,
                              [e for e in events if e.data.get("attack") == attack.id],
                              lambda data, a, b: _attack_rank(odds, state, data["roll"] == "bonus", a, b))
    if strike is not None:
        flight, target = strike
        kind = flight.record.type
        marks += _chain_marks(state, flight.side, target.side, _strike_attack(flight, target), events,
                              lambda data, a, b: int(air_odds.strike_hits(kind, a, b, state.success_table)))
    return marks


def _strike(state: DVState, action: Any) -> tuple[Flight, DVShip] | None:
    """The flight and the ship of an air strike; None for any other action."""
    if action.kind != "air_strike":
        return None
    return state.flight(action.flight), state.ship(action.target)


def _strike_attack(flight: Flight, target: DVShip) -> Attack:
    kind = flight.record.type
    return air_odds.strike_attack("dive_bomber" if kind == "fighter" else kind,
                                  Armour.model_validate(target.record.armor, from_attributes=True))


def _rolled(state: DVState, action: Any) -> DVAttack | None:
    if action.kind != "roll_attack":
        return None
    return next((a for a in state.attacks if a.id == action.attack), None)


Rank = Callable[[dict[str, Any], int, int], int]


def _chain_marks(state: DVState, firer: str, target: str, odds: Attack, events: Sequence[Event],
                 rank: Rank) -> list[RollMark]:
    """An attack's dice in the order rolled: attack and bonus rolls (`rank`: where a pair falls,
    worst 0), saves, damage dice."""
    turn = int(state.turn)
    damage_dice: dict[int, int] = {}
    marks: list[RollMark] = []
    for event in events:
        data = event.data
        if event.kind == "attack" and len(data.get("dice", [])) == 2:
            marks.append(_attack_mark(turn, firer, data, lambda a, b: rank(data, a, b)))
        elif event.kind == "hit":
            damage_dice[data.get("hit", 1)] = data["damage_dice"]
        elif event.kind == "save" and data["dice"]:
            faces = [d["face"] for d in data["dice"]]
            chances = save_odds(data["modifier"], 0, state.success_table)
            marks.append(rated(turn, target, "save", f"2d6 at {data['modifier']:+d}", sum(faces),
                               {0: chances.fail, 1: chances.success, 2: chances.critical}, SAVE_RANK[data["result"]]))
        elif event.kind == "damage" and data["dice"]:
            marks.append(_damage_mark(turn, firer, odds, data, damage_dice.get(data.get("hit", 1), 1)))
    return marks


def _attack_rank(odds: Attack, state: DVState, bonus: bool, first: int, second: int) -> int:
    """An attack roll ranks miss 0, hit 1, a gun's N7 hit 2 (the bonus roll it brings); the bonus roll miss 0, hit 1."""
    hit = hits(odds, first, second, state.success_table)
    return int(hit) + int(hit and not bonus and gives_bonus_roll(odds, first, second))


def _attack_mark(turn: int, side: str, data: dict[str, Any], rank: Callable[[int, int], int]) -> RollMark:
    """The 2d6 attack roll rated by its rank over the 36 ordered pairs."""
    chances: dict[int, Fraction] = {}
    for a, b in PAIRS:
        chances[rank(a, b)] = chances.get(rank(a, b), Fraction(0)) + Fraction(1, 36)
    first, second = (d["face"] for d in data["dice"])
    what = "bonus" if data.get("roll") == "bonus" else "attack"
    return rated(turn, side, what, f"2d6 at {data['modifier']:+d}", first + second, chances, rank(first, second))


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
    strike = _strike(state, action)
    if strike is not None:
        return _strike_damage(state, *strike, events)
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


def _strike_damage(state: DVState, flight: Flight, target: DVShip, events: Sequence[Event]) -> ShotMark:
    """An air strike's damage against `air_odds.strike_odds` (a fighter's strafing: one minor on a hit)."""
    kind = flight.record.type
    if kind == "fighter":
        points, minor = Fraction(0), air_odds.strafing_chance(state.success_table)
    else:
        chain = attack_odds(_strike_attack(flight, target), state.success_table, state.grid_of(target))
        points, minor = chain.expected_damage_points, chain.expected_minor_damage
    dealt = [e.data for e in events if e.kind == "damage" and e.data.get("ship") == target.id]
    return ShotMark(
        turn=int(state.turn), side=flight.side, attacker=flight.id, location="air strike", slot=0,
        gun=f"{kind.replace('_', ' ')} strike", target=target.id, target_location="",
        slots=sum(int(d["damage_points"]) for d in dealt), keel=sum(int(d["minor_damage"]) for d in dealt),
        slots_expected=points, keel_expected=minor)


def ships_lost(before: DVState, after: DVState, events: Sequence[Event]) -> Iterable[str]:
    """The ships an action took out of play (sunk, abandoned, removed at the table)."""
    return [s.id for s in before.ships if s.in_play and after.has_ship(s.id) and not after.ship(s.id).in_play]


def ship_marks(ship: DVShip) -> ShipMarks:
    """Where it is plotted, its damage points, minor damage and boxes, and whether it is out of play."""
    return ShipMarks(ship.position, ship.damage_points + ship.minor_damage + len(ship.boxes), not ship.in_play)
