"""New game: the Quick-Start set-up in one tap, or sides and ships from the fleets, and board size."""

from __future__ import annotations

import asyncio
import time

import flet as ft

from ...engine.board import MAX_SIDE, Board
from ...store.library import is_players_card
from ..session import Session
from ..setup import Pick, SetupError, build_setup, quick_start_picks
from .home import host_only, may_start, page_width
from .widgets import heading, icon_button, muted, tag


async def start_quick_start(app, board: Board | None = None) -> None:
    refused = may_start(app)  # only the host starts games: checked here, whatever the screen showed
    if refused:
        await app.navigate(Session(message=refused))
        return
    catalogue = await app.catalogue()
    try:
        state = await asyncio.to_thread(build_setup, quick_start_picks(), catalogue, board, app.seed)
    except SetupError as exc:
        await app.navigate(Session(message=str(exc)))
        return
    await app.create_game(state, "Quick-Start " + time.strftime("%d %b %H:%M"))


def build(app) -> ft.Control:
    refused = host_only(app, "New game", may_start(app))
    if refused:
        return refused
    message = ft.Text("", color=ft.Colors.ERROR)
    columns = ft.TextField(label="Columns", value="33", width=110, keyboard_type=ft.KeyboardType.NUMBER)
    rows = ft.TextField(label="Rows", value="19", width=110, keyboard_type=ft.KeyboardType.NUMBER)
    side_a = ft.TextField(label="First side", value="British", expand=True)
    side_b = ft.TextField(label="Second side", value="French", expand=True)
    picks_a: dict[str, ft.Checkbox] = {}
    picks_b: dict[str, ft.Checkbox] = {}
    fleet_list = ft.Column(spacing=0)

    def read_board() -> Board | None:
        try:
            board = Board(columns=int(columns.value), rows=int(rows.value))
        except (ValueError, TypeError):
            message.value = f"Board size: columns and rows are whole numbers from 3 to {MAX_SIDE}."
            return None
        if board.rows < 2 * 5 + 1:
            message.value = "The board needs at least 11 rows: two deployment zones of four hexes and room between."
            return None
        return board

    async def quick(e):
        board = read_board()
        if board is None:
            app.page.update()
            return
        await start_quick_start(app, board)

    async def custom(e):
        if may_start(app):
            message.value = may_start(app)
            app.page.update()
            return
        board = read_board()
        picks = [Pick(cid, side_a.value.strip() or "First") for cid, box in picks_a.items() if box.value]
        picks += [Pick(cid, side_b.value.strip() or "Second") for cid, box in picks_b.items() if box.value]
        if board is None:
            app.page.update()
            return
        if (side_a.value or "").strip() == (side_b.value or "").strip():
            message.value = "The two sides need different names."
            app.page.update()
            return
        try:
            state = await asyncio.to_thread(build_setup, picks, await app.catalogue(), board, app.seed)
        except SetupError as exc:
            message.value = str(exc)
            app.page.update()
            return
        await app.create_game(state, f"{side_a.value} vs {side_b.value} " + time.strftime("%d %b %H:%M"))

    async def home(e):
        await app.navigate(Session())

    async def load_fleets():
        catalogue = await app.catalogue()
        fleet_list.controls.clear()
        if not catalogue:
            fleet_list.controls.append(muted("No fleet files found under fleets/."))
        for cid, card in sorted(catalogue.items(), key=lambda kv: (kv[1].faction, -kv[1].type, kv[1].name)):
            mine = is_players_card(card)  # the player's own cards start unticked
            picks_a[cid] = ft.Checkbox(value=card.faction == "British" and not mine)
            picks_b[cid] = ft.Checkbox(value=card.faction == "French" and not mine)
            fleet_list.controls.append(ft.Row([
                ft.Column([ft.Text(card.name, weight=ft.FontWeight.W_600),
                           muted(f"{'Your card · ' if mine else ''}{card.faction} · Type {card.type} · SI {card.structural_integrity} · {card.starting_mp} MP", 12)],
                          spacing=0, expand=True, tight=True),
                tag(f"pick-first-{cid}", picks_a[cid], label=f"{card.name} on the first side"),
                tag(f"pick-second-{cid}", picks_b[cid], label=f"{card.name} on the second side"),
            ]))
        app.page.update()

    app.page.run_task(load_fleets)
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, "Home", home, "back"), heading("New game", 22)]),
        tag("quick-start-setup", ft.FilledButton(
            content="Quick-Start set-up: Hertfordshire & Raven vs Pontbriand & Pelletier",
            icon=ft.Icons.BOLT, on_click=quick, height=56)),
        heading("Board"),
        ft.Row([columns, ft.Text("×"), rows, muted("33 × 19 is two Quick-Start maps, long sides together", 12)], wrap=True),
        heading("Or pick sides and ships"),
        ft.Row([side_a, side_b]),
        ft.Row([ft.Container(expand=True), muted("first"), muted("second")], spacing=18),
        fleet_list,
        message,
        ft.FilledTonalButton(content="Create game", icon=ft.Icons.PLAY_ARROW, on_click=custom, height=52),
        muted("Ships start on their side's edge, four hexes in; move them on the table screen to match your models."),
    ], spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
    return ft.SafeArea(ft.Container(
        content=ft.Row([ft.Container(content=body, width=page_width(app))], alignment=ft.MainAxisAlignment.CENTER,
                       vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        padding=ft.Padding.symmetric(horizontal=16, vertical=8), expand=True), expand=True)
