"""The Quick-Start table: the body `frame.GameFrame` shows for a Quick-Start game.

Reads the game and the session, renders view models, sends actions through
`GameFrame.act`.  Only what changed is sent: the grid layer never, a moved ship's
shapes in place, and the visible panel.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import flet as ft

from ....engine.quick_start import actions as A
from ....engine.quick_start import unit_initiative as H1
from ....engine.quick_start.combat import firing_solution
from ....engine.hexes import Hex
from ....engine.quick_start.state import GameState
from .house_model import HouseMoves, house_moves, initiative_chances
from ...roles import ends_own_moves, waiting_for
from ...session import Session
from ...client_calls import ask
from ...tasks import soon
from ...panels import MovePanel, fire_panel, move_panel, shot_views, table_dice_fields
from ...banners import Banner, banner
from ...motion import Motion, motion
from ...viewmodels import CardView, arc_shades, card_view, deployment_hexes, deployment_refusal, log_lines, ship_rows
from ...theme import side_colour
from .volley import shots_to_roll
from .advisor import AdvisorPanel
from .fire import FirePanel, FireSections, TableDiceEntry, VolleySheet
from ..body import menu_item
from ...views.frame import on
from ...views.hexmap import HexMap
from .house import unit_initiative_dialog
from .log import log_control
from .move import MoveControls
from ...views.planner import Planner
from .planner_guns import guns_from
from ...views.settings import open_theme_dialog
from ...views.shipcard import ShipCard
from ...views.widgets import TOUCH, Kept, inner, muted, put, sent, tag
from ...views.game_files import export_from

END_MOVEMENT = "End movement (ships not moved stay put)"


@dataclass
class Models:
    """Everything the table shows for one state and selection, computed off the event loop."""

    state: GameState
    banner: Banner
    ships: list
    card: CardView | None
    move: MovePanel | None
    guns: tuple
    shots: tuple
    arcs: tuple | None
    arcs_key: tuple | None
    log: tuple | None
    zone: tuple = ()
    house: HouseMoves | None = None
    plan: tuple = (None, None)  # the movement planner's (PlanMap, PlanView) while planning
    advice: object | None = None  # advice_model.AdvisorView on the fire tab
    to_roll: tuple = ()  # the declared shots this device may roll together (volley.shots_to_roll)
    motion: Motion = Motion()  # the slot just hit and the ship that just moved, to highlight briefly


class ShipPicker:
    """The ships as chips (tap one to select it), kept on screen: a new selection changes two chips."""

    def __init__(self, prefix: str, select, palette: str = "light"):
        self.prefix, self.select, self.palette = prefix, select, palette
        self.chips: dict[str, Kept] = {}
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
                    label="", on_click=on(self.select, row.id), show_checkmark=False, height=TOUCH,
                    leading=ft.Container(width=12, height=12, border_radius=6)), kept=True)
            note = {"to move": " · to move", "destroyed": " · sunk"}.get(row.status, "")
            key = (f"{row.name.replace('HML ', '')}{note}", row.id == selected, side_colour(m.state.sides, row.side, self.palette))
            if self._keys.get(row.id) != key:
                self._keys[row.id] = key
                chip = inner(tagged, ft.Chip)
                leading = chip.leading
                assert isinstance(leading, ft.Container)  # the side's colour dot
                chip.label, chip.selected, leading.bgcolor = key
                tagged.stale = True
            shown.append(tagged)
        put(self.control, shown)
        return self.control

    def sent(self) -> None:
        sent(*self.chips.values())


#: Seconds between drawing a volley's new rows and scrolling to them (the browser builds them a frame later).
SCROLL_AFTER = 0.3
#: The events that say a roll's result (the winner of the initiative after any tie, a shot's dice).
ROLLED = ("initiative", "unit_initiative", "shot")


class QuickStartBody:
    """The Quick-Start table inside the game frame: the ships on the map, the ship, fire and log
    panels, the banner's steps and the ships to move next."""

    PREFIX = ""
    SHARED_SCREEN = True  # the shared screen is screen.ScreenView, not this body

    def __init__(self, frame):
        self.frame, self.app, self.game = frame, frame.app, frame.game
        self.place_hex: Hex | None = None
        self.placing = False
        self.entries: dict[int, TableDiceEntry] = {}
        self.fire_panel = FirePanel(self._declare, self._roll, self._enter, self._cancel_shot, self._choose,
                                    self._roll_all, self._enter_all)
        self.sheet: VolleySheet | None = None  # every declared shot's table dice on one sheet, while open
        self.sections = FireSections(self._fire_first)  # "Best shots" and "Fire plan" at the tab's top
        self.advisor = AdvisorPanel(self)
        self.map = HexMap(self.game.state, self.app.theme_name, self.map_tapped, motion=True)
        self.map.focus = self._selected_hex(self.game.state)
        self.planner = Planner(self.map, self.frame.act, lambda: self.frame.refresh(force=True), guns=guns_from)
        self.bookkeeping = ft.PopupMenuItem(content="Rule checks off (bookkeeping)", checked=False,
                                            on_click=self._toggle_bookkeeping, height=48)
        # the side panel's pieces, kept on screen and changed in place
        self.ship_picker = ShipPicker("ship", self.select, self.app.theme_name)
        self.fire_picker = ShipPicker("fire", self.select, self.app.theme_name)
        self.card = ShipCard(on_slot=self._slot_tapped)
        self.their_card = ShipCard()  # another side's ship on a device holding one side: no taps
        self.theirs = tag("their-ship", muted("", 12))
        self.moves = MoveControls(False, self._step, self._end_move, self._place, self.frame.act, self.planner.toggle)
        self.strip_moves = MoveControls(True, self._step, self._end_move, self._place, self.frame.act,
                                        self.planner.toggle)
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
        self.end_movement = menu_item("menu-end-movement", END_MOVEMENT, None, on(self.frame.act, A.EndMovement()))
        self.next_chips: dict[str, ft.Control] = {}

    @property
    def session(self) -> Session:
        return self.app.session

    @property
    def tab(self) -> str:
        return self.session.tab

    def go_tab(self, tab: str) -> None:
        self.app.session = self.session.with_tab(tab)
        self._push_route()

    def tabs(self) -> tuple:
        return (("ship", ft.Icons.DIRECTIONS_BOAT_OUTLINED, ft.Icons.DIRECTIONS_BOAT, "Ships"),
                ("fire", ft.Icons.GPS_NOT_FIXED, ft.Icons.GPS_FIXED, "Fire"),
                ("log", ft.Icons.HISTORY, ft.Icons.HISTORY, "Log"))

    def top_actions(self) -> list[ft.Control]:
        return [tag("menu", ft.PopupMenuButton(icon=ft.Icons.MORE_VERT, tooltip="Game settings", width=48, height=48,
                                               items=[
            *([self.bookkeeping] if getattr(self.app.device, "host", True) else []),  # host-only (roles.HOST_ONLY)
            menu_item("menu-theme", "Theme: light, dark or high contrast", ft.Icons.PALETTE_OUTLINED,
                      lambda e: open_theme_dialog(self.app)),
            self.end_movement,
            menu_item("menu-report", "After-action report", ft.Icons.INSIGHTS,
                      on(self.app.navigate, Session("report", self.game.id))),
            menu_item("menu-replay", "Replay, turn by turn", ft.Icons.REPLAY,
                      on(self.app.navigate, Session("replay", self.game.id))),
            *([menu_item("menu-export", "Export the game (a file to import elsewhere)", ft.Icons.DOWNLOAD,
                         on(export_from, self.frame, self.app, self.game.id))]
              if getattr(self.app.device, "host", False) else []),  # the file holds the dice seed (game_files)
        ]))]

    def compute(self, state: GameState) -> Models:
        """Everything the table shows for this state, selection and tab (in a worker thread); the
        arcs only when the selected ship moved, turned or lost a gun."""
        ship, tab = self.session.ship, self.frame.tab
        if ship and not state.has_ship(ship):
            ship = None
        selected = state.ship(ship) if ship else None
        arcs_key = (ship, selected.hexes, selected.facing, tuple(selected.working_guns)) if selected else None
        arcs = None
        history = self.game.history()
        moves = motion(history)
        if arcs_key != self.map._arc_key:
            arcs = arc_shades(state, ship) if ship and selected and not selected.removed else ()
        return Models(
            state=state,
            banner=banner(state),
            ships=ship_rows(state),
            card=card_view(state, ship, moves.hit) if ship else None,
            move=move_panel(state, ship) if ship else None,
            house=house_moves(state, ship, holds_a_side=bool(self.app.role and self.app.role.side)) if ship else None,
            guns=fire_panel(state, ship) if (ship and tab == "fire") else (),
            shots=shot_views(state) if tab == "fire" else (),
            advice=self.advisor.compute(state, ship) if tab == "fire" else None,
            to_roll=shots_to_roll(state, self._side_held()) if tab == "fire" else (),
            arcs=arcs,
            arcs_key=arcs_key,
            log=log_lines(history, self.game.action_numbers()) if tab == "log" else None,
            zone=deployment_hexes(state, ship) if (ship and state.phase == "setup") else (),
            plan=self.planner.compute(state, ship),
            motion=moves,
        )

    def render(self, m: Models) -> list[ft.Control]:
        """The ships, arcs and marks on the map: the map's controls that changed."""
        self.map.focus = self._selected_hex(m.state)
        changed = self.map.show_ships(m.state, self.session.ship)
        changed += self.map.show_moved(m.motion.moved, m.state)
        if m.arcs is not None:
            changed += self.map.show_arcs(m.arcs, m.arcs_key)
        changed += self.map.show_marks([self.place_hex] if self.place_hex else [], m.zone,
                                       (self.place_hex, m.zone))
        changed += self.planner.render(*m.plan)
        self.map.fleet = tuple(c for ship in m.state.active_ships for c in ship.hexes)
        self.bookkeeping.checked = m.state.settings.bookkeeping
        self._end_movement_item(m.state)
        return changed

    def _end_movement_item(self, state: GameState) -> None:
        """The menu's End movement as this device may take it (issue 35): a side's device ends only
        its own side's moves, and while another side still moves it says what it waits for."""
        role, host = self.app.role, getattr(self.app.device, "host", False)
        waiting = waiting_for(role, A.EndMovement(), state, self.game.ruleset, host)
        inner(self.end_movement.content, ft.Text).value = (
            f"End movement: {waiting[0].lower()}{waiting[1:]}" if waiting
            else "End my side's moves (ships not moved stay put)" if ends_own_moves(role, host) else END_MOVEMENT)
        self.end_movement.disabled = waiting is not None

    def sent(self) -> None:
        for piece in (self.ship_picker, self.fire_picker, self.card, self.their_card):
            piece.sent()

    def banner(self, m: Models) -> tuple:
        b = m.banner
        names = {s.id: s.name for s in m.ships}
        chips = []
        for sid in b.next_ships:
            tagged = self.next_chips.get(sid)
            if tagged is None:
                tagged = self.next_chips[sid] = tag(f"next-{sid}", ft.Chip(
                    label="", on_click=on(self.select, sid), leading=ft.Icon(ft.Icons.NAVIGATION, size=16),
                    height=TOUCH, show_checkmark=False))
            inner(tagged, ft.Chip).label = names.get(sid, sid)
            inner(tagged, ft.Chip).selected = sid == self.session.ship
            chips.append(tagged)
        return b.title, b.detail, chips, [c for a in b.actions for c in self._banner_action(a, m.state)]

    def _banner_action(self, action: str, state: GameState) -> list[ft.Control]:
        def button(ident, text, icon, handler, filled=True):
            kept = self.banner_buttons.get(ident)  # kept, so the banner sends only what changed
            if kept is None:
                kind = ft.FilledButton if filled else ft.OutlinedButton
                kept = self.banner_buttons[ident] = tag(ident, kind(content=text, icon=icon, on_click=handler,
                                                                    height=TOUCH))
            return kept

        act = self.frame.act
        buttons = {
            "start_game": lambda: [button("start-game", "Start the battle", ft.Icons.PLAY_ARROW, on(act, A.StartGame()))],
            "roll_unit_initiative": lambda: [
                button("roll-unit-initiative", "Roll 1d10 for each ship", ft.Icons.CASINO, on(self._rolled, A.RollUnitInitiative())),
                button("enter-unit-initiative", "Table dice", ft.Icons.KEYBOARD, on(unit_initiative_dialog, self), False)],
            "roll_initiative": lambda: [button("roll-initiative", "Roll initiative", ft.Icons.CASINO,
                                               on(self._rolled, A.RollInitiative()))],
            "enter_initiative": lambda: [button("enter-initiative", "Table dice", ft.Icons.KEYBOARD,
                                                self._initiative_dialog, False)],
            "set_initiative": lambda: [button(f"initiative-{side}", f"{side} has it", ft.Icons.FLAG,
                                              on(act, A.SetInitiative(side=side)), False) for side in state.sides],
            "end_turn": lambda: [button("end-turn", "End turn", ft.Icons.UPDATE, on(act, A.EndTurn()))],
        }
        return buttons.get(action, list)()

    # --- panels -----------------------------------------------------------------------

    def panel(self, m: Models) -> list[ft.Control]:
        if self.frame.tab == "log":
            return [tag("log", log_control(m.log or (), self.game.can_undo, self.game.can_redo,
                                            on(self.frame.change, "undo"), on(self.frame.change, "redo")))]
        return self._fire_tab(m) if self.frame.tab == "fire" else self._ship_panel(m)

    def _fire_tab(self, m: Models) -> list[ft.Control]:
        """The ship picker, then the row that brings "Best shots" or "Fire plan" to the top (issue
        28.2), then that section, then the rest: the declared shots and guns, the advisor."""
        held_by = self._held_by(m)
        first = self.sections.first
        advisor = self.advisor.show(m.advice, m.state.phase == "combat" and held_by is None, first == "plan")
        if self.sheet is not None:
            self.sheet.keep(set(m.to_roll))
            self.sheet = self.sheet if self.sheet.entries else None
        fire = self.fire_panel.show(m.card.name if m.card else None, m.state.phase, m.guns, m.shots, self.entries,
                                    held_by, len(m.to_roll), self.sheet)
        if advisor is None:
            return [self.fire_picker.show(m, self.session.ship), fire]
        sections = [advisor, fire] if first in ("best", "plan") else [fire, advisor]
        return [self.fire_picker.show(m, self.session.ship), self.sections.show(), *sections]

    async def _fire_first(self, section: str) -> None:
        await self.frame.refresh(force=True)

    def _side_held(self) -> str | None:
        """The side this device holds (None: a table device, every side)."""
        role = self.app.role
        return role.side if role is not None else None

    def _held_by(self, m: Models) -> str | None:
        """The side this device holds when the selected ship is the other side's, else None."""
        role = self.app.role
        if m.card is not None and role is not None and role.side not in (None, m.card.side):
            return role.side
        return None

    def _ship_panel(self, m: Models) -> list[ft.Control]:
        parts: list[ft.Control] = [self.ship_picker.show(m, self.session.ship)]
        held_by = self._held_by(m)
        if held_by is not None and m.card is not None:  # (held_by: the other side's ship is selected)
            inner(self.theirs, ft.Text).value = f"{m.card.side}'s ship: shown read-only, as this device holds {held_by}."
            return parts + [self.theirs, self.their_card.show(m.card)]
        if m.move is not None and (m.state.phase in ("setup", "movement") or self.placing):
            self.moves.planning = self.planner.on
            planning = self.planner.panel(*m.plan)  # first while planning: the path and the guns in view
            parts += [planning] if planning is not None else []
            parts.append(self.moves.show(m.move, m.state.phase, self.placing, self._place_label(m.state), m.house))
        elif m.move is not None:
            self.moves_later.value = m.move.note + initiative_chances(m.state, m.move.ship)
            parts.append(self.moves_later_row)
        return parts + [self.card.show(m.card) if m.card is not None else self.no_card]

    async def _open_place(self, e) -> None:
        self.placing = True
        await self.frame.refresh(force=True)

    def _place_label(self, state: GameState) -> str:
        return state.board.label(self.place_hex) if self.place_hex else ""

    def strip(self, m: Models) -> ft.Control:
        if m.move is None:
            return self.strip_hint
        if m.state.phase in ("setup", "movement") or self.placing:
            planning = self.planner.panel(*m.plan, strip=True)  # the plan alone, so the map stays in view
            if planning is not None:
                return planning
            self.strip_moves.planning = self.planner.on
            return self.strip_moves.show(m.move, m.state.phase, self.placing, self._place_label(m.state), m.house)
        card = m.card
        assert card is not None  # a ship is selected: it has its move panel
        self.strip_name.value = card.name
        self.strip_position.value = card.position
        self.strip_damage.value = f"{card.destroyed_text} slots destroyed"
        return self.strip_card

    # --- handlers ------------------------------------------------------------------------

    def _selected_hex(self, state: GameState) -> Hex | None:
        ship = self.session.ship
        return state.ship(ship).bow if ship and state.has_ship(ship) else None

    async def _step(self, step: str) -> None:
        ship = self.session.ship
        if ship:
            await self.frame.act(A.Step.model_validate({"ship": ship, "step": step}))  # a word of the move panel

    async def _choose(self, shot: int, location: str) -> None:
        """The target's side picks the location a shot strikes (table rule: the target picks)."""
        await self.frame.act(A.ChooseLocation(shot=shot, location=location))

    async def _end_move(self, ship_id: str) -> None:
        await self.frame.act(A.EndMove(ship=ship_id))

    async def _place(self, ship_id: str, facing: int, text: str) -> None:
        if not text and self.game.state.phase == "setup":  # a facing alone turns the ship where it stands
            text = self.game.state.board.label(self.game.state.ship(ship_id).bow)
        if not text:
            self.frame.message("Tap a hex on the map or type its label (like 0812) first.")
            await self.frame.refresh(force=True)
            return
        state = self.game.state
        kind = A.RecordMove if H1.records_end_position(state, state.ship(ship_id)) else A.Place
        outcome = await self.frame.act(kind(ship=ship_id, bow=text, facing=facing))
        if outcome.ok:
            self.place_hex = None
            await self.frame.refresh(force=True)

    async def select(self, ship_id: str | None) -> None:
        self.place_hex = None
        self.placing = False
        self.app.session = self.session.with_ship(ship_id)
        await self.frame.refresh(force=True)
        self._push_route()

    def _push_route(self) -> None:
        route = self.app.session.route
        if self.app.page.route != route:
            self.app.page.route = route
            soon(self.app.page, self.app.page.push_route, route)

    async def map_tapped(self, cell: Hex) -> None:
        if await self.planner.tapped(cell):  # planning: a shaded hex is an end position to look at
            return
        state = self.game.state
        hit = next((s for s in state.active_ships if cell in s.hexes), None)
        if hit is not None and hit.id != self.session.ship:
            await self.select(hit.id)
            return
        if self.session.ship:
            refused = deployment_refusal(state, self.session.ship, cell) if state.phase == "setup" else None
            self.place_hex = None if refused else cell
            self.frame.message(refused or f"Hex {state.board.label(cell)} chosen: tap a facing to place "
                               f"{state.ship(self.session.ship).card.name} there.", info=not refused)
            await self.frame.refresh(force=True)

    async def _slot_tapped(self, location: str, slot: int, status: str) -> None:
        ship = self.session.ship
        if not ship:
            return
        choices = [("live", "Clear (working)"), ("destroyed_this_turn", "Circle: destroyed this turn"),
                   ("destroyed", "Strike through: destroyed")]

        async def choose(value):
            self.app.page.pop_dialog()
            await self.frame.act(A.MarkSlot(ship=ship, location=location, slot=slot, status=value))

        dialog = ft.AlertDialog(
            title=ft.Text(f"{location.capitalize()} slot {slot}"),
            content=ft.Text("Mark or clear this slot by hand (the log records it)."),
            actions=[*(ft.TextButton(content=text, on_click=on(choose, value), height=TOUCH)
                       for value, text in choices if value != status),
                     ft.TextButton(content="Cancel", on_click=lambda e: self.app.page.pop_dialog(), height=TOUCH)],
        )
        self.app.page.show_dialog(dialog)

    async def _declare(self, location: str, slot: int, target: str, target_location: str) -> None:
        state = self.game.state  # table rule two_locations: the target's side or a d6 may pick the location
        attacker = self.session.ship
        assert attacker is not None  # a shot is declared from the selected ship's guns
        solution = firing_solution(state.ship(attacker), location, slot, state.ship(target), state.table_rules)
        named = target_location if solution.decided_by == "attacker" else None
        await self.frame.act(A.DeclareShot(attacker=attacker, location=location, slot=slot, target=target,
                                         target_location=named))

    async def _roll(self, shot_id: int) -> None:
        self.entries.pop(shot_id, None)
        await self._rolled(A.ResolveShot(shot=shot_id))

    async def _rolled(self, action) -> Any:
        """A roll (initiative, a shot) whose result a phone shows where the player looks (issue 35):
        the roll's own words stay in the note until the next tap (a phone's banner has no room for
        them, and the last event of a shot is its consequence, not its dice), and a shot's card,
        its result line, is brought into view."""
        outcome = await self.frame.act(action)
        if not outcome.ok or self.app.wide or not outcome.events:
            return outcome
        rolled = next((e for e in outcome.events if e.kind in ROLLED), outcome.events[0])  # a tie's re-roll: the last
        self.frame.message(rolled.text, info=True, keep=True)
        await self.frame.refresh(force=True)
        shot = getattr(action, "shot", None)
        if shot is not None:
            await asyncio.sleep(SCROLL_AFTER)
            await ask("scroll to the shot's result", lambda: self.frame.panel.scroll_to(
                scroll_key=f"shot-{shot}", duration=300), on=self.frame.panel)
        return outcome

    async def _enter(self, shot_id: int) -> None:
        state = self.game.state
        shot = next((s for s in shot_views(state) if s.id == shot_id), None)
        if shot is None:
            return

        async def close(e):
            self.entries.pop(shot_id, None)
            await self.frame.refresh(force=True)

        self.entries[shot_id] = TableDiceEntry(shot, table_dice_fields(state, shot_id), self._submit_faces, close)
        await self.frame.refresh(force=True)

    async def _submit_faces(self, entry: TableDiceEntry) -> None:
        """Every face picked (the entry names any still to pick before it submits)."""
        self.entries.pop(entry.shot.id, None)  # closed before the result is shown (and scrolled to)
        outcome = await self._rolled(A.ResolveShot(shot=entry.shot.id, table=A.TableFaces(**entry.table_faces())))
        if not outcome.ok:
            self.entries[entry.shot.id] = entry
            self._more_dice(entry, outcome.reason)
        await self.frame.refresh(force=True)

    async def _roll_all(self) -> None:
        """Every declared shot this device may roll, with the app's dice, in the order declared: one
        action a shot through the frame's act (the server checks each); the first refused stops the
        rest, its reason shown."""
        self.sheet = None
        for shot_id in shots_to_roll(self.game.state, self._side_held()):
            self.entries.pop(shot_id, None)
            outcome = await self.frame.act(A.ResolveShot(shot=shot_id))
            if not outcome.ok:
                return

    async def _enter_all(self) -> None:
        """One sheet of every declared shot's table dice, each shot's rows together."""
        state = self.game.state
        views = {v.id: v for v in shot_views(state)}
        entries = [TableDiceEntry(views[i], table_dice_fields(state, i), self._submit_faces, None, buttons=False)
                   for i in shots_to_roll(state, self._side_held()) if i in views]
        for entry in entries:
            self.entries.pop(entry.shot.id, None)
        self.sheet = VolleySheet(entries, self._submit_sheet, self._close_sheet) if entries else None
        await self.frame.refresh(force=True)

    async def _close_sheet(self, e) -> None:
        self.sheet = None
        await self.frame.refresh(force=True)

    async def _submit_sheet(self, sheet: VolleySheet) -> None:
        """The sheet's shots in order, each with its faces; a shot that needs more dice (a slot die
        re-rolled, the keel dice) or is refused stops the rest, its rows kept to pick."""
        for entry in list(sheet.entries):
            outcome = await self.frame.act(A.ResolveShot(shot=entry.shot.id, table=A.TableFaces(**entry.table_faces())))
            if outcome.ok:  # its entry leaves the sheet (the refresh keeps the shots still to roll)
                sheet.entries = [e for e in sheet.entries if e is not entry]
                continue
            self._more_dice(entry, outcome.reason)
            self.frame.message(self._stop_words(entry, outcome.reason))
            break
        if not sheet.entries and self.sheet is sheet:
            self.sheet = None
        await self.frame.refresh(force=True)

    @staticmethod
    def _stop_words(entry: TableDiceEntry, reason: str) -> str:
        """Why a volley stopped, naming its shot: "Shot 3, HML Raven at Pelletier: the slot die
        needs another roll (a re-roll). Tap its face in Shot 3's new row, then Resolve all again."
        (issue 35: the note named no shot, and the row could be off the screen)."""
        more = "slot die needs another roll" in reason or "keel roll needs" in reason
        then = f" Tap its face in Shot {entry.shot.id}'s new row, then Resolve again." if more else ""
        return f"Shot {entry.shot.id}, {entry.shot.text}: {reason}.{then}"

    @staticmethod
    def _more_dice(entry: TableDiceEntry, reason: str) -> None:
        """The dice a refused table roll asks for next (a slot die re-rolled, the keel dice)."""
        if "slot die needs another roll" in reason:
            entry.add("slot", "D6", "Re-roll")
        elif "keel roll needs" in reason:
            entry.add("keel", "Red", "Keel DRed", 2)

    async def _cancel_shot(self, shot_id: int) -> None:
        self.entries.pop(shot_id, None)
        await self.frame.act(A.CancelShot(shot=shot_id))

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
            await self._rolled(A.RollInitiative(faces=faces))

        self.app.page.show_dialog(ft.AlertDialog(
            title=ft.Text("Initiative: the dice you rolled"),
            content=ft.Column([*(ft.Row([*boxes]) for boxes in fields.values()), problem], tight=True),
            actions=[ft.FilledButton(content="Record", on_click=submit, height=TOUCH),
                     ft.TextButton(content="Cancel", on_click=lambda ev: self.app.page.pop_dialog(), height=TOUCH)],
        ))

    async def _toggle_bookkeeping(self, e) -> None:
        await self.frame.act(A.SetBookkeeping(on=not self.game.state.settings.bookkeeping))
