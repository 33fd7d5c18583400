"""Devices follow the host (issue 28): when the host starts another game, each joined device is
offered it, as the side it held ("The host started War Fleet: join as British?"), without going home
and picking a role again; the shared screen follows it by itself (issue 35).  The host's new games
are its Quick-Start, New game, scenario and Decisive Victory games, its War Fleet battles and its
replays' "Play from here" (each calls `Sharing.host_started`).  No flet here: `Sharing` keeps the latest start and each device's answer;
the app (main.py) asks it for the offer and draws it.

A device takes the offered side through `Sharing.choose`, as any first pick of a role in a game:
the server decides, and a side another device already holds stays with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .roles import SCREEN, SIDE, Role


@dataclass(frozen=True)
class Started:
    """A game the host started: the `number`-th of this server run."""

    number: int
    game_id: str
    ruleset: str  # its ruleset's name: "War Fleet"
    name: str
    sides: tuple[str, ...]


@dataclass(frozen=True)
class Offer:
    """What a device is offered: the host's new game, as the side it held where the game has it;
    the shared screen (`screen`) is asked nothing: it follows the host's new game by itself (a TV
    has no one at it to answer a dialog: issue 35)."""

    started: Started
    side: str | None
    screen: bool = False

    @property
    def question(self) -> str:
        where = f"The host started {self.started.ruleset}"
        return f"{where}: join as {self.side}?" if self.side else f"{where} ({self.started.name}): join it?"

    @property
    def role(self) -> Role | None:
        return Role.screen() if self.screen else Role.holding(self.side) if self.side else None


def offer_for(started: Started | None, seen: int, showing: str | None, held: Role | None,
              joined: bool = False) -> Offer | None:
    """The offer for a device that has answered starts up to `seen`, shows the game `showing` and
    holds `held` there: none when there is no newer start, it already shows the new game or holds a
    role in it (`joined`: on its role picker, changing role, it is not asked to join what it is in),
    or it holds no role anywhere (a device just let in picks its role in the game it opened)."""
    if started is None or held is None or joined or started.number <= seen or showing == started.game_id:
        return None
    side = held.side if held is not None and held.kind == SIDE and held.side in started.sides else None
    return Offer(started, side, screen=held.kind == SCREEN)
