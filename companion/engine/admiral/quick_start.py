"""The admiral's kit for Quick-Start and its house rules (seed 001, seed 002).

Shots are the shot advisor's options (quick_start/advice.py: each working gun
at each location it strikes, valued from the exact breach odds); a ship is
put at an end position as the planner's `state_after` leaves it.  An end position in the half-hexes
destroys the ship (`001:305`), so the admiral never takes one.
"""

from __future__ import annotations

from statistics import median
from typing import Any

from ..quick_start.advice import advise
from ..footprint import Placement
from ..quick_start.state import GameState, ShipState
from .kit import AdmiralKit, Shot


def shots(state: GameState, ship_id: str) -> list[Shot]:
    """Every option of each of the ship's guns with no shot declared yet this turn."""
    found = []
    for gun in advise(state, ship_id):
        if gun.declared:
            continue
        for option in gun.options:
            if not option.value.worth_anything:
                continue
            action = {"kind": "declare_shot", "attacker": ship_id, "location": option.location,
                      "slot": option.slot, "target": option.target, "target_location": option.target_location}
            target = state.ship(option.target).card.name
            at = f"'s {option.target_location}" if option.target_location else ""
            words = f"{option.gun} ({option.location} {option.slot}) at {target}{at}"
            found.append(Shot(action, (option.location, option.slot), option.target, option.value.slot,
                              option.value.ship_destroyed, words))
    return found


def place(state: GameState, ship_id: str, reached: Any) -> GameState:
    """The ship at the end position: where it stands and faces, and whether it moved (its location
    dice, go or stop: seed 001 "Determining Damage Arcs"), as `reach.state_after` leaves it without
    re-making each step (the path itself is made by `apply` when the order is taken)."""
    if not reached.path:
        return state
    ship = state.ship(ship_id)
    position = reached.position
    moved = ship.at(Placement(position.bow, position.facing, ship.card.type, ship.one_hex), moved=position.moved,
                    mp_spent=ship.mp_spent + reached.mp_cost)
    placed: GameState = state.with_ship(moved)
    return placed


def best_range(ship: ShipState) -> int:
    ranges = [ship.card.locations[loc].gun(n).short.range for loc, n in ship.working_guns]
    return int(median(ranges)) if ranges else 1


def max_range(ship: ShipState) -> int:
    return max((ship.card.locations[loc].gun(n).long.range for loc, n in ship.working_guns), default=0)


KIT = AdmiralKit(
    shots=shots, place=place, where=lambda ship: ship.bow, best_range=best_range, max_range=max_range,
    moved=lambda ship: bool(ship.move_done), rolls=("resolve_shot",),
    table_steps=("start_game", "roll_initiative", "roll_unit_initiative", "end_movement", "end_turn"),
    wasteful=lambda reached: bool(reached.half_hexes),
)
