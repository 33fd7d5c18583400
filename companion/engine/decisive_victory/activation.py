"""Whose ship attacks now (spec §8.1): activations in batches, the initiative winner first.

"Players alternate firing each of their ships. Staring with the player who won
initiative, make attacks with a number of ships equal to the command score of
your fleet's highest rated commander." (`003:50`).  A ship's activation begins
with its first searchlight, radar roll, star shell or declared attack and ends
with `end_activation`; one ship of a side at a time.
"""

from __future__ import annotations

from ..kernel import Refusal, RefusalKind, Work
from .batches import batch_problem, opening_batch
from .state import Batch, DVShip, DVState


def to_act(state: DVState) -> set[str]:
    """Ships in play whose activation this turn is not over."""
    return {s.id for s in state.ships if s.in_play and not s.attacked}


def is_active(ship: DVShip) -> bool:
    """It has begun its activation (a system fired or declared, a radar roll, a searchlight)."""
    return ship.in_play and not ship.attacked and bool(ship.systems_fired or ship.radar)


def active_ship(state: DVState, side: str) -> DVShip | None:
    return next((s for s in state.ships if s.side == side and is_active(s)), None)


def current_batch(state: DVState) -> Batch | None:
    """The batch attacking now: the state's, or the opening one (the initiative winner's) [R-13]."""
    if state.batch is not None:
        return state.batch
    first = state.initiative or (state.sides[0] if state.sides else "")
    return opening_batch(state, first, to_act(state))


def begin(work: Work[DVState], ship: DVShip, doing: str) -> None:
    """`ship` acts in the attacks phase now: its side's batch, its activation not over, no other
    ship of its side in the middle of one.  Sets the opening batch when there is none."""
    work.phase("attacks", doing=doing)
    if not ship.in_play:
        raise Refusal(f"{ship.label} is no longer in play")
    if ship.attacked:
        work.rule(f"{ship.label} has finished its attacks this turn", RefusalKind.TURN)
    batch = current_batch(work.state)
    work.rule(batch_problem(work.state, batch, ship, "attacking"), RefusalKind.TURN)
    other = active_ship(work.state, ship.side)
    if other is not None and other.id != ship.id:
        work.rule(f"{other.label} is attacking now: end its activation first", RefusalKind.TURN)
    if work.state.batch is None and batch is not None:
        work.update(batch=batch)


def unrolled(state: DVState, ship_id: str | None = None) -> list[int]:
    return [a.id for a in state.attacks if not a.rolled and (ship_id is None or a.ship == ship_id)]
