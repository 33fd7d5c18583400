"""Movement steps and direct placement (seed 001 "Movement", rules-notes 7).

Forward into the faced hex: 1 MP.  A facing change: 1 MP per hexside, at most
one hexside per hex, and only after entering the card's "enter hexes before
turn" number of hexes since the last facing change (or the start of the
move).  Type 1 pivots on its bow hex, Types 2 and 3 on the centre hex.  A
ship may pass through other ships but may not end its move sharing a hex.
"""

from __future__ import annotations

from typing import Literal

from ..board import Board
from ..footprint import Placement
from ..kernel import Work
from .state import GameState, ShipState

StepKind = Literal["forward", "port", "starboard"]
TURNS = {"port": -1, "starboard": +1}


def step_problem(ship: ShipState, step: StepKind, board: Board) -> str | None:
    """Why this step is illegal now, or None if it is legal."""
    if ship.mp_left < 1:
        return f"{ship.card.name} has no MP left ({ship.movement_points} MP this turn, all spent)"
    if step == "forward":
        ahead = ship.placement.forward()
        if not all(board.contains(c) for c in ahead.hexes):
            return f"{ship.card.name} would leave the board"
        return None
    need = ship.card.enter_hexes_before_turn
    if ship.turned_in_this_hex:
        return f"{ship.card.name} already turned in this hex: a ship changes only one hexside per hex"
    if ship.entered_since_turn < need:
        done = ship.entered_since_turn
        return (
            f"{ship.card.name} must enter {need} hex{'es' if need != 1 else ''} before turning "
            f"(entered {done} since {'its last turn' if ship.mp_spent > done else 'the start of its move'})"
        )
    turned = ship.placement.turned(TURNS[step])
    if not all(board.contains(c) for c in turned.hexes):
        return f"{ship.card.name} would swing off the board"
    return None


def take_step(ship: ShipState, step: StepKind, board: Board) -> ShipState:
    """The ship after one step, made as asked: its callers ask `step_problem` first (a rule
    objection, which bookkeeping mode lets through)."""
    if step == "forward":
        return ship.at(
            ship.placement.forward(),
            mp_spent=ship.mp_spent + 1,
            entered_since_turn=ship.entered_since_turn + 1,
            turned_in_this_hex=False,
            moved=True,
        )
    return ship.at(
        ship.placement.turned(TURNS[step]),
        mp_spent=ship.mp_spent + 1,
        entered_since_turn=0,
        turned_in_this_hex=True,
    )


def legal_steps(ship: ShipState, board: Board) -> dict[str, str | None]:
    """Each step with the reason it is refused (None when legal)."""
    return {step: step_problem(ship, step, board) for step in ("forward", "port", "starboard")}


def stacking_problem(state: GameState, ship: ShipState) -> str | None:
    """A ship may not end its move with any part in a hex another ship holds."""
    mine = set(ship.hexes)
    for other in state.active_ships:
        if other.id != ship.id and mine & set(other.hexes):
            return f"{ship.card.name} may not end its move sharing a hex with {other.card.name}"
    return None


def placement_problem(state: GameState, ship: ShipState, placement: Placement) -> str | None:
    """Why a ship cannot stand here (off the board, sharing a hex), or None."""
    board = state.board
    off = [c for c in placement.hexes if not board.contains(c)]
    if off:
        return f"{ship.card.name} would stand off the board (a {ship.card.type}-hex ship needs room behind its bow)"
    moved = ship.at(placement)
    return stacking_problem(state, moved)


def half_hex_loss(work: Work[GameState], ship: ShipState) -> ShipState:
    """A ship that ends its move with any part in the half-hexes at the table edge is destroyed
    (seed 001 "Half-hexes", `001:305`): removed, and said so; any other ship as it is."""
    if not any(work.state.board.in_half_hex_ring(c) for c in ship.hexes):
        return ship
    work.event("ship_destroyed", f"{ship.card.name} ended its move in the half-hexes at the table edge: "
               "destroyed and removed.", ship=ship.id)
    return ship.model_copy(update={"left_board": True, "removed": True})


def reset_for_turn(ship: ShipState) -> ShipState:
    """Nothing carries over between turns (seed 001 "Movement Across Turns")."""
    return ship.model_copy(update={
        "mp_spent": 0, "entered_since_turn": 0, "turned_in_this_hex": False, "move_done": False, "moved": False,
        "turn_mp": None,
        "turn_declared": False, "entered_since_declared": 0, "declared_side": None,  # H3: they lapse (R-H3.3)
    })
