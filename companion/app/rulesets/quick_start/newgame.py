"""Quick-Start's new game (`/new`): the Quick-Start set-up in one tap, or two fleets built from the cards, and board size.

The fleets are a `FleetBuilder` (fleet_builder.py, no flet): this view only draws it.  The card
picker lists at most `SHOWN` cards (filter by faction, class and name first), so 150 cards stay
quick on a phone.  Starting goes through `App.create_game`, as the Quick-Start set-up does.
"""

from __future__ import annotations

import asyncio
import json
import time

import flet as ft

from ....engine.board import MAX_SIDE, Board
from ....engine.cards import Card, FormatError
from ....files import parse_json
from ....store.library import slug
from ...client_calls import ask
from ...fleet_builder import FleetBuilder, card_line, classes, factions, find
from ...session import Session
from ....engine.quick_start.table_rules import QUICK_START_TABLE_RULES
from ...setup import QUICK_START_SIDES, SetupError, build_setup, played_by, quick_start_picks
from ...tasks import soon
from ...views.frame import on
from ...views.pages import centred, deliver, host_only, may_start, picker
from ...views.rules_choice import RulesChoice
from ...views.widgets import heading, icon_button, muted, tag


async def start_quick_start(app, board: Board | None = None, rules: RulesChoice | None = None) -> None:
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
    if rules is not None:
        state = played_by(state, rules.house_rules(), rules.table_rules())
    await app.create_game(state, "Quick-Start " + time.strftime("%d %b %H:%M"))


ANY = "any"


def quick_start_fleets(catalogue: dict[str, Card]) -> FleetBuilder:
    """The builder as New game opens: the Quick-Start ships on each side, to change or start as they are."""
    builder = FleetBuilder(*QUICK_START_SIDES)
    for index, ids in enumerate(QUICK_START_SIDES.values()):
        for card_id in ids:
            if card_id in catalogue:
                builder.add(index, catalogue[card_id])
    return builder


def build(app) -> ft.Control:
    return host_only(app, "New game", may_start(app)) or NewGameView(app).control


