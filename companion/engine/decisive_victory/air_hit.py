"""One hit of an air strike on a ship, rolled: armour save, damage dice and the box marked
(spec §9.2-9.5, §10.1-10.2, §12.7.2).

The twin of attack_roll.py's `Chain` (ENGINE-ATTACKS, written at the same time, bound to a
declared ship attack): both read odds.py for the rules of a hit and damage.py for the box
marked and what it does to the systems, so only the order of the dice is written twice.
"""

from __future__ import annotations

from ..dice import Colour
from ..kernel import Work
from ..roller import DiceSource
from .damage import die, mark_box, pair, pair_json
from .odds import (Attack, HitResult, Save, box_name, box_of, damage_result, damage_target, hit_damage_dice,
                   hit_row, hit_strength, row_armour, save_is_rolled, save_result)
from .state import DVShip, DVState
from ..words import counted


def resolve_hit(work: Work[DVState], ship_id: str, attack: Attack, first: int, second: int,
                dice: DiceSource) -> HitResult:
    """A hit rolled as (first, second): its row and box (§9.1), the save (§9.2), the damage dice
    (§9.3), then the ship's tally, box and systems at once (§9.5)."""
    ship = work.state.ship(ship_id)
    grid = work.state.grid_of(ship)
    row = hit_row(attack, first)
    aimed = box_of(row, second, grid)
    armour_name = row_armour(row, grid)
    armour: int = getattr(ship.record.armor, armour_name)
    strength = hit_strength(attack, row, grid)
    count = hit_damage_dice(attack)
    work.event("hit", f"Hit on {ship.label}: row {row}, box {box_name(aimed, grid)}, {armour_name} armour {armour} "
               f"against strength {strength}, {count} damage dice.", ship=ship.id, row=row, box=list(aimed),
               armour=armour_name, armour_value=armour, strength=strength, damage_dice=count)
    save = _save(work, ship, armour, strength, dice)
    if save is Save.CRITICAL:
        return HitResult(0, 0, frozenset())
    rolls = [dice.take(Colour.D6, "damage") for _ in range(count)]
    target = damage_target(attack)
    result = damage_result(save, [r.face for r in rolls], target, aimed)
    ship = ship.model_copy(update={"damage_points": ship.damage_points + result.damage_points,
                                   "minor_damage": ship.minor_damage + result.minor_damage})
    work.state = work.state.with_ship(ship)
    work.event("damage", f"{ship.label}: damage dice {', '.join(str(r.face) for r in rolls)} ({target}+): "
               f"{counted(result.damage_points, 'damage point')}, {result.minor_damage} minor (now {ship.damage_points} and "
               f"{ship.minor_damage}; applied in maintenance).", ship=ship.id, dice=[die(r) for r in rolls],
               damage_points=result.damage_points, minor_damage=result.minor_damage)
    if save is Save.FAIL:
        marked, events = mark_box(work.state, ship, aimed, "air strike, failed save")
        work.update(ships=[marked if s.id == ship.id else s for s in work.state.ships])
        for kind, text, data in events:
            work.event(kind, text, **data)
    return result


def _save(work: Work[DVState], ship: DVShip, armour: int, strength: int, dice: DiceSource) -> Save:
    """The armour save: 2d6 at armour − strength; none when the strength is 13 or more above (`003:67`)."""
    if not save_is_rolled(armour, strength):
        work.event("save", f"Strength {strength} is 13 or more above armour {armour}: the save fails, no roll.",
                   ship=ship.id, dice=[], result=Save.FAIL.value)
        return Save.FAIL
    first, second = pair(dice, "save")
    result = save_result(first.face, second.face, armour, strength, work.state.success_table)
    work.event("save", f"{ship.label}'s armour save {first.face}, {second.face} at {armour - strength:+d}: {result.value}"
               f"{' (a N7: no effect at all)' if result is Save.CRITICAL else ''}.", ship=ship.id,
               dice=pair_json(first, second), modifier=armour - strength, result=result.value)
    return result
