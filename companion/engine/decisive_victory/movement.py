"""Decisive Victory: movement (spec §7): batches, speed modes, turning, close action, end of moves.

The app records what a ship did at the table (`move {inches, turns}`) and
checks it against the seed's numbers: the speed band (`003:44`), a turn per
2" moved costing 1" (`003:45`), the carried turn (`003:46`), damaged turning
and engines (`003:118`, `003:120`), and close action with its collision dice
(`003:161`).  Angles and positions stay at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor
from typing import Literal

from ..cards import StrictModel
from ..common import EndMove, EndMovement, _Action, rolled
from ..dice import Colour
from ..kernel import Handler, Refusal, Work
from ..roller import DiceSource, DieRoll
from .batches import batch_problem, next_batch, opening_batch
from .command import effective_status, pay
from .inches import Inches, inches_text
from .state import Batch, DVShip, DVState, SpeedMode

#: Degrees a turn may take, by turning class (`003:45`).
ANGLE = {1: 45, 2: 90, 3: 180, 4: 360}


@dataclass(frozen=True)
class MoveLimits:
    """What the app computes for a ship's move (§7.5)."""

    mode: SpeedMode
    speed: int            # S: the maximum speed now (halved with damaged engines, 0 when disabled)
    allowance: int        # inches the mode allows, turn costs included
    minimum: int          # inches (turn costs included) a full-speed move must spend [R-15]
    turn_cost: int        # 1", 2" with damaged turning
    turning_class: int    # one lower with damaged turning, not below 1
    angle: int            # degrees a turn may take
    spent: Inches         # inches moved plus turn costs so far
    carried: bool         # a turn carried from last turn may be made before moving 2"
    rudder: str           # free, ahead, port or starboard
    turns: int            # turns made so far (the Evasive Maneuvers count)

    @property
    def left(self) -> Inches:
        return max(Fraction(0), self.allowance - self.spent)


def max_speed(state: DVState, ship: DVShip) -> int:
    """S: the record's speed, halved (rounded up) with damaged engines, 0 with disabled (`003:120`)."""
    status = effective_status(state, ship, "Speed")
    return 0 if status == "disabled" else ceil(ship.record.speed / 2) if status == "damaged" else ship.record.speed


def movement_limits(state: DVState, ship: DVShip) -> MoveLimits:
    """A ship's move limits now (§7.2-7.5)."""
    s = max_speed(state, ship)
    band = {"full": (ceil(Fraction(s, 2)), s), "half": (0, ceil(Fraction(s, 2))), "stop": (0, 0)}[ship.speed_mode]
    turning = effective_status(state, ship, "Turn")
    cost = 2 if turning == "damaged" else 1
    cls = max(1, ship.record.turning_class - 1) if turning == "damaged" else ship.record.turning_class
    return MoveLimits(mode=ship.speed_mode, speed=s, minimum=band[0], allowance=band[1], turn_cost=cost,
                      turning_class=cls, angle=ANGLE[cls], spent=ship.inches_moved + ship.turns_made * cost,
                      carried=ship.turn_carried, rudder=ship.rudder, turns=ship.turns_made)


def _to_move(state: DVState) -> set[str]:
    return {s.id for s in state.ships if s.in_play and not s.move_done}


def begin_movement(work: Work[DVState], first: str | None = None) -> None:
    """Enter the movement phase: the initiative loser's batch first (`003:43`)."""
    if first is None:
        first = next((s for s in work.state.sides if s != work.state.initiative), work.state.sides[0])
    work.update(phase="movement", batch=opening_batch(work.state, first, _to_move(work.state)))
    work.event("phase", f"Turn {work.state.turn}: movement.", phase="movement")
    _tell_batch(work)
    if work.state.batch is None:
        _movement_over(work)


def _tell_batch(work: Work[DVState]) -> None:
    batch = work.state.batch
    if batch is not None:
        work.event("batch", f"{batch.side} moves up to {batch.left} ship{'s' * (batch.left != 1)}.",
                   side=batch.side, left=batch.left)


def _movement_over(work: Work[DVState]) -> None:
    """No ship is left to move: attacks, the initiative winner's batch first (`003:50`)."""
    ready = {s.id for s in work.state.ships if s.in_play}
    first = work.state.initiative or work.state.sides[0]
    work.update(phase="attacks", batch=opening_batch(work.state, first, ready))
    work.event("phase", f"Turn {work.state.turn}: attacks.", phase="attacks")


def _mover(work: Work[DVState], ship_id: str, doing: str) -> DVShip:
    """The ship named, which must be one of the batch's still to move."""
    work.phase("movement", doing=doing)
    ship: DVShip = work.ship(ship_id)
    if not ship.in_play:
        raise Refusal(f"{ship.label} is no longer in play")
    if ship.move_done:
        work.rule(f"{ship.label} has finished its move this turn")
    work.rule(batch_problem(work.state, work.state.batch, ship, "moving"))
    return ship


# --- speed ---------------------------------------------------------------------------------------

class SetSpeed(_Action):
    kind: Literal["set_speed"] = "set_speed"
    ship: str
    mode: SpeedMode


