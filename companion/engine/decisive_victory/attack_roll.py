"""Rolling one declared attack, the whole chain (spec §9, §10.1-10.2, §15.4; `003:52-94`).

Attack roll (an ordered pair, `003:54`); a gun's N7 gives one bonus roll with the
same modifier (`003:77`, no chaining [R-38]); each hit: the row from the 1st die
(adjusted for guns, `003:78`; 6 for torpedoes, `003:94`), the box from the 2nd,
the armour of the row [R-35], the save (`003:60,67`; a N7 success is critical
[R-36]), the damage dice (4+, torpedoes 3+ [R-33]; damage 0: 1d6, 5+ one minor,
`003:65`), the box marked with spill on a failed save and what it does to the
systems at once [R-39].  Damage points and minor damage are tallied now and take
effect in maintenance (`003:66`).

Table faces (`roll_attack.table`): `attack` [1st, 2nd], `bonus` [1st, 2nd],
`saves` one pair per save rolled, in order, `damage` one list per hit that rolls
damage dice, in order, `minor` one die per damage-0 hit, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import Field

from ..cards import StrictModel
from ..dice import Colour
from ..kernel import Work
from ..common import ordered_pair, rolled_faces
from ..roller import DiceSource
from .attack_facts import modifiers, odds_attack, weapon_of
from .damage import Events, mark_box, pair, pair_json, die
from .odds import (Attack, Save, box_name, box_of, damage_result, damage_target, gives_bonus_roll,
                   hit_damage_dice, hit_row, hit_strength, hits, row_armour, save_is_rolled, save_result)
from .state import DVAttack, DVShip, DVState
from .table1 import clamp

T = TypeVar("T")


class AttackFaces(StrictModel):
    """Dice rolled at the table for one attack (§16 `roll_attack`)."""

    attack: list[int] = Field(default=[], max_length=2)
    bonus: list[int] = Field(default=[], max_length=2)
    saves: list[list[int]] = Field(default=[], max_length=2)
    damage: list[list[int]] = Field(default=[], max_length=2)
    minor: list[int] = Field(default=[], max_length=2)


ORDINAL = {1: "first", 2: "second"}


def attack_dice(faces: AttackFaces) -> tuple[dict[str, list[int]], dict[str, str]]:
    """The faces by purpose, and what each purpose's missing die is, in words."""
    by: dict[str, list[int]] = {}
    needs: dict[str, str] = {}
    ordered_pair(by, needs, "attack", faces.attack, "the attack roll")
    ordered_pair(by, needs, "bonus", faces.bonus, "the N7 bonus roll")
    for k in (1, 2):
        ordered_pair(by, needs, f"save{k}", faces.saves[k - 1] if len(faces.saves) >= k else [],
              f"the {ORDINAL[k]} armour save")
        by[f"damage{k}"] = list(faces.damage[k - 1]) if len(faces.damage) >= k else []
        needs[f"damage{k}"] = f"the damage dice of the {ORDINAL[k]} hit"
        by[f"minor{k}"] = faces.minor[k - 1:k]
        needs[f"minor{k}"] = f"the minor damage die (5+) of the {ORDINAL[k]} hit"
    return by, needs


def with_dice(work: Work[DVState], faces: tuple[Mapping[str, Sequence[int]], Mapping[str, str]] | None,
              resolve: Callable[[DiceSource], T]) -> T:
    """`resolve(dice)` with the faces entered at the table, or the game's roller (which then moves
    on); a face a die does not carry, or a face entered and not needed, is refused."""
    return rolled_faces(work, faces, resolve, unused_refused=True)


