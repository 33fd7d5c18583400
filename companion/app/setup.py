"""Setting up a game: the Quick-Start set-up in one tap, or ships picked from fleets.

Seed 001 "Getting Started": the British field HML Hertfordshire (Type 2) and
HML Raven (Type 1), the French Pontbriand (Type 2) and Pelletier (Type 1);
every ship starts within four hexes of a map edge, the sides on opposite
edges, facing any way (the engine checks each placement in the set-up phase).  The suggested deployment picture is missing from the
seed text, so the app puts each side on a long edge facing the enemy and lets
the players move the models to match their table.  No flet imports.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from ..engine.board import DEPLOYMENT_DEPTH, Board
from ..engine.cards import Card
from ..engine.hexes import Hex, facing_name
from ..engine.roller import Roller
from ..engine.state import GameState, ShipState

QUICK_START_SIDES = {
    "British": ("hml-hertfordshire", "hml-raven"),
    "French": ("pontbriand", "pelletier"),
}


class SetupError(ValueError):
    """A set-up that cannot be built, in plain words."""


@dataclass(frozen=True)
class Pick:
    card_id: str
    side: str


def quick_start_picks() -> list[Pick]:
    return [Pick(card, side) for side, cards in QUICK_START_SIDES.items() for card in cards]


def new_seed() -> str:
    return str(secrets.randbits(63))


def build_setup(picks: list[Pick], catalogue: dict[str, Card], board: Board | None = None,
                seed: str | None = None) -> GameState:
    """A game in the set-up phase with every ship deployed on its side's edge.

    The first side deploys along the south edge facing north, the second along
    the north edge facing south; ships stand side by side near the middle.
    """
    board = board or Board()
    missing = [p.card_id for p in picks if p.card_id not in catalogue]
    if missing:
        raise SetupError(
            "these ship cards are not in the fleets: " + ", ".join(missing)
            + " (add the fleet files under fleets/ or load them from a file)"
        )
    sides = list(dict.fromkeys(p.side for p in picks))
    if len(sides) != 2:
        raise SetupError("a game needs exactly two sides, each with at least one ship")
    ships: list[ShipState] = []
    used: set[str] = set()
    for index, side in enumerate(sides):
        cards = [catalogue[p.card_id] for p in picks if p.side == side]
        facing = 0 if index == 0 else 3
        for card, bow in zip(cards, _edge_slots(board, cards, facing)):
            ship_id = _unique(card.id, used)
            ships.append(ShipState(id=ship_id, side=side, card=card, column=bow.column,
                                   row=bow.row, facing=facing))
    state = GameState(board=board, phase="setup", ships=ships, sides=sides)
    # a given seed (tests, COMPANION_SEED) fixes the dice; else the store draws a secret one
    return state.model_copy(update={"roller": Roller.from_seed(seed)}) if seed else state


def _unique(base: str, used: set[str]) -> str:
    name, n = base, 2
    while name in used:
        name, n = f"{base}-{n}", n + 1
    used.add(name)
    return name


def _edge_slots(board: Board, cards: list[Card], facing: int) -> list[Hex]:
    """Bow hexes for ships side by side, three columns apart, centred on the edge,
    at the front of the deployment zone (four hexes from the edge)."""
    spacing = 3
    count = len(cards)
    first = max(2, (board.columns + 1) // 2 - spacing * (count - 1) // 2)
    bows = []
    for i, card in enumerate(cards):
        column = min(board.columns - 1, first + spacing * i)
        if facing == 0:  # south edge, facing north
            row = board.rows - DEPLOYMENT_DEPTH
        else:  # north edge, facing south
            row = 1 + DEPLOYMENT_DEPTH
        bows.append(Hex.at(column, row))
    return bows


def describe_deployment(state: GameState) -> list[str]:
    """One line per ship: where it stands."""
    return [f"{s.card.name}: {state.board.label(s.bow)} facing {facing_name(s.facing)}" for s in state.ships]
