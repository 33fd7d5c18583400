"""One declared attack read from the game state: its modifier with reasons and its exact odds
(spec §8.3-8.6, §9, §15.4).

The state knows what the table cannot be asked twice: close action pairs, damaged
guns, split fire, the night and the weather, illumination, a second battery on the
same target, a stopped target, evasive maneuvers, concentrate fire and gunnery radar.
`modifiers.AttackFacts` and `odds.Attack` do the arithmetic.
"""

from __future__ import annotations

from typing import Any

from .command import effective_status
from .modifiers import AttackFacts as ModifierFacts, radar_modifier, situational_modifiers
from .odds import Armour, Attack, Weapon, attack_odds
from .records import Weapon as WeaponRecord
from .state import DVAttack, DVShip, DVState


def weapon_of(state: DVState, attack: DVAttack) -> WeaponRecord:
    return state.ship(attack.ship).record.weapon(attack.system)


def guns_damaged(state: DVState, ship: DVShip) -> bool:
    """"A ship with damaged guns halves the Fire Control and damage" (`003:116`), as Damage Control leaves it."""
    return effective_status(state, ship, "Guns") == "damaged"


def is_evasive(ship: DVShip) -> bool:
    return "evasive" in ship.abilities


def target_stopped(state: DVState, target: DVShip) -> bool:
    """At a complete stop (`003:56`): stopped by its speed mode, or its engines destroyed (it cannot
    move at all, `003:120`)."""
    return target.speed_mode == "stop" or effective_status(state, target, "Speed") == "disabled"


def ship_attacks(state: DVState, ship_id: str) -> list[DVAttack]:
    return [a for a in state.attacks if a.ship == ship_id]


def is_split(state: DVState, attack: DVAttack) -> bool:
    """A secondary attack of a split system (`003:55`): its system attacks another target too and this
    one is not the full-FC one (the first declared is, when none was named)."""
    same = [a for a in ship_attacks(state, attack.ship) if a.system == attack.system]
    if len(same) < 2:
        return False
    full = next((a for a in same if a.full_fc), same[0])
    return full.id != attack.id


def is_concentrated(state: DVState, attack: DVAttack) -> bool:
    """Concentrate Fire's +2 goes to the ship's first attack roll of the turn (`003:162`)."""
    ship = state.ship(attack.ship)
    mine = ship_attacks(state, ship.id)
    return "concentrate_fire" in ship.abilities and bool(mine) and mine[0].id == attack.id


def second_battery(state: DVState, attack: DVAttack) -> bool:
    """Two or more gun systems of the ship attack this target this turn [R-25] (`003:76`)."""
    ship = state.ship(attack.ship)
    guns = {a.system for a in ship_attacks(state, ship.id)
            if a.target == attack.target and ship.record.weapon(a.system).kind == "gun"}
    return len(guns) >= 2


def modifier_facts(state: DVState, attack: DVAttack) -> ModifierFacts:
    """The facts of §8.4 for this attack, from the state and the players' measurements."""
    ship, target = state.ship(attack.ship), state.ship(attack.target)
    weapon = weapon_of(state, attack)
    return ModifierFacts(
        weapon=weapon.kind, fire_control=weapon.fire_control, distance=attack.distance,
        close_action=target.id in ship.close_action_with, guns_damaged=guns_damaged(state, ship),
        split=is_split(state, attack), night=state.conditions.night,
        japanese=ship.record.nation.strip().lower() == "japanese", illuminated=target.illuminated,
        bad_weather=state.conditions.bad_weather, second_battery=second_battery(state, attack),
        target_stopped=target_stopped(state, target), smoke=attack.facts.smoke,
        target_evasive_turns=target.turns_made if is_evasive(target) else 0,
        own_evasive_turns=ship.turns_made if is_evasive(ship) else 0,
        concentrate_fire=is_concentrated(state, attack),
        spotter_distance=attack.facts.spotter_distance if weapon.kind == "gun" else None,
        radar_success=weapon.kind == "gun" and ship.radar.get(weapon.id, False))


def modifiers(state: DVState, attack: DVAttack) -> list[tuple[str, int]]:
    return situational_modifiers(modifier_facts(state, attack))


def odds_attack(state: DVState, attack: DVAttack) -> Attack:
    """The inputs of §15.4 for this attack: m, the weapon, strength and damage as printed, the
    firer's distance (strength and location bands [R-29]), bow-on, close action, damaged guns."""
    facts = modifier_facts(state, attack)
    weapon = weapon_of(state, attack)
    return Attack(modifier=sum(v for _, v in situational_modifiers(facts)), weapon=Weapon(weapon.kind),
                  strength=weapon.strength, damage=weapon.damage, distance=attack.distance,
                  bow_on=attack.facts.bow_on, close_action=facts.close_action and weapon.kind == "gun",
                  guns_damaged=facts.guns_damaged and weapon.kind == "gun",
                  armour=Armour.model_validate(state.ship(attack.target).record.armor, from_attributes=True))


def odds_json(state: DVState, attack: DVAttack) -> dict[str, Any]:
    """The exact odds of the whole chain (§15.4), fractions as strings, with the modifiers and reasons."""
    target = state.ship(attack.target)
    grid = state.grid_of(target)
    found = modifiers(state, attack)
    return {"modifier": sum(v for _, v in found), "modifiers": [{"why": w, "value": v} for w, v in found],
            **attack_odds(odds_attack(state, attack), state.success_table, grid).as_json(grid)}


def radar_roll_modifier(state: DVState, ship: DVShip, system: str, target: DVShip, distance: Any) -> int:
    """The radar roll's m [R-27]: the radar value and the positive modifiers of the battery's attack."""
    weapon = ship.record.weapon(system)
    probe = DVAttack(id=0, ship=ship.id, system=system, target=target.id, distance=distance)
    first = not ship_attacks(state, ship.id)
    facts = modifier_facts(state.model_copy(update={"attacks": [*state.attacks, probe]}), probe)
    facts = facts.model_copy(update={"concentrate_fire": "concentrate_fire" in ship.abilities and first})
    return radar_modifier(weapon.radar or 0, facts)
