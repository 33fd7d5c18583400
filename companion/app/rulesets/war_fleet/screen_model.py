"""What War Fleet's shared screen (a TV by the table) shows, as plain data: the same `ScreenModel`
as Quick-Start's (screenmodel.py), read from a War Fleet position and its log.  No flet imports.

The turn and phase, whose move it is, every declared attack still to roll with its exact odds (a
line from the attacker's hex to the target's), the last roll with its dice, the ships lost and each
side's ships afloat.  Issue 28: War Fleet's shared screen had been the player layout, read only.
"""

from __future__ import annotations

from typing import Any, Iterable

from ....engine.hexes import Hex
from ....engine.war_fleet.state import WarFleetState
from ....engine.war_fleet.turn import to_move
from ...screenmodel import LastRoll, dice_in, Lost, ScreenModel, ShotLine, SideLine, volley_of
from ...viewmodels import LogLine
from .model import banner, declared_rows

#: The events whose dice the TV shows large: an attack's roll, initiative and the placement roll.
ROLLS = {"attack": "Attack", "initiative": "Initiative", "initiative_tie": "Initiative (tie)",
         "placement_roll": "Placement roll", "placement_tie": "Placement roll (tie)"}


def screen_model(state: WarFleetState, history: Iterable[Any], actions: int) -> ScreenModel:
    """The shared screen of a War Fleet position and its log (`history`: the events in effect)."""
    told = banner(state)
    whose, side = _whose(state)
    sides = tuple(SideLine(name, sum(1 for s in state.ships if s.side == name and not (s.removed or s.casualty)),
                           sum(1 for s in state.ships if s.side == name),
                           state.phase == "combat" or name == side)
                  for name in state.sides)
    lost = tuple(Lost(s.name, s.side, "a casualty" if s.casualty or s.removed else "lost off the map")
                 for s in state.ships if s.removed or s.casualty or s.lost)
    history = list(history)
    return ScreenModel(state.turn, state.phase, told.title, whose, side, told.detail, sides,
                       last_roll(history), lost, actions, attack_lines(state), last_volley(history))


def _whose(state: WarFleetState) -> tuple[str, str | None]:
    if state.phase == "movement":
        group = to_move(state)
        if group is None:
            return "Movement is over", None
        return f"{group[0]}: class {group[1]} ships move", group[0]
    if state.phase == "combat":
        waiting = sum(1 for a in state.attacks if a.result is None)
        return f"Every side attacks · {waiting} to roll" if waiting else "Every side attacks", None
    if state.phase == "over":
        return state.result or "The battle is over", None
    return banner(state).detail, None


def attack_lines(state: WarFleetState) -> tuple[ShotLine, ...]:
    """Each declared attack not yet rolled: attacker's hex to target's, with its exact odds."""
    rows = {row.id: row for row in declared_rows(state)}
    lines = []
    for attack in state.attacks:
        if attack.result is not None:
            continue
        attacker, target = state.ship(attack.attacker), state.ship(attack.target)
        if not (attacker.placed and target.placed):
            continue
        row = rows[attack.id]
        lines.append(ShotLine(attacker.side, attacker.hex, target.hex, row.title.split(". ", 1)[-1],
                              row.odds or "no odds: it cannot strike now"))
    return tuple(lines)


def last_roll(history: list[Any]) -> LastRoll | None:
    """The newest attack, initiative or placement roll, with every die (colour, face) it rolled."""
    for number in range(len(history), 0, -1):
        event = history[number - 1]
        if event.kind in ROLLS:
            dice = tuple(dice_in(event.data))
            if dice:
                return LastRoll(number, event.kind, ROLLS[event.kind], event.text, dice)
    return None


def last_volley(history: list[Any]) -> tuple[LastRoll, ...]:
    """The attacks rolled together last ("Roll all"), each with its dice, oldest first."""
    lines = [LogLine(number, event.kind, event.text, tuple(dice_in(event.data)) if event.kind in ROLLS else ())
             for number, event in enumerate(history, start=1)]
    return tuple(LastRoll(roll.number, roll.kind, ROLLS["attack"], line.text, roll.dice)
                 for roll in volley_of(lines, "attack", "declare_attack")
                 for line in (lines[roll.number - 1],))


def ship_marks(state: WarFleetState) -> tuple[tuple[str, str, Hex], ...]:
    """(id, name, hex) of each ship on the map, for the TV's large names."""
    return tuple((s.id, s.name.replace("HML ", "") + (" (sinking)" if s.casualty else ""), s.hex)
                 for s in state.active_ships if s.placed)
