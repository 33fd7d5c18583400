"""Tug of war's screens (app/rulesets/__init__.py: `GameScreens`): a body for the one game frame
(views/frame.py), a start tile on Home and a replay drawer without a map.  No rules here."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.app.rulesets import GameScreens, StartTile
from companion.app.session import Session
from companion.app.views.frame import GameFrame, on
from companion.app.views.pages import may_start
from companion.app.views.widgets import muted, tag

from .engine import PHASES, TOY, TugScenario


def rope_line(state: Any) -> str:
    """The rope as the players see it: `Red ---|--- Blue`, the mark moved the way it is pulled."""
    left, right = state.sides
    cells = ["-"] * (2 * state.to_win + 1)
    cells[state.to_win - state.rope] = "|"
    return f"{left} {''.join(cells)} {right}"


class Rope:
    """Where a hex game has its map: the rope."""

    def __init__(self) -> None:
        self.text = ft.Text("", size=28, font_family="monospace")
        self.control = tag("tug-rope", ft.Container(self.text, alignment=ft.Alignment.CENTER, expand=True))

    def remounted(self) -> None:
        pass


class TugBody:
    PREFIX = "tug-"
    SHARED_SCREEN = False  # the shared screen is the frame, read only

    def __init__(self, frame: GameFrame) -> None:
        self.frame, self.app, self.game = frame, frame.app, frame.game
        self.map = Rope()
        self.tab = "log"

    def go_tab(self, key: str) -> None:
        self.tab = key

    def tabs(self) -> list[tuple]:
        return [("log", ft.Icons.LIST_ALT_OUTLINED, ft.Icons.LIST_ALT, "Log")]

    def top_actions(self) -> list[ft.Control]:
        return []

    def compute(self, state: Any) -> Any:
        return state

    def banner(self, state: Any) -> tuple:
        side = getattr(self.app.role, "side", None)
        actions = [] if self.frame.read_only or state.phase == "over" else [
            tag(f"tug-pull-{s}", ft.FilledButton(content=f"{s} pulls", on_click=on(self.frame.act, {"kind": "pull", "side": s})))
            for s in state.sides if side in (None, s)]
        return state.result or f"Pull {state.turn}", PHASES.get(state.phase, state.phase), [], actions

    def render(self, state: Any) -> list[ft.Control]:
        self.map.text.value = rope_line(state)
        return [self.map.control]

    def panel(self, state: Any) -> list[ft.Control]:
        return [tag("tug-log", ft.Column([ft.Text(e.text) for e in self.game.history()] or [muted("No pulls yet.")]))]

    def strip(self, state: Any) -> None:
        return None

    def sent(self) -> None:
        pass


def shared_screen(app: Any, game: Any) -> GameFrame:
    """The shared screen: the same frame, read only."""
    return GameFrame(app, game, TugBody, read_only=True)


class TugReplay:
    has_map = False
    ring = False
    note = "Tug of war has no map: the rope as it was."

    def cells_of(self, ship: Any) -> list[Any]:
        return []  # no map

    def cells(self, state: Any) -> list[Any]:
        return []

    async def draw(self, view: Any, state: Any) -> None:
        view.where.value, view.whose.value = rope_line(state), state.result or PHASES.get(state.phase, state.phase)
        view.lost.controls = view.lost_lines([])
        view.ships.controls = [tag("tug-replay-rope", ft.Text(rope_line(state)))]


async def start(app: Any) -> None:
    """A new tug of war (only the host starts games)."""
    refused = may_start(app)
    if refused:
        await app.navigate(Session(message=refused))
        return
    await app.create_game(TOY.build_state(TugScenario()), "Tug of war")


SCREENS = GameScreens(
    ruleset_id=TOY.id,
    body=TugBody,
    screen_view=shared_screen,  # type: ignore[arg-type]  # a builder, as `screen_view(app, game)` calls it
    phases=PHASES,
    icon=ft.Icons.LINEAR_SCALE,
    resume_tag="tug-resume-",
    replay=TugReplay(),
    start_tiles=(StartTile("toy-tug", ft.Icons.LINEAR_SCALE, "Tug of war", "A toy fifth ruleset: first to 3 wins", start),),
)
