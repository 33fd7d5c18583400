"""Decisive Victory aircraft: the On Target stage (spec §12.3, §12.6, §12.7): arrivals placed,
flights moved, CAP intercepts, air to air, AA fire and strikes, in the order of [R-55].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from ..common import _Action
from ..kernel import Handler, Refusal, Work
from ..roller import DiceSource
from . import air_odds as O
from . import air_rules as R
from .air_hit import resolve_hit
from .damage import pair, pair_json
from .inches import Inches
from .odds import Armour
from .state import Base, DVShip, DVState, Flight
from .air_work import (AirFaces, befall, flight_of, label, on_target_flight, put, step,
                       to_returning, with_dice)
from ..words import result_words

# --- the On Target stage (§12.3) ------------------------------------------------------------


class PlaceFlight(_Action):
    """Place an arrival anywhere on the table, the initiative side first (`003:183`)."""

    kind: Literal["place_flight"] = "place_flight"
    flight: str
    inches: Inches | None = Field(default=None, description="Unused: an arrival is placed anywhere on the table")


def unplaced(state: DVState, side: str | None = None) -> list[Flight]:
    return [f for f in state.flights if f.stage == "on_target" and not f.on_table
            and f.record.type != "patrol_bomber" and f.entered_stage_turn == state.turn
            and f.moved_turn != state.turn and (side is None or f.side == side)]


def _place_flight(work: Work[DVState], action: PlaceFlight) -> None:
    step(work, "on_target", doing="flights are placed")
    flight = on_target_flight(work, action.flight, "only arrivals are placed")
    state = work.state
    if flight.record.type == "patrol_bomber":
        work.rule("patrol bombers are not placed on the board: they remain at high altitude (003:186)")
    if flight.on_table or flight.moved_turn == state.turn:
        work.rule(f"{label(flight)} is already on the table: move it instead")
    if state.initiative and flight.side != state.initiative and unplaced(state, state.initiative):
        work.rule(f"{state.initiative} has the initiative and places its arrivals first")
    put(work, flight.model_copy(update={"on_table": True, "moved_turn": state.turn}))
    work.event("flight_placed", f"{label(flight)} is placed on the table.", flight=flight.id)


class MoveFlight(_Action):
    """Move a flight already on the table up to 48", 32" if slow (`003:184`)."""

    kind: Literal["move_flight"] = "move_flight"
    flight: str
    inches: Inches | None = Field(default=None, description="As measured; none: within the limit as the table saw it")


def _move_flight(work: Work[DVState], action: MoveFlight) -> None:
    step(work, "on_target", doing="flights are moved")
    flight = on_target_flight(work, action.flight, "only flights On Target move")
    state = work.state
    limit = O.move_limit(flight.record.slow)
    if not flight.on_table:
        work.rule(f"{label(flight)} is not on the table" + (": place it first" if unplaced(state) else ""))
    if flight.moved_turn == state.turn:
        work.rule(f"{label(flight)} has already been placed or moved this turn")
    if unplaced(state):
        work.rule("every arrival is placed before flights already on the table move (003:183-184)")
    if state.initiative and flight.side != state.initiative and any(
            f.side == state.initiative and f.stage == "on_target" and f.on_table and f.moved_turn != state.turn
            for f in state.flights):
        work.rule(f"{state.initiative} has the initiative and moves its flights first")
    if action.inches is not None and action.inches > limit:
        work.rule(f"{'a slow' if flight.record.slow else 'a'} flight moves at most {limit}\" ({action.inches}\" asked)")
    put(work, flight.model_copy(update={"moved_turn": state.turn}))
    moved = "" if action.inches is None else f" {action.inches}\""
    work.event("flight_moved", f"{label(flight)} moves{moved}.", flight=flight.id,
               inches=None if action.inches is None else str(action.inches), limit=limit)


class Intercept(_Action):
    """Move one CAP flight next to an enemy flight placed or moved within 16" of its carrier or base (`003:185`)."""

    kind: Literal["intercept"] = "intercept"
    cap_flight: str
    flight: str
    distance: Inches | None = Field(default=None, description="From the flight to the CAP's carrier or base")