class Chain:
    """The dice of one attack as they are rolled, hit by hit."""

    def __init__(self, state: DVState, attack: DVAttack, dice: DiceSource):
        self.state, self.attack, self.dice = state, attack, dice
        self.odds: Attack = odds_attack(state, attack)
        self.events: Events = []
        self.saves = 0
        self.damage_rolls = 0
        self.minor_rolls = 0

    @property
    def target(self) -> DVShip:
        return self.state.ship(self.attack.target)

    def roll(self) -> DVState:
        first, second = pair(self.dice, "attack")
        hit = self._attack_event("attack", first.face, second.face, pair_json(first, second))
        if hit:
            self._hit(1, first.face, second.face)
        if hit and gives_bonus_roll(self.odds, first.face, second.face):
            b1, b2 = pair(self.dice, "bonus")
            if self._attack_event("bonus", b1.face, b2.face, pair_json(b1, b2)):
                self._hit(2, b1.face, b2.face)
        return self.state

    def _attack_event(self, kind: str, first: int, second: int, dice: list[dict[str, Any]]) -> bool:
        m = self.odds.modifier
        hit = hits(self.odds, first, second, self.state.success_table)
        ship = self.state.ship(self.attack.ship)
        words = "N7 bonus roll" if kind == "bonus" else "attack"
        n7 = " (a N7)" if {first, second} == {3, 4} else ""
        self.events.append(("attack", f"{ship.label}'s {weapon_of(self.state, self.attack).name or self.attack.system} "
                            f"{words} on {self.target.label}: {first}, {second} at {m:+d}{n7}: "
                            f"{'hit' if hit else 'miss'}.",
                            {"attack": self.attack.id, "roll": kind, "dice": dice, "modifier": m,
                             "clamped": clamp(m), "hit": hit, "modifiers": [{"why": w, "value": v}
                                                                            for w, v in modifiers(self.state, self.attack)]}))
        return hit

    def _hit(self, k: int, first: int, second: int) -> None:
        grid = self.state.grid_of(self.target)
        row = hit_row(self.odds, first)
        aimed = box_of(row, second, grid)
        armour_name = row_armour(row, grid)
        armour: int = getattr(self.target.record.armor, armour_name)
        strength = hit_strength(self.odds, row, grid)
        dice = hit_damage_dice(self.odds)
        self.events.append(("hit", f"Hit {k} on {self.target.label}: row {row}, box {box_name(aimed, grid)}, "
                            f"{armour_name} armour {armour} against strength {strength}, {dice} damage dice.",
                            {"attack": self.attack.id, "hit": k, "row": row, "box": list(aimed),
                             "armour": armour_name, "armour_value": armour, "strength": strength, "damage_dice": dice}))
        if dice == 0:
            self._minor_only(k)
            return
        save = self._save(k, armour, strength)
        if save is Save.CRITICAL:
            return
        self.damage_rolls += 1
        rolled = [self.dice.take(Colour.D6, f"damage{self.damage_rolls}") for _ in range(dice)]
        target_face = damage_target(self.odds)
        result = damage_result(save, [r.face for r in rolled], target_face, aimed)
        self._tally(result.damage_points, result.minor_damage, k, [die(r) for r in rolled],
                    f"damage dice {', '.join(str(r.face) for r in rolled)} ({target_face}+)")
        if save is Save.FAIL:
            self._mark(aimed, k)

    def _save(self, k: int, armour: int, strength: int) -> Save:
        if not save_is_rolled(armour, strength):
            self.events.append(("save", f"Hit {k}: strength {strength} is 13 or more above armour {armour}: "
                                "the save fails, no roll.", {"attack": self.attack.id, "hit": k, "dice": [],
                                                             "result": Save.FAIL.value}))
            return Save.FAIL
        self.saves += 1
        a, b = pair(self.dice, f"save{self.saves}")
        save = save_result(a.face, b.face, armour, strength, self.state.success_table)
        self.events.append(("save", f"Hit {k}: armour save {a.face}, {b.face} at {armour - strength:+d}: {save.value}"
                            f"{' (a N7: no effect at all)' if save is Save.CRITICAL else ''}.",
                            {"attack": self.attack.id, "hit": k, "dice": pair_json(a, b), "modifier": armour - strength,
                             "result": save.value}))
        return save

    def _minor_only(self, k: int) -> None:
        """Damage 0: the save succeeds; 1d6, 5+ one minor damage (`003:65`)."""
        self.minor_rolls += 1
        rolled = self.dice.take(Colour.D6, f"minor{self.minor_rolls}")
        self._tally(0, 1 if rolled.face >= 5 else 0, k, [die(rolled)], f"damage 0: die {rolled.face} (5+ one minor)")

    def _tally(self, points: int, minor: int, k: int, dice: list[dict[str, Any]], words: str) -> None:
        target = self.target.model_copy(update={"damage_points": self.target.damage_points + points,
                                                "minor_damage": self.target.minor_damage + minor})
        self.state = self.state.with_ship(target)
        self.events.append(("damage", f"Hit {k}: {words}: {points} damage point{'s' * (points != 1)}, {minor} minor "
                            f"(now {target.damage_points} and {target.minor_damage}; applied in maintenance).",
                            {"attack": self.attack.id, "hit": k, "ship": target.id, "dice": dice,
                             "damage_points": points, "minor_damage": minor}))

    def _mark(self, aimed: tuple[int, int], k: int) -> None:
        ship, events = mark_box(self.state, self.target, aimed, f"hit {k}, failed save")
        self.state = self.state.with_ship(ship)
        self.events.extend(events)


def roll_chain(state: DVState, attack: DVAttack, dice: DiceSource) -> tuple[DVState, Events]:
    """Roll the attack: the state after (target tallied and marked) and the events in order."""
    chain = Chain(state, attack, dice)
    return chain.roll(), chain.events
