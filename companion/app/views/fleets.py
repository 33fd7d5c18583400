"""The fleets screen: the shipped fleets and the player's own cards.

New card, edit (a shipped card: the player's copy), duplicate, delete, import
(paste JSON or choose a file) and export (a download in the browser, a save
dialog in the desktop window), and a print-ready page of a card or a fleet
(printing.py; downloaded as HTML to print or save as PDF from the browser).
Cards whose values are partly estimates carry the mark "unverified: check
against your printed card".
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from urllib.parse import urljoin
from typing import Sequence

import flet as ft

from ...engine.cards import Card, FormatError
from ...engine.quick_start.state import GameState, ShipState
from ...files import parse_json
from ...printing import render
from ...store.library import (
    Catalogue, based_on, catalogue_of, export_document, export_file_name, is_players_card, library_for, slug,
)
from ...web.browser import IN_BROWSER, print_page_address
from .. import prints
from ..client_calls import ask
from ..editor_model import CardEditor
from ..session import Session
from ..tasks import soon
from ..viewmodels import card_view
from .editor import open_editor
from .frame import on
from .pages import deliver, host_only, may_edit_cards, picker, titled
from .shipcard import ShipCard
from .widgets import heading, icon_button, inner, muted, tag

UNVERIFIED = "unverified: check against your printed card"


def build(app) -> ft.Control:
    refused = host_only(app, "Fleets", may_edit_cards(app))  # the card library is the host's (issue 11)
    return refused or FleetsView(app).control


def summary_line(card: Card) -> str:
    parts = [card.ship_class, card.faction, f"Type {card.type}", f"SI {card.structural_integrity}",
             f"{card.starting_mp} MP"]
    return " · ".join(p for p in parts if p)


def left_out_line(item) -> str:
    """A printed card a shipped fleet leaves out of play, and why (issue 12)."""
    what = ", ".join(part for part in (item.ship_class, f"Type {item.type}") if part)
    return f"Not in play: {item.name} ({what}). {item.reason}"


class FleetsView:
    def __init__(self, app):
        self.app = app
        self.catalogue: Catalogue | None = None
        self.holder = ft.Column(spacing=14, tight=True)
        self.message = tag("fleets-message", ft.Text(app.session.message or "", color=ft.Colors.PRIMARY,
                                                     weight=ft.FontWeight.W_600))
        self.message.visible = bool(app.session.message)
        back = icon_button(ft.Icons.ARROW_BACK, "Home", on(app.navigate, Session()), "fleets-back")
        actions = ft.Row([
            tag("fleets-new", ft.FilledButton(content="New card", icon=ft.Icons.ADD,
                                              on_click=on(self._open, CardEditor.new), height=44)),
            tag("fleets-import", ft.OutlinedButton(content="Import JSON", icon=ft.Icons.FILE_OPEN,
                                                   on_click=self._import_dialog, height=44)),
            tag("fleets-dv-editor", ft.OutlinedButton(content="Decisive Victory records", icon=ft.Icons.DIRECTIONS_BOAT,
                                                      on_click=on(app.navigate, Session("dv-editor")), height=44)),
        ], wrap=True, spacing=8, run_spacing=8)
        self.control = titled(
            app, "Fleets",
            muted("Every printed ship card by faction, the Quick-Start scenario's four cards as the "
                  "Lieutenant's Manual gives them, and your own cards. Shipped cards are never changed: "
                  "editing one makes your copy, which a newer shipped fleet will not replace."),
            actions, self.message, self.holder, ft.Container(height=24), back=back, widest=1040, margin=12)
        self.holder.controls = [muted("Reading the fleets…")]
        soon(app.page, self.fill)

    # --- drawing -------------------------------------------------------------------------

    async def fill(self) -> None:
        library = library_for(self.app.store)
        self.catalogue = catalogue = await asyncio.to_thread(catalogue_of, library)
        controls: list[ft.Control] = []
        if catalogue.problems:
            controls.append(tag("fleets-problems", ft.Container(
                content=ft.Column([ft.Text(p, color=ft.Colors.ON_ERROR_CONTAINER) for p in catalogue.problems],
                                  spacing=4, tight=True),
                padding=12, border_radius=12, bgcolor=ft.Colors.ERROR_CONTAINER)))
        mine = [entry.card for entry in catalogue.mine]
        controls.append(self._group(
            "mine", "Your cards", mine,
            muted("No cards of your own yet: make one with New card, import a file, or edit a shipped card "
                  "to make your copy.") if not mine else None))
        for index, fleet in enumerate(catalogue.fleets):
            left_out = [tag(f"left-out-{index}-{n}", muted(left_out_line(item), 12))
                        for n, item in enumerate(fleet.left_out)]  # printed cards not in play, and why
            controls.append(self._group(f"fleet-{index}", f"{fleet.name} · shipped", list(fleet.ships), None,
                                        title=fleet.name, notes=left_out))
        self.holder.controls = controls
        self.app.page.update()

    def _group(self, ident: str, heading_text: str, cards: list[Card], empty: ft.Control | None,
               title: str = "My cards", notes: Sequence[ft.Control] = ()) -> ft.Control:
        tools = []
        if cards:
            for action, text, icon, handler in (
                ("export", "Export all", ft.Icons.DOWNLOAD, on(self._export, cards, title)),
                ("print", "Print all", ft.Icons.PRINT, on(self._print, cards, title)),
            ):
                button = (ft.TextButton(content=text, icon=icon, on_click=handler) if self.app.wide
                          else ft.IconButton(icon, tooltip=text, on_click=handler))
                tools.append(tag(f"{action}-{ident}", button, label=f"{text}: {heading_text}"))
        head = ft.Row([ft.Container(heading(heading_text, 18), expand=True), *tools], spacing=0)
        tiles = ft.ResponsiveRow([ft.Container(self._tile(card), col={"xs": 12, "md": 6}) for card in cards],
                                 spacing=10, run_spacing=10)
        return tag(f"group-{ident}", ft.Column([head, empty or tiles, *notes], spacing=8, tight=True))

    def _tile(self, card: Card) -> ft.Control:
        players = is_players_card(card)
        badges: list[ft.Control] = []
        if not card.verified:
            badges.append(tag(f"unverified-{card.id}", ft.Container(
                content=ft.Row([ft.Icon(ft.Icons.WARNING_AMBER, size=16, color=ft.Colors.ON_TERTIARY_CONTAINER),
                                ft.Text(UNVERIFIED, size=12, color=ft.Colors.ON_TERTIARY_CONTAINER)],
                               spacing=4, tight=True),
                padding=ft.Padding.symmetric(horizontal=8, vertical=3), border_radius=8,
                bgcolor=ft.Colors.TERTIARY_CONTAINER), label=UNVERIFIED))
        origin = based_on(card)
        if origin:
            shipped = self.catalogue.cards().get(origin) if self.catalogue else None
            badges.append(muted(f"based on {shipped.name if shipped else origin}", 12))
        if players:
            badges.append(muted(f"id {card.id}", 12))
        view_holder = ft.Column(visible=False, tight=True)

        async def toggle(e):
            if not view_holder.controls:  # the card drawn as on the table, undamaged
                ship = ShipState(id=card.id, side=card.faction or "Fleet", card=card, column=10, row=10, facing=0)
                view = card_view(GameState(ships=[ship], sides=[ship.side]), ship.id)
                enter = card.enter_hexes_before_turn
                view = dataclasses.replace(view, position=f"{card.starting_mp} MP, enter {enter} "
                                                          f"hex{'es' if enter != 1 else ''} before a turn")
                view_holder.controls = [ShipCard().show(view)]
            view_holder.visible = not view_holder.visible
            e.control.content = "Hide card" if view_holder.visible else "Show card"
            self.app.page.update()

        def button(ident, text, icon, handler):
            return tag(f"{ident}-{card.id}", ft.TextButton(
                content=text, icon=icon, on_click=handler,
                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8))))

        actions = [
            button("view", "Show card", ft.Icons.VISIBILITY, toggle),
            button("edit", "Edit" if players else "Edit my copy", ft.Icons.EDIT, on(self._open, CardEditor.edit, card)),
            button("duplicate", "Duplicate", ft.Icons.CONTENT_COPY, on(self._open, CardEditor.duplicate, card)),
            button("export", "Export", ft.Icons.DOWNLOAD, on(self._export, [card], card.name)),
            button("print", "Print", ft.Icons.PRINT, on(self._print, [card], card.name)),
        ]
        if players:
            actions.append(button("delete", "Delete", ft.Icons.DELETE_OUTLINE, on(self._delete, card)))
        return tag(f"card-tile-{card.id}", ft.Container(
            content=ft.Column([
                ft.Row([ft.Icon(ft.Icons.PERSON if players else ft.Icons.DIRECTIONS_BOAT, color=ft.Colors.PRIMARY),
                        ft.Column([ft.Text(card.name, size=16, weight=ft.FontWeight.BOLD),
                                   muted(summary_line(card), 12)], spacing=0, tight=True, expand=True)]),
                *([ft.Row(badges, wrap=True, spacing=8, run_spacing=4)] if badges else []),
                ft.Row(actions, wrap=True, spacing=0, run_spacing=0),
                view_holder,
            ], spacing=6, tight=True),
            padding=12, border_radius=14, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)), label=f"{card.name}: {summary_line(card)}")

    # --- actions ---------------------------------------------------------------------------

    async def _open(self, start, *args: Card) -> None:
        """The editor with a new card, a card to edit, or a copy (`start`: a `CardEditor` constructor)."""
        await open_editor(self.app, start(*args))

    async def _export(self, cards: list[Card], title: str) -> None:
        document = export_document(cards, title)
        data = json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8")
        name = export_file_name(cards) if len(cards) == 1 else slug(title) + ".json"
        self._say(*await deliver(self.app, name, data, "JSON file"))

    async def _print(self, cards: list[Card], title: str) -> None:
        """In a browser: the print page made and kept first, then a dialog whose button is a link to it,
        which the browser follows in the tap itself (a new tab with the print dialog open; Save as PDF
        is one of its printers).  A tab opened by the app after a round trip is blocked by Safari and
        every WebKit browser (issue 37), so the app never opens it itself, nor says it did.  In the
        desktop window, the page saved where the player chooses.
        It says "Preparing" while the page builds (issue 35: a big fleet's print showed nothing for a while)."""
        self._say(f"Preparing the print page ({len(cards)} card{'s' if len(cards) != 1 else ''})...")
        page = await asyncio.to_thread(render, cards, title)
        if self.app.page.web:
            # the server as this browser reaches it (page.url is its websocket: ws://host:port)
            address = (print_page_address(page) if IN_BROWSER  # the static web build: no server to keep it
                       else urljoin((self.app.page.url or "").replace("ws", "http", 1), prints.keep(page)))
            self.app.page.show_dialog(ft.AlertDialog(
                title=ft.Text(f"Print {title}"),
                content=ft.Text("The print page is ready. It opens in a new tab with the print dialog: "
                                "print, or choose Save as PDF."),
                actions=[ft.TextButton(content="Close", on_click=lambda _: self.app.page.pop_dialog()),
                         tag("print-open", ft.FilledButton(
                             content="Open the print page", icon=ft.Icons.PRINT,
                             url=ft.Url(address, target=ft.UrlTarget.BLANK),
                             on_click=lambda _: self.app.page.pop_dialog()))]))
            return
        name = slug(cards[0].id if len(cards) == 1 else title) + "-print.html"
        self._say(*await deliver(self.app, name, page.encode("utf-8"),
                                 "print-ready page (open it and print, or save as PDF)"))

    async def _delete(self, card: Card) -> None:
        async def confirmed(e):
            self.app.page.pop_dialog()
            try:
                library = self.app.card_library()  # refused on the server to any device but the host
            except PermissionError as exc:
                self._say(str(exc), error=True)
                return
            await asyncio.to_thread(library.delete, card.id)
            await self.app.navigate(Session("fleets", message=f"Deleted {card.name} from your cards."))

        self.app.page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"Delete {card.name}?"),
            content=ft.Text("It leaves your cards. Games already started keep their own copy of the card."),
            actions=[ft.TextButton(content="Keep it", on_click=lambda _: self.app.page.pop_dialog()),
                     tag("confirm-delete", ft.TextButton(content="Delete", on_click=confirmed))]))

    async def _import_dialog(self, e) -> None:
        pasted = tag("import-text", ft.TextField(
            label="Paste a card or fleet file (JSON)", multiline=True, min_lines=5, max_lines=10, width=520))
        problem = tag("import-problem", ft.Text("", color=ft.Colors.ERROR))

        async def import_text(text: str, source: str) -> None:
            try:
                data = parse_json(text, source)  # size, depth and numbers bounded as for a file (issue 11)
                library = self.app.card_library()  # refused on the server to any device but the host
                result = await asyncio.to_thread(library.import_data, data, source)
            except (FormatError, ValueError, PermissionError) as exc:
                inner(problem, ft.Text).value = str(exc)
                self.app.page.update()
                return
            self.app.page.pop_dialog()
            await self.app.navigate(Session("fleets", message=result.message))

        async def from_paste(_):
            text = inner(pasted, ft.TextField).value or ""
            if not text.strip():
                inner(problem, ft.Text).value = "Paste the JSON of a card or a fleet first, or choose a file."
                self.app.page.update()
                return
            await import_text(text, "pasted text")

        async def from_file(_):
            files = await ask("pick a card or fleet file", lambda: picker(self.app).pick_files(
                dialog_title="Choose a card or fleet file", file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json"], with_data=True), wait=None)  # the player takes their time
            if not files:
                return
            chosen = files[0]
            if chosen.bytes is None:
                inner(problem, ft.Text).value = f"{chosen.name}: the file could not be read"
                self.app.page.update()
                return
            try:
                text = chosen.bytes.decode("utf-8")
            except UnicodeDecodeError:
                inner(problem, ft.Text).value = f"{chosen.name}: not a text file"
                self.app.page.update()
                return
            await import_text(text, chosen.name)

        self.app.page.show_dialog(ft.AlertDialog(
            title=ft.Text("Import cards"),
            content=ft.Column([
                muted("A leviathans-card/1 or leviathans-fleet/1 file (older versions are upgraded). "
                      "Cards join your cards with ids of their own; nothing you have is replaced."),
                pasted, problem,
            ], tight=True, spacing=10, width=520),
            actions=[
                tag("import-file", ft.TextButton(content="Choose a file…", icon=ft.Icons.UPLOAD_FILE, on_click=from_file)),
                tag("import-paste", ft.FilledButton(content="Import pasted JSON", on_click=from_paste)),
                ft.TextButton(content="Cancel", on_click=lambda _: self.app.page.pop_dialog()),
            ]))

    def _say(self, text: str, error: bool = False) -> None:
        inner(self.message, ft.Text).value = text
        inner(self.message, ft.Text).color = ft.Colors.ERROR if error else ft.Colors.PRIMARY
        self.message.visible = True
        self.app.page.update()
