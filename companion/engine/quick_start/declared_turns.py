"""House rule H3 "declared turns" (seed 002:32-34, shared/spec/house-rules.md 6).

"Frigates, Cruisers and Battleships must declare their turns before they are
allowed to execute them ... once the required amount of hexes ... has been
acquired, the ship may turn" (002:32).  In the Quick-Start game the required
amount is the card's "Enter Hexes Before Turn" number N (001:317, R-H3.1): a
ship with N >= 1 declares (free), enters N hexes, then changes facing one
hexside, which uses up the declaration (R-H3.4).  A ship with N = 0 turns
without declaring.  A cancelled declaration costs the 1 MP the turn would have
cost (002:34, 001:317), nothing at 0 MP (R-H3.2).  Declarations lapse at the
end of the turn (R-H3.3).  `place` is never checked against them (R-H3.7).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from . import actions as A
from ..kernel import Refusal, Work
from .state import GameState, ShipState

#: The game's may-move check (game.py `_movement_rule`, which H1/H2 route), handed in by game.py.
MovementRule = Callable[[Work[GameState], ShipState], None]


def in_use(state: GameState) -> bool:
    return state.house_rules.declared_turns


def must_declare(ship: ShipState) -> bool:
    """R-H3.1: a ship declares when its card's enter-hexes-before-turn number is 1 or more."""
    return ship.card.enter_hexes_before_turn >= 1


def _hexes(n: int) -> str:
    return f"{n} hex{'es' if n != 1 else ''}"


# --- the facing-change condition, and the count of hexes since declaring (6.3 steps 2-4) ---------


def turn_problem(state: GameState, ship: ShipState, step: str) -> str | None:
    """Why H3 forbids this step now (None when it allows it): a facing change needs a pending
    declaration, N hexes entered since it, and (declare_direction) the declared side."""
    if step == "forward" or not in_use(state) or not must_declare(ship):
        return None
    name, need = ship.card.name, ship.card.enter_hexes_before_turn
    if not ship.turn_declared:
        return f"{name} must declare its turn before turning (house rule: declared turns)"
    if ship.entered_since_declared < need:
        return (f"{name} declared its turn {_hexes(ship.entered_since_declared)} ago and must enter "
                f"{_hexes(need)} after declaring before it turns")
    if ship.declared_side is not None and state.house_rules.declare_direction and ship.declared_side != step:
        return f"{name} declared a turn to {ship.declared_side}, not to {step}"
    return None


def after_step(state: GameState, ship: ShipState, step: str) -> ShipState:
    """The ship after a step under H3: a forward step counts a hex since the declaration;
    a facing change uses the declaration up."""
    if not in_use(state):
        return ship
    if step == "forward":
        if not ship.turn_declared:
            return ship
        return ship.model_copy(update={"entered_since_declared": ship.entered_since_declared + 1})
    return ship.model_copy(update={"turn_declared": False, "entered_since_declared": 0, "declared_side": None})


def declared_step(work: Work[GameState], ship: ShipState, moved: ShipState, step: str) -> ShipState:
    """`_step`'s H3 hook: the rule objection for `ship` (before the step), then `moved` as H3 leaves it."""
    work.rule(turn_problem(work.state, ship, step))
    return after_step(work.state, moved, step)


# --- declare and cancel (6.3 step 1, 6.5) -------------------------------------------------------


def _in_use_rule(work: Work[GameState]) -> None:
    if not in_use(work.state):
        raise Refusal("declared turns are not in use in this game")


def declare_turn(work: Work[GameState], action: A.DeclareTurn, movement_rule: MovementRule) -> None:
    """Place the turn marker: free; only the ship that may move now (R-H3.6), N >= 1, none pending."""
    _in_use_rule(work)
    ship: ShipState = work.ship(action.ship)
    movement_rule(work, ship)
    name = ship.card.name
    work.rule(None if must_declare(ship) else f"{name} need not declare: it may turn in any hex")
    work.rule(f"{name} already has a declared turn" if ship.turn_declared else None)
    work.rule(_side_problem(work.state, action.side))
    side = action.side if work.state.house_rules.declare_direction else None
    work.state = work.state.with_ship(ship.model_copy(
        update={"turn_declared": True, "entered_since_declared": 0, "declared_side": side}))
    where = work.state.board.label(ship.bow)
    to = f" to {side}" if side else ""
    work.event("turn_declared", f"{name} declares a turn{to} (marker placed at {where}).",
               ship=ship.id, side=side, bow=where)


def _side_problem(state: GameState, side: str | None) -> str | None:
    """Sub-option declare_direction (6.7): the declaration names its side exactly when it is on."""
    if state.house_rules.declare_direction and side is None:
        return "name the side of the declared turn, port or starboard (house rule: declared turns name their side)"
    if not state.house_rules.declare_direction and side is not None:
        return "a declared turn names no side in this game (declare_direction is off)"
    return None


def cancel_turn(work: Work[GameState], action: A.CancelTurn, movement_rule: MovementRule) -> None:
    """Take the marker back, losing the 1 MP the turn would have cost; nothing at 0 MP (R-H3.2)."""
    _in_use_rule(work)
    ship: ShipState = work.ship(action.ship)
    movement_rule(work, ship)
    name = ship.card.name
    if not ship.turn_declared:
        raise Refusal(f"{name} has no declared turn to cancel")
    lost = 1 if ship.mp_left >= 1 else 0
    cancelled = ship.model_copy(update={"turn_declared": False, "entered_since_declared": 0, "declared_side": None,
                                        "mp_spent": ship.mp_spent + lost})
    work.state = work.state.with_ship(cancelled)
    cost = f"1 MP lost ({cancelled.mp_left} MP left)" if lost else "no MP left to lose"
    work.event("turn_cancelled", f"{name} cancels its declared turn: {cost}.", ship=ship.id, mp_lost=lost)


# --- the end of the turn (6.3 step 7) ------------------------------------------------------------


def lapse_declarations(work: Work[GameState]) -> None:
    """R-H3.3: every declaration still pending lapses at the end of the turn, free
    (`movement.reset_for_turn` clears the marker)."""
    for ship in work.state.ships:
        if ship.turn_declared and not ship.removed:
            work.event("declaration_lapsed", f"{ship.card.name}'s declared turn lapses at the end of the turn.",
                       ship=ship.id)


# --- options (house-rules.md 6.3: `companion options` lists them) ---------------------------------


def candidates(state: GameState, side: str | None) -> Iterator[dict[str, Any]]:
    """In movement under H3: a declaration for each ship that must declare (one per side with
    declare_direction), or the cancel of the one it has pending."""
    if state.phase != "movement" or not in_use(state):
        return
    sides: tuple[str | None, ...] = ("port", "starboard") if state.house_rules.declare_direction else (None,)
    for ship in state.active_ships:
        if (side is not None and ship.side != side) or not must_declare(ship) or ship.move_done:
            continue
        if ship.turn_declared:
            yield {"kind": "cancel_turn", "ship": ship.id}
            continue
        for turn_side in sides:
            yield {"kind": "declare_turn", "ship": ship.id, **({"side": turn_side} if turn_side else {})}
