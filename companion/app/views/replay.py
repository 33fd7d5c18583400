"""The Replay view (`/replay/<game id>`, issue 17): a stored game step by step, on any screen.

The map as it was after each log entry (Quick-Start: the shared screen's map with each declared
shot drawn; War Fleet: its ship tokens), the step's words and its dice large, what changed, and
the ship cards as they were (Quick-Start's printed card, War Fleet's ship lines; Decisive
Victory has no map, so its ship cards alone).  Back and forward by one log entry or by a turn,
a turn list to jump to, and "Play from here" (the host only: `Sharing.may_start` decides on the
server when it is tapped) forks a new game at the step shown (`replay_model.fork`).

Each screen's replay is its own: a TV opened on `/replay/<id>` is stepped by its own buttons
(read from across the room: the dice 64 px, the words 22 px and more at 1920 px wide).  The
positions come from `app.replay_model`, computed once in a worker thread; nothing here changes
the replayed game.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import flet as ft

from ..replay_model import Replay, fork, replay_of
from ..session import Session
from ..tasks import soon
from ..theme import CIRCLED, side_colour
from .frame import on
from .hexmap import HexMap
from .pages import may_start
from ..rulesets import ReplayDrawer
from ..rulesets.registry import screens_for
from .screen import fitted_size, ships_view, titled_card
from .widgets import die_face, icon_button, muted, tag, update_shown
from ...messages import without_paths

log = logging.getLogger(__name__)

WIDE = 900  # px: the map beside the step; below, one column
SIDE = 480  # px: the step's column beside the map on a wide screen


def build(app) -> ft.Control:
    view = ReplayView(app, app.session.game_id or "")
    soon(app.page, view.load)
    return view.control


class ReplayView:
    def __init__(self, app, game_id: str):
        self.app, self.game_id = app, game_id
        self.replay: Replay | None = None
        self.number = 0
        self.selected: str | None = None  # the ship whose card shows (War Fleet's map: the ringed one)
        self.map: HexMap | None = None
        self.model_state: Any = None  # the position shown, of any ruleset (ScreenView's shot drawing reads it)
        self.wide = (app.page.width or 1280) >= WIDE
        big = (app.page.width or 0) >= 1600  # a TV
        self.dice_size = 64 if big else 48 if self.wide else 40
        self.word_size = 22 if big else 18
        self.name = ft.Text("Replay", size=16, weight=ft.FontWeight.W_600, expand=True, max_lines=1,
                            overflow=ft.TextOverflow.ELLIPSIS)
        self.where = ft.Text("", size=30 if big else 22, weight=ft.FontWeight.BOLD)
        self.whose = ft.Text("", size=self.word_size, weight=ft.FontWeight.W_600)
        self.count = ft.Text("", size=14, color=ft.Colors.ON_SURFACE_VARIANT)
        self.title = ft.Text("", size=self.word_size + 2, weight=ft.FontWeight.BOLD)
        self.lines = ft.Column(spacing=4, tight=True)
        self.rolls = ft.Column(spacing=12, tight=True)
        self.changes = ft.Column(spacing=4, tight=True)
        self.ships = ft.Column(spacing=8, tight=True)
        self.lost = ft.Column(spacing=4, tight=True)
        self.problem = ft.Text("", color=ft.Colors.ERROR)
        self.turns = ft.Dropdown(label="Jump to turn", width=180, dense=True, menu_height=420, options=[],
                                 on_select=self._picked)
        self.map_box = ft.Container(alignment=ft.Alignment.CENTER, expand=True, border_radius=10,
                                    clip_behavior=ft.ClipBehavior.ANTI_ALIAS)
        # each step button: its icon, its tooltip, and the step it goes to from the one shown
        self.buttons = {
            "replay-first": (ft.Icons.FIRST_PAGE, "The start of the game", lambda n: 0),
            "replay-prev-turn": (ft.Icons.KEYBOARD_DOUBLE_ARROW_LEFT, "Back a turn (the start of this turn, or the one before)",
                                 lambda n: self.loaded.previous_turn(n)),
            "replay-back": (ft.Icons.CHEVRON_LEFT, "Back one step", lambda n: n - 1),
            "replay-next": (ft.Icons.CHEVRON_RIGHT, "Forward one step", lambda n: n + 1),
            "replay-next-turn": (ft.Icons.KEYBOARD_DOUBLE_ARROW_RIGHT, "Forward to the next turn",
                                 lambda n: self.loaded.next_turn(n)),
            "replay-last": (ft.Icons.LAST_PAGE, "The end of the log", lambda n: self.loaded.last),
        }
        self.fork_button = tag("replay-fork", ft.FilledButton(
            content="Play from here", icon=ft.Icons.CALL_SPLIT, height=48, on_click=self._fork,
            tooltip="A new game from this position, with fresh dice (this game stays as it is)"))
        self.top = self._top()
        self.control = ft.Container(expand=True, bgcolor=ft.Colors.SURFACE,
                                    content=ft.Column([self.top, ft.Container(muted("Replaying the log..."), padding=16)]))

    # --- layout ----------------------------------------------------------------------------------

    def _top(self) -> ft.Control:
        back = icon_button(ft.Icons.ARROW_BACK, "Back to the game", on(self.app.navigate, Session("game", self.game_id)),
                           "replay-back-to-game")
        home = icon_button(ft.Icons.HOME_OUTLINED, "Home", on(self.app.navigate, Session()), "home")
        return ft.Container(ft.Row([back, ft.Icon(ft.Icons.REPLAY, size=20), self.name, tag("replay-count", self.count),
                                    home], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                            padding=ft.Padding.only(left=6, right=6), height=48, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)

    def _controls(self) -> ft.Control:
        self.step_buttons = {ident: ft.IconButton(icon=icon, tooltip=tip, on_click=on(self._step, to), icon_size=30,
                                                  width=56, height=56)
                             for ident, (icon, tip, to) in self.buttons.items()}
        steps = [tag(ident, button) for ident, button in self.step_buttons.items()]
        self.fork_button.visible = may_start(self.app) is None  # shown to the host; the server checks again when tapped
        return ft.Container(ft.Row([*steps, tag("replay-turn", self.turns), self.fork_button], spacing=4, wrap=True,
                                   vertical_alignment=ft.CrossAxisAlignment.CENTER, run_spacing=4),
                            padding=ft.Padding.symmetric(horizontal=12, vertical=4))

    @property
    def loaded(self) -> Replay:
        """The replay, once read (every drawing and tap comes after)."""
        assert self.replay is not None
        return self.replay

    @property
    def drawn(self) -> HexMap:
        """The map, once built (a ruleset with a map: every drawing on it comes after)."""
        assert self.map is not None
        return self.map

    def _layout(self) -> None:
        page = self.app.page
        width, height = page.width or 1280, page.height or 800
        has_map = self.drawer.has_map
        if has_map:
            map_w = width - SIDE - 36 if self.wide else width - 16
            map_h = height - 170 if self.wide else min(height * 0.5, map_w * 0.8)
            self._build_map(map_w, map_h)
        heading = ft.Container(ft.Column([tag("replay-where", self.where), tag("replay-whose", self.whose)],
                                         spacing=2, tight=True), padding=ft.Padding.only(left=16, right=16))
        side = [titled_card("replay-step", "This step", self.title, self.lines, padding=14),
                titled_card("replay-rolls", "Dice rolled", self.rolls, padding=14),
                titled_card("replay-changes", "What changed", self.changes, padding=14),
                titled_card("replay-lost", "Ships lost", self.lost, padding=14),
                titled_card("replay-ships", "Ships as they were", self.ships, padding=14)]
        if self.drawer.note:
            side.insert(0, muted(self.drawer.note, 14))
        column = ft.Column(side, spacing=10, scroll=ft.ScrollMode.AUTO, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        body: ft.Control
        if self.wide and has_map:
            body = ft.Row([ft.Container(self.map_box, expand=True, padding=ft.Padding.only(left=12, bottom=12)),
                           ft.Container(column, width=SIDE, padding=ft.Padding.only(right=12, bottom=12))],
                          expand=True, spacing=12, vertical_alignment=ft.CrossAxisAlignment.STRETCH)
        else:
            column.expand = True
            body = ft.Container(ft.Column(([ft.Container(self.map_box, height=self.map_box.height)] if has_map else [])
                                          + [column], spacing=10, scroll=ft.ScrollMode.AUTO, expand=True),
                                padding=ft.Padding.symmetric(horizontal=8), expand=True)
        self.control.content = ft.Column([self.top, self._controls(), heading, tag("replay-problem", self.problem), body],
                                         spacing=4, expand=True)

    def _build_map(self, width: float, height: float) -> None:
        """The board once, zoomed to where the game's ships went (every position's hexes)."""
        replay = self.loaded
        first = replay.shown(0)
        cells = list({c for n in range(0, replay.last + 1, max(1, replay.last // 60)) for c in self.drawer.cells(replay.state(n))})
        size, left, top = ships_view(first.board, cells, width, height) if cells else (
            fitted_size(first.board, width, height), 0.0, 0.0)
        self.map = HexMap(first, self.app.theme_name, self._tapped, size=size, ring=self.drawer.ring)
        self.map.name_size = max(16.0, round(size * 0.4))
        if size < 14:
            self.map.labels.visible = False
        self.map.stack.left, self.map.stack.top = -left, -top
        self.map_box.content = ft.Stack([self.map.stack], width=min(width, self.map.layout.width),
                                        height=min(height, self.map.layout.height))
        self.map_box.bgcolor = self.map.colours["sky"]
        self.map_box.height = None if self.wide else min(height, self.map.layout.height)

    # --- loading and stepping ------------------------------------------------------------------

    async def load(self) -> None:
        try:
            self.replay = await asyncio.to_thread(replay_of, self.app.store, self.game_id)
        except (KeyError, ValueError, OSError) as exc:  # an unknown game, a log that does not replay
            self.control.content = ft.Column([self.top, ft.Container(tag("replay-problem", ft.Text(
                f"No replay: {without_paths(str(exc))}", color=ft.Colors.ERROR, size=16)), padding=16)])
            self.app.page.update()
            return
        self.name.value = f"Replay · {self.replay.name}"
        self.turns.options = [ft.DropdownOption(key=str(m.turn), text=f"Turn {m.turn}") for m in self.replay.turns]
        self._layout()
        await self.show(0)

    async def show(self, number: int) -> None:
        replay = self.replay
        if replay is None:
            return
        self.number = max(0, min(number, replay.last))
        step, state = replay.steps[self.number], replay.shown(self.number)
        self.model_state = state
        self.problem.value = ""
        self.count.value = replay.position_words(self.number)
        self.turns.value = str(step.turn)
        for ident, button in self.step_buttons.items():
            button.disabled = (self.number == 0) if ident in ("replay-first", "replay-prev-turn", "replay-back") \
                else self.number == replay.last
        self.title.value = step.title
        self.lines.controls = [ft.Text(t, size=self.word_size - 4) for t in step.lines[1:6]]
        self.rolls.controls = [ft.Column([ft.Row([die_face(c, f, self.dice_size) for c, f in r.dice], wrap=True,
                                                 spacing=8, run_spacing=8),
                                          ft.Text(r.text, size=self.word_size - 2)], spacing=6, tight=True)
                               for r in step.rolls] or [muted("No dice in this step.", 15)]
        self.changes.controls = [ft.Text(c, size=self.word_size - 4) for c in step.changes] or [muted("Nothing on the ships.", 15)]
        await self.drawer.draw(self, state)  # the map, the ships lost and the ship cards of the position
        update_shown(self.control)

    @property
    def drawer(self) -> ReplayDrawer:
        """The replayed game's ruleset's way of drawing a position (app/rulesets/<id>/replay.py)."""
        return screens_for(self.loaded.ruleset).replay

    def colour(self, sides, side: str) -> str:
        """A side's colour in the palette chosen on this device (as the table's)."""
        return side_colour(sides, side, self.app.theme_name)

    def lost_lines(self, rows) -> list[ft.Control]:
        """The ships lost, one line each: (name, side, why)."""
        state = self.model_state
        return [ft.Row([ft.Icon(ft.Icons.DANGEROUS, color=CIRCLED, size=20),
                        ft.Text(f"{name} ({side}): {why}", size=self.word_size - 4, expand=True,
                                color=self.colour(state.sides, side))], spacing=6) for name, side, why in rows] or [
            muted("None yet.", 15)]

    def ship_chips(self, ships) -> ft.Control:
        """A chip per (ship, name) to pick the ship whose card is shown."""
        state = self.model_state
        return ft.Row([tag(f"replay-ship-{s.id}", ft.Chip(
            label=ft.Text(name, color=self.colour(state.sides, s.side)), selected=s.id == self.selected,
            on_click=on(self._select, s.id))) for s, name in ships], wrap=True, spacing=6, run_spacing=6)

    # --- taps --------------------------------------------------------------------------------------

    async def _tapped(self, cell) -> None:
        state = self.model_state
        here = [s for s in state.ships if cell in self.drawer.cells_of(s)]
        if here:
            await self._select(here[0].id)

    async def _select(self, ship_id: str) -> None:
        self.selected = ship_id
        await self.show(self.number)

    async def _step(self, to) -> None:
        """A step button: to the step `to(number shown)`."""
        await self.show(to(self.number))

    async def _picked(self, e) -> None:
        if self.turns.value:
            await self.show(self.loaded.turn_start(int(self.turns.value)))

    async def _fork(self, e) -> None:
        """A new game from the step shown: the host's own browser only (decided here, on the server)."""
        game, problem = await play_from_here(self.app, self.game_id, self.number)
        if game is None:
            log.warning("no fork for %s: %s", getattr(self.app.device, "name", "?"), problem)
            self.problem.value = f"Not started: {problem}"
            self.control.update()
            return
        await self.app.navigate(Session("game", game.id))


async def play_from_here(app, game_id: str, number: int):
    """"Play from here": a new game from step `number` of a replay, the host's only (decided on the
    server), offered to the other devices as any new game of the host's is (issue 35).  (The game,
    None) or (None, why not)."""
    problem = may_start(app)
    if problem is not None:
        return None, problem
    try:
        game = await asyncio.to_thread(fork, app.store, game_id, number)
    except (OSError, ValueError) as exc:
        log.warning("no fork: %s", exc)  # the host's terminal: paths too
        return None, without_paths(str(exc))
    if app.device is not None:
        app.sharing.host_started(app.device, game)
    return game, None