class NewGameView:
    def __init__(self, app):
        self.app = app
        self.cards: dict[str, Card] = {}
        self.builder = FleetBuilder(*QUICK_START_SIDES)
        self.message = tag("newgame-message", ft.Text("", color=ft.Colors.ERROR))
        self.columns = ft.TextField(label="Columns", value="33", width=110, keyboard_type=ft.KeyboardType.NUMBER)
        self.rows = ft.TextField(label="Rows", value="19", width=110, keyboard_type=ft.KeyboardType.NUMBER)
        self.side_panels = ft.ResponsiveRow(spacing=10, run_spacing=10)
        self.rules = RulesChoice(QUICK_START_TABLE_RULES)
        self.faction = ft.Dropdown(label="Faction", value=ANY, width=230, dense=True, menu_height=360,
                                   options=[ft.DropdownOption(key=ANY, text="Every faction")],
                                   on_select=self._faction_chosen)
        self.ship_class = ft.Dropdown(label="Class", value=ANY, width=190, dense=True, menu_height=360,
                                      options=[ft.DropdownOption(key=ANY, text="Every class")],
                                      on_select=lambda e: self._show_cards())
        self.search = ft.TextField(label="Search by name", width=220, dense=True, prefix_icon=ft.Icons.SEARCH,
                                   on_change=lambda e: self._show_cards())
        self.found = ft.Column(spacing=0, tight=True)
        self.found_note = muted("", 12)
        # what a "+ side" tap did, beside the cards tapped (issue 28: on a 900 px desktop the sides'
        # panels and the message below them were out of view, so an add showed nothing)
        self.picked = ft.Text("", size=14, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY)
        picker = ft.Column([
            heading("Cards"),
            ft.Row([tag("filter-faction", self.faction), tag("filter-class", self.ship_class),
                    tag("filter-name", self.search)], wrap=True, spacing=8, run_spacing=8),
            self.found_note,
            tag("picker-note", self.picked),
            tag("card-picker", self.found),
        ], spacing=8, tight=True)
        fleets = [
            ft.Row([icon_button(ft.Icons.ARROW_BACK, "Home", on(app.navigate, Session()), "back"), heading("New game", 22)]),
            tag("quick-start-setup", ft.FilledButton(
                content="Quick-Start set-up: Hertfordshire & Raven vs Pontbriand & Pelletier",
                icon=ft.Icons.BOLT, on_click=self._quick, height=56)),
            heading("Board"),
            ft.Row([self.columns, ft.Text("×"), self.rows,
                    muted("33 × 19 is two Quick-Start maps, long sides together", 12)], wrap=True),
            self.rules.control,
            heading("Or build the fleets"),
            muted("Add ships from the cards below, as many copies of a card as you like; each ship has its "
                  "own name, which you can change. Points are the cards' fleet points.", 12),
            self.side_panels,
            self.message,
            tag("create-game", ft.FilledTonalButton(content="Create game", icon=ft.Icons.PLAY_ARROW,
                                                    on_click=self._create, height=52)),
            muted("Ships start on their side's edge, four hexes in; move them on the table screen to match your models."),
        ]
        if app.wide:  # the fleets beside the cards
            body = ft.Row([
                ft.Column([*fleets, ft.Container(height=24)], spacing=12, scroll=ft.ScrollMode.AUTO, expand=3),
                ft.Column([ft.Container(height=52), picker, ft.Container(height=24)], spacing=12,
                          scroll=ft.ScrollMode.AUTO, expand=2),
            ], spacing=20, vertical_alignment=ft.CrossAxisAlignment.START, expand=True)
        else:
            body = ft.Column([*fleets, ft.Divider(), picker, ft.Container(height=24)], spacing=12,
                             scroll=ft.ScrollMode.AUTO, expand=True)
        self.control = centred(app, body, 1400)
        self.found.controls = [muted("Reading the fleets…")]
        soon(app.page, self._load)

    # --- drawing ----------------------------------------------------------------------------

    async def _load(self) -> None:
        self.cards = await self.app.catalogue()
        self.builder = quick_start_fleets(self.cards)
        self.faction.options = [ft.DropdownOption(key=ANY, text="Every faction")] + [
            ft.DropdownOption(key=f, text=f) for f in factions(self.cards.values())]
        self._show_sides(update=False)
        self._show_cards()

    def _faction_chosen(self, e) -> None:
        faction = None if self.faction.value == ANY else self.faction.value
        self.ship_class.options = [ft.DropdownOption(key=ANY, text="Every class")] + [
            ft.DropdownOption(key=c, text=c) for c in classes(self.cards.values(), faction)]
        self.ship_class.value = ANY
        self._show_cards()

    def _show_cards(self) -> None:
        faction = None if self.faction.value == ANY else self.faction.value
        ship_class = None if self.ship_class.value == ANY else self.ship_class.value
        found = find(self.cards.values(), faction, ship_class, self.search.value or "")  # the player's cards first
        if not self.cards:
            self.found_note.value = "No fleet files found under fleets/."
        elif found.more:
            self.found_note.value = (f"{len(found.cards)} of {found.total} cards shown: choose a faction or class, "
                                     f"or type part of a name, to see the others.")
        else:
            self.found_note.value = f"{found.total} card{'s' if found.total != 1 else ''}."
        self.found.controls = [self._card_row(card) for card in found.cards]
        self.app.page.update()

    def _card_row(self, card: Card) -> ft.Control:
        sides = self.builder.sides

        def add_button(index: int) -> ft.Control:
            which = "first" if index == 0 else "second"
            return tag(f"pick-{which}-{card.id}", ft.OutlinedButton(
                content=f"+ {sides[index].name or which}", on_click=on(self._add, index, card), height=44),
                label=f"Add {card.name} on the {which} side")

        return ft.Container(content=ft.Row([
            ft.Column([ft.Text(card.name, weight=ft.FontWeight.W_600),
                       muted(f"{card.faction} · {card_line(card)}" if card.faction else card_line(card), 12)],
                      spacing=0, expand=True, tight=True),
            ft.Row([add_button(0), add_button(1)], spacing=4, tight=True, wrap=True),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER), padding=ft.Padding.symmetric(vertical=4),
            border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)))

    def _show_sides(self, update: bool = True) -> None:
        self.side_panels.controls = [ft.Container(self._side_panel(i), col={"xs": 12, "md": 6}) for i in (0, 1)]
        if update:
            self.app.page.update()

    def _side_panel(self, index: int) -> ft.Control:
        side = self.builder.sides[index]
        which = "first" if index == 0 else "second"
        name = ft.TextField(label=f"{which.capitalize()} side", value=side.name, dense=True, expand=True,
                            on_blur=self._side_renamer(index), on_submit=self._side_renamer(index))
        points = tag(f"side-points-{index}", ft.Text(side.points().text, weight=ft.FontWeight.W_600,
                                                   color=ft.Colors.PRIMARY))
        rows = [self._ship_row(index, n) for n in range(len(side.ships))] or [muted("No ships yet: add some below.")]
        tools = ft.Row([
            tag(f"save-fleet-{index}", ft.TextButton(content="Save fleet", icon=ft.Icons.DOWNLOAD,
                                                     on_click=on(self._save, index))),
            tag(f"load-fleet-{index}", ft.TextButton(content="Load fleet", icon=ft.Icons.UPLOAD_FILE,
                                                     on_click=on(self._load_fleet, index))),
        ], wrap=True, spacing=0)
        count = len(side.ships)
        return tag(f"side-{index}", ft.Container(content=ft.Column([
            ft.Row([tag(f"side-name-{index}", name)]),
            ft.Row([points, muted(f"{count} ship{'s' if count != 1 else ''}", 12)], spacing=10, wrap=True),
            *rows,
            tools,
        ], spacing=6, tight=True), padding=12, border_radius=14, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)))

    def _ship_row(self, index: int, n: int) -> ft.Control:
        ship = self.builder.sides[index].ships[n]
        field = ft.TextField(value=ship.name, dense=True, expand=True, text_size=14,
                             on_blur=self._ship_renamer(index, n), on_submit=self._ship_renamer(index, n))
        points = f"{ship.card.points} pts" if ship.card.points is not None else "points unknown"
        return ft.Row([
            tag(f"ship-name-{index}-{n}", field, label=f"Name of ship {n + 1} of the {'first' if index == 0 else 'second'} side"),
            ft.Container(ft.Column([muted(f"{ship.card.name} · Type {ship.card.type}", 11), muted(points, 11)],
                                   spacing=0, tight=True), width=120),
            icon_button(ft.Icons.REMOVE_CIRCLE_OUTLINE, f"Take {ship.name} out", on(self._remove, index, n),
                        f"remove-{index}-{n}"),
        ], spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def _say(self, text: str, error: bool = True) -> None:
        self.message.content.value = text
        self.message.content.color = ft.Colors.ERROR if error else ft.Colors.PRIMARY
        self.app.page.update()

    # --- changes ----------------------------------------------------------------------------

    async def _add(self, index: int, card: Card) -> None:
        ship = self.builder.add(index, card)
        side = self.builder.sides[index]
        self._show_sides(update=False)
        self.picked.value = (f"{ship.name} joins {side.name or 'the side'}: {len(side.ships)} "
                             f"ship{'s' if len(side.ships) != 1 else ''}, {side.points().text}.")
        self._say(f"{ship.name} joins {side.name or 'the side'}.", error=False)

    async def _remove(self, index: int, n: int) -> None:
        if n < len(self.builder.sides[index].ships):
            self.builder.remove(index, n)
        self._show_sides()

    def _ship_renamer(self, index: int, n: int):
        def handler(e):
            if n >= len(self.builder.sides[index].ships) or e.control.value == self.builder.sides[index].ships[n].name:
                return
            problem = self.builder.rename(index, n, e.control.value or "")
            if problem:
                e.control.value = self.builder.sides[index].ships[n].name
                self._say(problem)
                return
            self._show_sides()
        return handler

    def _side_renamer(self, index: int):
        def handler(e):
            if (e.control.value or "") == self.builder.sides[index].name:
                return
            problem = self.builder.set_side_name(index, e.control.value or "")
            if problem:
                e.control.value = self.builder.sides[index].name
                self._say(problem)
                return
            self._show_sides(update=False)
            self._show_cards()  # the add buttons name the sides
        return handler

    async def _save(self, index: int) -> None:
        side = self.builder.sides[index]
        if not side.ships:
            self._say(f"{side.name or 'This side'} has no ships to save yet.")
            return
        data = json.dumps(self.builder.fleet_file(index), indent=2, ensure_ascii=False).encode("utf-8")
        self._say(*await deliver(self.app, f"{slug(side.name or 'fleet')}-fleet.json", data, "fleet"))

    async def _load_fleet(self, index: int) -> None:
        files = await ask("pick a fleet file", lambda: picker(self.app).pick_files(
            dialog_title="Choose a fleet file", file_type=ft.FilePickerFileType.CUSTOM,
            allowed_extensions=["json"], with_data=True), wait=None)  # the player takes their time
        if not files:
            return
        chosen = files[0]
        try:
            text = (chosen.bytes or b"").decode("utf-8")
            said = self.builder.load_fleet_file(index, parse_json(text, chosen.name), chosen.name)
        except UnicodeDecodeError:
            self._say(f"{chosen.name}: not a text file")
            return
        except FormatError as exc:
            self._say(str(exc))
            return
        self._show_sides(update=False)
        self._show_cards()
        self._say(said, error=False)

    # --- starting ---------------------------------------------------------------------------

    def _board(self) -> Board | None:
        try:
            board = Board(columns=int(self.columns.value), rows=int(self.rows.value))
        except (ValueError, TypeError):
            self._say(f"Board size: columns and rows are whole numbers from 3 to {MAX_SIDE}.")
            return None
        if board.rows < 2 * 5 + 1:
            self._say("The board needs at least 11 rows: two deployment zones of four hexes and room between.")
            return None
        return board

    async def _quick(self, e) -> None:
        board = self._board()
        if board is not None:
            await start_quick_start(self.app, board, self.rules)

    async def _create(self, e) -> None:
        problem = may_start(self.app)
        if problem:
            self._say(problem)
            return
        board = self._board()
        if board is None:
            return
        try:
            state = await asyncio.to_thread(self.builder.setup, board, self.app.seed)
        except SetupError as exc:
            self._say(str(exc))
            return
        first, second = (side.name for side in self.builder.sides)
        state = played_by(state, self.rules.house_rules(), self.rules.table_rules())
        await self.app.create_game(state, f"{first} vs {second} " + time.strftime("%d %b %H:%M"))
