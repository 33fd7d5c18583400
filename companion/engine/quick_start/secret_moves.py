"""House rule H1's secret simultaneous moves (seed 002:16 "Each player secretly records where their
units will end up, then each moves their ship at the same time", house-rules.md 4.5 and 4.8).

A ship of a simultaneous group of two or more sides records its end position
(`record_move`), checked against every position it could reach this turn; the
record is sealed (a device of another side is sent only that it recorded:
`view`) and revealed with the group's last record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from . import actions as A
from ..board import Board
from ..footprint import Placement
from ..hexes import Hex, facing_name, parse_facing
from ..kernel import Refusal, RefusalKind, Work
from .movement import half_hex_loss
from .state import GameState, SealedMove, ShipState
from .unit_initiative import group_to_move, in_use, may_move_now, names, needs_records, settle

#: A sealed record as a device that does not hold its ship's side is sent it: recorded, nowhere.
BLANK_BOW = ""


# --- secret records and their reveal (house-rules.md 4.5) ---------------------------------------


def reachable(ship: ShipState, board: Board) -> set[tuple[Hex, int]]:
    """Every (bow, facing) the ship can end on this turn from where it stands: its MP left, 1 MP
    forward, 1 MP a hexside after its card's hexes, one hexside per hex, never off the board, other
    ships ignored (`001:317`, `001:327`; R-H1.5: no declarations).  Breadth first: with one MP a
    step, a state first reached is reached with the most MP left."""
    need = ship.card.enter_hexes_before_turn
    start = (ship.placement, min(ship.entered_since_turn, need), ship.turned_in_this_hex)
    seen, frontier = {start}, [start]
    for _ in range(ship.mp_left):
        frontier = [after for state in frontier for after in _steps(state, need, board) if after not in seen]
        seen.update(frontier)
    return {(placement.bow, placement.facing) for placement, _, _ in seen}


_Reach = tuple[Placement, int, bool]


def _steps(state: _Reach, need: int, board: Board) -> Iterator[_Reach]:
    placement, entered, turned = state
    ahead = placement.forward()
    if all(board.contains(c) for c in ahead.hexes):
        yield ahead, min(entered + 1, need), False
    if not turned and entered >= need:
        for side in (-1, 1):
            swung = placement.turned(side)
            if all(board.contains(c) for c in swung.hexes):
                yield swung, 0, True


def record_problem(state: GameState, ship: ShipState) -> str | None:
    """Why this ship may not record a sealed move now (None when it may)."""
    if ship.move_done:
        return f"{ship.card.name} has finished its move this turn"
    if state.movers:
        return may_move_now(state, ship) or f"{ship.card.name} is moving: it steps, it does not record"
    group = group_to_move(state) or []
    if ship.id not in group:
        return may_move_now(state, ship)
    if not needs_records(state, group):
        return f"{ship.card.name} moves openly: only ships of two or more sides moving together record"
    return None


def record_move(work: Work[GameState], action: A.RecordMove) -> None:
    """A sealed end position (house-rules.md 4.5); the group is revealed once every ship has one."""
    in_use(work)
    work.phase("movement", doing="ships record their moves")
    ship = work.ship(action.ship)
    work.rule(record_problem(work.state, ship), RefusalKind.TURN)
    board = work.state.board
    bow, facing = board.parse(action.bow), parse_facing(action.facing)
    placement = dataclasses.replace(ship.placement, bow=bow, facing=facing)
    if not all(board.contains(c) for c in placement.hexes):
        raise Refusal(f"{ship.card.name} would stand off the board (it needs room behind its bow)")
    if (bow, facing) not in reachable(ship, board):
        need = ship.card.enter_hexes_before_turn
        work.rule(f"{ship.card.name} cannot reach {board.label(bow)} facing {facing_name(facing)} this turn "
                  f"({ship.mp_left} MP; {need} hex{'es' if need != 1 else ''} forward before each facing change)")
    moved = action.moved if action.moved is not None else ship.moved or bow != ship.bow
    again = ship.id in work.state.sealed_moves
    sealed = SealedMove(ship=ship.id, bow=board.label(bow), facing=facing, moved=moved)
    work.update(sealed_moves={**work.state.sealed_moves, ship.id: sealed})
    work.event("move_recorded", f"{ship.card.name} records its move{' again' if again else ''} "
               "(sealed until its group is revealed).", ship=ship.id)
    group = group_to_move(work.state) or []
    if ship.id in group and all(s in work.state.sealed_moves for s in group):
        _reveal(work, group)
    settle(work)


def _reveal(work: Work[GameState], group: list[str]) -> None:
    """Every record of the group at once; ships whose revealed positions share a hex record again
    (R-H1.7), the others take their positions, and one ending in the half-hexes is destroyed."""
    state, board = work.state, work.state.board
    placed: dict[str, ShipState] = {}
    for ship_id in group:
        ship, record = state.ship(ship_id), state.sealed_moves[ship_id]
        where = dataclasses.replace(ship.placement, bow=board.parse(record.bow), facing=record.facing)
        placed[ship_id] = ship.at(where, moved=record.moved, move_done=True)
    clash = _clashes(state, placed)
    if clash:
        work.event("reveal_clash", f"The records of {names(state, clash)} would end sharing a hex: they are "
                   "cleared, those ships stay where they stand and record again.", ships=clash)
    shown = [s for s in group if s not in clash]
    if shown:
        work.event("moves_revealed", "Moves revealed: " + ", ".join(
            f"{placed[s].card.name} to {placed[s].describe_position(board)}" for s in shown) + ".",
            positions={s: state.sealed_moves[s].model_dump(mode="json") for s in shown})
    work.update(sealed_moves={s: m for s, m in state.sealed_moves.items() if s not in group})
    for ship_id in shown:
        work.state = work.state.with_ship(half_hex_loss(work, placed[ship_id]))


def _clashes(state: GameState, placed: dict[str, ShipState]) -> list[str]:
    """The group's ships whose revealed positions share a hex with another's (`001:327`): with
    each other, with a ship outside the group, or with where a clashing ship stays."""
    def where(ship_id: str, clash: set[str]) -> set[Hex]:
        ship = placed[ship_id] if ship_id in placed and ship_id not in clash else state.ship(ship_id)
        return set(ship.hexes)

    clash: set[str] = set()
    while True:
        found = {a for a in placed if a not in clash for b in (s.id for s in state.active_ships)
                 if b != a and where(a, clash) & where(b, clash)}
        if not found:
            return [s for s in placed if s in clash]
        clash |= found


def view(state: Any, side: str | None) -> Any:
    """What a device holding `side` may see (house-rules.md 4.8): every sealed record of a ship of
    another side is blanked (`bow` empty, `facing` -1), so the device knows only that it recorded.
    The shared screen (side None) sees no record."""
    sealed = getattr(state, "sealed_moves", {})
    hidden = {s for s in sealed if side is None or not state.has_ship(s) or state.ship(s).side != side}
    if not hidden:
        return state
    blank = {s: SealedMove(ship=s, bow=BLANK_BOW, facing=-1, moved=False) if s in hidden else m
             for s, m in sealed.items()}
    return state.model_copy(update={"sealed_moves": blank})


# --- options -----------------------------------------------------------------------------------


def record_candidates(state: GameState, side: str | None) -> Iterator[dict[str, Any]]:
    """For a recording group: records where each of its ships stands and straight ahead."""
    if state.phase != "movement" or not state.house_rules.unit_initiative:
        return
    for ship in state.active_ships:
        if (side is None or ship.side == side) and record_problem(state, ship) is None:
            yield from _records(state, ship)


def _records(state: GameState, ship: ShipState) -> Iterator[dict[str, Any]]:
    placement = ship.placement
    for _ in range(ship.mp_left + 1):
        if not all(state.board.contains(c) for c in placement.hexes):
            return
        yield {"kind": "record_move", "ship": ship.id, "bow": state.board.label(placement.bow),
               "facing": placement.facing}
        placement = placement.forward()
