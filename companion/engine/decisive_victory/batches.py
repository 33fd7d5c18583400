"""Batches of ships: who moves (§7.1) or attacks (§8.1) next, and how many ships at a time.

"Each player can move a number of ships in their fleet equal to the command
score of their highest rated commander at a time" (`003:43`); attacks go the
same way, the initiative winner first (`003:50`).  Every helper takes the ships
still to act (ids) as an argument, so movement and attacks share them: the
movement's ships not yet done, the attacks' ships not yet activated.
"""

from __future__ import annotations

from typing import Collection

from .state import Batch, DVShip, DVState


def ships_in_play(state: DVState, side: str) -> list[DVShip]:
    """A side's ships still in play (not sunk, abandoned, scuttled nor removed by hand)."""
    return [s for s in state.ships if s.side == side and s.in_play]


def best_score(state: DVState, side: str) -> int:
    """The command score of the side's highest rated commander in play (`003:39`, `003:43`); 0 with none."""
    return max((s.command_score for s in ships_in_play(state, side)), default=0)


def batch_size(state: DVState, side: str) -> int:
    """How many ships the side moves (or attacks with) at a time: its best score, at least 1 [R-12]."""
    return max(1, best_score(state, side))


def still_to_act(state: DVState, side: str, to_act: Collection[str]) -> list[DVShip]:
    """The side's ships in play among `to_act`."""
    return [s for s in ships_in_play(state, side) if s.id in to_act]


def _sides_from(state: DVState, side: str) -> list[str]:
    """Every side, starting after `side` in the game's order and ending with it."""
    sides = state.sides
    if side not in sides:
        return list(sides)
    i = sides.index(side)
    return [*sides[i + 1:], *sides[:i + 1]]


def opening_batch(state: DVState, first: str, to_act: Collection[str]) -> Batch | None:
    """The first batch of a phase: `first`'s (the initiative loser in movement, the winner in
    attacks), or the next side with a ship to act when `first` has none [R-13]; None when no ship is to act."""
    for side in [first, *[s for s in state.sides if s != first]]:
        if still_to_act(state, side, to_act):
            return Batch(side=side, left=batch_size(state, side))
    return None


def next_batch(state: DVState, batch: Batch, to_act: Collection[str]) -> Batch | None:
    """The batch after one of `batch`'s ships finished acting (`to_act` no longer holds it).

    The same side goes on while its batch has room and it has ships to act;
    then the next side with ships to act takes a whole batch; when no other
    side has any, the same side moves on, batch after batch [R-13]; None
    when no ship is left to act.
    """
    left = batch.left - 1
    if left > 0 and still_to_act(state, batch.side, to_act):
        return Batch(side=batch.side, left=left)
    for side in _sides_from(state, batch.side):
        if still_to_act(state, side, to_act):
            return Batch(side=side, left=batch_size(state, side))
    return None


def batch_problem(state: DVState, batch: Batch | None, ship: DVShip, doing: str) -> str | None:
    """Why `ship` may not act now in the batch, in words; None when it may."""
    if batch is None:
        return f"no ship is {doing} now"
    if ship.side != batch.side:
        more = "ship" if batch.left == 1 else f"{batch.left} ships"
        return f"{batch.side} is {doing} now ({more} more in its batch)"
    return None
