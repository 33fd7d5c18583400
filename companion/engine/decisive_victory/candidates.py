"""Decisive Victory: every action the rules allow now, for `Ruleset.options` (`companion options`).

Each phase's own: the table's step; in command each ship's abilities (paid by itself or its
flagship, Damage Control per damaged or disabled system); in the aircraft phase the stage's step
and each flight's options (air_options.py); in movement each ship's least full-speed move, speed
changes and end of move; in attacks each ship's attacks at the distance its plot gives (§1.2),
its radar rolls, the rolls of its declared attacks and the end of its activation; in maintenance
each ship's roll or payment due, Damage Control's trade and each smoke's drift; in every phase
the system rolls a hit made due (§10.3).  `Ruleset.options` tries each through `apply`, so the
rules decide which are possible now (issue 35: a game driven by `options` stalled in maintenance,
its due rolls never listed).

A measured fact the table alone knows is not guessed: an attack is offered only between two
plotted ships (the distance centre to centre, to the tenth of an inch above), in arc and with no
smoke, as the Attacks tab's defaults are; a close action or a searchlight is never offered.
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt
from typing import Any, Iterator

from .activation import is_active
from .air_options import flight_options, next_step
from .attacks import attack_options
from .command import COST
from .inches import inches_text
from .maintenance import next_due
from .movement import movement_limits
from .state import DVShip, DVState

Action = dict[str, Any]

#: The table's step of each phase (the aircraft phase's depends on its stage: `next_step`).
STEPS = {"setup": "start_game", "command": "end_command", "initiative": "roll_initiative",
         "movement": "end_movement", "attacks": "end_attacks", "maintenance": "end_turn"}


def candidates(state: DVState, side: str | None) -> Iterator[Action]:
    """The actions worth trying now, `side`'s alone when named (the table's step for every side)."""
    step = next_step(state) if state.phase == "aircraft" else STEPS.get(state.phase)
    if step:
        yield {"kind": step}
    ships = [s for s in state.ships if s.in_play and (side is None or s.side == side)]
    for ship in ships:
        yield from _system_rolls(ship)
    by_phase = {"command": _command, "movement": _movement, "attacks": _attacks, "maintenance": _maintenance}
    if state.phase in by_phase:
        for ship in ships:
            yield from by_phase[state.phase](state, ship)
    if state.phase == "aircraft":
        for flight in state.flights:
            if side is None or flight.side == side:
                yield from (option.action for option in flight_options(state, flight))
    if state.phase == "maintenance":
        yield from ({"kind": "drift_smoke", "smoke": smoke.id} for smoke in state.smoke
                    if side is None or _smoke_side(state, smoke.ship) == side)


def _smoke_side(state: DVState, ship_id: str) -> str | None:
    return state.ship(ship_id).side if state.has_ship(ship_id) else None


def _system_rolls(ship: DVShip) -> Iterator[Action]:
    """The first system roll a hit made due (§10.3): rolled when due, in any phase."""
    if ship.system_rolls_due:
        yield {"kind": "maintenance_roll", "ship": ship.id, "step": ship.system_rolls_due[0]}


def _payers(state: DVState, ship: DVShip) -> list[str | None]:
    """Who may pay for the ship: itself (None), or its side's flagship (003:154)."""
    flagship = state.flagship_of(ship.side)
    return [None] + ([flagship.id] if flagship is not None and flagship.id != ship.id else [])


def _command(state: DVState, ship: DVShip) -> Iterator[Action]:
    """Each ability (§5.3) but Close Action, paid in movement; Damage Control on each system it may take."""
    for payer in _payers(state, ship):
        paid = {"payer": payer} if payer else {}
        for ability in COST:
            if ability in ("close_action", "damage_control"):
                continue
            yield {"kind": "use_ability", "ship": ship.id, "ability": ability, **paid}
        for system in state.systems(ship):
            mode = {"damaged": "ignore_damaged", "disabled": "disabled_as_damaged"}.get(system.status)
            if mode:
                yield {"kind": "use_ability", "ship": ship.id, "ability": "damage_control", "system": system.system,
                       "mode": mode, **paid}


def _movement(state: DVState, ship: DVShip) -> Iterator[Action]:
    """The least full-speed move (§7.2, [R-15]), the speed changes, the end of the ship's move."""
    if ship.move_done:
        return
    limits = movement_limits(state, ship)
    if limits.mode == "full" and limits.spent < limits.minimum:
        yield {"kind": "move", "ship": ship.id, "inches": inches_text(limits.minimum - limits.spent)}
    for mode in ("full", "half", "stop"):
        if mode != ship.speed_mode:
            yield {"kind": "set_speed", "ship": ship.id, "mode": mode}
    yield {"kind": "end_move", "ship": ship.id}


def plotted_distance(ship: DVShip, other: DVShip) -> Fraction | None:
    """Centre to centre between two plotted ships (§1.2), rounded up to the tenth of an inch; None
    when either is not plotted."""
    if ship.position is None or other.position is None:
        return None
    square = (ship.position.x - other.position.x) ** 2 + (ship.position.y - other.position.y) ** 2
    tenths = square * 100  # the distance in tenths is the square root of this
    whole = isqrt(tenths.numerator // tenths.denominator)
    return Fraction(whole + (whole * whole < tenths), 10)


def _attacks(state: DVState, ship: DVShip) -> Iterator[Action]:
    """The ship's attacks at its plotted distances, its radar rolls, its rolls and its activation's end."""
    options = attack_options(state, ship)
    if options.problem is not None:
        return
    for system in options.systems:
        for target in system.targets:
            distance = plotted_distance(ship, state.ship(target))
            if distance is None:
                continue
            if system.radar_roll:
                yield {"kind": "radar_roll", "ship": ship.id, "system": system.system, "target": target,
                       "distance": inches_text(distance)}
            yield {"kind": "declare_attack", "ship": ship.id, "system": system.system, "target": target,
                   "distance": inches_text(distance)}
    for attack in options.to_roll:
        yield {"kind": "roll_attack", "attack": attack}
    yield {"kind": "end_activation"} if is_active(ship) else {"kind": "end_activation", "ship": ship.id}


def _maintenance(state: DVState, ship: DVShip) -> Iterator[Action]:
    """The ship's next due step (§11): its roll, or 2 CP paid (by it or its flagship) or the ship
    abandoned; Damage Control's trade of 3 damage points for a grid roll (§11.3)."""
    due = next_due(state, ship)
    if due is not None and due[0] == "abandon":
        for payer in _payers(state, ship):
            yield {"kind": "pay_abandon", "ship": ship.id, **({"payer": payer} if payer else {})}
        yield {"kind": "abandon", "ship": ship.id}
    elif due is not None and due[0] not in ship.system_rolls_due:
        yield {"kind": "maintenance_roll", "ship": ship.id, "step": due[0]}
    if ship.damage_points >= 3:
        yield {"kind": "trade_damage", "ship": ship.id, "blocks": 1}
