"""House rules H1 "unit initiative" and H2 "seize the initiative" (seed 002:2-16, house-rules.md 4-5).

H1: "Each unit rolls 1d10 for initiative" plus its class modifier (`002:2`);
"Units move in sequence from highest initiative number to the lowest. Ties are
re-rolled once; if the units tie once again ... they move simultaneously. Each
player secretly records where their units will end up" (`002:16`).  H2: "a
unit of a lower initiative ranking ... may ... 'seize the initiative.' That
unit then immediately moves, after which the regular sequence continues"
(`002:16`).  game.py routes its turn order here only when the house rule is
on; with it off nothing here runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from itertools import groupby
from typing import Any

from . import actions as A
from .. import common as C
from ..dice import Colour, table_face
from ..kernel import Refusal, RefusalKind, Work
from ..roller import DieRoll, RollerDice, check_face
from .state import GameState, ShipState, UnitInitiative
from .turn import may_move_now as by_type

D10 = Colour.D10
MOVEMENT_OVER = "Movement is over: open fire. All fire is simultaneous."


# --- the roll (house-rules.md 4.2, 4.3) ---------------------------------------------------


def modifier(state: GameState, ship: ShipState) -> int:
    """Class modifier by Quick-Start type (R-H1.1, `002:4-14`) plus the ship's own (R-H1.2)."""
    return state.house_rules.initiative_modifiers.get(ship.card.type, 0) + ship.initiative_modifier


def in_use(work: Work[GameState]) -> None:
    if not work.state.house_rules.unit_initiative:
        raise Refusal("unit initiative is not in use in this game")


def side_initiative(work: Work[GameState]) -> None:
    """Under H1 the side roll (and setting a side by hand) is refused (house-rules.md 4.6)."""
    if work.state.house_rules.unit_initiative:
        raise Refusal("this game uses unit initiative: roll 1d10 for each ship")


def roll_unit_initiative(work: Work[GameState], action: A.RollUnitInitiative) -> None:
    """1d10 + modifier for every ship in play, in `state.ships` order, then the re-rolls of
    every ship tied on its first total, in the same order (house-rules.md 4.3)."""
    in_use(work)
    _initiative_phase(work)
    ships = work.state.active_ships
    roller = RollerDice(work.state.roller)
    if action.faces is not None:
        _check_entered(work.state, action.faces)

    entered = action.faces

    def die(ship: ShipState, which: int) -> DieRoll:
        return roller.take(D10, "initiative") if entered is None else _entered(entered[ship.id][which])

    rolls = [_first(work.state, ship, die(ship, 0)) for ship in ships]
    tied = [group for group in _ties(rolls) if len(group) > 1]
    if action.faces is not None:
        _check_rerolls(work.state, action.faces, tied)
    rerolled = {r.ship for group in tied for r in group}
    rolls = [_reroll(r, die(work.state.ship(r.ship), 1)) if r.ship in rerolled else r for r in rolls]
    if action.faces is None:
        work.update(roller=roller.roller)
    order = move_order(rolls)
    work.event("unit_initiative", f"Unit initiative: {_roll_words(work.state, rolls, 'first')}. "
               f"Move order: {order_words(work.state, order)}.",
               rolls=[r.model_dump(mode="json", exclude={"reroll"}) for r in rolls], order=order)
    if tied:  # the re-roll dice once, in the roller's order (state.ships), so verify reads them as rolled
        again = [r for r in rolls if r.ship in rerolled]
        work.event("initiative_tie", "; ".join(f"{names(work.state, [r.ship for r in group])} tie at "
                                               f"{group[0].first_total}" for group in tied)
                   + f": they roll again: {_roll_words(work.state, again, 'reroll')}.",
                   ships=[r.ship for r in again], groups=[[r.ship for r in group] for group in tied],
                   rerolls={r.ship: r.reroll_total for r in again},
                   dice=[r.reroll.model_dump(mode="json") for r in again if r.reroll])
    _begin_movement(work, order, rolls)


def _initiative_phase(work: Work[GameState]) -> None:
    phase = work.state.phase
    work.rule(None if phase == "initiative" else f"initiative is rolled at the start of a turn, not in {phase}",
              RefusalKind.PHASE)


def _first(state: GameState, ship: ShipState, die: DieRoll) -> UnitInitiative:
    mod = modifier(state, ship)
    return UnitInitiative(ship=ship.id, modifier=mod, first=die, first_total=die.face + mod)


def _reroll(roll: UnitInitiative, die: DieRoll) -> UnitInitiative:
    return roll.model_copy(update={"reroll": die, "reroll_total": die.face + roll.modifier})


def _entered(face: int) -> DieRoll:
    face = table_face(D10, face)
    try:
        check_face(D10, face)
    except ValueError as exc:
        raise Refusal(str(exc)) from None
    return DieRoll(colour=D10, face=face)


