"""Damage dealt against damage expected, one resolved shot at a time (issue 17, after-action report).

A Quick-Start shot's expectation is its exact odds as declared (seed 001 "Combat",
rules-notes 6; `combat.breach_odds`): on the position it is rolled in, at the location it
was declared at, the chance of each slot destroyed and of the keel breaking; when a d6
picks between two locations (table rule two_locations "roll"), the even mixture of the
two (`table_play.LocationRoll`).  The expected slots are the sum of the slot chances.

A War Fleet attack (rules-notes 8) is read the same way: a location destroyed counts as a
slot, a casualty as a broken keel, against `warfleet.odds.attack_odds` of its dialled-up
pool (`warfleet.game.declared_pool`) on the position it is rolled in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from .combat import breach_odds, shot_pool
from .kernel import Event


class ShotMark(BaseModel):
    """One resolved shot (or War Fleet attack): who fired which gun at whom, what it did
    (slots destroyed 0 or 1, keel broken 0 or 1) and what it was expected to do (None where unknown)."""

    model_config = ConfigDict(frozen=True)

    turn: int
    side: str
    attacker: str
    location: str
    slot: int
    gun: str
    target: str
    target_location: str
    slots: int
    keel: int
    slots_expected: Fraction = Fraction(0)
    keel_expected: Fraction = Fraction(0)


def expected_damage(state: Any, action: Any, events: Sequence[Event], turn: int) -> ShotMark | None:
    """The shot that `action` resolved from `state` (the position before it), or None."""
    kind = _kind(action)
    if kind == "resolve_shot":
        return _quick_start_shot(state, _field(action, "shot"), events, turn)
    if kind == "roll_attack":
        return _war_fleet_attack(state, _field(action, "attack"), events, turn)
    return None


def _kind(action: Any) -> Any:
    return action.get("kind") if isinstance(action, Mapping) else getattr(action, "kind", None)


def _field(action: Any, name: str) -> Any:
    return action.get(name) if isinstance(action, Mapping) else getattr(action, name, None)


def _result(events: Sequence[Event], kind: str, key: str, record_id: Any) -> dict[str, Any] | None:
    for event in events:
        if event.kind == kind and event.data.get(key) == record_id:
            result: dict[str, Any] = event.data["result"]
            return result
    return None


def _quick_start_shot(state: Any, shot_id: Any, events: Sequence[Event], turn: int) -> ShotMark | None:
    result = _result(events, "shot", "shot", shot_id)
    shot = next((s for s in state.shots if s.id == shot_id), None)
    if result is None or shot is None:
        return None
    attacker, target = state.ship(shot.attacker), state.ship(shot.target)
    where = [shot.target_location] if shot.target_location else list(shot.may_strike)
    slots, keel = Fraction(0), Fraction(0)
    for location in where:  # a d6 picks evenly between two strikes
        pool = shot_pool(attacker, shot.location, shot.slot, shot.band, target, location, state.table_rules)
        odds = breach_odds(pool, attacker.tesla_modifier, target, location)
        slots += sum(odds.slot_destroyed.values(), Fraction(0)) / len(where)
        keel += odds.keel_break / len(where)
    gun = attacker.card.locations[shot.location].gun(shot.slot)
    struck = next((e.data["location"] for e in events if e.kind == "slot_destroyed"), None)
    return ShotMark(
        turn=turn, side=attacker.side, attacker=attacker.id, location=shot.location, slot=shot.slot,
        gun=gun.name, target=target.id, target_location=shot.target_location or struck or " or ".join(where),
        slots=int(result["outcome"] == "slot_destroyed"), keel=int(result["outcome"] == "keel_break"),
        slots_expected=slots, keel_expected=keel)


def _war_fleet_attack(state: Any, attack_id: Any, events: Sequence[Event], turn: int) -> ShotMark | None:
    result = _result(events, "attack", "attack", attack_id)
    attack = next((a for a in state.attacks if a.id == attack_id), None)
    if result is None or attack is None:
        return None
    from .warfleet.game import declared_pool
    from .warfleet.odds import attack_odds

    attacker, target = state.ship(attack.attacker), state.ship(attack.target)
    slots = keel = Fraction(0)
    if not target.casualty:  # else nothing is rolled
        pool, rolls, _ = declared_pool(state, attack)
        odds = attack_odds(pool, rolls, target, attack.target_location)
        slots, keel = odds.location_destroyed, odds.casualty
    return ShotMark(
        turn=turn, side=attacker.side, attacker=attacker.id, location=" and ".join(attack.locations), slot=0,
        gun=" and ".join(attack.locations), target=attack.target, target_location=attack.target_location,
        slots=int(bool(result.get("location_destroyed"))), keel=int(bool(result.get("casualty"))),
        slots_expected=slots, keel_expected=keel)
