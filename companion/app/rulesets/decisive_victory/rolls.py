"""Dice typed at the table and dice read back from the log, for a Decisive Victory game (no Flet).

Table faces go into the actions in the spec's shapes (decisive-victory.md §16: `roll_attack`'s
`table`, `roll_initiative`'s `faces`, `maintenance_roll`'s `table`); every die an event carries
(`{"colour": "D6", "face": n, "role": ...}`) comes back out for the log and the TV's last roll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable


# --- table dice -------------------------------------------------------------------------------


def faces(text: str) -> list[int]:
    """Die faces typed at the table ("3 4", "3,4", "34"); ValueError in words for anything but 1-6."""
    digits = re.findall(r"\S", text.replace(",", " ").replace("/", " "))
    bad = [d for d in digits if d not in "123456"]
    if bad:
        raise ValueError(f"{bad[0]!r} is not a face of a d6 (1 to 6)")
    return [int(d) for d in digits]


def groups(text: str) -> list[list[int]]:
    """Groups of faces separated by "/" (one group per hit): "1 1 / 2 5" -> [[1, 1], [2, 5]]."""
    return [faces(part) for part in text.split("/") if part.strip()]


def typed_pairs(**typed: str) -> dict[str, list[int]]:
    """Each roll typed as two faces (1st die, 2nd die) by its key, the empty ones left out; a
    ValueError names the roll typed with another number of dice."""
    table: dict[str, list[int]] = {}
    for key, text in typed.items():
        if text.strip():
            pair = faces(text)
            if len(pair) != 2:
                raise ValueError(f"the {key} roll is two dice, 1st then 2nd: {len(pair)} were typed")
            table[key] = pair
    return table


def attack_table(attack: str = "", bonus: str = "", saves: str = "", damage: str = "", minor: str = "") -> dict[str, Any]:
    """roll_attack's `table` (§16) from the fields typed: the attack pair (1st die, 2nd die), the
    N7 bonus pair, each hit's save pair and damage dice ("/" between hits), the damage-0 minor dice."""
    table: dict[str, Any] = typed_pairs(attack=attack, bonus=bonus)
    if saves.strip():
        table["saves"] = groups(saves)
    if damage.strip():
        table["damage"] = groups(damage)
    if minor.strip():
        table["minor"] = faces(minor)
    return table


def initiative_faces(typed: dict[str, str]) -> dict[str, list[int]]:
    """roll_initiative's `faces` (§16): each side's d6, re-roll faces after it."""
    return {side: faces(text) for side, text in typed.items() if text.strip()}


def maintenance_table(dice: str = "", grid: str = "", side: str = "") -> dict[str, Any]:
    """maintenance_roll's `table`: the step's d6s in order, one [1st, 2nd] pair per grid roll ("/" between), the rudder's side die."""
    table: dict[str, Any] = {}
    if dice.strip():
        table["dice"] = faces(dice)
    if grid.strip():
        pairs = groups(grid)
        if any(len(p) != 2 for p in pairs):
            raise ValueError("each grid roll is two dice, 1st then 2nd, \"/\" between rolls")
        table["grid"] = pairs
    if side.strip():
        table["side"] = faces(side)
    return table


# --- the log and the TV -----------------------------------------------------------------------


@dataclass(frozen=True)
class LastRoll:
    title: str
    text: str
    dice: tuple[tuple[str, int], ...]  # (role or colour, face)
    stages: tuple[str, ...] = ()  # an attack's every stage in words, oldest first (the TV's LAST ROLL)


#: Events an attack's roll writes without naming the attack (a box marked, a system roll due).
ROLL_FOLLOWERS = frozenset({"box_marked", "system_roll_due", "grid_roll", "salvo"})


def dice_of(data: dict[str, Any]) -> list[tuple[str, int]]:
    """Every die an event carries (§16: {"colour": "D6", "face": n, "role": ...}), in order, wherever it is."""
    found: list[tuple[str, int]] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "face" in value and isinstance(value.get("face"), int) and value.get("colour", "D6") == "D6":
                found.append((str(value.get("role", "D6")), value["face"]))
                return
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    walk(data)
    return found


def last_roll(history: Iterable[Any]) -> LastRoll | None:
    """The newest event with dice (an attack, a save, initiative, a maintenance roll), or None; when
    it is an attack's, the whole roll of that attack: every die of it and every stage in words (the
    attack roll, the N7 bonus roll, each hit, save, damage and box marked: issue 35, the TV showed
    the damage dice alone)."""
    events = list(history)
    for n in range(len(events) - 1, -1, -1):
        event = events[n]
        dice = dice_of(event.data)
        if not dice:
            continue
        attack = event.data.get("attack")
        if attack is None or event.kind == "declare_attack":
            return LastRoll(event.kind.replace("_", " ").capitalize(), event.text, tuple(dice))
        chain = _attack_chain(events, n, attack)
        every = tuple(d for e in chain for d in dice_of(e.data))
        return LastRoll("Attack", chain[0].text, every, tuple(e.text for e in chain))
    return None


def _attack_chain(events: list[Any], last: int, attack: int) -> list[Any]:
    """The events of attack `attack`'s roll around `events[last]` (its newest die): from its first
    attack roll to the box marked after its last die."""
    def part(e: Any) -> bool:
        named = e.data.get("attack")
        return (named == attack and e.kind != "declare_attack") or (named is None and e.kind in ROLL_FOLLOWERS)
    start = last
    while start > 0 and part(events[start - 1]):
        start -= 1
    while start < last and not (events[start].kind == "attack" and events[start].data.get("attack") == attack):
        start += 1
    end = last + 1
    while end < len(events) and part(events[end]) and events[end].data.get("attack") is None:
        end += 1
    return events[start:end]


def attack_rolls(history: Iterable[Any], attack_id: int) -> tuple[LastRoll, ...]:
    """This turn's rolls of one declared attack (its attack roll, N7 bonus, saves, damage), oldest
    first: what its card shows once rolled (issue 28: the dice were only in the fading note).
    Attack ids start again each turn, so the search stops at the last turn's end."""
    found = []
    for event in reversed(list(history)):
        if event.kind == "end_turn":
            break
        if event.data.get("attack") == attack_id:
            dice = dice_of(event.data)
            if dice:
                found.append(LastRoll(event.kind.replace("_", " ").capitalize(), event.text, tuple(dice)))
    return tuple(reversed(found))
