"""The shared screen: the battle for a TV by the table, read-only.

The map zoomed to the ships in play (large names, each declared shot a line
from the gun to the struck location with its odds), whose turn it is in large
type, the last roll with its dice, and the ships lost.  It changes nothing: the device's role
is the shared screen, and `sharing.may` refuses every action from it on the
server whatever is tapped.  It has the same refresh interface as the table
view (`refresh`, `relayout`, `follow_session`, `message`,
`centre_view`), so the app refreshes it on every change by any device.
"""

from __future__ import annotations

import asyncio
import math

import flet as ft
import flet.canvas as cv

from ..geometry import HexLayout
from ..screenmodel import ScreenModel, screen_model
from ..session import Session
from ..tasks import run_soon
from ..palettes import ink_on
from ..theme import CIRCLED, side_colour
from .frame import on
from .hexmap import HexMap
from .join import keep_awake, role_screen
from .widgets import die_face, icon_button, mounted, muted, tag

SIDE_WIDTH = 380
NARROW = 760
SMALLEST_LABELLED = 14  # px from a hex's centre to a corner: smaller, and its label cannot be read


LARGEST = 64.0  # px: the TV's hex size (centre to corner) at most, however close the ships stand
AROUND = 3.0  # hex sizes of board kept in view round the ships in play


def fitted_size(board, width: float, height: float) -> float:
    """The hex size (centre to corner) at which the whole board fits in width x height."""
    unit = HexLayout(board, 1.0, margin=0)
    size = min((width - 12) / unit.width, (height - 12) / unit.height)
    return max(6.0, math.floor(size * 4) / 4)


def ships_view(board, cells, width: float, height: float) -> tuple[float, float, float]:
    """The hex size at which these hexes (the ships in play, AROUND them kept in view) fill
    width x height, never smaller than the whole board's fit nor larger than LARGEST, and the
    top-left corner of the part of the board's drawing shown there (centred on the ships)."""
    whole = fitted_size(board, width, height)
    if not cells:
        return whole, 0.0, 0.0
    unit = HexLayout(board, 1.0, margin=0)
    xs, ys = zip(*(unit.centre(c) for c in cells))
    box_w, box_h = max(xs) - min(xs) + 2 * AROUND, max(ys) - min(ys) + 2 * AROUND
    size = max(whole, min(LARGEST, math.floor(min(width / box_w, height / box_h) * 4) / 4))
    layout = HexLayout(board, size)
    middle_x = layout.margin + size * (min(xs) + max(xs)) / 2
    middle_y = layout.margin + size * (min(ys) + max(ys)) / 2
    left = min(max(0.0, middle_x - width / 2), max(0.0, layout.width - width))
    top = min(max(0.0, middle_y - height / 2), max(0.0, layout.height - height))
    return size, left, top


def in_play(state) -> tuple:
    """The hexes of the ships still in play: what the TV keeps in view."""
    return tuple(cell for ship in state.ships if not ship.removed for cell in ship.hexes)


