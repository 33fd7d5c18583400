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
from ..engine.quick_start.deployment import deployment_problem
from ..engine.footprint import Placement
from ..engine.hexes import Hex
from ..engine.names import SHIP_LIMIT, cleaned, name_problem
from ..engine.quick_start.house_rules import with_house_rules
from ..engine.quick_start.movement import placement_problem
from ..engine.roller import Roller
from ..engine.quick_start.state import GameState, ShipState
from ..engine.quick_start.table_rules import HouseRules, TableRules

QUICK_START_SIDES = {
    "British": ("hml-hertfordshire", "hml-raven"),
    "French": ("pontbriand", "pelletier"),
}


class SetupError(ValueError):
    """A set-up that cannot be built, in plain words."""


@dataclass(frozen=True)
class Pick:
    """One ship to field: its card (by id in the catalogue, or the card itself, as a fleet file
    brings it) and, if the player gave one, the ship's own name ("HML Raven 2")."""

    card_id: str
    side: str
    name: str | None = None
    card: Card | None = None


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
    missing = [p.card_id for p in picks if p.card is None and p.card_id not in catalogue]
    if missing:
        raise SetupError(
            "these ship cards are not in the fleets: " + ", ".join(missing)
            + " (add the fleet files under fleets/ or load them from a file)"
        )
    sides = list(dict.fromkeys(p.side for p in picks))
    if len(sides) != 2:
        raise SetupError("a game needs exactly two sides, each with at least one ship")
    state = GameState(board=board, phase="setup", ships=[], sides=sides)
    used: set[str] = set()
    for index, side in enumerate(sides):
        facing = 0 if index == 0 else 3
        for pick in (p for p in picks if p.side == side):
            card = pick.card or catalogue[pick.card_id]
            name = cleaned(pick.name or "")  # cleaned and capped as a loaded file's name (issue 35)
            if name and name != card.name:  # the ship's own name, shown wherever the ship is
                too_long = name_problem(name, "a ship's name", SHIP_LIMIT)
                if too_long:
                    raise SetupError(f"{name[:SHIP_LIMIT]}...: {too_long}")
                card = card.model_copy(update={"name": name})
            ship = ShipState(id=unique_id(card.id, used), side=side, card=card, column=1, row=1, facing=facing)
            bow = _deployment_spot(state, ship, facing)
            if bow is None:
                raise SetupError(f"there is no room left to deploy {card.name} on the {side} edge of a "
                                 f"{board.columns} x {board.rows} board: pick a bigger board or fewer ships")
            state = state.model_copy(update={"ships": [*state.ships, ship.at(Placement(bow, facing, card.type))]})
    # a given seed (tests, COMPANION_SEED) fixes the dice; else the store draws a secret one
    return state.model_copy(update={"roller": Roller.from_seed(seed)}) if seed else state


def unique_id(base: str, used: set[str]) -> str:
    """`base`, or `base-2`, `base-3`... : the first not in `used` (which then holds it)."""
    name, n = base, 2
    while name in used:
        name, n = f"{base}-{n}", n + 1
    used.add(name)
    return name


def _deployment_spot(state: GameState, ship: ShipState, facing: int) -> Hex | None:
    """The first bow hex, in the order players would pick, where the engine lets the ship deploy.

    The first side stands along the south edge facing north, the second along
    the north edge facing south: at the front of the zone (four hexes in), near
    the middle, three columns apart; then further back and further out.  The
    rules (on the board, no shared hex, within four hexes of an edge opposite
    the enemy) are the engine's `placement_problem` and `deployment_problem`.
    """
    board = state.board
    middle = (board.columns + 1) // 2
    rows = range(board.rows - DEPLOYMENT_DEPTH, board.rows) if facing == 0 else range(1 + DEPLOYMENT_DEPTH, 1, -1)
    offsets = sorted(range(-board.columns, board.columns + 1), key=lambda d: (d % 3 != 0, abs(d), d < 0))
    for row in rows:
        for offset in offsets:
            column = middle + offset
            if not 1 <= column <= board.columns:
                continue
            placement = Placement(Hex.at(column, row), facing, ship.card.type)
            if placement_problem(state, ship, placement) is None and deployment_problem(state, ship, placement) is None:
                return placement.bow
    return None


def played_by(state: GameState, house_rules: HouseRules, table_rules: TableRules) -> GameState:
    """The new game played by these house and table rules (part of its start: replay sees them)."""
    state = with_house_rules(state, house_rules)
    return state.model_copy(update={"settings": state.settings.model_copy(update={"table_rules": table_rules})})