def intercept_problem(state: DVState, cap: Flight, flight: Flight, distance: Inches | None = None) -> str | None:
    if cap.stage != "cap":
        return f"{label(cap)} is not flying CAP"
    if cap.moved_turn == state.turn:
        return f"{label(cap)} has already intercepted this turn"
    if not R.enemy(cap.side, flight.side):
        return f"{label(flight)} is not an enemy flight"
    if flight.stage != "on_target" or not flight.on_table or flight.moved_turn != state.turn:
        return f"{label(flight)} was not placed or moved on the table this turn"
    if any(f.stage == "cap" and f.target == flight.id and f.moved_turn == state.turn for f in state.flights):
        return f"a CAP flight has already intercepted {label(flight)}"
    if distance is not None and distance > O.CAP_REACH:
        return f"the flight is {distance}\" from the CAP's carrier or base: it must be within {O.CAP_REACH}\""
    return None


def _intercept(work: Work[DVState], action: Intercept) -> None:
    step(work, "on_target", doing="CAP flights intercept")
    cap, flight = flight_of(work, action.cap_flight), flight_of(work, action.flight)
    work.rule(intercept_problem(work.state, cap, flight, action.distance))
    put(work, cap.model_copy(update={"target": flight.id, "moved_turn": work.state.turn}))
    work.event("intercept", f"{label(cap)} (CAP) moves next to {label(flight)}.", cap_flight=cap.id, flight=flight.id)


# --- aircraft combat (§12.6) ------------------------------------------------------------------


class AirAttack(_Action):
    """Fighters attack a flight, their qualities added; the flight answers one of them (`003:209-210`)."""

    kind: Literal["air_attack"] = "air_attack"
    attackers: list[str] = Field(min_length=1, max_length=20)
    target: str
    answer_at: str | None = Field(default=None, description="The attacker the target's one roll is made at [R-59]")
    table: AirFaces | None = None


def air_attack_problem(state: DVState, attackers: Sequence[Flight], target: Flight) -> str | None:
    if len({a.id for a in attackers}) != len(attackers):
        return "a flight is named twice among the attackers"
    for a in attackers:
        if a.record.type != "fighter":
            return f"{label(a)} is not a fighter flight: only fighter flights initiate attacks on aircraft"
        if a.stage not in R.ON_TABLE or not a.on_table and a.stage == "on_target":
            return f"{label(a)} is not on the table"
        if a.side != attackers[0].side:
            return "the attacking flights are not of one side"
        if a.attacked_turn == state.turn:
            return f"{label(a)} has already attacked this turn"
        problem = R.flies_problem(state, a)
        if problem:
            return problem
    if not R.enemy(attackers[0].side, target.side):
        return f"{label(target)} is not an enemy flight"
    if target.stage not in R.ON_TABLE or (target.stage == "on_target" and not target.on_table):
        return f"{label(target)} is not on the table"
    return None


def _air_attack(work: Work[DVState], action: AirAttack) -> None:
    step(work, "on_target", doing="flights attack each other")
    attackers = [flight_of(work, a) for a in action.attackers]
    target = flight_of(work, action.target)
    work.rule(air_attack_problem(work.state, attackers, target))
    answered = next((a for a in attackers if a.id == (action.answer_at or attackers[0].id)), None)
    if answered is None:
        raise Refusal(f"{action.answer_at} is not one of the attackers")
    quality = sum(a.record.quality for a in attackers)
    table = work.state.success_table

    def roll(dice: DiceSource) -> tuple[O.FlightAttackResult, O.FlightAttackResult]:
        a1, a2 = pair(dice, "attack")
        b1, b2 = pair(dice, "answer")
        ours = O.flight_attack_result(a1.face, a2.face, quality, target.record.quality, table)
        theirs = O.flight_attack_result(b1.face, b2.face, target.record.quality, answered.record.quality, table)
        work.event("air_attack", f"{', '.join(label(a) for a in attackers)} (quality {quality}) attack "
                   f"{label(target)} (quality {target.record.quality}) at "
                   f"{O.flight_attack_modifier(quality, target.record.quality):+d}: {a1.face}, {a2.face}: {result_words(ours)}.",
                   attackers=[a.id for a in attackers], target=target.id, quality=quality, result=ours,
                   modifier=O.flight_attack_modifier(quality, target.record.quality), dice=pair_json(a1, a2))
        work.event("air_attack", f"{label(target)} answers {label(answered)} at "
                   f"{O.flight_attack_modifier(target.record.quality, answered.record.quality):+d}: "
                   f"{b1.face}, {b2.face}: {result_words(theirs)}.", attackers=[target.id], target=answered.id, answer=True,
                   quality=target.record.quality, result=theirs, dice=pair_json(b1, b2),
                   modifier=O.flight_attack_modifier(target.record.quality, answered.record.quality))
        return ours, theirs

    ours, theirs = with_dice(work, action.table, roll)
    for a in attackers:
        put(work, work.state.flight(a.id).model_copy(update={"attacked_turn": work.state.turn}))
    befall(work, target.id, ours, "air to air")  # both results apply at once
    befall(work, answered.id, theirs, "air to air")


