"""Decisive Victory: the turn's steps (spec §4): set-up, then command (command.py), initiative
(initiative.py), movement (movement.py), and the end of the turn (§11.5, §13) here.

`ACTIONS` and `HANDLERS` gather the four modules' own, so game.py composes them as one.
"""

from __future__ import annotations

from typing import Literal

from ..common import EndTurn, _Action
from ..kernel import Handler, Work
from . import command, initiative, movement
from .batches import ships_in_play
from .command import begin_command
from .maintenance import maintenance_left
from .state import DVShip, DVState


class StartGame(_Action):
    """The set-up is done: the first turn's command phase begins (§16)."""

    kind: Literal["start_game"] = "start_game"


def _start_game(work: Work[DVState], action: StartGame) -> None:
    work.phase("setup", doing="the game is started")
    begin_command(work)


def game_end(state: DVState) -> tuple[str, str | None] | None:
    """The game ends when a side has no ship left in play [R-62] (§13): the result in words and the
    winner (None when no side has a ship left); None while every side has one."""
    left = [side for side in state.sides if ships_in_play(state, side)]
    if len(left) == len(state.sides):
        return None
    gone = ", ".join(s for s in state.sides if s not in left)
    if len(left) == 1:
        return f"{gone} has no ship left in play. {left[0]} wins.", left[0]
    return f"{gone} {'has' if len(state.sides) - len(left) == 1 else 'have'} no ship left in play.", None


def over_if_ended(work: Work[DVState]) -> bool:
    """End the game when §13 says so (event `game_over`); whether it ended."""
    ended = game_end(work.state)
    if ended is None:
        return False
    result, winner = ended
    work.update(phase="over", result=result, winner=winner)
    work.event("game_over", result, winner=winner)
    return True


def cleared(ship: DVShip) -> DVShip:
    """The ship's per-turn marks cleared, its unspent command points lapsed [R-9] (§11.5)."""
    return ship.model_copy(update={
        "cp": 0, "mode_changed": False, "move_done": False, "inches_moved": 0, "turns_made": 0,
        "aa_spent": 0, "dp_used_for_aa": frozenset(), "abilities": [], "damage_control": {},
        "systems_fired": frozenset(), "radar": {}, "illuminated": False, "making_smoke": False,
        "close_action_with": frozenset()})


def _end_turn(work: Work[DVState], action: EndTurn) -> None:
    work.phase("maintenance", doing="the turn ends")
    left = maintenance_left(work.state)
    if left:
        work.rule(f"maintenance is not done: {left}")
    state = work.state
    work.update(ships=[cleared(s) for s in state.ships], bases=[b.model_copy(update={"aa_spent": 0}) for b in state.bases],
                attacks=[], star_shells=[], initiative=None, initiative_rolls=[], batch=None, maintenance_step=0)
    work.event("end_turn", f"Turn {state.turn} ends: unspent command points lapse.", turn=state.turn)
    if over_if_ended(work):
        return
    work.update(turn=state.turn + 1)
    begin_command(work)


ACTIONS: tuple[type[_Action], ...] = (StartGame, EndTurn, *command.ACTIONS, *initiative.ACTIONS, *movement.ACTIONS)
HANDLERS: dict[str, Handler] = {"start_game": _start_game, "end_turn": _end_turn, **command.HANDLERS,
                                **initiative.HANDLERS, **movement.HANDLERS}
