"""Home: quick-start, new game, resume a saved game (Quick-Start or War Fleet), scenario files, fleets, dice,
rule readings."""

from __future__ import annotations

import asyncio

import flet as ft

from ...engine.registry import RULESETS
from ..session import Session
from ..theme import DISPLAY_FONT
from ..tasks import soon
from ..viewmodels import PHASE_NAMES, game_rows
from ..rulesets.decisive_victory.model import PHASES as DV_PHASES, RULESET as DV
from ..rulesets.war_fleet.model import PHASES, WAR_FLEET
from . import share
from .frame import on
from .settings import theme_button
from .widgets import airship, heading, icon_button, muted, tag


RULESET_NAMES = {ruleset.id: ruleset.name for ruleset in RULESETS.values()}


def page_width(app, widest: int = 760) -> float:
    """Content width: the page less its margins, at most `widest`."""
    return max(280, min(widest, (app.page.width or widest) - 32))


def centred(app, content: ft.Control, widest: int = 760, margin: int = 16) -> ft.Control:
    """A screen's content, centred at `page_width`, inside the page's margins and safe area."""
    return ft.SafeArea(ft.Container(
        content=ft.Row([ft.Container(content=content, width=page_width(app, widest))],
                       alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        padding=ft.Padding.symmetric(horizontal=margin, vertical=8), expand=True), expand=True)


def host_only(app, title: str, problem: str | None) -> ft.Control | None:
    """A screen saying why this device may not open `title` (`problem`, decided by `Sharing` from
    the device the server holds), with the way home; None when there is no problem."""
    if not problem:
        return None

    return ft.SafeArea(ft.Container(content=ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, "Home", on(app.navigate, Session()), "back"), heading(title, 22)]),
        tag("host-only", ft.Text(problem, size=15), label=problem),
    ], spacing=12), padding=ft.Padding.symmetric(horizontal=16, vertical=8), expand=True), expand=True)


def may_start(app) -> str | None:
    """Why this device may not start a game here (only the host does), or None."""
    sharing, device = getattr(app, "sharing", None), getattr(app, "device", None)
    return sharing.may_start(device) if sharing is not None and device is not None else None


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


