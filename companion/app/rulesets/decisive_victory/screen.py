"""The shared screen (TV) of a Decisive Victory game, read only: the turn and phase in large
type, whose batch it is, the last roll in large dice, the declared attacks with their exact odds,
and every ship with its damage, systems and marked grid boxes.  The same refresh interface as
views/screen.py's `ScreenView`; it changes nothing (the server refuses the shared screen's actions)."""

from __future__ import annotations

import asyncio

import flet as ft

from . import air_model as A
from . import model as M
from ...session import Session
from ...tasks import run_soon
from ...theme import side_colour
from .air import flight_card
from .ship import grid_table, systems_row
from ...views.frame import on
from ...views.join import keep_awake
from ...views.screen import TV_DIE, TV_NAME, TV_ODDS, TV_TEXT, TVScreen, titled_card
from ...views.widgets import die_face, icon_button, mounted, muted, tag


class DVScreenView(TVScreen):
    def __init__(self, app, game):
        super().__init__(app, game)
        self.attacks = ft.Column(spacing=8, tight=True)
        self.flights = ft.Column(spacing=8, tight=True)
        self.ships = ft.ResponsiveRow(spacing=12, run_spacing=12)
        self._layout()
        run_soon(app.page, keep_awake, app, True)

    def _layout(self) -> None:
        top = ft.Container(ft.Row([
            ft.Icon(ft.Icons.TV, color=ft.Colors.ON_SURFACE_VARIANT, size=20),
            ft.Text(self.game.name, size=14, weight=ft.FontWeight.W_600, expand=True, max_lines=1),
            tag("sync", self.count),
            icon_button(ft.Icons.HOME_OUTLINED, "Home", on(self.app.navigate, Session()), "home"),
            tag("change-role", ft.TextButton(content="Change", icon=ft.Icons.SWAP_HORIZ, on_click=self._change)),
        ], spacing=8), padding=ft.Padding.only(left=14, right=6), height=42, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
        head = ft.Container(ft.Column([tag("screen-headline", self.headline), tag("screen-whose", self.whose),
                                       tag("screen-note", self.told)],
                                      spacing=2, tight=True), padding=ft.Padding.only(left=18, right=18, top=10))
        self.attacks_card = titled_card("screen-shots", "Declared attacks: exact odds", self.attacks)
        roll = titled_card("screen-last-roll", "Last roll", self.roll_title, self.roll_dice, self.roll_text)
        self.flights_card = titled_card("screen-flights", "Flights and their stages", self.flights)
        side = ft.Column([roll, self.attacks_card, self.flights_card], spacing=12, col={"xs": 12, "md": 4},
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        fleets = ft.Column([tag("screen-ships", self.ships)], col={"xs": 12, "md": 8})
        body = ft.Container(ft.ResponsiveRow([side, fleets], spacing=12, run_spacing=12),
                            padding=ft.Padding.symmetric(horizontal=12, vertical=8))
        self.control.content = ft.Column([top, head, body], spacing=0, expand=True, scroll=ft.ScrollMode.AUTO)

    async def relayout(self) -> None:
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
        if roll is None:
            self.roll_title.value, self.roll_dice.controls, self.roll_text.value = "No dice rolled yet", [], ""
        else:
            self.roll_title.value = roll.title
            self.roll_dice.controls = [ft.Column([tag(f"screen-die-{n}", die_face("D6", face, TV_DIE)),
                                                  muted(role if role != "D6" else "", 16)], spacing=2, tight=True)
                                       for n, (role, face) in enumerate(roll.dice[:12], start=1)]
            self.roll_text.value = roll.text
        waiting = [(a, p) for a, p in declared if not a.rolled] or list(declared[-1:])
        self.attacks.controls = [ft.Column([
            ft.Text(p.title, size=TV_TEXT, weight=ft.FontWeight.W_600, color=side_colour(state.sides, state.ship(a.ship).side, self.app.theme_name)),
            tag(f"screen-odds-{n}", ft.Text(p.odds_text, size=TV_ODDS))], spacing=0, tight=True)
            for n, (a, p) in enumerate(waiting, start=1)] or [muted("None declared.", 20)]
        self.attacks_card.visible = True
        self.flights_card.visible = bool(flights)
        self.flights.controls = [flight_card(state, f, size=16) for f in flights]
        self.ships.controls = [tag(f"screen-ship-{r.id}", ft.Container(ft.Column([
            tag(f"screen-name-{r.id}", ft.Text(r.name + (f" ({r.removed})" if r.removed else ""), size=TV_NAME,
                                               weight=ft.FontWeight.BOLD,
                                               color=side_colour(state.sides, r.side, self.app.theme_name))),
            ft.Text(f"{r.damage} · {r.speed}", size=20), systems_row(r), grid_table(r, box_size=36)],
            spacing=4, tight=True), padding=12, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            col={"xs": 12, "lg": 6})) for r in rows]
        if mounted(self.control):
            self.control.update()