_CHANGES = {"full": {"half"}, "half": {"full", "stop"}, "stop": {"half"}}


def speed_problem(state: DVState, ship: DVShip, mode: SpeedMode) -> str | None:
    """Why the ship may not change to `mode` now (§7.2, [R-14]), in words."""
    if mode == ship.speed_mode:
        return f"{ship.label} is already at {mode} speed"
    if ship.mode_changed:
        return f"{ship.label} has already changed speed this move"
    if ship.inches_moved or ship.turns_made:
        return f"{ship.label} changes speed at the beginning of its move, not after moving"
    allowed = set(_CHANGES[ship.speed_mode])
    if ship.speed_mode == "full" and effective_status(state, ship, "Speed") in ("damaged", "disabled"):
        allowed.add("stop")
    if mode not in allowed:
        return (f"{ship.label} cannot go from {ship.speed_mode} speed to {mode}: "
                f"it must change to half speed first")
    return None


def _set_speed(work: Work[DVState], action: SetSpeed) -> None:
    ship = _mover(work, action.ship, "speed is changed")
    work.rule(speed_problem(work.state, ship, action.mode))
    work.state = work.state.with_ship(ship.model_copy(update={"speed_mode": action.mode, "mode_changed": True}))
    work.event("speed", f"{ship.label} goes to {action.mode} speed.", ship=ship.id, mode=action.mode)


# --- moving --------------------------------------------------------------------------------------

class Move(_Action):
    """What the ship did at the table: `inches` moved and `turns` made (§7.3); with `end`, the ship's
    move ends there too, as `end_move` would end it (End movement's "Move X ahead", issue 35)."""

    kind: Literal["move"] = "move"
    ship: str
    inches: Inches
    turns: int = 0
    use_carried_turn: bool = False
    end: bool = False


def move_problem(state: DVState, ship: DVShip, inches: Fraction, turns: int, use_carried: bool) -> str | None:
    """Why the move (added to what the ship moved already this turn) breaks §7.2-7.3, in words."""
    if inches < 0 or turns < 0:
        return "inches and turns are counted from 0"
    if use_carried and not ship.turn_carried:
        return f"{ship.label} has no turn carried from last turn"
    limits = movement_limits(state, ship)
    total, made = ship.inches_moved + inches, ship.turns_made + turns
    spent = total + made * limits.turn_cost
    if limits.speed == 0 and (inches or turns):
        return f"{ship.label}'s engines are destroyed: it cannot move at all"
    if spent > limits.allowance:
        return (f"{inches_text(total)}\" and {made} turn{'s' * (made != 1)} spend {inches_text(spent)}\": "
                f"{limits.mode} speed allows {limits.allowance}\"")
    carried = 1 if ship.turn_carried else 0
    if made > floor(total / 2) + carried:
        return (f"{made - carried} turn{'s' * (made - carried != 1)} need {2 * (made - carried)}\" moved; "
                f"{inches_text(total)}\" were moved")
    if ship.rudder == "ahead" and turns:
        return f"{ship.label}'s rudder is locked ahead: it cannot turn"
    return None


def _move(work: Work[DVState], action: Move) -> None:
    ship = _mover(work, action.ship, "ships move")
    work.rule(move_problem(work.state, ship, action.inches, action.turns, action.use_carried_turn))
    moved = ship.model_copy(update={"inches_moved": ship.inches_moved + action.inches,
                                    "turns_made": ship.turns_made + action.turns})
    work.state = work.state.with_ship(moved)
    if ship.rudder in ("port", "starboard") and moved.turns_made < floor(moved.inches_moved / 2):
        work.event("warning", f"{ship.label}'s rudder is locked to {ship.rudder}: it must turn 45° that way "
                   "whenever possible (003:118).", ship=ship.id)
    work.event("move", f"{ship.label} moves {inches_text(action.inches)}\""
               + (f" and turns {action.turns} time{'s' * (action.turns != 1)}" if action.turns else "") + ".",
               ship=ship.id, inches=inches_text(action.inches), turns=action.turns)
    if action.end:
        _end_move(work, EndMove(ship=ship.id))


# --- close action --------------------------------------------------------------------------------

class CollisionDice(StrictModel):
    """Collision dice rolled at the table: `ship`'s CR d6 at the other, and `other`'s at the ship."""

    ship: list[int] = []
    other: list[int] = []


class CloseAction(_Action):
    """A moving ship came within 1" of another (§7.6): one of them pays 1 CP, or they collide."""

    kind: Literal["close_action"] = "close_action"
    ship: str
    other: str
    paid_by: str | None = None
    table: CollisionDice | None = None
    collision_ratings: dict[str, int] | None = None


def _close_action(work: Work[DVState], action: CloseAction) -> None:
    ship = _mover(work, action.ship, "close action is taken")
    other: DVShip = work.ship(action.other)
    if other.id == ship.id or not other.in_play:
        raise Refusal(f"close action is between {ship.label} and another ship in play")
    if action.paid_by is None:
        _collide(work, ship, other, action)
    else:
        _pay_close_action(work, ship, other, action.paid_by)
    for a, b in ((ship.id, other.id), (other.id, ship.id)):
        now = work.state.ship(a)
        work.state = work.state.with_ship(now.model_copy(update={"close_action_with": now.close_action_with | {b}}))


