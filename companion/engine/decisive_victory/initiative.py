"""Decisive Victory: initiative (spec §6, §15.2).

"Each player rolls a d6 and adds the command score of their highest rated
commander. The winner has the initiative for the turn." (`003:39`).  Ties are
rolled again [R-11].  The loser moves first (`003:43`); the winner attacks first.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from ..common import SetInitiative, _Action, check_side
from ..dice import Colour
from ..kernel import Handler, Refusal, Work
from ..roller import DieRoll, NeedDice, RollerDice, check_face
from .batches import best_score
from .state import DVInitiativeRoll, DVState
from .movement import begin_movement


def initiative_odds(a: int, b: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Exact odds of an initiative between best scores `a` and `b` (§15.2): the first roll's
    P(A wins), P(tie), P(B wins), and P(A wins) with ties re-rolled, p> / (1 − p=)."""
    wins = ties = 0
    for x in range(1, 7):
        for y in range(1, 7):
            wins += x + a > y + b
            ties += x + a == y + b
    p_win, p_tie = Fraction(wins, 36), Fraction(ties, 36)
    return p_win, p_tie, 1 - p_win - p_tie, p_win / (1 - p_tie)


class RollInitiative(_Action):
    """Each side rolls 1d6 + its best command score; `faces`: {side: [face, re-roll face, ...]}."""

    kind: Literal["roll_initiative"] = "roll_initiative"
    faces: dict[str, list[int]] | None = None


def _words(rolls: list[DVInitiativeRoll]) -> str:
    return ", ".join(f"{r.side} {r.die.face} + {r.score} = {r.total}" for r in rolls)


def _round(work: Work[DVState], faces: dict[str, list[int]] | None, number: int) -> list[DVInitiativeRoll] | None:
    """One round of rolls, one d6 a side: the roller's, or the table's `number`-th face of each
    side (None when the table entered no more faces for any side)."""
    sides = work.state.sides
    if faces is None:
        dice = RollerDice(work.state.roller)
        rolls = [DVInitiativeRoll(side=s, die=dice.take(Colour.D6, "initiative"), score=best_score(work.state, s))
                 for s in sides]
        work.update(roller=dice.roller)
        return rolls
    if number > 0 and all(len(faces.get(s, [])) <= number for s in sides):
        return None
    rolls = []
    for side in sides:
        entered = faces.get(side, [])
        if len(entered) <= number:
            raise NeedDice(f"{side}'s initiative{' re-roll' if number else ''}: roll D6 and enter its face")
        try:
            check_face(Colour.D6, entered[number])
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        rolls.append(DVInitiativeRoll(side=side, die=DieRoll(colour=Colour.D6, face=entered[number]),
                                      score=best_score(work.state, side)))
    return rolls


def _roll_initiative(work: Work[DVState], action: RollInitiative) -> None:
    work.phase("initiative", doing="initiative is rolled")
    if action.faces is not None:
        for side in action.faces:
            check_side(work, side)
    number = 0
    while True:
        rolls = _round(work, action.faces, number)
        if rolls is None:
            return
        best = max(r.total for r in rolls)
        top = [r for r in rolls if r.total == best]
        if len(top) == 1:
            break
        work.update(initiative_rolls=rolls)
        work.event("initiative_tie", f"{_words(rolls)}. A tie: roll again.", rolls=_dumped(rolls))
        number += 1
    winner = top[0].side
    work.update(initiative_rolls=rolls)
    work.event("initiative", f"{_words(rolls)}. {winner} has the initiative.", winner=winner, rolls=_dumped(rolls))
    decided(work, winner, sorted(rolls, key=lambda r: r.total)[0].side)


def _dumped(rolls: list[DVInitiativeRoll]) -> list[dict[str, object]]:
    return [{"side": r.side, "score": r.score, "total": r.total,
             "dice": [{"colour": "D6", "face": r.die.face}]} for r in rolls]


def _set_initiative(work: Work[DVState], action: SetInitiative) -> None:
    work.phase("initiative", doing="initiative is set")
    check_side(work, action.side)
    work.event("initiative", f"{action.side} has the initiative (decided at the table).", winner=action.side, rolls=[])
    loser = next((s for s in work.state.sides if s != action.side), action.side)
    decided(work, action.side, loser)


def decided(work: Work[DVState], winner: str, first_mover: str) -> None:
    """The initiative is decided: the aircraft phase when the game has flights, else movement (§4)."""
    work.update(initiative=winner)
    if any(f.stage not in ("destroyed", "out") for f in work.state.flights):
        work.update(phase="aircraft")
        work.event("phase", f"Turn {work.state.turn}: aircraft phase.", phase="aircraft")
    else:
        begin_movement(work, first_mover)


ACTIONS: tuple[type[_Action], ...] = (RollInitiative, SetInitiative)
HANDLERS: dict[str, Handler] = {"roll_initiative": _roll_initiative, "set_initiative": _set_initiative}
