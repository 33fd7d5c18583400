"""Deployment (seed 001 "Getting Started"): every ship within four hexes of a map
edge with the entire ship on the map, the two sides on opposite sides."""

from __future__ import annotations

from ..board import DEPLOYMENT_DEPTH, deployment_edges
from ..footprint import Placement
from .state import GameState, ShipState


def deployment_problem(state: GameState, ship: ShipState, placement: Placement) -> str | None:
    """Why this ship may not deploy here, or None.

    A ship near a corner is within reach of two edges; it may use either one
    that no enemy ship has deployed along.
    """
    edges = deployment_edges(state.board, placement.hexes)
    if not edges:
        return (f"{ship.card.name} must deploy within {DEPLOYMENT_DEPTH} hexes of a map edge, "
                "with the whole ship on the map")
    taken = set()
    for other in state.active_ships:
        if other.side != ship.side:
            taken |= deployment_edges(state.board, other.hexes)
    if edges <= taken:
        return f"{ship.card.name} must deploy on the side opposite the enemy, not along the {' or '.join(sorted(edges))} edge"
    return None
