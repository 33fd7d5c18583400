"""The War Fleet tile: the battle last played (or of an old `/warfleet/<id>` address), opened at
`/game/<id>` like every game, or the start screen when there is none; a new 20-against-20 battle."""

from __future__ import annotations

import asyncio
import logging
import time

import flet as ft

from ....engine.quick_start.table_rules import WAR_FLEET_TABLE_RULES, TableRules
from ....files import shipped_fleets_dir
from ....messages import without_paths
from ....store.game import Game
from . import model as M
from ...session import Session
from ...tasks import soon
from ...views.frame import on
from ...views.pages import centred, host_only, may_start
from ...views.rules_choice import RulesChoice
from ...views.widgets import icon_button, muted, tag

log = logging.getLogger(__name__)


def build(app) -> ft.Control:
    """The War Fleet tile's screen: the game of an old `/warfleet/<id>` address, else the most
    recently played War Fleet game, opened at `/game/<id>` like every game (with its sides, PIN and
    shared screen); the start screen when there is none.  Found in a worker thread."""
    holder = ft.Container(content=ft.Row([ft.ProgressRing()], alignment=ft.MainAxisAlignment.CENTER), expand=True)

    async def load():
        game, problem = await asyncio.to_thread(find_game, app)
        if app.body.content is not holder:  # the player went elsewhere meanwhile
            return
        if game is not None:
            await app.navigate(Session("game", game.id))
            return
        # no War Fleet game to join: a new battle is the host's to start
        holder.content = host_only(app, "War Fleet", may_start(app)) or start_screen(app, problem)
        app.page.update()

    soon(app.page, load)
    return holder


def find_game(app) -> tuple[Game | None, str]:
    """The War Fleet game of an old route (`/warfleet/<id>`), else the most recently played one that
    opens; (None, why) when there is none to show."""
    wanted = app.session.game_id if app.session.screen == "warfleet" else None
    if wanted:
        try:
            game = app.store.game(wanted)
        except KeyError as exc:
            return None, str(exc)
        return (game, "") if game.ruleset.id == M.WAR_FLEET else (None, f"'{wanted}' is not a War Fleet game")
    for summary in M.war_fleet_games(app.store):
        try:
            return app.store.game(summary.id), ""
        except KeyError:
            continue
    return None, ""


async def new_battle(app, table_rules: TableRules | None = None) -> tuple[Game | None, str]:
    """A new 20-against-20 battle, saved before it is shown: (the game, "") or (None, why not).
    Only the host starts games (decided on the server from the device it holds)."""
    refused = may_start(app)
    if refused:
        return None, refused
    try:
        catalogue = await app.catalogue()
        state = await asyncio.to_thread(M.twenty_against_twenty, catalogue, shipped_fleets_dir(), app.seed)
        if table_rules is not None:
            state = state.model_copy(update={"settings": state.settings.model_copy(update={"table_rules": table_rules})})
        name = "War Fleet " + time.strftime("%d %b %H:%M")
        game = await asyncio.to_thread(app.store.new_game, state, name)
    except ValueError as exc:  # a broken or missing scenario file, or the save could not be written: say so
        log.warning("War Fleet game not started: %s", exc)  # the host's terminal: paths too; a screen: none
        return None, without_paths(str(exc))
    except OSError as exc:
        log.warning("War Fleet game not saved: %s", exc)
        return None, f"the new battle could not be saved: {exc.strerror or exc.__class__.__name__} (the data folder)"
    if app.device is not None:
        app.sharing.host_started(app.device, game)  # the other devices are offered it (issue 35)
    return game, ""


def start_screen(app, problem: str = "") -> ft.Control:
    message = ft.Text(problem, color=ft.Colors.ERROR)
    rules = RulesChoice(WAR_FLEET_TABLE_RULES, house=False)

    async def start(e):
        game, why = await new_battle(app, rules.table_rules())
        if game is None:
            message.value = why
            app.page.update()
            return
        await app.navigate(Session("game", game.id))

    content = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, "Home", on(app.navigate, Session()), "wf-home"),
                ft.Text("War Fleet", size=26, weight=ft.FontWeight.BOLD)]),
        muted("Leviathans: War Fleet: battles of dozens of ships, one hex per ship and one "
              "die per location. Every ship is a Quick-Start card converted to War Fleet stats; pockets of ships "
              "can be fought out at Quick-Start scale and brought back. Games are saved as you play."),
        tag("wf-start-20v20", ft.Card(content=ft.ListTile(
            leading=ft.Icon(ft.Icons.SAILING, size=30),
            title=ft.Text("Twenty against twenty", weight=ft.FontWeight.W_600),
            subtitle=ft.Text("HML Leviathan, Ardents, Hertfordshires and Ravens against Montpellier, Pontbriand "
                             "and Pelletier: two battle lines four hexes apart."),
            on_click=start, min_height=72,
        ))),
        message,
        rules.control,
    ], spacing=14, scroll=ft.ScrollMode.AUTO, expand=True)
    return centred(app, content)
