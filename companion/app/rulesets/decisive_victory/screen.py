"""The shared screen (TV) of a Decisive Victory game, read only: the turn and phase in large
type, whose batch it is, the last roll in large dice with every stage in words, the attacks
declared and not yet rolled with their exact odds, and every ship with its damage, systems and
marked grid boxes (tv_ship.py), six and more on one 1920 x 1080 screen (issue 35).  The same
refresh interface as views/screen.py's `ScreenView`; it changes nothing (the server refuses the
shared screen's actions)."""

from __future__ import annotations

import asyncio

import flet as ft

from . import air_model as A
from . import model as M
from ...session import Session
from ...tasks import run_soon
from ...theme import side_colour
from .air import flight_card
from .tv_ship import columns, ship_card
from ...views.frame import on
from ...views.join import keep_awake
from ...views.screen import TV_ODDS, TV_TEXT, TVScreen
from ...views.widgets import die_face, icon_button, mounted, muted, tag

#: The TV's section labels and its top bar, read from the room (issue 35: at least 20 px).
SECTION, BAR = 22, 22
SIDE = 480  # px: the declared attacks and the last roll beside the ships, on a wide screen
STAGE = 20  # px: a stage of the last roll in words
DIE = 48  # px: a die of the last roll (twelve in two rows beside the ships)
SPACING = 12


def section(ident: str, title: str, *controls: ft.Control) -> ft.Control:
    """A card of the TV: its title in capitals, SECTION px, over its controls."""
    return tag(ident, ft.Container(ft.Column([
        tag(f"{ident}-title", ft.Text(title.upper(), size=SECTION, weight=ft.FontWeight.BOLD,
                                      color=ft.Colors.ON_SURFACE_VARIANT)), *controls], spacing=8, tight=True),
        padding=14, border_radius=14, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))


