"""The War Fleet movement planner: every end position a ship can reach this turn (issue 17).

Seed 004 "Movement" (docs/rule-readings.md, War Fleet "Movement"): 1 MP moves
one hex forward or turns one hexside, with no limit on turning; a ship that has
spent no MP may spend all of them (at least 1) to face any way (`pivot`); any
number of ships may share a hex, so every hex on the map is an end; a step
beyond the labelled hexes loses the ship, so none is planned.

The rules are the engine's own: `turn.step_problem` before every step and
`turn.pivot_problem` before the pivot, and the search, the result (`Reach`,
`Reached`, `Position`) and its JSON are the Quick-Start planner's
(engine/quick_start/reach.py), so the app shows both alike.  A War Fleet ship keeps no
"moved" mark; a position's `moved` says whether the path enters a new hex.
"""

from __future__ import annotations

from typing import Any, Hashable, Iterator, Mapping, Sequence

from ..hexes import DIRECTIONS, FACING_NAMES, Hex
from ..kernel import Refusal
from ..quick_start.reach import Action, Moves, Position, Reach, Reached, cheapest_positions, search
from .state import WarFleetState, WarShip
from .turn import pivot_problem, step_problem

#: A node of the search: the ship's hex (axial q, r), its facing, and whether it has entered a new hex.
Mover = tuple[int, int, int, bool]
TURNS = {"port": -1, "starboard": +1}


def reach(state: WarFleetState, ship_id: str) -> Reach:
    """Every end position of a War Fleet ship this turn, from where it stands with the MP it has
    left; Refusal in plain words for a ship not on the map or out of play."""
    ship = state.ship(ship_id)
    if ship.removed:
        raise Refusal(f"{ship.name} has left play")
    if not ship.placed:
        raise Refusal(f"{ship.name} is not on the map")
    if ship.pocket is not None:
        raise Refusal(f"{ship.name} is away fighting a pocket battle")
    start: Mover = (ship.hex.q, ship.hex.r, ship.facing, False)
    budget = 0 if ship.move_done else ship.mp_left
    found = [Reached(Position(Hex(q, r), facing, moved), cost, path)
             for (q, r, facing, moved), cost, path in search(start, _same, _moves(state, ship, start), budget)]
    return Reach(ship.id, budget, cheapest_positions(found))


def trail(state: WarFleetState, ship_id: str, path: Sequence[Mapping[str, Any]]) -> tuple[tuple[Hex, int], ...]:
    """Where the bow stands and faces after each action of a path (a step or the pivot), the start
    first (the path the planner draws on the map)."""
    ship = state.ship(ship_id)
    cell, facing = ship.hex, ship.facing
    out = [(cell, facing)]
    for action in path:
        if action["kind"] == "pivot":
            face = action["facing"]
            facing = int(face) if str(face).isdigit() else FACING_NAMES.index(face)
        elif action["step"] == "forward":
            dq, dr = DIRECTIONS[facing]
            cell = Hex(cell.q + dq, cell.r + dr)
        else:
            facing = (facing + TURNS[action["step"]]) % 6
        out.append((cell, facing))
    return tuple(out)


def _same(node: Mover) -> Hashable:
    return node


def _moves(state: WarFleetState, ship: WarShip, start: Mover) -> Moves[Mover]:
    board = state.board
    may_step = step_problem(ship) is None
    may_pivot = pivot_problem(ship) is None and not ship.move_done
    forward: Action = {"kind": "step", "ship": ship.id, "step": "forward"}
    turns = [({"kind": "step", "ship": ship.id, "step": side}, turn) for side, turn in TURNS.items()]
    pivots = [{"kind": "pivot", "ship": ship.id, "facing": face} for face in range(6)]
    inside: dict[tuple[int, int], bool] = {}

    def on_map(q: int, r: int) -> bool:  # beyond the map the ship is lost: no end position
        if (q, r) not in inside:
            inside[q, r] = board.contains(Hex(q, r))
        return inside[q, r]

    def moves(node: Mover) -> Iterator[tuple[int, Action, Mover]]:
        q, r, facing, moved = node
        if may_step:
            dq, dr = DIRECTIONS[facing]
            if on_map(q + dq, r + dr):
                yield 1, forward, (q + dq, r + dr, facing, True)
            for action, turn in turns:
                yield 1, action, (q, r, (facing + turn) % 6, moved)
        if may_pivot and node == start:  # only a ship that has spent no MP: the start of its move
            for face in range(6):
                if face != facing:
                    yield ship.mp, pivots[face], (q, r, face, moved)

    return moves