# --- AA fire (§12.7.1) ------------------------------------------------------------------------


class AAFire(_Action):
    """A ship or base spends AA points at a flight about to strike (`003:214-215`)."""

    kind: Literal["aa_fire"] = "aa_fire"
    ship: str = Field(description="The ship (or land base) firing")
    flight: str
    points: int = Field(ge=1, le=99)
    dual_purpose: list[str] = Field(default=[], description="Dual purpose batteries firing at the flight")
    target: str | None = Field(default=None, description="The ship the flight strikes; none: the firing ship")
    distance: Inches | None = Field(default=None, description="From a supporting ship to the flight (within 3\")")
    table: AirFaces | None = None


def aa_problem(state: DVState, unit: DVShip | Base, flight: Flight, points: int, dual: frozenset[str],
               target: str, distance: Inches | None) -> str | None:
    name = R.place_label(unit)
    if isinstance(unit, DVShip) and not unit.in_play:
        return f"{name} is out of play"
    if not R.enemy(unit.side, flight.side):
        return f"{label(flight)} is not an enemy flight"
    if flight.stage != "on_target" or not O.can_strike(flight.record.type):
        return f"{label(flight)} is not about to attack a surface target"
    if flight.attacked_turn == state.turn:
        return f"{label(flight)} has already made its attack run this turn"
    if flight.fired_on.get(unit.id) == state.turn:
        return f"{name} has already fired at {label(flight)} this turn [R-60]"
    if target != unit.id:
        if not state.has_ship(target) or state.ship(target).side != unit.side:
            return f"'{target}' is not a friendly ship of {name}"
        if flight.record.type == "patrol_bomber":
            return "only the target ship can fire at a patrol bomber with AA (003:223)"
        if distance is not None and distance > O.AA_SUPPORT:
            return f"{name} is {distance}\" from the flight: friendly ships fire only within {O.AA_SUPPORT}\""
    if isinstance(unit, DVShip):
        for system in sorted(dual):
            problem = R.dual_purpose_problem(state, unit, system)
            if problem:
                return problem
    left = R.aa_left(state, unit, dual)
    if points > left:
        return f"{name} has {left} AA point{'s' * (left != 1)} left this turn: {points} asked"
    return None


def _aa_fire(work: Work[DVState], action: AAFire) -> None:
    step(work, "on_target", doing="AA fires")
    state = work.state
    unit = R.place_of(state, action.ship)
    if unit is None:
        raise Refusal(f"there is no ship or base '{action.ship}' in this game")
    flight = flight_of(work, action.flight)
    dual = frozenset(action.dual_purpose)
    if dual and isinstance(unit, Base):
        raise Refusal("a land base has no dual purpose batteries")
    work.rule(aa_problem(state, unit, flight, action.points, dual, action.target or unit.id, action.distance))
    quality = action.points  # "The quality of the attack equals the amount of AA points spent" (003:214)
    table = state.success_table

    def roll(dice: DiceSource) -> O.FlightAttackResult:
        a, b = pair(dice, "attack")
        result = O.flight_attack_result(a.face, b.face, quality, flight.record.quality, table)
        m = O.flight_attack_modifier(quality, flight.record.quality)
        work.event("aa_fire", f"{R.place_label(unit)} fires {quality} AA at {label(flight)} (quality "
                   f"{flight.record.quality}) at {m:+d}: {a.face}, {b.face}: {result_words(result)}.", ship=unit.id,
                   flight=flight.id, points=quality, dual_purpose=sorted(dual), modifier=m, result=result,
                   dice=pair_json(a, b))
        return result

    result = with_dice(work, action.table, roll)
    if isinstance(unit, DVShip):
        work.update(ships=[s.model_copy(update={"aa_spent": s.aa_spent + quality, "dp_used_for_aa": s.dp_used_for_aa | dual})
                           if s.id == unit.id else s for s in work.state.ships])
    else:
        work.update(bases=[b.model_copy(update={"aa_spent": b.aa_spent + quality}) if b.id == unit.id else b
                           for b in work.state.bases])
    put(work, work.state.flight(flight.id).model_copy(update={"fired_on": {**flight.fired_on, unit.id: state.turn}}))
    befall(work, flight.id, result, "AA fire")