class ScreenView:
    def __init__(self, app, game):
        self.app = app
        self.game = game
        self.state = None
        self.model: ScreenModel | None = None
        self._lock = asyncio.Lock()
        self._wide: bool | None = None
        self.map: HexMap | None = None
        self.map_box = ft.Container(alignment=ft.Alignment.CENTER, expand=True)
        self.headline = ft.Text("", size=30, weight=ft.FontWeight.BOLD)
        self.whose = ft.Text("", size=24, weight=ft.FontWeight.W_600)
        self.whose_dot = ft.Container(width=18, height=18, border_radius=9, visible=False)
        self.sides = ft.Row(spacing=16, wrap=True)
        self.roll_title = ft.Text("", size=20, weight=ft.FontWeight.W_600)
        self.roll_dice = ft.Row(spacing=8, wrap=True, run_spacing=8)
        self.roll_text = ft.Text("", size=18)
        self.lost = ft.Column(spacing=6, tight=True)
        self.shots = ft.Column(spacing=8, tight=True)
        self.count = ft.Text("", size=12, color=ft.Colors.ON_SURFACE_VARIANT)
        self.control = ft.Container(expand=True, bgcolor=ft.Colors.SURFACE)
        self._layout()
        run_soon(app.page, keep_awake, app, True)  # a TV by the table should not go dark

    # --- layout ----------------------------------------------------------------------------

    @property
    def wide(self) -> bool:
        return (self.app.page.width or 1280) >= NARROW

    def _card(self, ident: str, title: str, *controls: ft.Control) -> ft.Control:
        return tag(ident, ft.Container(
            content=ft.Column([ft.Text(title.upper(), size=13, weight=ft.FontWeight.BOLD,
                                       color=ft.Colors.ON_SURFACE_VARIANT), *controls], spacing=8, tight=True),
            padding=16, border_radius=14, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))

    def _layout(self) -> None:
        page = self.app.page
        width, height = page.width or 1280, page.height or 800
        self._wide = wide = self.wide
        if wide:
            map_w, map_h = width - SIDE_WIDTH - 24, height - 150
        else:
            map_w = width - 16
            map_h = min(height * 0.5, map_w * 0.75)
        state = self.game.state
        self._in_play = in_play(state)
        size, left, top = ships_view(state.board, self._in_play, map_w, map_h)
        self.map = HexMap(state, self.app.theme_name, self._no_tap, size=size)
        self.map.name_size = max(16.0, round(size * 0.4))
        self._shown = (left, top, map_w, map_h, size)
        if size < SMALLEST_LABELLED:  # hex labels too small to read: the grid alone
            self.map.labels.visible = False
        self.map.stack.left, self.map.stack.top = -left, -top
        self.map_box.content = ft.Container(
            content=ft.Stack([self.map.stack], width=min(map_w, self.map.layout.width),
                             height=min(map_h, self.map.layout.height)),
            border_radius=10, clip_behavior=ft.ClipBehavior.ANTI_ALIAS)
        self.map_box.bgcolor = self.map.colours["sky"]
        self.map_box.height = None if wide else map_h
        self.headline.size, self.whose.size = (34, 26) if wide else (24, 19)
        self.roll_title.size, self.roll_text.size = (26, 24) if wide else (20, 18)  # read from 3 m on a TV
        top = ft.Container(content=ft.Row([
            ft.Icon(ft.Icons.TV, color=ft.Colors.ON_SURFACE_VARIANT, size=20),
            ft.Text(self.game.name, size=14, weight=ft.FontWeight.W_600, expand=True, max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS),
            tag("sync", self.count),
            icon_button(ft.Icons.HOME_OUTLINED, "Home", on(self.app.navigate, Session()), "home"),
            icon_button(ft.Icons.REPLAY, "Replay, turn by turn", on(self.app.navigate, Session("replay", self.game.id)),
                        "screen-replay"),
            tag("change-role", ft.TextButton(content="Change", icon=ft.Icons.SWAP_HORIZ, on_click=self._change)),
        ], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=14, right=6), height=42, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
        heading = ft.Container(content=ft.Column([
            tag("screen-headline", self.headline),
            ft.Row([self.whose_dot, tag("screen-whose", self.whose)], spacing=10,
                   vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True),
        ], spacing=2, tight=True), padding=ft.Padding.only(left=18, right=18, top=10, bottom=6))
        roll = self._card("screen-last-roll", "Last roll", self.roll_title, self.roll_dice, self.roll_text)
        lost = self._card("screen-lost", "Ships lost", self.lost)
        fleets = self._card("screen-sides", "Fleets", self.sides)
        self.shots_card = shots = self._card("screen-shots", "Shots to roll", self.shots)
        shots.visible = bool(self.model and self.model.shots)
        if wide:
            side = ft.Container(content=ft.Column([shots, roll, lost, fleets], spacing=12, scroll=ft.ScrollMode.AUTO,
                                                  horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                                width=SIDE_WIDTH, padding=ft.Padding.only(right=12, bottom=12))
            body = ft.Row([ft.Container(content=self.map_box, expand=True, padding=ft.Padding.only(left=12, bottom=12)),
                           side], spacing=12, expand=True, vertical_alignment=ft.CrossAxisAlignment.STRETCH)
            self.control.content = ft.Column([top, heading, body], spacing=0, expand=True)
        else:
            body = ft.Column([ft.Container(content=self.map_box, padding=ft.Padding.symmetric(horizontal=8)),
                              ft.Container(content=ft.Column([shots, roll, lost, fleets], spacing=10,
                                                             horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                                           padding=ft.Padding.symmetric(horizontal=8))],
                             spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
            self.control.content = ft.Column([top, heading, body], spacing=0, expand=True)
        if self.model is not None:
            self.map.show_ships(self.model_state, None)
            self._draw_shots(self.model)

    def _off_view(self, state) -> bool:
        """Whether a ship in play has come (or gone) where the map's view was not fitted to it."""
        left, top, width, height, size = self._shown
        return any(not (left + size <= x <= left + width - size and top + size <= y <= top + height - size)
                   for x, y in map(self.map.layout.centre, in_play(state)))

    def _draw_shots(self, m: ScreenModel) -> None:
        """Each declared shot as a line from the gun's hex to the struck location's, with its odds."""
        layout, shapes = self.map.layout, []
        for line in m.shots:
            colour = side_colour(self.model_state.sides, line.side, self.app.theme_name)
            (x1, y1), (x2, y2) = layout.centre(line.start), layout.centre(line.end)
            shapes += [cv.Line(x1, y1, x2, y2, paint=ft.Paint(color=colour, stroke_width=5,
                                                               style=ft.PaintingStyle.STROKE)),
                       cv.Circle(x2, y2, layout.size * 0.3, paint=ft.Paint(color=colour, stroke_width=4,
                                                                           style=ft.PaintingStyle.STROKE)),
                       cv.Text((x1 + x2) / 2, (y1 + y2) / 2, line.odds, alignment=ft.Alignment.CENTER,
                               style=ft.TextStyle(size=self.map.name_size, weight=ft.FontWeight.BOLD,
                                                  color=ink_on(colour), bgcolor=colour))]
        self.map.marks.shapes = shapes

    async def _no_tap(self, cell) -> None:
        return None

    async def relayout(self) -> None:
        self._layout()
        await self.refresh(force=True)

    async def follow_session(self) -> None:
        await self.refresh(force=True)

    def message(self, text: str | None, info: bool = False) -> None:
        """The shared screen shows no messages of its own: it does not act."""

    async def centre_view(self) -> None:
        """The ships in play are always in view."""

    # --- refresh -------------------------------------------------------------------------------

    async def refresh(self, force: bool = False) -> None:
        async with self._lock:
            state = self.game.state
            if state is self.state and not force:
                return
            shown = self.game.ruleset.view_for(state, None)  # the shared screen holds no side
            model = await asyncio.to_thread(screen_model, shown, self.game.history(), self.game.actions_in_effect)
            self.state, self.model, self.model_state = state, model, shown
            self.render(model, shown)

    def render(self, m: ScreenModel, state) -> None:
        if in_play(state) != self._in_play and self._off_view(state):
            self._layout()  # zoomed to where the ships now are
        self.headline.value = m.headline
        self.whose.value = m.whose
        self.whose_dot.visible = m.whose_side is not None
        if m.whose_side:
            self.whose_dot.bgcolor = side_colour(state.sides, m.whose_side, self.app.theme_name)
        code = self.app.sharing.table(self.game).check_code()
        self.count.value = f"log {self.game.actions_in_effect} · {code}"
        roll = m.last_roll
        big = 54 if self._wide else 40
        if roll is None:
            self.roll_title.value = "No dice rolled yet"
            self.roll_dice.controls = []
            self.roll_text.value = ""
        else:
            self.roll_title.value = roll.title
            self.roll_dice.controls = [die_face(colour, face, big) for colour, face in roll.dice]
            self.roll_text.value = roll.text
        self.lost.controls = [
            ft.Row([ft.Icon(ft.Icons.DANGEROUS, color=CIRCLED, size=22),
                    ft.Column([ft.Text(f"{ship.name} ({ship.side})", size=22 if self._wide else 17,
                                       weight=ft.FontWeight.W_600),
                               muted(ship.why, 16 if self._wide else 13)], spacing=0, tight=True, expand=True)], spacing=8)
            for ship in m.lost
        ] or [muted("None yet.", 15)]
        self.sides.controls = [
            ft.Row([ft.Container(width=14, height=14, border_radius=7, bgcolor=side_colour(state.sides, line.side, self.app.theme_name)),
                    ft.Text(f"{line.side}: {line.afloat} of {line.ships} afloat", size=22 if self._wide else 16,
                            weight=ft.FontWeight.BOLD if line.acting else None)], spacing=6, tight=True)
            for line in m.sides
        ]
        self.shots.controls = [
            ft.Column([ft.Text(line.what, size=20 if self._wide else 16, weight=ft.FontWeight.W_600,
                               color=side_colour(state.sides, line.side, self.app.theme_name)),
                       ft.Text(line.odds, size=22 if self._wide else 17)], spacing=0, tight=True)
            for line in m.shots]
        self.shots_card.visible = bool(m.shots)
        self.map.show_ships(state, None)
        self._draw_shots(m)
        if mounted(self.control):  # not mounted yet: the first page update sends it
            self.control.update()

    # --- the Change button -------------------------------------------------------------------------

    async def _change(self, e) -> None:
        self.app._leave_game()
        self.app._set_screen(role_screen(self.app, self.game))
