"""Decisive Victory: the attacks phase's actions and handlers (spec §8, §9, §16).

`declare_attack` checks the legality of §8.2-8.4 and attaches the exact odds of
the whole chain (§15.4); `roll_attack` rolls it (attack_roll.py); the night aids
(searchlight, star shell, illuminate, radar roll) are in attack_aids.py;
`end_activation` / `end_attacks` keep the batches (§8.1) and lead to maintenance.
`attack_options(state, ship)` is the one list of what a ship may fire now (§14.2).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..common import Flag, _Action
from ..kernel import Handler, Refusal, Work
from . import attack_aids
from .activation import begin, current_batch, is_active, to_act, unrolled
from .attack_facts import odds_json
from .attack_roll import AttackFaces, attack_dice, roll_chain, with_dice
from .batches import next_batch
from .command import effective_status
from .inches import Inches
from .records import Weapon
from .state import AttackFacts, DVAttack, DVShip, DVState
from .batches import batch_problem

CONCENTRATE_REACH = 16  # "Target must also be within 16″ of the firing ship" (003:162)


class DeclareAttack(_Action):
    """Declare one attack of a system on a target (§8.2-8.4); every attack of a ship before its first roll [R-23]."""

    kind: Literal["declare_attack"] = "declare_attack"
    ship: str
    system: str
    target: str
    distance: Inches
    facts: AttackFacts = AttackFacts()
    full_fc: Flag = True


class RollAttack(_Action):
    """Roll a declared attack, the whole chain of §9; `table` enters the dice rolled at the table."""

    kind: Literal["roll_attack"] = "roll_attack"
    attack: int
    table: AttackFaces | None = None


class EndActivation(_Action):
    """The attacking ship is done (`ship` names a ship that passes without attacking)."""

    kind: Literal["end_activation"] = "end_activation"
    ship: str | None = None


class EndAttacks(_Action):
    """The attacks phase is over: every ship left passes; maintenance begins (§4)."""

    kind: Literal["end_attacks"] = "end_attacks"


# --- declare ---------------------------------------------------------------------------


def _declare(work: Work[DVState], action: DeclareAttack) -> None:
    ship: DVShip = work.ship(action.ship)
    target: DVShip = work.ship(action.target)
    weapon = attack_aids.weapon_named(ship, action.system)
    begin(work, ship, "attacks are declared")
    work.rule(declare_problem(work.state, ship, weapon, target, action.distance, action.facts, action.full_fc))
    attack = DVAttack(id=1 + max((a.id for a in work.state.attacks), default=0), ship=ship.id, system=weapon.id,
                      target=target.id, distance=action.distance, facts=action.facts, full_fc=action.full_fc)
    ship = ship.model_copy(update={"systems_fired": ship.systems_fired | {weapon.id}})
    work.update(attacks=[*work.state.attacks, attack])
    work.state = work.state.with_ship(ship)
    odds = odds_json(work.state, attack)
    work.event("declare_attack", f"{ship.label}'s {weapon.name or weapon.id} will attack {target.label} at "
               f"{action.distance}\" (m {odds['modifier']:+d}, hit {odds['hit']}).",
               attack=attack.id, ship=ship.id, system=weapon.id, target=target.id, odds=odds)


def declare_problem(state: DVState, ship: DVShip, weapon: Weapon, target: DVShip, distance: Any,
                    facts: AttackFacts, full_fc: bool) -> str | None:
    """Why this attack may not be declared, in words; None when it may (§8.2-8.9)."""
    for check in (_target_problem(ship, target), _system_problem(state, ship, weapon),
                  _split_problem(state, ship, weapon, target, full_fc),
                  _reach_problem(state, ship, weapon, target, distance, facts)):
        if check:
            return check
    return None


def _target_problem(ship: DVShip, target: DVShip) -> str | None:
    if target.side == ship.side:
        return f"{target.label} is on {ship.label}'s own side"
    if not target.in_play:
        return f"{target.label} is no longer in play"
    return None


def _system_problem(state: DVState, ship: DVShip, weapon: Weapon) -> str | None:
    """Disabled guns cannot fire (`003:116`); torpedoes need a salvo [R-32] and a working tube system."""
    name = weapon.name or weapon.id
    if weapon.kind == "gun" and effective_status(state, ship, "Guns") == "disabled":
        return f"{ship.label}'s gun system is disabled: it cannot make gun attacks"
    if weapon.id in ship.dp_used_for_aa:
        return f"the {name} fired at aircraft this turn: it cannot attack surface targets (003:215)"
    if weapon.kind == "torpedo":
        if effective_status(state, ship, "Torp") == "disabled":
            return f"{ship.label}'s torpedo system is disabled"
        declared = sum(1 for a in state.attacks if a.ship == ship.id and a.system == weapon.id and not a.rolled)
        if ship.salvoes_left.get(weapon.id, 0) <= declared:
            return f"the {name} has no torpedo salvo left"
    mine = [a for a in state.attacks if a.ship == ship.id]
    if any(a.rolled for a in mine):
        return f"{ship.label} has begun rolling its attacks: every attack is declared before the first roll [R-23]"
    if weapon.id in ship.systems_fired and not any(a.system == weapon.id for a in mine):
        return f"the {name} has already fired this turn"
    if "concentrate_fire" in ship.abilities and mine and any(a.system != weapon.id for a in mine):
        return "concentrate fire: no other weapon system of the ship may be used this turn (003:162)"
    return None


def _split_problem(state: DVState, ship: DVShip, weapon: Weapon, target: DVShip, full_fc: bool) -> str | None:
    """Split fire (`003:55`): at most `mounts` targets [R-7], one attack per target, one full-FC attack."""
    same = [a for a in state.attacks if a.ship == ship.id and a.system == weapon.id]
    name = weapon.name or weapon.id
    if any(a.target == target.id for a in same):
        return f"the {name} already attacks {target.label} this turn"
    if same and len(same) >= weapon.mounts:
        return (f"the {name} has {weapon.mounts} mount{'s' * (weapon.mounts != 1)}: it cannot split its fire "
                f"{'further' if weapon.mounts > 1 else 'against a second target'} [R-7]")
    if same and full_fc and any(a.full_fc for a in same):
        return f"the {name} already has its full-FC attack: a split attack uses half the fire control (full_fc false)"
    return None


def _reach_problem(state: DVState, ship: DVShip, weapon: Weapon, target: DVShip, distance: Any,
                   facts: AttackFacts) -> str | None:
    if not facts.in_arc:
        return f"{target.label} is not in the {weapon.name or weapon.id}'s fire arc (003:55)"
    if weapon.max_range is not None and distance > weapon.max_range:
        return f"{target.label} is {distance}\" away, beyond the {weapon.name or weapon.id}'s range of {weapon.max_range}\""
    first = not any(a.ship == ship.id for a in state.attacks)
    if "concentrate_fire" in ship.abilities and first and distance > CONCENTRATE_REACH:
        return f"concentrate fire: the target is {distance}\" away, it must be within {CONCENTRATE_REACH}\""
    if facts.spotter_distance is not None:
        if weapon.kind != "gun":
            return "spotter planes cannot assist torpedo attacks (003:93)"
        if ship.record.spotter_planes == 0:
            return f"{ship.label} carries no spotter plane (003:83)"
    return None


# --- roll --------------------------------------------------------------------------------


def _roll(work: Work[DVState], action: RollAttack) -> None:
    work.phase("attacks", doing="attacks are rolled")
    attack = next((a for a in work.state.attacks if a.id == action.attack), None)
    if attack is None:
        raise Refusal(f"there is no declared attack {action.attack}")
    if attack.rolled:
        raise Refusal(f"attack {attack.id} is already rolled")
    faces = attack_dice(action.table) if action.table is not None else None
    state, events = with_dice(work, faces, lambda dice: roll_chain(work.state, attack, dice))
    work.update(ships=state.ships)
    for kind, text, data in events:
        work.event(kind, text, **data)
    _spend(work, attack)


def _spend(work: Work[DVState], attack: DVAttack) -> None:
    """The attack is rolled; a torpedo attack uses one salvo [R-32] (`003:91`)."""
    work.update(attacks=[a.model_copy(update={"rolled": True}) if a.id == attack.id else a for a in work.state.attacks])
    ship = work.state.ship(attack.ship)
    if ship.record.weapon(attack.system).kind == "torpedo":
        left = max(0, ship.salvoes_left.get(attack.system, 0) - 1)
        ship = ship.model_copy(update={"salvoes_left": {**ship.salvoes_left, attack.system: left}})
        work.state = work.state.with_ship(ship)
        work.event("salvo", f"{ship.label}'s {attack.system}: {left} salvo{'es' * (left != 1)} left.",
                   ship=ship.id, system=attack.system, salvoes_left=left)


# --- activations and the end of the phase ----------------------------------------------------


def _end_activation(work: Work[DVState], action: EndActivation) -> None:
    work.phase("attacks", doing="an activation ends")
    batch = current_batch(work.state)
    if batch is None:
        raise Refusal("every ship has attacked: end the attacks phase")
    if action.ship is not None:
        ship: DVShip = work.ship(action.ship)
        begin(work, ship, "an activation ends")
    else:
        active = next((s for s in work.state.ships if s.side == batch.side and is_active(s)), None)
        if active is None:
            raise Refusal(f"no {batch.side} ship is attacking: name the ship that passes")
        ship = active
    waiting = unrolled(work.state, ship.id)
    if waiting:
        work.rule(f"{ship.label} has declared attack{'s' * (len(waiting) > 1)} {', '.join(map(str, waiting))} "
                  "not yet rolled")
    ship = ship.model_copy(update={"attacked": True})
    work.state = work.state.with_ship(ship)
    nxt = next_batch(work.state, work.state.batch or batch, to_act(work.state))
    work.update(batch=nxt)
    after = f" {nxt.side} attacks next ({nxt.left} ship{'s' * (nxt.left != 1)})." if nxt else " Every ship has attacked."
    work.event("end_activation", f"{ship.label} has finished its attacks.{after}", ship=ship.id,
               batch=nxt.model_dump() if nxt else None)


def _end_attacks(work: Work[DVState], action: EndAttacks) -> None:
    """Maintenance begins (§11): its per-phase marks cleared (steps done, abandon paid [R-52]);
    illumination lasts the attacks phase (§8.7-8.8)."""
    work.phase("attacks", doing="the attacks phase ends")
    waiting = unrolled(work.state)
    if waiting:
        work.rule(f"attack{'s' * (len(waiting) > 1)} {', '.join(map(str, waiting))} declared and not yet rolled")
    ships = [s.model_copy(update={"attacked": False, "illuminated": False, "maintenance_done": frozenset(),
                                  "abandon_paid": False}) for s in work.state.ships]
    work.update(ships=ships, batch=None, phase="maintenance", maintenance_step=0)
    work.event("phase", f"Turn {work.state.turn}: maintenance phase.", phase="maintenance")


# --- options (§14.2) -------------------------------------------------------------------------


class SystemOption(BaseModel):
    """One weapon system of the ship: may it attack now, whom, and why not."""

    model_config = ConfigDict(frozen=True)

    system: str
    kind: Literal["gun", "torpedo"]
    targets: list[str] = Field(description="Enemy ships in play it may be declared against")
    problem: str | None = None
    salvoes_left: int | None = None
    radar_roll: bool = False
    star_shell: bool = False


class AttackOptions(BaseModel):
    """What a ship may do in the attacks phase now (§14.2): the one list the screen, CLI and tests read."""

    model_config = ConfigDict(frozen=True)

    ship: str
    problem: str | None = Field(default=None, description="Why it may not act now, or None")
    systems: list[SystemOption] = []
    searchlight: bool = False
    to_roll: list[int] = []
    may_end: bool = False


def attack_options(state: DVState, ship: DVShip) -> AttackOptions:
    """Every system of `ship` with the targets it may be declared against now, or the reason not."""
    problem = _acting_problem(state, ship)
    enemies = [s for s in state.ships if s.side != ship.side and s.in_play]
    systems = []
    for weapon in ship.record.weapons:
        own = _system_problem(state, ship, weapon)
        targets = [] if own or problem else [t.id for t in enemies if not _split_problem(state, ship, weapon, t, False)]
        systems.append(SystemOption(system=weapon.id, kind=weapon.kind, targets=targets, problem=own,
                                    salvoes_left=ship.salvoes_left.get(weapon.id) if weapon.kind == "torpedo" else None,
                                    radar_roll=problem is None and attack_aids.radar_problem(state, ship, weapon) is None,
                                    star_shell=problem is None and attack_aids.star_shell_problem(state, ship, weapon) is None))
    return AttackOptions(ship=ship.id, problem=problem, systems=systems,
                         searchlight=problem is None and attack_aids.searchlight_free(state, ship),
                         to_roll=unrolled(state, ship.id), may_end=problem is None)


def _acting_problem(state: DVState, ship: DVShip) -> str | None:
    if state.phase != "attacks":
        return f"not the attacks phase (now: {state.phase})"
    if not ship.in_play:
        return f"{ship.label} is no longer in play"
    if ship.attacked:
        return f"{ship.label} has finished its attacks this turn"
    problem = batch_problem(state, current_batch(state), ship, "attacking")
    if problem:
        return problem
    other = next((s for s in state.ships if s.side == ship.side and s.id != ship.id and is_active(s)), None)
    return f"{other.label} is attacking now" if other else None


ACTIONS: tuple[type[_Action], ...] = (DeclareAttack, RollAttack, EndActivation, EndAttacks, *attack_aids.ACTIONS)
HANDLERS: dict[str, Handler] = {"declare_attack": _declare, "roll_attack": _roll, "end_activation": _end_activation,
                                "end_attacks": _end_attacks, **attack_aids.HANDLERS}