def _check_entered(state: GameState, faces: dict[str, list[int]]) -> None:
    """Every ship in play has its first face, and only ships in play are named."""
    active = {s.id for s in state.active_ships}
    unknown = [ship for ship in faces if ship not in active]
    if unknown:
        raise Refusal(f"there is no ship '{unknown[0]}' in play")
    missing = [s.id for s in state.active_ships if not faces.get(s.id)]
    if missing:
        raise Refusal(f"enter 1d10 for every ship in play: {names(state, missing)} "
                      f"{'has' if len(missing) == 1 else 'have'} no face")


def _check_rerolls(state: GameState, faces: dict[str, list[int]], tied: list[list[UnitInitiative]]) -> None:
    """The NeedDice pattern (combat.py): a tie needs a second face for every tied ship (H1-4)."""
    short = [group for group in tied if any(len(faces[r.ship]) < 2 for r in group)]
    if short:
        raise Refusal("; ".join(f"{names(state, [r.ship for r in group])} tie at {group[0].first_total}: "
                                f"roll 1d10 again for each and enter both faces" for group in short))
    rerolled = {r.ship for group in tied for r in group}
    for ship, entered in faces.items():
        if len(entered) > (2 if ship in rerolled else 1):
            name = state.ship(ship).card.name
            raise Refusal(f"{name} is not tied: enter only its first face" if ship not in rerolled
                          else f"{name} re-rolls once: enter two faces")


def _ties(rolls: list[UnitInitiative]) -> list[list[UnitInitiative]]:
    """The rolls grouped by first total, highest first (a stable sort keeps `state.ships` order)."""
    ranked = sorted(rolls, key=lambda r: -r.first_total)
    return [list(group) for _, group in groupby(ranked, key=lambda r: r.first_total)]


def move_order(rolls: list[UnitInitiative]) -> list[list[str]]:
    """Groups by first total, highest first; inside a tie, by re-roll total (R-H1.3: the re-roll
    orders only the tied ships); ships still equal form one simultaneous group (house-rules.md 4.3)."""
    order: list[list[str]] = []
    for group in _ties(rolls):
        ranked = sorted(group, key=lambda r: -(r.reroll_total or 0))
        order += [[r.ship for r in same] for _, same in groupby(ranked, key=lambda r: r.reroll_total)]
    return order


def set_move_order(work: Work[GameState], action: A.SetMoveOrder) -> None:
    """The table decided the order another way: every ship in play named once (house-rules.md 4.6)."""
    in_use(work)
    _initiative_phase(work)
    named = [ship for group in action.order for ship in group]
    active = [s.id for s in work.state.active_ships]
    if any(not group for group in action.order):
        raise Refusal("a group of the move order names no ship")
    for ship in named:
        if ship not in active:
            raise Refusal(f"there is no ship '{ship}' in play")
    twice = sorted({ship for ship in named if named.count(ship) > 1})
    if twice:
        raise Refusal(f"{names(work.state, twice)} named more than once: each ship moves once")
    missing = [ship for ship in active if ship not in named]
    if missing:
        raise Refusal(f"the move order must name every ship in play: {names(work.state, missing)} missing")
    order = [list(group) for group in action.order]
    work.event("move_order", f"Move order set by hand: {order_words(work.state, order)}.", order=order)
    _begin_movement(work, order, [])


def _begin_movement(work: Work[GameState], order: list[list[str]], rolls: list[UnitInitiative]) -> None:
    together = [group for group in order if len(group) > 1]
    if together:
        work.event("simultaneous", "; ".join(f"{names(work.state, g)} move simultaneously" for g in together)
                   + (" (each side records its end position in secret)." if any(_sides(work.state, g) > 1 for g in together)
                      else "."), groups=together)
    work.update(unit_initiative=rolls, move_order=order, movers=[], sealed_moves={}, initiative=None,
                phase="movement")
    settle(work)


# --- words ---------------------------------------------------------------------------------


def names(state: GameState, ships: Iterable[str]) -> str:
    names = [state.ship(s).card.name for s in ships]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _roll_words(state: GameState, rolls: list[UnitInitiative], which: str) -> str:
    def one(r: UnitInitiative) -> str:
        die, total = (r.first, r.first_total) if which == "first" else (r.reroll, r.reroll_total)
        assert die is not None
        return f"{state.ship(r.ship).card.name} d10 {die.face} {r.modifier:+d} = {total}"
    return ", ".join(one(r) for r in rolls)


def order_words(state: GameState, order: list[list[str]]) -> str:
    return "; ".join(names(state, g) + (" (simultaneously)" if len(g) > 1 else "") for g in order)