class DVScreenView(TVScreen):
    def __init__(self, app, game):
        super().__init__(app, game)
        self.attacks = ft.Column(spacing=8, tight=True)
        self.flights = ft.Column(spacing=8, tight=True)
        self.stages = ft.Column(spacing=3, tight=True)
        self.ships = ft.Row(spacing=SPACING, run_spacing=SPACING, wrap=True)
        self.count.size = BAR
        self._layout()
        run_soon(app.page, keep_awake, app, True)

    @property
    def wide(self) -> bool:
        return (self.app.page.width or 1280) >= 1100

    def _layout(self) -> None:
        top = ft.Container(ft.Row([
            ft.Icon(ft.Icons.TV, color=ft.Colors.ON_SURFACE_VARIANT, size=BAR + 4),
            tag("screen-game-name", ft.Text(self.game.name, size=BAR, weight=ft.FontWeight.W_600, expand=True,
                                            max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)),
            tag("sync", self.count),
            icon_button(ft.Icons.HOME_OUTLINED, "Home", on(self.app.navigate, Session()), "home"),
            tag("change-role", ft.TextButton(content=ft.Text("Change", size=BAR), icon=ft.Icons.SWAP_HORIZ,
                                             on_click=self._change)),
        ], spacing=10), padding=ft.Padding.only(left=14, right=6), height=54, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
        head = ft.Container(ft.Row([tag("screen-headline", self.headline), tag("screen-whose", self.whose)],
                                   spacing=28, wrap=True, vertical_alignment=ft.CrossAxisAlignment.END),
                            padding=ft.Padding.only(left=18, right=18, top=4, bottom=4))
        self.attacks_card = section("screen-shots", "Declared attacks: exact odds", self.attacks)
        roll = section("screen-last-roll", "Last roll", self.roll_title, self.roll_dice, self.stages, self.roll_text)
        self.flights_card = section("screen-flights", "Flights and their stages", self.flights)
        below = self.wide and columns(self._ships_width(), len(self.game.state.ships)) > 1
        self.side = ft.Column([*([] if below else [self.attacks_card]), roll, self.flights_card], spacing=SPACING,
                              horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        # on a wide TV the declared attacks go under the ships, the side column's height left to the last roll
        fleets = ft.Column([tag("screen-ships", self.ships), *([self.attacks_card] if below else [])],
                           spacing=SPACING, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        body = ft.Container(ft.Row([ft.Container(self.side, width=SIDE if self.wide else None), ft.Container(fleets, expand=self.wide)],
                                   spacing=SPACING, vertical_alignment=ft.CrossAxisAlignment.START, wrap=not self.wide),
                            padding=ft.Padding.symmetric(horizontal=SPACING, vertical=6))
        self.control.content = ft.Column([top, head, body], spacing=0, expand=True, scroll=ft.ScrollMode.AUTO)

    async def relayout(self) -> None:
        self._layout()
        await self.refresh(force=True)

    async def refresh(self, force: bool = False) -> None:
        async with self._lock:
            state = self.game.state
            if state is self.state and not force:
                return
            shown = self.game.ruleset.view_for(state, None)
            history = self.game.history()
            models = await asyncio.to_thread(self._models, shown, history)
            self.state = state
            self.render(shown, *models)

    @staticmethod
    def _models(state, history):
        return M.banner(state), M.ship_rows(state), M.last_roll(history), M.declared_previews(state), A.flight_rows(state)

    def render(self, state, banner, rows, roll, declared, flights=()) -> None:
        self.headline.value = banner.title
        self.whose.value = banner.detail
        self._count()
        self._roll(roll)
        waiting = [(a, p) for a, p in declared if not a.rolled]  # a rolled attack is the last roll's (issue 35)
        self.attacks.controls = [ft.Column([
            ft.Text(p.title, size=TV_TEXT, weight=ft.FontWeight.W_600, color=side_colour(state.sides, state.ship(a.ship).side, self.app.theme_name)),
            tag(f"screen-odds-{n}", ft.Text(p.odds_text, size=TV_ODDS))], spacing=0, tight=True)
            for n, (a, p) in enumerate(waiting, start=1)] or [tag("screen-none-declared", muted("None waiting to be rolled.", TV_TEXT))]
        self.flights_card.visible = bool(flights)
        self.flights.controls = [flight_card(state, f, size=18) for f in flights]
        self._ships(state, rows)
        if mounted(self.control):
            self.control.update()

    def _roll(self, roll) -> None:
        """The last roll: its dice (the first 12), and each stage in words (an attack's every stage)."""
        if roll is None:
            self.roll_title.value, self.roll_dice.controls, self.roll_text.value = "No dice rolled yet", [], ""
            self.stages.controls, self.roll_title.visible = [], True
            return
        self.roll_title.value = roll.title
        self.roll_title.visible = not roll.stages  # the first stage says what was rolled
        self.roll_dice.controls = [ft.Column([tag(f"screen-die-{n}", die_face("D6", face, DIE)),
                                              muted(role if role != "D6" else "", 16)], spacing=0, tight=True)
                                   for n, (role, face) in enumerate(roll.dice[:12], start=1)]
        self.stages.controls = [tag(f"screen-stage-{n}", ft.Text(words, size=STAGE))
                                for n, words in enumerate(roll.stages, start=1)]
        self.roll_text.value = "" if roll.stages else roll.text
        self.roll_text.visible = not roll.stages

    def _ships(self, state, rows) -> None:
        """The ship cards, as many a row as the width beside the side column holds."""
        width = self._ships_width()
        cols = columns(width, len(rows))
        card = (width - (cols - 1) * SPACING) // cols
        self.ships.controls = [ship_card(state, r, card, self.app.theme_name) for r in rows]

    def _ships_width(self) -> float:
        """The width the ship cards have: beside the side column on a wide screen, else the screen's."""
        return (self.app.page.width or 1280) - (SIDE + 3 * SPACING if self.wide else 2 * SPACING)