# --- strikes (§12.7.2) ------------------------------------------------------------------------


class AirStrike(_Action):
    """A flight's air to surface attack at +5, the whole hit chain (`003:219-223`)."""

    kind: Literal["air_strike"] = "air_strike"
    flight: str
    target: str
    distance: Inches | None = Field(default=None, description="From the flight to the target, as measured")
    table: AirFaces | None = None


def strike_problem(state: DVState, flight: Flight, target_id: str, distance: Inches | None = None) -> str | None:
    kind = flight.record.type
    if not O.can_strike(kind):
        return f"{label(flight)}: float planes have no attack"
    if flight.stage != "on_target":
        return f"{label(flight)} is not On Target (stage: {flight.stage})"
    if kind != "patrol_bomber" and not flight.on_table:
        return f"{label(flight)} is not on the table: place it first"
    if flight.attacked_turn == state.turn:
        return f"{label(flight)} has already attacked this turn"
    if not state.has_ship(target_id) or not state.ship(target_id).in_play:
        return f"there is no ship '{target_id}' in play to strike"
    if not R.enemy(flight.side, state.ship(target_id).side):
        return f"{state.ship(target_id).label} is not an enemy ship"
    reach = O.STRIKE_REACH[kind]
    if reach is not None and distance is not None and distance > reach:
        return f"the target is {distance}\" from the flight: a {kind.replace('_', ' ')} strikes within {reach}\""
    return R.flies_problem(state, flight)


def _air_strike(work: Work[DVState], action: AirStrike) -> None:
    step(work, "on_target", doing="flights strike")
    flight = flight_of(work, action.flight)
    work.rule(strike_problem(work.state, flight, action.target, action.distance))
    target = work.ship(action.target)
    kind = flight.record.type
    table = work.state.success_table

    def roll(dice: DiceSource) -> None:
        a, b = pair(dice, "attack")
        hit = O.strike_hits(kind, a.face, b.face, table)
        words = "only a N7 hits" if kind == "patrol_bomber" else f"at {O.STRIKE_MODIFIER:+d}"
        work.event("attack", f"{label(flight)} strikes {target.label} ({words}): {a.face}, {b.face}: "
                   f"{'hit' if hit else 'miss'}.", flight=flight.id, target=target.id, hit=hit,
                   modifier=O.STRIKE_MODIFIER, dice=pair_json(a, b))
        if hit and kind == "fighter":
            ship = work.state.ship(target.id)
            ship = ship.model_copy(update={"minor_damage": ship.minor_damage + 1})
            work.state = work.state.with_ship(ship)
            work.event("damage", f"Strafing run: 1 minor damage to {ship.label}, no save (003:222).", ship=ship.id,
                       dice=[], damage_points=0, minor_damage=1)
        elif hit:
            armour = Armour.model_validate(target.record.armor, from_attributes=True)
            resolve_hit(work, target.id, O.strike_attack(kind, armour), a.face, b.face, dice)

    with_dice(work, action.table, roll)
    flight = work.state.flight(flight.id).model_copy(update={"attacked_turn": work.state.turn, "target": target.id})
    put(work, flight)
    if kind in O.RETURN_AFTER_STRIKE:
        to_returning(work, flight, "has made its attack run")


ACTIONS: tuple[type[_Action], ...] = (PlaceFlight, MoveFlight, Intercept, AirAttack, AAFire, AirStrike)
HANDLERS: dict[str, Handler] = {
    "place_flight": _place_flight, "move_flight": _move_flight, "intercept": _intercept,
    "air_attack": _air_attack, "aa_fire": _aa_fire, "air_strike": _air_strike,
}