def initiative_words(state: GameState, ship: str) -> str:
    """`initiative 12`, `initiative 7, re-roll 11`, or `rank 2` when the order was set by hand."""
    roll = next((r for r in state.unit_initiative if r.ship == ship), None)
    if roll is None:
        place = rank(state, ship)
        return "no rank" if place is None else f"rank {place + 1}"
    again = f", re-roll {roll.reroll_total}" if roll.reroll_total is not None else ""
    return f"initiative {roll.first_total}{again}"


def _who(state: GameState, ships: list[str]) -> str:
    return f"{names(state, ships)} ({initiative_words(state, ships[0])})"


# --- the order of movement (house-rules.md 4.4, 5.3) ------------------------------------------


def rank(state: GameState, ship: str) -> int | None:
    """The index of the ship's group in the move order (0 moves first); ships of a group share it."""
    return next((n for n, group in enumerate(state.move_order) if ship in group), None)


def _waiting(state: GameState, group: list[str]) -> list[ShipState]:
    ships = (state.ship(s) for s in group if state.has_ship(s))
    return [s for s in ships if not s.removed and not s.move_done]


def group_to_move(state: GameState) -> list[str] | None:
    """The ships still to move of the first group in the move order with any (the regular sequence)."""
    return next(([s.id for s in waiting] for group in state.move_order if (waiting := _waiting(state, group))), None)


def order_now(state: GameState) -> list[list[str]]:
    """The order still to come, as the table plays it: the ships that seized the initiative (H2) first,
    the latest on top of the mover stack (house-rules.md 5.3), then the rolled order's groups, each
    without the ships that have moved or seized."""
    seized = [[m] for m in reversed(state.movers) if _waiting(state, [m])]
    rest = [ids for group in state.move_order
            if (ids := [s.id for s in _waiting(state, group) if s.id not in state.movers])]
    return seized + rest


def to_move(state: GameState) -> list[str] | None:
    """Who moves now: the top of the mover stack (H2), else the regular group; None when movement is over."""
    return [state.movers[-1]] if state.movers else group_to_move(state)


def _sides(state: GameState, ships: list[str]) -> int:
    return len({state.ship(s).side for s in ships})


def needs_records(state: GameState, group: list[str]) -> bool:
    """A simultaneous group of two or more sides moves by secret records (R-H1.4)."""
    return len(group) > 1 and _sides(state, group) > 1


def records_end_position(state: GameState, ship: ShipState) -> bool:
    """This ship, moving now in a simultaneous group of two sides, records its end position in
    secret instead of stepping (R-H1.4)."""
    if state.phase != "movement" or not state.house_rules.unit_initiative or ship.move_done:
        return False
    group = to_move(state) or []
    return ship.id in group and needs_records(state, group)


def may_move_now(state: GameState, ship: ShipState) -> str | None:
    """Why this ship may not step, turn, be placed or end its move now (None when it may)."""
    name = ship.card.name
    if ship.move_done:
        return f"{name} has finished its move this turn"
    if state.movers:
        top = state.movers[-1]
        if ship.id == top:
            return None
        if ship.id in state.movers:
            return f"{name} is paused: it resumes when {state.ship(top).card.name} ends its move"
        return f"{_who(state, [top])} moves now; {_who(state, [ship.id])} moves later"
    group = group_to_move(state)
    if group is None:
        return "movement is over for this turn"
    if ship.id not in group:
        return f"{_who(state, group)} {'moves' if len(group) == 1 else 'move'} now; {_who(state, [ship.id])} moves later"
    if needs_records(state, group):
        return f"{names(state, group)} move simultaneously: record their end positions"
    begun = [s for s in group if s != ship.id and _begun(state.ship(s))]
    if begun:
        return f"{names(state, begun)} is moving: each ship of a group ends its move before the next begins"
    return None


def move_order_problem(state: GameState, ship: ShipState) -> str | None:
    """Why this ship may not move now in the game's move order: by unit initiative under house
    rule H1 (`002:16`), else Quick-Start's by type, initiative loser first (seed 001 "Movement")."""
    return may_move_now(state, ship) if state.house_rules.unit_initiative else by_type(state, ship)


def _begun(ship: ShipState) -> bool:
    return ship.mp_spent > 0 or ship.moved


def movement_rule(work: Work[GameState], ship: ShipState) -> None:
    """The move order (`move_order_problem`); under H2 a ship's first movement action puts it on
    the mover stack (house-rules.md 5.3)."""
    work.rule(move_order_problem(work.state, ship), RefusalKind.TURN)
    state = work.state
    if state.house_rules.seize_initiative and ship.id not in state.movers and not ship.move_done:
        work.update(movers=[*state.movers, ship.id])