def _pay_close_action(work: Work[DVState], ship: DVShip, other: DVShip, paid_by: str) -> None:
    payer: DVShip = work.ship(paid_by)
    owner = ship if payer.side == ship.side else other
    if payer.id not in (ship.id, other.id) and not payer.flagship:
        raise Refusal(f"{payer.label} may not pay: either ship, or its side's flagship, pays for close action")
    pay(work, owner if payer.id not in (ship.id, other.id) else payer, payer.id, 1, "Close Action")
    work.event("close_action", f"{ship.label} and {other.label} are in close action ({payer.label} pays 1 CP).",
               ship=ship.id, other=other.id, paid_by=payer.id)


def _rating(ship: DVShip, given: dict[str, int] | None) -> int:
    rating = (given or {}).get(ship.id, ship.record.collision_rating)
    if rating is None:
        raise Refusal(f"{ship.label} has no collision rating (CR) on its record: enter it in collision_ratings")
    return rating


def _collide(work: Work[DVState], ship: DVShip, other: DVShip, action: CloseAction) -> None:
    """A collision: each ship rolls its CR in d6 at the other, each 4+ a damage point [R-19]."""
    cr = (_rating(ship, action.collision_ratings), _rating(other, action.collision_ratings))
    needs = {"ship": f"{ship.label}'s collision dice ({cr[0]} D6)", "other": f"{other.label}'s collision dice ({cr[1]} D6)"}

    def roll(dice: DiceSource) -> tuple[list[DieRoll], list[DieRoll]]:
        return ([dice.take(Colour.D6, "ship") for _ in range(cr[0])], [dice.take(Colour.D6, "other") for _ in range(cr[1])])

    at_other, at_ship = rolled(work, action.table, needs, roll)
    for rolls, target in ((at_other, other), (at_ship, ship)):
        points = sum(1 for r in rolls if r.face >= 4)
        now = work.state.ship(target.id)
        work.state = work.state.with_ship(now.model_copy(update={"damage_points": now.damage_points + points}))
        work.event("collision", f"Collision: {target.label} takes {points} damage point{'s' * (points != 1)} "
                   f"({', '.join(str(r.face) for r in rolls) or 'no dice'}).", ship=target.id, points=points,
                   dice=[{"colour": "D6", "face": r.face} for r in rolls])


# --- end of moves --------------------------------------------------------------------------------

def end_move_problem(state: DVState, ship: DVShip) -> str | None:
    """A full-speed move must spend at least half the speed (§7.2, [R-15])."""
    limits = movement_limits(state, ship)
    if limits.mode == "full" and limits.spent < limits.minimum:
        return (f"a full-speed move of {limits.speed}\" needs at least {limits.minimum}\": "
                f"{ship.label} spent {inches_text(limits.spent)}\"")
    return None


def _carries(state: DVState, ship: DVShip) -> bool:
    """Whether a ship ending its move may turn at the start of its next (`003:46`, [R-16]): 2" moved
    since its last turn and no inch left to pay for a turn."""
    limits = movement_limits(state, ship)
    used = max(0, ship.turns_made - (1 if ship.turn_carried else 0))
    since_turn = ship.inches_moved - 2 * used
    return ship.rudder != "ahead" and since_turn >= 2 and limits.left < limits.turn_cost


def _finish(work: Work[DVState], ship: DVShip) -> None:
    carried = _carries(work.state, ship)
    work.state = work.state.with_ship(ship.model_copy(update={"move_done": True, "turn_carried": carried}))
    work.event("end_move", f"{ship.label} ends its move" + (" (a turn carried to next turn)." if carried else "."),
               ship=ship.id, turn_carried=carried)


def _end_move(work: Work[DVState], action: EndMove) -> None:
    ship = _mover(work, action.ship, "moves end")
    work.rule(end_move_problem(work.state, ship))
    _finish(work, ship)
    batch = work.state.batch or Batch(side=ship.side, left=1)
    after = next_batch(work.state, batch, _to_move(work.state))
    work.update(batch=after)
    if after is None:
        _movement_over(work)
    elif after.side != batch.side or after.left > batch.left - 1:
        _tell_batch(work)


def _end_movement(work: Work[DVState], action: EndMovement) -> None:
    work.phase("movement", doing="movement ends")
    for ship in [s for s in work.state.ships if s.in_play and not s.move_done]:
        work.rule(end_move_problem(work.state, ship))
        _finish(work, ship)
    work.update(batch=None)
    _movement_over(work)


ACTIONS: tuple[type[_Action], ...] = (SetSpeed, Move, CloseAction, EndMove, EndMovement)
HANDLERS: dict[str, Handler] = {"set_speed": _set_speed, "move": _move, "close_action": _close_action,
                                "end_move": _end_move, "end_movement": _end_movement}
