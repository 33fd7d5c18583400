"""Turn sequence of the Quick-Start game (seed 001 "Sequence of Play", rules-notes 8).

Initiative: each side rolls 2DRed, higher wins, ties re-rolled.  Movement: by
type from the highest present down; within a type the initiative loser moves
all its ships of that type, then the winner.  Fire is simultaneous.  End of
turn: circled slots become hashed, destroyed ships leave, the game-end check.
"""

from __future__ import annotations

from operator import attrgetter

from .. import common as C
from ..dice import parse_pool
from .state import GameState, InitiativeRoll, ShipState, SlotStatus

INITIATIVE_DICE = parse_pool("2DRed")
_type = attrgetter("card.type")  # the rank movement goes by


def initiative_winner(rolls: list[InitiativeRoll]) -> str | None:
    """The side with the single highest total, or None on a tie."""
    best = max(r.total for r in rolls)
    top = [r.side for r in rolls if r.total == best]
    return top[0] if len(top) == 1 else None


def movement_groups(state: GameState) -> list[tuple[str, int]]:
    """(side, type) in moving order: highest type first, initiative loser first."""
    winner, loser = state.initiative, state.loser()
    order = [s for s in (loser, winner) if s] or list(state.sides)
    return C.movement_groups(state.active_ships, order, _type)


def to_move(state: GameState) -> tuple[str, int] | None:
    """The (side, type) group that moves now, or None when movement is over."""
    return C.first_to_move(state.active_ships, movement_groups(state), _type)


def may_move_now(state: GameState, ship: ShipState) -> str | None:
    """Why this ship may not move now (None when it may)."""
    return C.may_move_problem(ship, ship.card.name, to_move(state), ship.card.type,
                              "{}'s Type {} ships move now (movement goes by type, initiative loser first)")


def harden_damage(ship: ShipState) -> ShipState:
    """Circled slots become hashed at the end of the turn (seed 001 "End of Turn")."""
    damage = {loc: {n: SlotStatus.DESTROYED for n in slots} for loc, slots in ship.damage.items()}
    return ship.model_copy(update={"damage": damage})


def side_beaten(state: GameState, side: str) -> str | None:
    """Why a side has lost (no ships left, or no working weapon), or None."""
    ships = [s for s in state.active_ships if s.side == side]
    if not ships:
        return f"every {side} ship is destroyed"
    if not any(s.working_guns for s in ships):
        return f"every {side} weapon is destroyed"
    return None


def game_end(state: GameState) -> tuple[str, str | None] | None:
    """(result sentence, winner or None for a draw) when the game is over."""
    beaten = {side: why for side in state.sides if (why := side_beaten(state, side))}
    if not beaten:
        return None
    if len(beaten) == len(state.sides):
        return "Draw: " + "; ".join(beaten.values()) + ".", None
    winner = next(side for side in state.sides if side not in beaten)
    return f"{winner} wins: " + "; ".join(beaten.values()) + ".", winner
