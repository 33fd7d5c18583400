"""The table screen: the map beside the panels (tablet, desktop), or one at a time (phone).

Reads the game and the session, renders view models, sends actions through
`App.act`.  Only what changed is sent: the grid layer never, a moved ship's
shapes in place, and the visible panel.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import flet as ft

from ...engine import actions as A
from ...engine.hexes import Hex
from ...engine.state import GameState
from ..session import Session
from ..tasks import soon
from ..panels import fire_panel, move_panel, shot_views, table_dice_fields
from ..viewmodels import Banner, arc_shades, banner, card_view, deployment_hexes, log_lines, ship_rows
from ..theme import side_colour
from .fire import FirePanel, TableDiceEntry
from .hexmap import HexMap
from .log import log_control
from .move import MoveControls
from .shipcard import ShipCard
from .widgets import TOUCH, icon_button, mounted, muted, nav_button, put, sent, tab_button, tag

PANEL_WIDTH = 460
PANELS = ("ship", "fire", "log")


@dataclass
class Models:
    """Everything the table shows for one state and selection, computed off the event loop."""

    state: GameState
    banner: Banner
    ships: list
    card: object | None
    move: object | None
    guns: tuple
    shots: tuple
    arcs: tuple | None
    arcs_key: tuple | None
    log: tuple | None
    zone: tuple = ()
    seconds: float = 0.0


def compute(state: GameState, ship: str | None, want_fire: bool, want_log: bool, history, arcs_key_now) -> Models:
    started = time.perf_counter()
    if ship and not state.has_ship(ship):
        ship = None
    selected = state.ship(ship) if ship else None
    arcs_key = (ship, selected.hexes, selected.facing, tuple(selected.working_guns)) if selected else None
    arcs = None
    if arcs_key != arcs_key_now:
        arcs = arc_shades(state, ship) if selected and not selected.removed else ()
    return Models(
        state=state,
        banner=banner(state),
        ships=ship_rows(state),
        card=card_view(state, ship) if ship else None,
        move=move_panel(state, ship) if ship else None,
        guns=fire_panel(state, ship) if (ship and want_fire) else (),
        shots=shot_views(state) if want_fire else (),
        arcs=arcs,
        arcs_key=arcs_key,
        log=log_lines(history()) if want_log else None,
        zone=deployment_hexes(state, ship) if (ship and state.phase == "setup") else (),
        seconds=time.perf_counter() - started,
    )


class ShipPicker:
    """The ships as chips (tap one to select it), kept on screen: a new selection changes two chips."""

    def __init__(self, prefix: str, on_select):
        self.prefix, self.on_select = prefix, on_select
        self.chips: dict[str, ft.Control] = {}
        self.control = ft.Row([], wrap=True, spacing=6, run_spacing=6)
        self._keys: dict[str, tuple] = {}

    def show(self, m: Models, selected: str | None) -> ft.Control:
        shown = []
        for row in m.ships:
            if self.prefix == "fire" and row.destroyed:
                continue
            tagged = self.chips.get(row.id)
            if tagged is None:
                tagged = self.chips[row.id] = tag(f"{self.prefix}-{row.id}", ft.Chip(
                    label="", on_click=self.on_select(row.id), show_checkmark=False, height=TOUCH,
                    leading=ft.Container(width=12, height=12, border_radius=6)), kept=True)
            note = {"to move": " · to move", "destroyed": " · sunk"}.get(row.status, "")
            key = (f"{row.name.replace('HML ', '')}{note}", row.id == selected, side_colour(m.state.sides, row.side))
            if self._keys.get(row.id) != key:
                self._keys[row.id] = key
                chip = tagged.content
                chip.label, chip.selected, chip.leading.bgcolor = key
                tagged.stale = True
            shown.append(tagged)
        put(self.control, shown)
        return self.control

    def sent(self) -> None:
        sent(*self.chips.values())


class TableView:
    def __init__(self, app, game):
        self.app = app
        self.game = game
        self.state: GameState = game.state
        self.models: Models | None = None
        self.place_hex: Hex | None = None
        self.placing = False
        self.entries: dict[int, TableDiceEntry] = {}
        self.fire_panel = FirePanel(self._declare, self._roll, self._enter, self._cancel_shot)
        self._note: tuple[str, bool] | None = None
        self._note_shown: tuple[str, bool] | None = None
        self._lock = asyncio.Lock()
        self.map = HexMap(self.state, app.dark, self.map_tapped)
        self.map.focus = self._selected_hex()
        # fixed pieces
        self.banner_title = ft.Text("", size=17, weight=ft.FontWeight.BOLD)
        self.banner_detail = ft.Text("", size=13)
        self.banner_actions = ft.Row(spacing=8, wrap=True, run_spacing=6)
        self.banner_ships = ft.Row(spacing=6, wrap=True)
        self.note = ft.Text("", size=13, weight=ft.FontWeight.W_500, expand=True)
        self.note_close = icon_button(ft.Icons.CLOSE, "Dismiss", self._dismiss_note, "note-close", icon_size=18)
        self.note_box = tag("note", ft.Container(
            content=ft.Row([self.note, self.note_close], spacing=4,
                           vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=14, right=2), border_radius=12,
            shadow=ft.BoxShadow(blur_radius=8, color=ft.Colors.with_opacity(0.25, ft.Colors.SHADOW)),
        ))
        # the last answer (an event, or a refusal's reason) floats over the top of the map and panels,
        # so the banner, and the map under it, keep their size
        self.note_layer = ft.Container(content=self.note_box, top=8, left=8, right=8, visible=False)
        self.banner_box = ft.Container(padding=ft.Padding.symmetric(horizontal=14, vertical=8),
                                       bgcolor=ft.Colors.PRIMARY_CONTAINER)
        self.banner = tag("banner", self.banner_box)
        self.undo_button = icon_button(ft.Icons.UNDO, "Undo", self._undo, "undo")
        self.redo_button = icon_button(ft.Icons.REDO, "Redo", self._redo, "redo")
        self.bookkeeping = ft.PopupMenuItem(content="Rule checks off (bookkeeping)", checked=False, on_click=self._toggle_bookkeeping, height=48)
        self.top = ft.Container(
            content=ft.Row([
                icon_button(ft.Icons.HOME_OUTLINED, "Home", self._home, "home"),
                ft.Text(game.name, size=16, weight=ft.FontWeight.W_600, expand=True, max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS),
                self.undo_button, self.redo_button,
                tag("menu", ft.PopupMenuButton(icon=ft.Icons.MORE_VERT, tooltip="Game settings", width=48, height=48, items=[
                    self.bookkeeping,
                    ft.PopupMenuItem(content="Light or dark theme", on_click=lambda e: app.toggle_theme(), height=48),
                    ft.PopupMenuItem(content="End movement (ships not moved stay put)", on_click=self._end_movement, height=48),
                ])),
            ], spacing=0),
            padding=ft.Padding.only(left=4, right=4), bgcolor=ft.Colors.SURFACE_CONTAINER,
        )
        self.panel = ft.Column(spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
        self.tabs = ft.Row(spacing=4)  # the panel switcher beside the map
        self.nav = ft.Container(content=ft.Row(spacing=0), bgcolor=ft.Colors.SURFACE_CONTAINER,
                                padding=ft.Padding.symmetric(horizontal=4, vertical=2))  # phone: bottom navigation
        self.strip = ft.Container(padding=8, bgcolor=ft.Colors.SURFACE_CONTAINER, visible=False)
        self.cover = ft.Container(content=self.panel, padding=ft.Padding.symmetric(horizontal=10, vertical=8),
                                  bgcolor=ft.Colors.SURFACE, left=0, right=0, top=0, bottom=0)
        self.control = ft.Container(expand=True)
        # the side panel's pieces, kept on screen and changed in place
        self.ship_picker = ShipPicker("ship", self._select_handler)
        self.fire_picker = ShipPicker("fire", self._select_handler)
        self.card = ShipCard(on_slot=self._slot_tapped)
        self.moves = MoveControls(False, self._step, self._end_move, self._place)
        self.strip_moves = MoveControls(True, self._step, self._end_move, self._place)
        self.moves_later = ft.Text("", size=12, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)
        self.moves_later_row = ft.Row([self.moves_later, tag("place-open", ft.TextButton(
            content="Place at...", icon=ft.Icons.PUSH_PIN, on_click=self._open_place, height=TOUCH))])
        self.no_card = muted("Tap a ship, here or on the map, to see its card, arcs and moves.")
        self.strip_hint = ft.Container(content=muted("Tap a ship on the map, or pick one under Ships, to move it, "
                                                     "see its arcs and its card."), height=TOUCH,
                                       alignment=ft.Alignment.CENTER_LEFT)
        self.strip_name = ft.Text("", weight=ft.FontWeight.BOLD)
        self.strip_position = muted("", 12)
        self.strip_damage = ft.Text("", size=12)
        self.strip_card = ft.Row([self.strip_name, self.strip_position, ft.Container(expand=True), self.strip_damage],
                                 spacing=8)
        self.banner_buttons: dict[str, ft.Control] = {}
        self.next_chips: dict[str, ft.Control] = {}
        self._wide: bool | None = None
        self._layout()

    # --- layout -------------------------------------------------------------------

    @property
    def session(self) -> Session:
        return self.app.session

    @property
    def tab(self) -> str:
        tab = self.session.tab
        if self.app.wide:
            return tab if tab in PANELS else "ship"
        return tab

    def _layout(self) -> None:
        """Build the screen for the width: map beside the panels, or one at a time with bottom navigation.

        Built once per width class: switching tabs later changes only the tab
        buttons and the panel, so the map keeps its zoom and pan.
        """
        wide = self.app.wide
        self._wide = wide
        if wide:
            self.banner_actions.alignment = ft.MainAxisAlignment.END
            self.banner_box.content = ft.Row([
                ft.Column([self.banner_title, self.banner_detail], spacing=2, expand=True, tight=True),
                self.banner_ships, self.banner_actions], spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER)
            self.banner_detail.max_lines = None
            width = self.app.page.width or 1200
            side = ft.Container(
                content=ft.Column([ft.Container(self.tabs, padding=ft.Padding.only(top=8)), self.panel],
                                  spacing=8, expand=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                width=min(PANEL_WIDTH, width * 0.42), padding=ft.Padding.symmetric(horizontal=10),
                bgcolor=ft.Colors.SURFACE,
            )
            body = ft.Row([ft.Stack([self.map.control, self.note_layer], expand=True), side], spacing=0, expand=True,
                          vertical_alignment=ft.CrossAxisAlignment.STRETCH)
            self.strip.visible = False
            self.control.content = ft.Column([self.top, self.banner, body], spacing=0, expand=True,
                                             horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        else:
            self.banner_actions.alignment = ft.MainAxisAlignment.START
            self.banner_box.content = ft.Column([self.banner_title, self.banner_detail, self.banner_ships,
                                                 self.banner_actions], spacing=6, tight=True)
            self.banner_detail.max_lines = 2
            self.banner_detail.overflow = ft.TextOverflow.ELLIPSIS
            # the panels cover the map rather than replace it, so the map keeps its zoom and pan
            content = ft.Stack([ft.Column([self.map.control, self.strip], spacing=0, expand=True), self.cover,
                                self.note_layer], expand=True)
            self.control.content = ft.Column([self.top, self.banner, content, self.nav], spacing=0, expand=True,
                                             horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self.map.remounted()
        self._show_tab()

    def _show_tab(self) -> None:
        """Mark the current tab and show its panel (the map on a phone's map tab)."""
        tab = self.tab
        if self._wide:
            self.tabs.controls = [
                tab_button(f"tab-{key}", icon, label, key == tab, self._tab_handler(key))
                for key, icon, label in (("ship", ft.Icons.DIRECTIONS_BOAT, "Ships"),
                                         ("fire", ft.Icons.GPS_FIXED, "Fire"),
                                         ("log", ft.Icons.HISTORY, "Log"))]
        else:
            self.nav.content.controls = [
                nav_button(f"tab-{key}", icon, selected, label, key == tab, self._tab_handler(key))
                for key, icon, selected, label in (
                    ("map", ft.Icons.MAP_OUTLINED, ft.Icons.MAP, "Map"),
                    ("ship", ft.Icons.DIRECTIONS_BOAT_OUTLINED, ft.Icons.DIRECTIONS_BOAT, "Ships"),
                    ("fire", ft.Icons.GPS_NOT_FIXED, ft.Icons.GPS_FIXED, "Fire"),
                    ("log", ft.Icons.HISTORY, ft.Icons.HISTORY, "Log"))]
            self.cover.visible = tab != "map"
            self.strip.visible = tab == "map"  # always there on the map tab, so selecting a ship does not resize the map

    async def relayout(self) -> None:
        if self.app.wide != self._wide:
            self._layout()
            self.control.update()
            await self.refresh(force=True)

    def retheme(self) -> None:
        self.map.retheme(self.app.dark)
        if mounted(self.map.grid):
            self.map.grid.update()
        soon(self.app.page, self.refresh, True)

    async def follow_session(self) -> None:
        """The session changed (selection, tab) within this game."""
        self._show_tab()
        if mounted(self.control):
            self.control.update()
        await self.refresh(force=True)

    # --- refresh ----------------------------------------------------------------------

    def message(self, text: str | None, info: bool = False) -> None:
        self._note = (text, info) if text else None

    async def refresh(self, force: bool = False) -> None:
        async with self._lock:
            state = self.game.state
            if state is self.state and not force and self.models is not None:
                if self._note != self._note_shown:  # the answer to a tap came after its state was shown
                    self._render_note()
                    if mounted(self.note_layer):
                        self.note_layer.update()
                return
            ship = self.session.ship
            tab = self.tab
            want_fire = tab == "fire"
            want_log = tab == "log"
            arcs_key_now = self.map._arc_key
            models = await asyncio.to_thread(compute, state, ship, want_fire, want_log, self.game.history, arcs_key_now)
            self.state, self.models = state, models
            self.render(models)

    def render(self, m: Models) -> None:
        """Put the models on screen; only changed controls are sent."""
        changed: list[ft.Control] = []
        self._render_banner(m)
        changed += [self.banner, self.note_layer]
        self.map.focus = self._selected_hex()
        changed += self.map.show_ships(m.state, self.session.ship)
        if m.arcs is not None:
            changed += self.map.show_arcs(m.arcs, m.arcs_key)
        changed += self.map.show_marks([self.place_hex] if self.place_hex else [], m.zone,
                                       (self.place_hex, m.zone))
        self.map.fleet = tuple(c for ship in m.state.active_ships for c in ship.hexes)
        self.undo_button.content.disabled = not self.game.can_undo
        self.redo_button.content.disabled = not self.game.can_redo
        self.bookkeeping.checked = m.state.settings.bookkeeping
        changed.append(self.top)
        put(self.panel, self._panel_controls(m))
        changed.append(self.panel)
        if not self._wide:
            self.strip.visible = self.tab == "map"
            self.strip.content = self._strip(m) if self.strip.visible else None
            changed.append(self.strip)
        for control in changed:
            if mounted(control):  # a control off screen (the map behind a phone tab) goes with its screen
                control.update()
        for piece in (self.ship_picker, self.fire_picker, self.card):
            piece.sent()

    def _render_banner(self, m: Models) -> None:
        b = m.banner
        self.banner_title.value = b.title
        self.banner_detail.value = b.detail
        put(self.banner_actions, [c for a in b.actions for c in self._banner_action(a, m.state)])
        names = {s.id: s.name for s in m.ships}
        chips = []
        for sid in b.next_ships:
            tagged = self.next_chips.get(sid)
            if tagged is None:
                tagged = self.next_chips[sid] = tag(f"next-{sid}", ft.Chip(
                    label="", on_click=self._select_handler(sid), leading=ft.Icon(ft.Icons.NAVIGATION, size=16),
                    height=TOUCH, show_checkmark=False))
            tagged.content.label = names.get(sid, sid)
            tagged.content.selected = sid == self.session.ship
            chips.append(tagged)
        put(self.banner_ships, chips)
        self.banner_ships.visible = bool(b.next_ships)
        self._render_note()

    def _render_note(self) -> None:
        """The answer to the last tap (what happened, or the rule's reason), floating over the map."""
        self._note_shown = self._note
        if self._note:
            text, info = self._note
            self.note.value = text[0].upper() + text[1:] if text else ""
            self.note.color = ft.Colors.ON_INVERSE_SURFACE if info else ft.Colors.ON_ERROR_CONTAINER
            self.note_box.content.bgcolor = ft.Colors.INVERSE_SURFACE if info else ft.Colors.ERROR_CONTAINER
            self.note_close.content.icon_color = self.note.color
            self.note_layer.visible = True
        else:
            self.note_layer.visible = False

    def _banner_action(self, action: str, state: GameState) -> list[ft.Control]:
        def button(ident, text, icon, handler, filled=True):
            kept = self.banner_buttons.get(ident)  # kept, so the banner sends only what changed
            if kept is None:
                kind = ft.FilledButton if filled else ft.OutlinedButton
                kept = self.banner_buttons[ident] = tag(ident, kind(content=text, icon=icon, on_click=handler,
                                                                    height=TOUCH))
            return kept

        if action == "start_game":
            return [button("start-game", "Start the battle", ft.Icons.PLAY_ARROW, self._act_handler(A.StartGame()))]
        if action == "roll_initiative":
            return [button("roll-initiative", "Roll initiative", ft.Icons.CASINO, self._act_handler(A.RollInitiative()))]
        if action == "enter_initiative":
            return [button("enter-initiative", "Table dice", ft.Icons.KEYBOARD, self._initiative_dialog, False)]
        if action == "set_initiative":
            return [button(f"initiative-{side}", f"{side} has it", ft.Icons.FLAG, self._act_handler(A.SetInitiative(side=side)), False)
                    for side in state.sides]
        if action == "end_turn":
            return [button("end-turn", "End turn", ft.Icons.UPDATE, self._act_handler(A.EndTurn()))]
        if action == "end_movement":
            return []
        return []

    # --- panels -----------------------------------------------------------------------

    def _panel_controls(self, m: Models) -> list[ft.Control]:
        tab = self.tab
        if tab == "fire":
            picker = self._ship_picker(m, "fire")
            return [picker, self.fire_panel.show(m.card.name if m.card else None, m.state.phase, m.guns, m.shots,
                                                 self.entries)]
        if tab == "log":
            return [tag("log", log_control(m.log or (), self.game.can_undo, self.game.can_redo, self._undo, self._redo))]
        return self._ship_panel(m)

    def _ship_picker(self, m: Models, prefix: str) -> ft.Control:
        return (self.fire_picker if prefix == "fire" else self.ship_picker).show(m, self.session.ship)

    def _ship_panel(self, m: Models) -> list[ft.Control]:
        parts: list[ft.Control] = [self._ship_picker(m, "ship")]
        if m.move is not None and (m.state.phase in ("setup", "movement") or self.placing):
            parts.append(self.moves.show(m.move, m.state.phase, self.placing, self._place_label(m.state)))
        elif m.move is not None:
            self.moves_later.value = m.move.note
            parts.append(self.moves_later_row)
        if m.card is not None:
            parts.append(self.card.show(m.card))
        else:
            parts.append(self.no_card)
        return parts

    async def _open_place(self, e) -> None:
        self.placing = True
        await self.refresh(force=True)

    def _place_label(self, state: GameState) -> str:
        return state.board.label(self.place_hex) if self.place_hex else ""

    def _strip(self, m: Models) -> ft.Control:
        if m.move is None:
            return self.strip_hint
        if m.state.phase in ("setup", "movement") or self.placing:
            return self.strip_moves.show(m.move, m.state.phase, self.placing, self._place_label(m.state))
        card = m.card
        self.strip_name.value = card.name
        self.strip_position.value = card.position
        self.strip_damage.value = f"{card.destroyed}/{card.half_si} destroyed"
        return self.strip_card

    # --- handlers ------------------------------------------------------------------------

    def _selected_hex(self) -> Hex | None:
        ship = self.session.ship
        if ship and self.state.has_ship(ship):
            return self.state.ship(ship).bow
        return None

    def _act_handler(self, action):
        async def handler(e):
            await self.app.act(action)
        return handler

    async def _step(self, step: str) -> None:
        ship = self.session.ship
        if ship:
            await self.app.act(A.Step(ship=ship, step=step))

    async def _end_move(self, ship_id: str) -> None:
        await self.app.act(A.EndMove(ship=ship_id))

    async def _place(self, ship_id: str, facing: int, text: str) -> None:
        if not text:
            self.message("Tap a hex on the map or type its label (like 0812) first.")
            await self.refresh(force=True)
            return
        outcome = await self.app.act(A.Place(ship=ship_id, bow=text, facing=facing))
        if outcome.ok:
            self.place_hex = None
            await self.refresh(force=True)

    def _select_handler(self, ship_id: str):
        async def handler(e):
            await self.select(ship_id)
        return handler

    async def select(self, ship_id: str | None) -> None:
        self.place_hex = None
        self.placing = False
        self.app.session = self.session.with_ship(ship_id)
        await self.refresh(force=True)
        self._push_route()

    def _push_route(self) -> None:
        route = self.app.session.route
        if self.app.page.route != route:
            self.app.page.route = route
            soon(self.app.page, self.app.page.push_route, route)

    async def map_tapped(self, cell: Hex) -> None:
        state = self.game.state
        hit = next((s for s in state.active_ships if cell in s.hexes), None)
        if hit is not None and hit.id != self.session.ship:
            await self.select(hit.id)
            return
        if self.session.ship:
            self.place_hex = cell
            self.message(f"Hex {state.board.label(cell)} chosen: tap a facing to place "
                         f"{state.ship(self.session.ship).card.name} there.", info=True)
            if not self.app.wide and self.session.tab == "map":
                pass
            await self.refresh(force=True)

    async def _slot_tapped(self, location: str, slot: int, status: str) -> None:
        ship = self.session.ship
        if not ship:
            return
        choices = [("live", "Clear (working)"), ("destroyed_this_turn", "Circle: destroyed this turn"),
                   ("destroyed", "Strike through: destroyed")]

        def choose(value):
            async def handler(e):
                self.app.page.pop_dialog()
                await self.app.act(A.MarkSlot(ship=ship, location=location, slot=slot, status=value))
            return handler

        dialog = ft.AlertDialog(
            title=ft.Text(f"{location.capitalize()} slot {slot}"),
            content=ft.Text("Mark or clear this slot by hand (the log records it)."),
            actions=[ft.TextButton(content=text, on_click=choose(value), height=TOUCH)
                     for value, text in choices if value != status]
            + [ft.TextButton(content="Cancel", on_click=lambda e: self.app.page.pop_dialog(), height=TOUCH)],
        )
        self.app.page.show_dialog(dialog)

    async def _declare(self, location: str, slot: int, target: str, target_location: str) -> None:
        ship = self.session.ship
        await self.app.act(A.DeclareShot(attacker=ship, location=location, slot=slot, target=target,
                                         target_location=target_location))

    async def _roll(self, shot_id: int) -> None:
        self.entries.pop(shot_id, None)
        await self.app.act(A.ResolveShot(shot=shot_id))

    async def _enter(self, shot_id: int) -> None:
        state = self.game.state
        shot = next((s for s in shot_views(state) if s.id == shot_id), None)
        if shot is None:
            return

        async def close(e):
            self.entries.pop(shot_id, None)
            await self.refresh(force=True)

        entry = self.entries[shot_id] = TableDiceEntry(shot, table_dice_fields(state, shot_id), self._submit_faces, close)
        await self.refresh(force=True)
        await entry.focus_first_empty()

    async def _submit_faces(self, entry: TableDiceEntry) -> None:
        from ..panels import parse_faces

        faces, problem = parse_faces(entry.values())
        if problem:
            self.message(problem)
            await self.refresh(force=True)
            return
        pool = [f for f, spec in zip(faces, entry.fields) if spec.purpose == "pool"]
        slot = [f for f, spec in zip(faces, entry.fields) if spec.purpose == "slot"]
        keel = [f for f, spec in zip(faces, entry.fields) if spec.purpose == "keel"]
        outcome = await self.app.act(A.ResolveShot(shot=entry.shot.id, table=A.TableFaces(pool=pool, slot=slot, keel=keel)))
        if outcome.ok:
            self.entries.pop(entry.shot.id, None)
            await self.refresh(force=True)
            return
        reason = outcome.reason
        if "slot die needs another roll" in reason:
            entry.add("slot", "D6", "Re-roll")
        elif "keel roll needs" in reason:
            entry.add("keel", "Red", "Keel DRed", 2)
        await self.refresh(force=True)
        await entry.focus_first_empty()

    async def _cancel_shot(self, shot_id: int) -> None:
        self.entries.pop(shot_id, None)
        await self.app.act(A.CancelShot(shot=shot_id))

    async def _initiative_dialog(self, e) -> None:
        state = self.game.state
        fields = {side: [ft.TextField(label=f"{side} DRed {i + 1}", width=120, keyboard_type=ft.KeyboardType.NUMBER)
                         for i in range(2)] for side in state.sides}
        problem = ft.Text("", color=ft.Colors.ERROR)

        async def submit(ev):
            faces = {}
            for side, boxes in fields.items():
                values = [(b.value or "").strip() for b in boxes]
                if not all(v.isdigit() for v in values):
                    problem.value = f"{side}: type both red dice as numbers."
                    problem.update()
                    return
                faces[side] = [int(v) for v in values]
            self.app.page.pop_dialog()
            await self.app.act(A.RollInitiative(faces=faces))

        self.app.page.show_dialog(ft.AlertDialog(
            title=ft.Text("Initiative: the dice you rolled"),
            content=ft.Column([ft.Row(boxes) for boxes in fields.values()] + [problem], tight=True),
            actions=[ft.FilledButton(content="Record", on_click=submit, height=TOUCH),
                     ft.TextButton(content="Cancel", on_click=lambda ev: self.app.page.pop_dialog(), height=TOUCH)],
        ))

    def _tab_handler(self, tab: str):
        async def handler(e):
            await self._go_tab(tab)
        return handler

    async def _go_tab(self, tab: str) -> None:
        self.app.session = self.session.with_tab(tab)
        self._show_tab()
        self.control.update()
        await self.refresh(force=True)
        self._push_route()

    async def _dismiss_note(self, e) -> None:
        self._note = self._note_shown = None
        self.note_layer.visible = False
        self.note_layer.update()

    async def _undo(self, e) -> None:
        await self.app.undo()

    async def _redo(self, e) -> None:
        await self.app.redo()

    async def _home(self, e) -> None:
        await self.app.navigate(Session())

    async def _end_movement(self, e) -> None:
        await self.app.act(A.EndMovement())

    async def _toggle_bookkeeping(self, e) -> None:
        await self.app.act(A.SetBookkeeping(on=not self.game.state.settings.bookkeeping))
