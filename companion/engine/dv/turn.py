"""Decisive Victory: the turn's steps (spec §4): set-up, command, initiative, movement, end of turn.  Being written."""

from __future__ import annotations

from typing import Literal

from ..common import _Action
from ..kernel import Handler, Work
from .state import DVState


class StartGame(_Action):
    """The set-up is done: the first turn's command phase begins (§16)."""

    kind: Literal["start_game"] = "start_game"


def _start_game(work: Work[DVState], action: StartGame) -> None:
    work.phase("setup", doing="the game is started")
    work.update(phase="command")
    work.event("phase", f"Turn {work.state.turn}: command phase.", phase="command")


ACTIONS: tuple[type[_Action], ...] = (StartGame,)
HANDLERS: dict[str, Handler] = {"start_game": _start_game}
