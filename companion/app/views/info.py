"""Fleets (the cards the app knows), rule readings, and loading a scenario file."""

from __future__ import annotations

import asyncio
import json
import time

import flet as ft

from ...engine.cards import FormatError
from ...engine.roller import Roller
from ...engine.scenario import build_state, load_scenario
from ...engine.state import GameState, ShipState
from ...files import load_file
from ..session import Session
from ..readings import ReadingsMissing, rule_readings_text
from ..viewmodels import ReadingSection, card_view, rule_readings
from .home import page_width
from .shipcard import card_control
from .widgets import heading, icon_button, muted, tag


def _page(app, title: str, *controls: ft.Control) -> ft.Control:
    async def home(e):
        await app.navigate(Session())

    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, "Home", home, "back"), heading(title, 22)]),
        *controls,
    ], spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
    return ft.SafeArea(ft.Container(
        content=ft.Row([ft.Container(content=body, width=page_width(app, 900))], alignment=ft.MainAxisAlignment.CENTER,
                       vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        padding=ft.Padding.symmetric(horizontal=16, vertical=8), expand=True), expand=True)


def build_rules(app) -> ft.Control:
    """docs/rule-readings.md as the app shows it: each choice in plain words, the app's own marked."""
    holder = ft.Column(spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    async def fill():
        try:
            text = await asyncio.to_thread(rule_readings_text)
        except ReadingsMissing as exc:
            holder.controls = [ft.Text(str(exc), color=ft.Colors.ERROR)]
        else:
            holder.controls = [control for section in rule_readings(text) for control in _section(section)]
        app.page.update()

    app.page.run_task(fill)
    return _page(app, "Rule readings",
                 muted("If your group reads the printed rulebook differently, turn the rule checks off in the "
                       "game menu (bookkeeping mode) and the app records what you enter."),
                 holder)


def _section(section: ReadingSection) -> list[ft.Control]:
    parts: list[ft.Control] = []
    if section.level > 1:
        parts.append(ft.Container(heading(section.title, 19 if section.level == 2 else 16),
                                  padding=ft.Padding.only(top=8 if section.level == 2 else 2)))
    parts += [ft.Text(text, size=14) for text in section.intro]
    for reading in section.readings:
        body: list[ft.Control] = [ft.Text(reading.text, size=14, selectable=True)]
        if reading.own:
            body.append(ft.Container(
                content=ft.Text("the app's own reading", size=11, color=ft.Colors.ON_TERTIARY_CONTAINER),
                bgcolor=ft.Colors.TERTIARY_CONTAINER, border_radius=6,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2)))
        parts.append(ft.Container(content=ft.Column(body, spacing=6, tight=True), padding=12, border_radius=12,
                                  bgcolor=ft.Colors.SURFACE_CONTAINER_LOW))
    return parts


def build_fleets(app) -> ft.Control:
    holder = ft.Column(spacing=12)

    async def fill():
        catalogue = await app.catalogue()
        if not catalogue:
            holder.controls = [muted("No fleet files found under fleets/.")]
        for card in sorted(catalogue.values(), key=lambda c: (c.faction, -c.type, c.name)):
            ship = ShipState(id=card.id, side=card.faction or "Fleet", card=card, column=10, row=10, facing=0)
            state = GameState(ships=[ship], sides=[ship.side])
            holder.controls.append(card_control(card_view(state, ship.id), app.dark, compact=not app.wide))
        app.page.update()

    app.page.run_task(fill)
    return _page(app, "Fleets", muted("The shipped fleet files; add more with `companion validate` and the fleets/ folder."), holder)


def build_load(app) -> ft.Control:
    path = ft.TextField(label="Scenario file on this computer", hint_text="/path/to/scenario.json", expand=True)
    text = ft.TextField(label="...or paste the scenario JSON", multiline=True, min_lines=6, max_lines=14)
    message = ft.Text("", color=ft.Colors.ERROR)

    async def load(e):
        try:
            if (text.value or "").strip():
                try:
                    data = json.loads(text.value)
                except json.JSONDecodeError as exc:
                    raise FormatError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
                scenario = load_scenario(data)
                name = scenario.name or "Pasted scenario"
            else:
                scenario = await asyncio.to_thread(load_file, (path.value or "").strip())
                if not hasattr(scenario, "ships") or not hasattr(scenario, "turn"):
                    raise FormatError("is not a scenario (leviathans-scenario/1)")
                name = scenario.name or (path.value or "").strip().rsplit("/", 1)[-1]
            catalogue = await app.catalogue()
            state = build_state(scenario, catalogue, Roller.from_seed(app.seed) if app.seed else None)
        except (FormatError, ValueError) as exc:
            message.value = str(exc)
            app.page.update()
            return
        await app.create_game(state, name + " " + time.strftime("%d %b %H:%M"))

    return _page(app, "Load a scenario",
                 muted("A leviathans-scenario/1 file: a table position with ships, facings and damage. "
                       "Cards are looked up in the fleets, or given inline."),
                 path, text, message,
                 tag("load-button", ft.FilledButton(content="Load and play", icon=ft.Icons.PLAY_ARROW, on_click=load, height=52)))
