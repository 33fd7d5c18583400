"""The movement planner: every end position a ship can reach this turn (issue 17).

Seed 001 "Movement" (`001:317-327`, rules-notes 7): forward into the faced hex
1 MP; a facing change 1 MP per hexside, one hexside per hex, after the card's
"enter hexes before turn" hexes; Type 1 pivots on its bow hex, Types 2 and 3 on
the centre hex; a ship passes through other ships but never ends its move
sharing a hex, and never steps beyond the labelled hexes.  House rule H3
(house-rules.md 6.3) adds the free declaration before each facing change, and
H4 (7.2) makes every ship one hex, pivoting in place (`Placement.one_hex`).
None of the Quick-Start table rules changes movement.

The search does not restate the step rules: each step is checked by
`movement.step_problem` and `declared_turns.turn_problem` and made by
`movement.take_step` and `declared_turns.after_step`, so a path found here is
a path `apply` accepts.  It is a Dijkstra search over the ship's movement
states (where it stands and faces, the hexes entered since its last turn,
whether it turned in this hex and whether it moved, and under H3 its pending
declaration), cheapest MP first and then the fewest actions; each state is
expanded once, so a ship's reach costs a few thousand steps at most.

The planner does not ask whose move it is (the app's `apply` checks that when
the path is taken): it answers for any ship still in play, from where it
stands with the MP it has left; a ship whose move is done reaches only where
it stands.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from itertools import count
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence, TypeVar

from . import actions as A
from . import declared_turns as H3
from ..board import MAX_SIDE, Board
from ..footprint import Placement
from ..hexes import Hex, facing_name
from ..kernel import Refusal, Work
from .movement import TURNS, StepKind, step_problem, take_step
from .state import GameState, ShipState

#: One action of a path, as the log holds it (`{"kind": "step", "ship": ..., "step": "forward"}`).
Action = dict[str, Any]
Node = TypeVar("Node")
STEPS: tuple[StepKind, ...] = ("forward", "port", "starboard")


@dataclass(frozen=True, order=True)
class Position:
    """An end position: the bow hex (War Fleet: the ship's hex), the facing, and whether the ship
    has entered a new hex by a forward step this turn (its location dice: `go` or `stop`)."""

    bow: Hex
    facing: int
    moved: bool

    def words(self, board: Board) -> str:
        return f"{board.label(self.bow)} facing {facing_name(self.facing)}" + (" (moved)" if self.moved else "")


@dataclass(frozen=True)
class Reached:
    """One reachable end position: its cheapest MP cost (from where the ship stands now) and one
    cheapest path (the actions to apply, in order)."""

    position: Position
    mp_cost: int
    path: tuple[Action, ...]
    #: Quick-Start: ending here puts part of the ship in the half-hexes, which destroys it (`001:305`).
    half_hexes: bool = False

    def as_json(self, board: Board) -> dict[str, Any]:
        data: dict[str, Any] = {"bow": board.label(self.position.bow), "facing": self.position.facing,
                                "mp_cost": self.mp_cost, "moved": self.position.moved}
        if self.half_hexes:
            data["half_hexes"] = True
        return data


@dataclass(frozen=True)
class Reach:
    """Every end position of one ship this turn, cheapest first (`positions`), with one cheapest
    path to each (`find`)."""

    ship: str
    mp_left: int
    positions: tuple[Reached, ...]
    _by_position: dict[Position, Reached] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_position", {r.position: r for r in self.positions})

    def find(self, bow: Hex, facing: int, moved: bool | None = None) -> Reached | None:
        """The cheapest way to end at this bow hex and facing (moved or not, unless `moved` says);
        None when it is out of reach."""
        if moved is not None:
            return self._by_position.get(Position(bow, facing, moved))
        both = [r for r in (self.find(bow, facing, m) for m in (False, True)) if r is not None]
        return min(both, key=lambda r: (r.mp_cost, len(r.path)), default=None)

    def at(self, bow: Hex) -> list[Reached]:
        """The end positions with their bow in this hex (one per facing, and moved or not)."""
        return [r for r in self.positions if r.position.bow == bow]

    def costs(self) -> dict[Hex, int]:
        """The cheapest MP to end in each bow hex, any facing (the map's shading)."""
        cheapest: dict[Hex, int] = {}
        for reached in self.positions:
            bow = reached.position.bow
            cheapest[bow] = min(reached.mp_cost, cheapest.get(bow, reached.mp_cost))
        return cheapest

    def as_json(self, board: Board) -> list[dict[str, Any]]:
        return [r.as_json(board) for r in self.positions]


# --- the search, common to both rulesets ---------------------------------------------------------


#: A move out of a node: (MP it costs, the action, the node after it).
Moves = Callable[[Node], Iterable[tuple[int, Action, Node]]]


def search(start: Node, key: Callable[[Node], Hashable], moves: Moves[Node],
           mp_left: int) -> Iterator[tuple[Node, int, tuple[Action, ...]]]:
    """Every movement state reachable from `start` with `mp_left` MP, once each, with its cheapest
    cost and one cheapest path (the fewest actions among the cheapest): Dijkstra over `key`, which
    must hold everything besides the MP spent that decides what the ship may still do."""
    tie = count()
    best: dict[Hashable, tuple[int, int]] = {key(start): (0, 0)}
    queue: list[tuple[int, int, int, Node, tuple[Action, ...]]] = [(0, 0, next(tie), start, ())]
    done: set[Hashable] = set()
    while queue:
        cost, length, _, node, path = heapq.heappop(queue)
        here = key(node)
        if here in done:
            continue
        done.add(here)
        yield node, cost, path
        if cost >= mp_left:
            continue
        for mp, action, after in moves(node):
            if cost + mp > mp_left:
                continue
            there = key(after)
            if there in done:
                continue
            rank = (cost + mp, length + 1)
            if rank < best.get(there, (cost + mp + 1, 0)):
                best[there] = rank
                heapq.heappush(queue, (rank[0], rank[1], next(tie), after, path + (action,)))


def cheapest_positions(found: Iterable[Reached]) -> tuple[Reached, ...]:
    """One entry per end position, its cheapest (then shortest) way; cheapest first."""
    kept: dict[Position, Reached] = {}
    for reached in found:
        old = kept.get(reached.position)
        if old is None or (reached.mp_cost, len(reached.path)) < (old.mp_cost, len(old.path)):
            kept[reached.position] = reached
    return tuple(sorted(kept.values(), key=_order))


def _order(reached: Reached) -> tuple[int, int, int, int, bool]:
    bow = reached.position.bow
    return reached.mp_cost, bow.column, bow.row, reached.position.facing, reached.position.moved


# --- Quick-Start ---------------------------------------------------------------------------------

#: The counters of a ship's move that decide its further steps (besides where it stands and its MP),
#: the hex counts kept only up to the card's number: `step_problem` and H3's `turn_problem` compare
#: them with it and nothing else reads them.
COUNTERS = ("entered_since_turn", "turned_in_this_hex", "moved", "turn_declared", "entered_since_declared",
            "declared_side")
Counters = tuple[Any, ...]
#: A node of the Quick-Start search: where the ship stands (its number in `_Places`), and its counters.
Mover = tuple[int, Counters]
#: The board the rules are asked on: room for any ship to step anywhere (its edge is checked apart).
_OPEN_BOARD = Board(columns=MAX_SIDE, rows=MAX_SIDE)
_MIDDLE = Hex.at(MAX_SIDE // 2, MAX_SIDE // 2)


def reach(state: GameState, ship_id: str) -> Reach:
    """Every end position of a Quick-Start ship this turn (issue 17), from where it stands with
    the MP it has left; Refusal in plain words for a ship that has left play."""
    ship = state.ship(ship_id)
    if ship.removed:
        raise Refusal(f"{ship.card.name} has left play ({ship.destruction or 'removed'})")
    need = ship.card.enter_hexes_before_turn
    places = _Places(state.board, ship.placement)
    start: Mover = (0, _counters(ship, need))
    moves = _quick_start_moves(state, ship, need, places) if not ship.move_done else _no_moves
    held = _held_hexes(state, ship)
    board = state.board
    found: dict[Position, Reached] = {}
    for (number, counters), cost, path in search(start, _same, moves, ship.mp_left):
        placement = places.placements[number]
        position = Position(placement.bow, placement.facing, counters[2])
        if position in found:
            continue
        cells = places.hexes[number]
        if held.isdisjoint(cells):
            half = any(board.in_half_hex_ring(c) for c in cells)  # movement.half_hex_loss
            found[position] = Reached(position, cost, path, half)
    return Reach(ship.id, 0 if ship.move_done else ship.mp_left, cheapest_positions(found.values()))


def ship_after(state: GameState, ship_id: str, path: Iterable[Action]) -> ShipState:
    """The ship as a path leaves it, each action made by the engine's own rules (`take_step`,
    H3's `after_step`, `declare_turn`, `cancel_turn`); Refusal if the path is illegal.  The app
    places it (`state.with_ship`) to show what its guns would then reach."""
    ship = state.ship(ship_id)
    for action in path:
        ship = _follow(state, ship, action, state.board)
    return ship


def state_after(state: GameState, ship_id: str, path: Iterable[Action]) -> GameState:
    """The game with the ship where a path leaves it: `combat.firing_solutions(state_after(...),
    ship_id)` is what each of its guns could then do, with the odds (the "Move there" preview)."""
    moved: GameState = state.with_ship(ship_after(state, ship_id, path))
    return moved


def trail(state: GameState, ship_id: str, path: Sequence[Mapping[str, Any]]) -> tuple[tuple[Hex, int], ...]:
    """Where the bow stands and faces after each action of a path, the start first (the path the
    planner draws on the map): `ship_after` of each prefix."""
    actions = [dict(action) for action in path]
    points = [ship_after(state, ship_id, actions[:n]) for n in range(len(actions) + 1)]
    return tuple((ship.bow, ship.facing) for ship in points)


def _same(node: Mover) -> Hashable:
    return node


def _counters(ship: ShipState, need: int) -> Counters:
    values = [getattr(ship, name) for name in COUNTERS]
    values[0], values[4] = min(values[0], need), min(values[4], need)
    return tuple(values)


def _held_hexes(state: GameState, ship: ShipState) -> set[Hex]:
    """The hexes other ships in play hold: `movement.stacking_problem`'s test, indexed once."""
    return {cell for other in state.active_ships if other.id != ship.id for cell in other.hexes}


def _no_moves(node: Mover) -> Iterator[tuple[int, Action, Mover]]:
    return iter(())


def _follow(state: GameState, ship: ShipState, action: Action, board: Board) -> ShipState:
    """One action of a path made by the engine's own rules; Refusal when they forbid it."""
    kind = action["kind"]
    if kind == "step":
        step: StepKind = action["step"]
        problem = step_problem(ship, step, board) or H3.turn_problem(state, ship, step)
        if problem:
            raise Refusal(problem)
        return H3.after_step(state, take_step(ship, step, board), step)
    work = Work(state.with_ship(ship))
    if kind == "declare_turn":
        H3.declare_turn(work, A.DeclareTurn.model_validate(action), movement_rule=_anyone_moves)
    elif kind == "cancel_turn":
        H3.cancel_turn(work, A.CancelTurn.model_validate(action), movement_rule=_anyone_moves)
    else:
        raise Refusal(f"not a move: {kind}")
    moved: ShipState = work.state.ship(ship.id)
    return moved


def _anyone_moves(work: Work[GameState], ship: ShipState) -> None:
    """The planner does not ask whose move it is (the module's docstring)."""


class _Places:
    """The placements a search meets, numbered (a number hashes faster than a placement), and
    where each step puts each of them: `Placement.forward` and `Placement.turned`, -1 when any
    part would stand beyond the labelled hexes (as `step_problem` checks the board's edge)."""

    def __init__(self, board: Board, start: Placement):
        self.board = board
        self.placements = [start]
        self.hexes = [start.hexes]
        self.numbers = {start: 0}
        self.steps: dict[tuple[int, str], int] = {}

    def stepped(self, number: int, step: str) -> int:
        found = self.steps.get((number, step))
        if found is None:
            placement = self.placements[number]
            found = self._number(placement.forward() if step == "forward" else placement.turned(TURNS[step]))
            self.steps[number, step] = found
        return found

    def _number(self, placement: Placement) -> int:
        number = self.numbers.get(placement)
        if number is None:
            cells = placement.hexes
            number = len(self.placements) if all(self.board.contains(c) for c in cells) else -1
            self.numbers[placement] = number
            if number >= 0:
                self.placements.append(placement)
                self.hexes.append(cells)
        return number


def _quick_start_moves(state: GameState, ship: ShipState, need: int, places: _Places) -> Moves[Mover]:
    """The moves out of a node: each action's rule asked once per counters (on the ship moved to
    an open board, so only the counters decide), then its geometry (`Placement.forward`,
    `Placement.turned`) checked against the board's edge as `step_problem` checks it."""
    rules = _rules_state(state, ship)
    actions = _actions(state, ship.id)
    known: dict[Counters, list[tuple[int, Action, Counters, str | None]]] = {}

    def allowed(counters: Counters) -> list[tuple[int, Action, Counters, str | None]]:
        """The actions the rules allow with these counters: (MP, action, counters after, step)."""
        found = known.get(counters)
        if found is None:
            found = known[counters] = [
                (mp, action, after, action.get("step"))
                for mp, action, after in (_transition(rules, ship.id, counters, action, need) for action in actions)
                if mp >= 0]
        return found

    def moves(node: Mover) -> Iterator[tuple[int, Action, Mover]]:
        number, counters = node
        for mp, action, after, step in allowed(counters):
            if step is None:
                yield mp, action, (number, after)
                continue
            moved = places.stepped(number, step)
            if moved >= 0:
                yield mp, action, (moved, after)

    return moves


def _rules_state(state: GameState, ship: ShipState) -> GameState:
    """The game with only this ship, in the middle of an open board, its rules checked (not
    bookkeeping): where the counters' rules are asked."""
    settings = state.settings.model_copy(update={"bookkeeping": False})
    middle = ship.at(Placement(_MIDDLE, ship.facing, ship.card.type, ship.one_hex), turn_mp=1, mp_spent=0)
    return state.model_copy(update={"board": _OPEN_BOARD, "ships": [middle], "settings": settings})


def _actions(state: GameState, ship_id: str) -> list[Action]:
    """Every action of a move: the three steps, and under H3 the declarations and the cancel."""
    actions: list[Action] = [{"kind": "step", "ship": ship_id, "step": step} for step in STEPS]
    if H3.in_use(state):
        sides: tuple[str | None, ...] = ("port", "starboard") if state.house_rules.declare_direction else (None,)
        actions += [{"kind": "declare_turn", "ship": ship_id, **({"side": side} if side else {})} for side in sides]
        if state.house_rules.declare_direction:  # cancelling (1 MP) is worth it only to declare the other side
            actions.append({"kind": "cancel_turn", "ship": ship_id})
    return actions


def _transition(rules: GameState, ship_id: str, counters: Counters, action: Action,
                need: int) -> tuple[int, Action, Counters]:
    """What one action does to a ship's counters, and its MP (-1: the rules forbid it)."""
    ship = rules.ship(ship_id).model_copy(update=dict(zip(COUNTERS, counters)))
    try:
        after = _follow(rules, ship, action, rules.board)
    except Refusal:
        return -1, action, counters
    return after.mp_spent - ship.mp_spent, action, _counters(after, need)
