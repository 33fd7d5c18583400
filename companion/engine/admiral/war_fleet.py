"""The admiral's kit for War Fleet (seed 004).

Shots are the single-location attack options (war_fleet/combat.py
`attack_options`, each location's attack at each enemy in arc and range) at
each location they strike, valued from the exact `AttackOdds`: the chance the
location is destroyed and the chance the ship becomes a casualty.  A ship is
put at an end position of its reach by its hex and facing (War Fleet ships
share hexes; the planner never plans a step off the map, which loses a ship).
"""

from __future__ import annotations

from statistics import median
from typing import Any

from ..war_fleet.combat import attack_options
from ..war_fleet.state import WarFleetState, WarShip
from .kit import AdmiralKit, Shot


def shots(state: WarFleetState, ship_id: str) -> list[Shot]:
    """Every single-location attack the ship could declare now, at each location it strikes."""
    found = []
    for option in attack_options(state, ship_id, brackets=False):
        target = state.ship(option.target).name
        for strike in option.strikes:
            odds = strike.odds
            if not (odds.location_destroyed or odds.casualty):
                continue
            action = {"kind": "declare_attack", "attacker": ship_id, "locations": list(option.locations),
                      "target": option.target, "target_location": strike.location}
            words = f"{option.name or 'attack'} ({', '.join(option.locations)}) at {target}'s {strike.location}"
            found.append(Shot(action, tuple(option.locations), option.target, odds.location_destroyed,
                              odds.casualty, words))
    return found


def place(state: WarFleetState, ship_id: str, reached: Any) -> WarFleetState:
    ship = state.ship(ship_id)
    position = reached.position
    moved = ship.at(position.bow, position.facing, mp_spent=ship.mp_spent + reached.mp_cost)
    placed: WarFleetState = state.with_ship(moved)
    return placed


def best_range(ship: WarShip) -> int:
    ranges = [stats.attack.short.range for stats in ship.locations.values() if stats.attack is not None]
    return int(median(ranges)) if ranges else 1


def max_range(ship: WarShip) -> int:
    return max((stats.attack.long.range for stats in ship.locations.values() if stats.attack is not None), default=0)


KIT = AdmiralKit(
    shots=shots, place=place, where=lambda ship: ship.hex, best_range=best_range, max_range=max_range,
    moved=lambda ship: bool(ship.move_done), rolls=("roll_attack",),
    table_steps=("roll_placement", "roll_initiative", "end_group", "end_movement", "end_combat", "end_turn"),
)