def build(app) -> ft.Control:
    async def quick_start(e):
        from .newgame import start_quick_start

        await start_quick_start(app)

    async def start_dv(e):
        from ..rulesets.decisive_victory.body import start_sample

        await start_sample(app)

    def go(screen):
        return on(app.navigate, Session(screen))

    def game_tile(row, ruleset: str, latest: bool = False) -> ft.Control:
        """A saved game of any ruleset, labelled with the ruleset's name; the last played says Continue."""
        war_fleet = ruleset == WAR_FLEET
        return tag(("wf-resume-" if war_fleet else "resume-") + row.id, ft.Card(content=ft.ListTile(
            leading=ft.Icon(ft.Icons.PLAY_CIRCLE if latest else ft.Icons.GRID_ON if war_fleet else ft.Icons.SAILING,
                            size=30 if latest else None, color=ft.Colors.PRIMARY if latest else None),
            title=ft.Text(f"Continue: {row.name}" if latest else row.name, weight=ft.FontWeight.W_600),
            subtitle=ft.Text(f"{RULESET_NAMES.get(ruleset, ruleset)} · {row.detail} · {row.sides} · {row.last_played}"),
            trailing=icon_button(ft.Icons.REPLAY, "Replay, turn by turn", on(app.navigate, Session("replay", row.id)),
                                 "replay-" + row.id),
            on_click=on(app.navigate, Session("game", row.id)), min_height=64,
        )))

    latest = ft.Column(spacing=0)  # the game last played, to continue in one tap
    saved = ft.Column([muted("Looking for saved games...")], spacing=4)  # every other game, most recent first
    damaged = ft.Column(spacing=0)  # save files the store set aside, named in plain words

    async def fill_games():
        games = await asyncio.to_thread(app.store.games)
        rows = [(game_rows([g], phases=PHASES if g.ruleset == WAR_FLEET else DV_PHASES if g.ruleset == DV else PHASE_NAMES)[0], g.ruleset) for g in games]
        damaged.controls = store_problems(app.store.problems)
        latest.controls = [game_tile(*rows[0], latest=True)] if rows else []
        saved.controls = [game_tile(*row) for row in rows[1:17]] or [
            muted("No other saved games. Games are saved as you play." if rows
                  else "No saved games yet: start one above. Games are saved as you play.")]
        app.page.update()

    starts = may_start(app) is None  # a guest joins the host's games; it starts none
    edits_cards = getattr(getattr(app, "device", None), "host", True)  # the card library is the host's (issue 11)
    soon(app.page, fill_games)

    def tile(icon, title, subtitle, handler, ident):
        return tag(ident, ft.Card(content=ft.ListTile(
            leading=ft.Icon(icon, size=30), title=ft.Text(title, weight=ft.FontWeight.W_600),
            subtitle=ft.Text(subtitle), on_click=handler, min_height=64,
        )))

    quick = tag("quick-start", ft.Container(
        content=ft.Column([
            ft.Row([ft.Icon(ft.Icons.BOLT, color=ft.Colors.ON_PRIMARY, size=28),
                    ft.Text("Quick-Start battle", size=20, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_PRIMARY)]),
            ft.Text("HML Hertfordshire and HML Raven against Pontbriand and Pelletier, set on their own "
                    "edges: place them as the table has them, then play.",
                    color=ft.Colors.ON_PRIMARY),
        ], spacing=6, tight=True),
        padding=18, border_radius=16, bgcolor=ft.Colors.PRIMARY, on_click=quick_start, ink=True,
    ))
    message = [ft.Text(app.session.message, color=ft.Colors.ERROR)] if app.session.message else []
    content = ft.Column(
        [
            ft.Container(height=8),
            ft.Row([airship(40),
                    ft.Column([ft.Text("Leviathans", size=28, weight=ft.FontWeight.BOLD, font_family=DISPLAY_FONT),
                               muted("Table companion · Quick-Start rules")], spacing=0, tight=True),
                    ft.Container(expand=True),
                    theme_button(app)]),
            *message,
            *share.home_section(app),
            latest,
            *([quick] if starts else [tag("guest-note", muted(
                "Joined from another device: open a game the host has started below, or ask the host to start one.",
                14))]),
            ft.ResponsiveRow([
                *([ft.Column([tile(ft.Icons.ADD_CIRCLE_OUTLINE, "New game", "Pick sides, ships and board size", go("new"), "new-game")], col={"xs": 12, "md": 6})] if starts else []),
                ft.Column([tile(ft.Icons.CASINO, "Dice roller", "Any pool, its roll and its odds", go("dice"), "dice-roller")], col={"xs": 12, "md": 6}),
                *([ft.Column([tile(ft.Icons.UPLOAD_FILE, "Load a scenario", "A leviathans-scenario/1 file", go("load"), "load-scenario")], col={"xs": 12, "md": 6})] if starts else []),
                *([ft.Column([tile(ft.Icons.DIRECTIONS_BOAT, "Fleets", "Ship cards: the shipped fleets and your own; edit, import, print", go("fleets"), "fleets")], col={"xs": 12, "md": 6})] if edits_cards else []),
                ft.Column([tile(ft.Icons.MENU_BOOK, "Rule readings", "What the app assumes where the text is silent", go("rules"), "rule-readings")], col={"xs": 12, "md": 6}),
                *([ft.Column([tile(ft.Icons.ANCHOR, "Decisive Victory", "Naval battle with aircraft (seed 003): cruisers and destroyers, or a carrier strike", start_dv, "decisive-victory")], col={"xs": 12, "md": 6})] if starts else []),
                *([ft.Column([tile(ft.Icons.SAILING, "War Fleet", "Twenty against twenty, one hex per ship; pockets at Quick-Start scale", go("warfleet"), "war-fleet")], col={"xs": 12, "md": 6})] if starts else []),  # guests join from the saved games
            ], spacing=8, run_spacing=0),
            heading("Saved games"),
            damaged,
            saved,
        ],
        spacing=12, scroll=ft.ScrollMode.AUTO, expand=True,
    )
    return centred(app, content)
