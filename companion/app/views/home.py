"""Home: each ruleset's ways to start (its `GameScreens.start_tiles`), resume a saved game of any
ruleset, scenario files, fleets, dice, rule readings."""

from __future__ import annotations

import asyncio

import flet as ft

from ...engine.registry import RULESETS
from ..session import Session
from ..theme import DISPLAY_FONT
from ..tasks import soon
from ..viewmodels import game_rows
from ..rulesets import GameScreens, StartTile
from ..rulesets.registry import find_screens, start_tiles
from . import share
from .frame import on
from .pages import centred, may_start
from .settings import theme_button
from .widgets import airship, heading, icon_button, muted, tag


RULESET_NAMES = {ruleset.id: ruleset.name for ruleset in RULESETS.values()}


def store_problems(problems: list[str]) -> list[ft.Control]:
    """The store's plain messages about files it set aside (a damaged or newer save), so the player
    knows a game is missing and where its file went; nothing when every file could be read."""
    if not problems:
        return []
    lines = [ft.Text(p, color=ft.Colors.ON_ERROR_CONTAINER, size=13) for p in problems]
    return [tag("store-problems", ft.Container(
        content=ft.Column([ft.Row([ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ON_ERROR_CONTAINER),
                                   ft.Text("Some saved files could not be read", weight=ft.FontWeight.W_600,
                                           color=ft.Colors.ON_ERROR_CONTAINER)]), *lines], spacing=6, tight=True),
        padding=12, border_radius=12, bgcolor=ft.Colors.ERROR_CONTAINER))]


def screens_of(ruleset_id: str) -> GameScreens | None:
    """A saved game's screens (its phase words, icon), or None for rules this app has no screens for."""
    try:
        return find_screens(ruleset_id)
    except ValueError:
        return None


def banner(app, start: StartTile) -> ft.Control:
    """A featured way to start (the Quick-Start battle): Home's banner, one tap."""
    return tag(start.ident, ft.Container(
        content=ft.Column([
            ft.Row([ft.Icon(start.icon, color=ft.Colors.ON_PRIMARY, size=28),
                    ft.Text(start.title, size=20, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_PRIMARY)]),
            ft.Text(start.subtitle, color=ft.Colors.ON_PRIMARY),
        ], spacing=6, tight=True),
        padding=18, border_radius=16, bgcolor=ft.Colors.PRIMARY, on_click=on(start.start, app), ink=True,
    ))


def build(app) -> ft.Control:
    def go(screen):
        return on(app.navigate, Session(screen))

    def tile(icon, title, subtitle, handler, ident, trailing=None, size: int | None = 30, colour=None):
        return tag(ident, ft.Card(content=ft.ListTile(
            leading=ft.Icon(icon, size=size, color=colour), title=ft.Text(title, weight=ft.FontWeight.W_600),
            subtitle=ft.Text(subtitle), trailing=trailing, on_click=handler, min_height=64,
        )))

    def game_tile(row, ruleset: str, screens: GameScreens | None, latest: bool = False) -> ft.Control:
        """A saved game of any ruleset, labelled with the ruleset's name; the last played says Continue."""
        return tile(ft.Icons.PLAY_CIRCLE if latest else screens.icon if screens else ft.Icons.HELP_OUTLINE,
                    f"Continue: {row.name}" if latest else row.name,
                    f"{RULESET_NAMES.get(ruleset, ruleset)} · {row.detail} · {row.sides} · {row.last_played}",
                    on(app.navigate, Session("game", row.id)), (screens.resume_tag if screens else "resume-") + row.id,
                    trailing=icon_button(ft.Icons.REPLAY, "Replay, turn by turn",
                                         on(app.navigate, Session("replay", row.id)), "replay-" + row.id),
                    size=30 if latest else None, colour=ft.Colors.PRIMARY if latest else None)

    latest = ft.Column(spacing=0)  # the game last played, to continue in one tap
    saved = ft.Column([muted("Looking for saved games...")], spacing=4)  # every other game, most recent first
    damaged = ft.Column(spacing=0)  # save files the store set aside, named in plain words

    async def fill_games():
        games = await asyncio.to_thread(app.store.games)
        rows = []
        for g in games:
            screens = screens_of(g.ruleset)
            rows.append((game_rows([g], phases=screens.phases if screens else {})[0], g.ruleset, screens))
        damaged.controls = store_problems(app.store.problems)
        latest.controls = [game_tile(*rows[0], latest=True)] if rows else []
        saved.controls = [game_tile(*row) for row in rows[1:17]] or [
            muted("No other saved games. Games are saved as you play." if rows
                  else "No saved games yet: start one above. Games are saved as you play.")]
        app.page.update()

    starts = may_start(app) is None  # a guest joins the host's games; it starts none
    edits_cards = getattr(getattr(app, "device", None), "host", True)  # the card library is the host's (issue 11)
    soon(app.page, fill_games)

    tiles = start_tiles()
    featured = [banner(app, t) for t in tiles if t.featured]
    ruleset_tiles = [ft.Column([tile(t.icon, t.title, t.subtitle, on(t.start, app), t.ident)], col={"xs": 12, "md": 6})
                     for t in tiles if not t.featured]
    message = [ft.Text(app.session.message, color=ft.Colors.ERROR)] if app.session.message else []
    content = ft.Column(
        [
            ft.Container(height=8),
            ft.Row([airship(40),
                    ft.Column([ft.Text("Leviathans", size=28, weight=ft.FontWeight.BOLD, font_family=DISPLAY_FONT),
                               muted("Table companion")], spacing=0, tight=True),
                    ft.Container(expand=True),
                    theme_button(app)]),
            *message,
            *share.home_section(app),
            latest,
            *(featured if starts else [tag("guest-note", muted(
                "Joined from another device: open a game the host has started below, or ask the host to start one.",
                14))]),
            ft.ResponsiveRow([
                *(ruleset_tiles if starts else []),  # guests join from the saved games
                ft.Column([tile(ft.Icons.CASINO, "Dice roller", "Any pool, its roll and its odds", go("dice"), "dice-roller")], col={"xs": 12, "md": 6}),
                *([ft.Column([tile(ft.Icons.UPLOAD_FILE, "Load a scenario", "A scenario file of any game here", go("load"), "load-scenario")], col={"xs": 12, "md": 6})] if starts else []),
                *([ft.Column([tile(ft.Icons.DIRECTIONS_BOAT, "Fleets", "Ship cards: the shipped fleets and your own; edit, import, print", go("fleets"), "fleets")], col={"xs": 12, "md": 6})] if edits_cards else []),
                ft.Column([tile(ft.Icons.MENU_BOOK, "Rule readings", "What the app assumes where the text is silent", go("rules"), "rule-readings")], col={"xs": 12, "md": 6}),
            ], spacing=8, run_spacing=0),
            heading("Saved games"),
            damaged,
            saved,
        ],
        spacing=12, scroll=ft.ScrollMode.AUTO, expand=True,
    )
    return centred(app, content)
