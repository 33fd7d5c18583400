"""The War Fleet turn sequence (seed 004 "Game Sequence", rules-notes 9).

Set-up: "Each side should roll a d-Black ... Re-roll ties. The loser starts by
placing one of his or her highest class of ships first. Then the side that won
does the same. Set-up alternates back and forth until all ships have been
placed."  Initiative: each side rolls DBlack (or an agreed identical pool),
highest wins, ties re-rolled (table rule `warfleet_initiative`: or the lowest
wins).  Movement: "Players alternate moving ships by
class, highest to lowest, starting with the side that lost Initiative and
ending with the side that won"; a side without ships of a class is skipped.
"""

from __future__ import annotations

from operator import attrgetter

from .. import common as C
from ..quick_start.table_rules import TableRules
from .state import InitiativeRoll, WarFleetState, WarShip

_class = attrgetter("ship_class")  # the rank movement goes by


def ranking(rolls: list[InitiativeRoll], rules: TableRules = TableRules()) -> list[str] | None:
    """Sides from the loser of an initiative or placement roll to the winner, or None when
    any two tie (roll again).

    Table rule `warfleet_initiative`: "highest" (seed 004: "The side with the highest
    result wins") orders them from the lowest total to the highest; "lowest" from the
    highest total to the lowest (the lowest roll wins).
    """
    totals = [r.total for r in rolls]
    if len(set(totals)) != len(totals):
        return None
    lowest_wins = rules.warfleet_initiative == "lowest"
    return [r.side for r in sorted(rolls, key=lambda r: r.total, reverse=lowest_wins)]


def roll_wins(rules: TableRules) -> str:
    """The words after a roll's winner when the table plays the lowest roll wins, else ''."""
    return " (the lowest roll wins at this table)" if rules.warfleet_initiative == "lowest" else ""


# --- set-up ----------------------------------------------------------------------


def placement_sequence(counts: dict[str, int], order: list[str], rules: TableRules = TableRules()) -> list[str]:
    """Which side places each ship, in turn (seed 004 "Signal the Task Force for Formation").

    `order` runs from the placement-roll loser to the winner.  Sides alternate,
    the loser first; a side with no ships left is skipped.  Table rule
    `warfleet_placement` "split" (the app's reading): with two sides where the
    loser has more ships, the loser's ships are divided as evenly as possible
    among the winner's (larger groups last, so the first exchange is still one
    each), so that "the winner of the placement roll always gets to place at
    least one ship last" (the Tip).  "alternate": plain alternation always.
    """
    split = rules.warfleet_placement == "split"
    if split and len(order) == 2 and counts.get(order[0], 0) > counts.get(order[1], 0) > 0:
        loser, winner = order
        groups, extra = divmod(counts[loser], counts[winner])
        sequence: list[str] = []
        for i in range(counts[winner]):
            sequence += [loser] * (groups + (1 if i >= counts[winner] - extra else 0)) + [winner]
        return sequence
    left = {side: counts.get(side, 0) for side in order}
    sequence = []
    while any(left.values()):
        for side in order:
            if left[side]:
                sequence.append(side)
                left[side] -= 1
    return sequence


def placement_order(state: WarFleetState) -> list[str]:
    """Sides from the placement-roll loser to the winner."""
    if state.placement_order:
        return [s for s in state.placement_order if s in state.sides]
    order = list(state.sides)
    if state.placement_first in order:
        order.remove(state.placement_first)
        order.insert(0, state.placement_first)
    return order


def to_place(state: WarFleetState) -> tuple[str, int] | None:
    """(side, class) that places a ship now, or None when every ship is placed.

    Ships placed out of turn (by hand) use up that side's next turn to place.
    A side places its highest class first.
    """
    ships = [s for s in state.ships if not s.removed]
    waiting = [s for s in ships if not s.placed]
    if not waiting:
        return None
    order = placement_order(state)
    counts = {side: sum(1 for s in ships if s.side == side) for side in order}
    placed = {side: sum(1 for s in ships if s.side == side and s.placed) for side in order}
    for side in placement_sequence(counts, order, state.settings.table_rules):
        if placed[side]:
            placed[side] -= 1
            continue
        top = max(s.ship_class for s in waiting if s.side == side)
        return side, top
    side = waiting[0].side  # a ship of a side the order does not know
    return side, max(s.ship_class for s in waiting if s.side == side)


def placement_problem(state: WarFleetState, ship: WarShip) -> str | None:
    """Why this ship may not be placed now (set-up), or None."""
    if state.placement_first is None:
        return "roll for placement first: the loser places first"
    if ship.placed:
        return f"{ship.name} is already placed"
    turn = to_place(state)
    if turn is None:
        return "every ship is placed"
    side, ship_class = turn
    if ship.side != side:
        return f"{side} places a ship now (set-up alternates, the placement-roll loser first)"
    if ship.ship_class != ship_class:
        return f"{side} must place a class {ship_class} ship first (highest class first)"
    return None


# --- movement ----------------------------------------------------------------------


def movers(state: WarFleetState) -> list[WarShip]:
    return [s for s in state.active_ships if s.placed and s.pocket is None]


def movement_groups(state: WarFleetState) -> list[tuple[str, int]]:
    """(side, class) in moving order: highest class first, initiative loser first."""
    return C.movement_groups(movers(state), list(state.initiative_order) or list(state.sides), _class)


def to_move(state: WarFleetState) -> tuple[str, int] | None:
    """The (side, class) group that moves now, or None when movement is over."""
    return C.first_to_move(movers(state), movement_groups(state), _class)


def may_move_now(state: WarFleetState, ship: WarShip) -> str | None:
    """Why this ship may not move now, or None."""
    return C.may_move_problem(ship, ship.name, to_move(state), ship.ship_class,
                              "{}: class {} ships move now (by class from the highest, initiative loser first)")


def step_problem(ship: WarShip) -> str | None:
    if ship.mp_left < 1:
        if ship.rear_destroyed:
            return f"{ship.name}'s rear is destroyed: MP 0"
        return f"{ship.name} has no MP left ({ship.mp} MP this turn, all spent)"
    return None


def pivot_problem(ship: WarShip) -> str | None:
    """Seed 004: "A ship that hasn't spent MP that turn may sacrifice all its MP to
    turn and face any direction"; with MP 0 there is nothing to sacrifice."""
    if ship.mp_spent:
        return f"{ship.name} has already spent MP this turn: only a ship that has not moved may pivot"
    if ship.mp < 1:
        return f"{ship.name} has no MP to sacrifice" + (" (rear destroyed)" if ship.rear_destroyed else "")
    return None


def reset_for_turn(ship: WarShip) -> WarShip:
    return ship.model_copy(update={"mp_spent": 0, "pivoted": False, "move_done": False, "pocket": None})


# --- game end ------------------------------------------------------------------------


def game_end(state: WarFleetState) -> tuple[str, str | None] | None:
    """(result, winner or None for a draw) when a side has no ships left."""
    beaten = [side for side in state.sides if not any(s.side == side for s in state.active_ships)]
    if not beaten:
        return None
    if len(beaten) == len(state.sides):
        return "Draw: no ship of any side is left.", None
    standing = [side for side in state.sides if side not in beaten]
    lost = "; ".join(f"every {side} ship is gone" for side in beaten)
    if len(standing) == 1:
        return f"{standing[0]} wins: {lost}.", standing[0]
    return None