def settle(work: Work[GameState]) -> None:
    """After any change of movement: ships that ended their move leave the mover stack, a paused
    ship back on top resumes (event `resume`), and combat begins once no ship is left to move."""
    state = work.state
    movers = [m for m in state.movers if state.has_ship(m) and not state.ship(m).move_done
              and not state.ship(m).removed]
    if movers != state.movers:
        work.update(movers=movers)
        if movers and movers[-1] != state.movers[-1]:
            top = work.state.ship(movers[-1])
            work.event("resume", f"{top.card.name} resumes its move ({top.mp_left} MP left).", ship=top.id)
    C.movement_over(work, to_move(work.state) is None, MOVEMENT_OVER)


def discard_records(work: Work[GameState]) -> None:
    """`end_movement` under H1: records not yet revealed are discarded, and said so (house-rules.md 4.4)."""
    sealed = list(work.state.sealed_moves)
    if sealed:
        work.update(sealed_moves={})
        work.event("records_discarded", f"Movement ends: the sealed records of {names(work.state, sealed)} "
                   "are discarded unrevealed.", ships=sealed)


def end_turn(work: Work[GameState]) -> None:
    """The turn's rolls, order, mover stack and records go (house-rules.md 4.7)."""
    work.update(unit_initiative=[], move_order=[], movers=[], sealed_moves={})


# --- H2: seize the initiative (house-rules.md 5) ------------------------------------------------


def seize_problem(state: GameState, ship: ShipState) -> tuple[str, bool] | None:
    """Why this ship may not seize now, and whether a bookkeeping table may still do it; None when it may."""
    name = ship.card.name
    if not state.house_rules.seize_initiative:
        return "seize the initiative is not in use in this game", False
    if state.phase != "movement":
        return f"the initiative is seized during movement (now: {state.phase})", False
    if ship.removed:
        return f"{name} has left play", False
    if ship.move_done:
        return f"{name} has already moved this turn: a ship moves once per turn", False
    if ship.id in state.movers:
        return f"{name} is already moving", False
    if ship.id in state.sealed_moves:
        return f"{name} has recorded its move: it moves with its group", True
    current = to_move(state)
    if current is None:
        return "movement is over for this turn", False
    mine, theirs = rank(state, ship.id), rank(state, current[0])
    if mine is None:
        return f"{name} has no place in the move order", False
    if theirs is not None and mine <= theirs:
        return (f"{_who(state, [ship.id])} is not ranked lower than {_who(state, current)}, which "
                f"{'is' if len(current) == 1 else 'are'} moving now"), True
    return None


def seize_initiative(work: Work[GameState], action: A.SeizeInitiative) -> None:
    """The ship goes on top of the mover stack and moves now (`002:16`, house-rules.md 5.2)."""
    ship = work.ship(action.ship)
    problem = seize_problem(work.state, ship)
    if problem is not None:
        reason, may_warn = problem
        if not may_warn:
            raise Refusal(reason, RefusalKind.PHASE if work.state.phase != "movement" else RefusalKind.ILLEGAL)
        work.rule(reason)
    current = to_move(work.state) or []
    work.update(movers=[*work.state.movers, ship.id])
    work.event("seize", f"{_who(work.state, [ship.id])} seizes the initiative from {_who(work.state, current)} "
               "and moves now.", **{"ship": ship.id, "from": current[0] if current else None})


# --- odds (house-rules.md 4.10) ----------------------------------------------------------------


def moves_before(a: int, b: int) -> tuple[Fraction, Fraction, Fraction]:
    """(A moves first, simultaneous, B moves first) for ships of modifiers `a` and `b`: D = A's d10
    minus B's has P(D = d) = (10 - |d|)/100; a tie on the first roll is re-rolled once."""
    k = a - b
    p = {d: Fraction(10 - abs(d), 100) for d in range(-9, 10)}
    first = sum((q for d, q in p.items() if d > -k), Fraction(0))
    tie = p.get(-k, Fraction(0))
    second = 1 - first - tie
    return first + tie * first, tie * tie, second + tie * second


# --- options (the candidates of quick_start.py) --------------------------------------------------


def candidates(state: GameState, side: str | None,
               plain: Callable[[GameState, str | None], Iterable[dict[str, Any]]]) -> Iterator[dict[str, Any]]:
    """The plain candidates with the H1 roll instead of the side roll, then every possible seizure
    (the records of a simultaneous group: secret_moves.record_candidates)."""
    for action in plain(state, side):
        yield {"kind": "roll_unit_initiative"} if action["kind"] == "roll_initiative" else action
    if state.phase != "movement":
        return
    mine = [s for s in state.active_ships if side is None or s.side == side]
    for ship in mine:
        if state.house_rules.seize_initiative and seize_problem(state, ship) is None:
            yield {"kind": "seize_initiative", "ship": ship.id}
