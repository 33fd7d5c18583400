"""The War Fleet table: the map (one hex per ship, any number of ships to a hex) beside a panel
to move, declare attacks with their exact odds, roll, read the converted cards beside their
source cards, and send pockets of ships to a Quick-Start battle and bring the result back.

Thin: reads `warfleet_model` rows, draws them, sends the actions they carry.  The map is the
shared `HexMap` (grid, pan, zoom, arcs, marks); War Fleet ships are drawn into its ship layer.
"""

from __future__ import annotations

import asyncio
import math
import time

import flet as ft
import flet.canvas as cv

from ...engine.hexes import Hex
from ...files import shipped_fleets_dir
from .. import warfleet_model as M
from ...store.game import Game
from ..session import Session
from ..tasks import soon
from ..theme import SIDES, map_colours
from .hexmap import HexMap
from .home import host_only, may_start, page_width
from .widgets import TOUCH, icon_button, muted, tab_button, tag

PANEL_WIDTH = 470
SCREEN_TABS = ("card", "log")  # what the shared screen shows beside the map
TABS = (("ship", ft.Icons.DIRECTIONS_BOAT, "Ship"), ("attacks", ft.Icons.GPS_FIXED, "Attacks"),
        ("card", ft.Icons.STYLE, "Card"), ("pocket", ft.Icons.CALL_SPLIT, "Pocket"), ("log", ft.Icons.LIST, "Log"))


def build(app) -> ft.Control:
    """The War Fleet tile's screen: the game of an old `/warfleet/<id>` address, else the most
    recently played War Fleet game, opened at `/game/<id>` like every game (with its sides, PIN and
    shared screen); the start screen when there is none.  Found in a worker thread."""
    holder = ft.Container(content=ft.Row([ft.ProgressRing()], alignment=ft.MainAxisAlignment.CENTER), expand=True)

    async def load():
        game, problem = await asyncio.to_thread(find_game, app)
        if app.screen is not holder:  # the player went elsewhere meanwhile
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


async def new_battle(app) -> tuple[Game | None, str]:
    """A new 20-against-20 battle, saved before it is shown: (the game, "") or (None, why not).
    Only the host starts games (decided on the server from the device it holds)."""
    refused = may_start(app)
    if refused:
        return None, refused
    try:
        catalogue = await app.catalogue()
        state = await asyncio.to_thread(M.twenty_against_twenty, catalogue, shipped_fleets_dir(), app.seed)
        name = "War Fleet " + time.strftime("%d %b %H:%M")
        game = await asyncio.to_thread(M.start_battle, app.store, state, name)
    except ValueError as exc:  # a broken or missing scenario file, or the save could not be written: say so
        return None, str(exc)
    except OSError as exc:
        return None, f"the new battle could not be saved: {exc.strerror or exc} ({exc.filename or 'the data folder'})"
    return game, ""


# --- no War Fleet game yet -----------------------------------------------------------------------


def start_screen(app, problem: str = "") -> ft.Control:
    message = ft.Text(problem, color=ft.Colors.ERROR)

    async def start(e):
        game, why = await new_battle(app)
        if game is None:
            message.value = why
            app.page.update()
            return
        await app.navigate(Session("game", game.id))

    async def home(e):
        await app.navigate(Session())

    content = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, "Home", home, "wf-home"),
                ft.Text("War Fleet", size=26, weight=ft.FontWeight.BOLD)]),
        muted("Leviathans: War Fleet (seeds 004 and 000): battles of dozens of ships, one hex per ship and one "
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
    ], spacing=14, scroll=ft.ScrollMode.AUTO, expand=True)
    return ft.SafeArea(ft.Container(
        content=ft.Row([ft.Container(content=content, width=page_width(app))], alignment=ft.MainAxisAlignment.CENTER,
                       vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        padding=ft.Padding.symmetric(horizontal=16, vertical=8), expand=True), expand=True)


# --- the table ------------------------------------------------------------------------------------


def _button(ident: str, text: str, handler, icon=None, filled: bool = False, disabled: bool = False,
            tooltip: str | None = None) -> ft.Control:
    kind = ft.FilledTonalButton if filled else ft.OutlinedButton
    return tag(ident, kind(content=text, icon=icon, on_click=handler, height=TOUCH, disabled=disabled,
                           tooltip=tooltip))


def _dice_row(dice: tuple[str, ...]) -> ft.Control:
    from ..theme import DICE

    return ft.Row([ft.Container(content=ft.Text(f"D{d}", size=11, color=DICE[d][1], weight=ft.FontWeight.BOLD),
                                bgcolor=DICE[d][0], border_radius=6, padding=ft.Padding.symmetric(horizontal=6, vertical=2))
                   for d in dice], spacing=4, tight=True)


class WarFleetView:
    def __init__(self, app, game: Game, read_only: bool = False):
        self.app = app
        self.game = game
        self.read_only = read_only  # the shared screen: it shows the battle and changes nothing
        self.selected: str | None = None
        self.tab = "log" if read_only else "ship"
        self.reach = 2  # hexes around the selected ship that make its pocket
        self.note_text: str | None = None
        self.note_bad = False
        self.map = HexMap(game.state, app.dark, self.tapped, ring=False)
        self.map.fleet = tuple(s.hex for s in game.state.active_ships if s.placed)
        self.banner_box = ft.Container(padding=ft.Padding.symmetric(horizontal=14, vertical=8),
                                       bgcolor=ft.Colors.PRIMARY_CONTAINER)
        self.note = ft.Text("", size=13, weight=ft.FontWeight.W_500)
        self.note_box = tag("wf-note", ft.Container(content=self.note, padding=ft.Padding.symmetric(horizontal=14, vertical=6)))
        self.note_box.visible = False
        self.tabs = ft.Row(spacing=4)
        self.panel = ft.Column(spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
        self.top = ft.Container(content=ft.Row([
            icon_button(ft.Icons.HOME_OUTLINED, "Home", self._home, "wf-home"),
            ft.Text(game.name, size=16, weight=ft.FontWeight.W_600, expand=True, max_lines=1,
                    overflow=ft.TextOverflow.ELLIPSIS),
            *([] if read_only else [
                icon_button(ft.Icons.UNDO, "Undo", self._undo, "wf-undo"),
                icon_button(ft.Icons.REDO, "Redo", self._redo, "wf-redo"),
                icon_button(ft.Icons.RESTART_ALT, "A new War Fleet battle", self._restart, "wf-restart")]),
        ], spacing=0), padding=ft.Padding.only(left=4, right=4), bgcolor=ft.Colors.SURFACE_CONTAINER)
        wide = (app.page.width or 1280) >= 900
        side = ft.Container(content=ft.Column([self.tabs, self.panel], spacing=8, expand=True),
                            width=PANEL_WIDTH if wide else None, expand=None if wide else 1,
                            padding=ft.Padding.symmetric(horizontal=10, vertical=8))
        body = (ft.Row([ft.Container(content=self.map.control, expand=True), side], spacing=0, expand=True,
                       vertical_alignment=ft.CrossAxisAlignment.STRETCH)
                if wide else ft.Column([ft.Container(content=self.map.control, expand=1), side], spacing=0, expand=True))
        self.control = tag("warfleet", ft.Column([self.top, tag("wf-banner", self.banner_box), self.note_box, body],
                                                 spacing=0, expand=True,
                                                 horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
        self.render()

    # --- drawing ---------------------------------------------------------------------------

    @property
    def state(self):
        return self.game.state

    def render(self) -> None:
        state = self.state
        if self.selected and (not state.has_ship(self.selected) or state.ship(self.selected).removed):
            self.selected = None
        self._banner()
        self._ships()
        shades = M.arc_shades(state, self.selected) if self.selected else ()
        ship = state.ship(self.selected) if self.selected else None
        self.map.show_arcs(shades, (self.selected, ship.hex, ship.facing, tuple(ship.destroyed)) if ship else None)
        self.map.focus = ship.hex if ship else None
        self.map.show_marks([ship.hex] if ship else [], (), (self.selected, ship.hex) if ship else None)
        self.note.value = self.note_text or ""
        self.note.color = ft.Colors.ERROR if self.note_bad else None
        self.note_box.visible = bool(self.note_text)
        self.tabs.controls = [tab_button(f"wf-tab-{key}", icon, label, key == self.tab, self._tab(key))
                              for key, icon, label in TABS if not self.read_only or key in SCREEN_TABS]
        self.panel.controls = {"ship": self._ship_panel, "attacks": self._attack_panel, "card": self._card_panel,
                               "pocket": self._pocket_panel, "log": self._log_panel}[self.tab]()

    def _banner(self) -> None:
        banner = M.banner(self.state)
        self.banner_box.content = ft.Column([
            ft.Text(banner.title, size=17, weight=ft.FontWeight.BOLD),
            ft.Text(banner.detail, size=13),
            ft.Row([_button(step.ident, step.label, self._step(step), filled=True)
                    for step in (() if self.read_only else banner.steps)], spacing=8, wrap=True, run_spacing=6),
        ], spacing=4, tight=True)

    def _ships(self) -> None:
        """Every ship into the map's ship layer: a token per ship, several to a hex in a ring."""
        layout, colours = self.map.layout, map_colours(self.app.dark)
        shapes = []
        for ship in M.map_ships(self.state, self.selected):
            cx, cy = layout.centre(ship.cell)
            radius = layout.size * (0.5 if ship.crowd == 1 else 0.3)
            if ship.crowd > 1:
                angle = 2 * math.pi * ship.slot / ship.crowd - math.pi / 2
                cx += layout.size * 0.42 * math.cos(angle)
                cy += layout.size * 0.42 * math.sin(angle)
            colour = SIDES[ship.side % len(SIDES)]
            fill = ft.Paint(color=ft.Colors.with_opacity(0.45 if (ship.done or ship.pocket) else 0.9, colour),
                            style=ft.PaintingStyle.FILL)
            shapes.append(cv.Circle(cx, cy, radius, fill))
            if ship.casualty:
                shapes.append(cv.Circle(cx, cy, radius, ft.Paint(color="#111111", style=ft.PaintingStyle.STROKE,
                                                                  stroke_width=3)))
            ring = "#ffd54a" if ship.selected else colours["halo"]
            shapes.append(cv.Circle(cx, cy, radius, ft.Paint(color=ring, style=ft.PaintingStyle.STROKE,
                                                             stroke_width=4 if ship.selected else 1.5)))
            angle = math.radians(-90 + 60 * ship.facing)
            tip = (cx + radius * 1.25 * math.cos(angle), cy + radius * 1.25 * math.sin(angle))
            left = (cx + radius * 0.55 * math.cos(angle - 2.2), cy + radius * 0.55 * math.sin(angle - 2.2))
            right = (cx + radius * 0.55 * math.cos(angle + 2.2), cy + radius * 0.55 * math.sin(angle + 2.2))
            shapes.append(cv.Path([cv.Path.MoveTo(*tip), cv.Path.LineTo(*left), cv.Path.LineTo(*right), cv.Path.Close()],
                                  paint=ft.Paint(color="#ffffff", style=ft.PaintingStyle.FILL)))
            if ship.crowd == 1 or ship.selected:
                label = ship.label + (f" ({ship.damaged} lost)" if ship.damaged else "") + (" sinking" if ship.casualty else "")
                shapes.append(cv.Text(cx, cy + radius + 7, label, alignment=ft.Alignment.CENTER, style=ft.TextStyle(
                    size=10, weight=ft.FontWeight.BOLD, color="#ffffff",
                    shadow=ft.BoxShadow(blur_radius=3, color="#000000"))))
        self.map.ships.shapes = shapes

    # --- panels --------------------------------------------------------------------------------

    def _ship_chips(self, ids: list[str]) -> ft.Control:
        state = self.state
        return ft.Row([tag(f"wf-ship-{sid}", ft.Chip(label=ft.Text(state.ship(sid).name), selected=sid == self.selected,
                                                     on_click=self._select(sid), height=TOUCH))
                       for sid in ids], wrap=True, spacing=6, run_spacing=6)

    def _ship_panel(self) -> list[ft.Control]:
        state = self.state
        out: list[ft.Control] = []
        group = None
        if state.phase == "movement":
            from ...engine.warfleet.turn import to_move

            group = to_move(state)
        if group:
            movers = [s.id for s in state.active_ships if (s.side, s.ship_class) == group and not s.move_done
                      and s.placed and s.pocket is None]
            out += [ft.Text(f"{group[0]}'s class {group[1]} ships to move", weight=ft.FontWeight.W_600),
                    self._ship_chips(movers)]
        if self.selected is None:
            out.append(muted("Tap a ship on the map (tap again to cycle through the ships sharing a hex)."))
            return out
        ship = state.ship(self.selected)
        where = ship.describe_position(state.board)
        status = ["casualty" if ship.casualty else None, "lost" if ship.lost else None,
                  f"in pocket battle {ship.pocket}" if ship.pocket else None,
                  "destroyed: " + ", ".join(l.replace("_", " ") for l in ship.destroyed) if ship.destroyed else None]
        out.append(tag("wf-selected", ft.Container(content=ft.Column([
            ft.Text(ship.name, size=18, weight=ft.FontWeight.BOLD),
            ft.Text(f"{ship.side} · class {ship.ship_class} · {where} · MP {ship.mp_left} of {ship.mp}"),
            *[ft.Text(s, color=ft.Colors.ERROR) for s in status if s],
        ], spacing=2, tight=True), padding=10, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)))
        moves = M.moves(state, ship.id)
        if moves:
            out.append(ft.Row([_button(m.ident, m.label, self._act(m.action), disabled=m.problem is not None,
                                       tooltip=m.problem) for m in moves if not m.ident.startswith("wf-pivot")],
                              wrap=True, spacing=6, run_spacing=6))
            pivots = [m for m in moves if m.ident.startswith("wf-pivot")]
            if pivots and all(m.problem is None for m in pivots):
                out += [muted("Or spend every MP to face any way:"),
                        ft.Row([_button(m.ident, m.label.replace("Pivot to ", ""), self._act(m.action)) for m in pivots],
                               wrap=True, spacing=6)]
            problem = next((m.problem for m in moves if m.problem and m.ident == "wf-forward"), None)
            if problem:
                out.append(muted(problem))
        elif state.phase == "combat":
            out.append(muted("Combat: see the Attacks tab for this ship's attacks and their odds."))
        return out

    def _attack_panel(self) -> list[ft.Control]:
        """The declared attacks first (odds as the targets stand now, results once rolled), then the
        ships that can still declare, then the selected ship's attacks with their exact odds."""
        state = self.state
        out: list[ft.Control] = []
        declared = M.declared_rows(state)
        if declared:
            out.append(ft.Text("Declared attacks", weight=ft.FontWeight.W_600))
        for row in declared:
            buttons = [] if row.result else [_button(f"wf-roll-{row.id}", "Roll", self._act(row.roll), filled=True,
                                                     icon=ft.Icons.CASINO),
                                             _button(f"wf-cancel-{row.id}", "Cancel", self._act(row.cancel))]
            out.append(tag(f"wf-attack-{row.id}", ft.Container(content=ft.Column([
                ft.Text(row.title, weight=ft.FontWeight.W_600),
                ft.Row([_dice_row(row.dice), ft.Text(row.odds, size=12, expand=True)], spacing=8) if row.odds else ft.Container(),
                ft.Text(row.result, size=13) if row.result else ft.Container(),
                ft.Row(buttons, spacing=6),
            ], spacing=4, tight=True), padding=10, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER)))
        if state.phase == "combat" and not state.firing:
            ready = [s.id for s in state.active_ships if s.placed and s.pocket is None and M.option_rows(state, s.id)]
            out += [ft.Text("Ships with an attack to declare", weight=ft.FontWeight.W_600), self._ship_chips(ready)]
        if self.selected and state.phase == "combat":
            rows = M.option_rows(state, self.selected)
            if rows:
                out.append(ft.Text(f"{state.ship(self.selected).name}: attacks with exact odds",
                                   weight=ft.FontWeight.W_600))
            for i, row in enumerate(rows):
                strikes = [ft.Row([
                    ft.Text(f"{s.location}: destroyed {s.destroyed}, casualty {s.casualty}", expand=True, size=13,
                            tooltip=s.exact),
                    _button(f"wf-option-{i}" + ("" if j == 0 else f"-{j}"), "Declare", self._act(s.action), filled=True,
                            icon=ft.Icons.GPS_FIXED),
                ]) for j, s in enumerate(row.strikes)]
                out.append(tag(f"wf-option-row-{i}", ft.Container(content=ft.Column([
                    ft.Text(row.title, weight=ft.FontWeight.W_600),
                    ft.Row([_dice_row(row.dice), ft.Text(row.detail, size=12, expand=True)], spacing=8),
                    *strikes,
                ], spacing=4, tight=True), padding=10, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)))
            if not rows and not state.firing:
                out.append(muted("No enemy ship is in this ship's arcs and range."))
        if not out:
            out.append(muted("Attacks are declared in the combat phase, every one before the first roll."))
        return out

    def _card_panel(self) -> list[ft.Control]:
        if self.selected is None:
            return [muted("Select a ship to see its War Fleet stats beside its Quick-Start card.")]
        card = M.converted_card(self.state, self.selected)
        ship = self.state.ship(self.selected)
        out: list[ft.Control] = [
            ft.Text(card.name, size=18, weight=ft.FontWeight.BOLD),
            ft.Text(f"War Fleet: {card.head}", weight=ft.FontWeight.W_600),
            ft.Row([ft.Text("SI", size=13), *self._steppers("si", None), ft.Text("MP", size=13), *self._steppers("mp", None)],
                   spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            muted(f"Converted from {card.source_head}" + (" · edited by hand" if card.edited else "")),
        ]
        names = list(ship.locations)
        for name, line in zip(names, card.lines):
            war_fleet = ft.Column([
                ft.Text(line.location + (" (destroyed)" if line.destroyed else ""), weight=ft.FontWeight.BOLD,
                        color=ft.Colors.ERROR if line.destroyed else None),
                self._number("Resilience", line.resilience, "resilience", name),
                self._number("Destroyed", line.destroyed_resilience, "destroyed_resilience", name),
                self._number("SI modifier", line.si_modifier, "si_modifier", name),
                ft.Text(line.attack, size=12),
                ft.Column([
                    ft.Row([ft.Text("Short dice", size=13, expand=True), *self._steppers("short", name, "short dice")],
                           spacing=0),
                    ft.Row([ft.Text("Long dice", size=13, expand=True), *self._steppers("long", name, "long dice")],
                           spacing=0),
                ], spacing=0, tight=True) if "no attack" not in line.attack else ft.Container(),
            ], spacing=2, tight=True, expand=1)
            source = ft.Column([ft.Text("Quick-Start", size=12, weight=ft.FontWeight.W_600),
                                *[ft.Text(text, size=11) for text in line.source]], spacing=1, tight=True, expand=1)
            out.append(tag(f"wf-card-{name}", ft.Container(content=ft.Column([
                ft.Row([war_fleet, source], vertical_alignment=ft.CrossAxisAlignment.START),
                ft.ExpansionTile(title=ft.Text("How it was converted", size=12),
                                 controls=[ft.Text(w, size=11) for w in line.working]) if line.working else ft.Container(),
            ], spacing=4, tight=True), padding=10, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)))
        return [tag("wf-card", ft.Column(out, spacing=8, tight=True))]

    def _number(self, label: str, value: int, field: str, location: str) -> ft.Control:
        return ft.Row([ft.Text(f"{label} {value}", size=13, expand=True), *self._steppers(field, location)],
                      spacing=0)

    def _steppers(self, field: str, location: str | None, what: str | None = None) -> list[ft.Control]:
        where = location or "ship"
        word = what or field.replace("_", " ")
        return [icon_button(ft.Icons.REMOVE, f"Less {word}", self._edit(field, -1, location), f"wf-edit-{where}-{field}-down",
                            icon_size=18),
                icon_button(ft.Icons.ADD, f"More {word}", self._edit(field, +1, location), f"wf-edit-{where}-{field}-up",
                            icon_size=18)]

    def _pocket_panel(self) -> list[ft.Control]:
        state = self.state
        out: list[ft.Control] = [muted(
            "A pocket of ships in a decent engagement range can be fought out at Quick-Start scale with the "
            "ships' full cards, then brought back: ships destroyed, and locations destroyed per the conversion.")]
        if self.selected and state.phase == "combat" and not state.firing:
            pocket = M.near(state, self.selected, reach=self.reach)
            names = ", ".join(state.ship(s).name for s in pocket)
            out += [ft.Row([ft.Text("Ships within", size=13),
                            *[tag(f"wf-pocket-reach-{n}", ft.Chip(label=ft.Text(f"{n} hex{'es' if n > 1 else ''}"),
                                                                  selected=n == self.reach, on_click=self._reach(n),
                                                                  height=TOUCH)) for n in (1, 2, 3)]],
                           spacing=6, wrap=True),
                    ft.Text(f"Pocket around {state.ship(self.selected).name}: {names}", size=13),
                    _button("wf-open-pocket", "Open pocket battle at Quick-Start scale", self._open_pocket(pocket),
                            icon=ft.Icons.CALL_SPLIT, filled=True)]
        elif state.phase != "combat" or state.firing:
            out.append(muted("Pockets are opened in the combat phase, before the first roll."))
        else:
            out.append(muted("Select a ship: its pocket is every ship within a few hexes of it."))
        for row in M.pocket_rows(self.game):
            buttons = []
            if row.open and row.game_id:
                buttons = [_button(f"wf-play-pocket-{row.id}", "Play it", self._play(row.game_id), icon=ft.Icons.PLAY_ARROW),
                           _button(f"wf-bring-back-{row.id}", "Bring the result back", self._bring_back(row.id),
                                   filled=True, icon=ft.Icons.CALL_MERGE)]
            out.append(tag(f"wf-pocket-{row.id}", ft.Container(content=ft.Column([
                ft.Text(f"Pocket battle {row.id}: {row.ships}", weight=ft.FontWeight.W_600),
                ft.Text("Being fought at Quick-Start scale" if row.open else f"Result: {row.outcome}", size=13),
                ft.Row(buttons, spacing=6, wrap=True),
            ], spacing=4, tight=True), padding=10, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)))
        return out

    def _log_panel(self) -> list[ft.Control]:
        lines = M.log_lines(self.game)
        return [tag("wf-log", ft.Column([ft.Text(line, size=12) for line in lines[-80:]],
                                        spacing=4, tight=True))]

    # --- handlers --------------------------------------------------------------------------------

    def _tab(self, key: str):
        async def handler(e):
            self.tab = key
            await self.refresh()
        return handler

    def _select(self, ship_id: str):
        async def handler(e):
            self.selected = ship_id
            await self.refresh()
        return handler

    async def tapped(self, cell: Hex) -> None:
        chosen = M.next_on_tap(self.state, cell, self.selected)
        if chosen is not None:
            self.selected = chosen
            self.note_text, self.note_bad = None, False
            await self.refresh()

    def _act(self, action):
        async def handler(e):
            await self.send(action)
        return handler

    def _step(self, step: M.Step):
        async def handler(e):
            if step.action == "roll-all":
                outcomes = await asyncio.to_thread(M.roll_all, self.game, self._table_act)
                bad = next((o for o in outcomes if not o.ok), None)
                n = len(outcomes)
                self._said(bad.reason if bad else f"{n} attack{'s' if n != 1 else ''} rolled.", bad is not None)
                await self.refresh()
                return
            await self.send(step.action)
        return handler

    def _table_act(self, action):
        """Act as this device, checked on the server: its role in the game decides (sharing.py)."""
        return self.app.sharing.table(self.game).act(self.app.device, action)

    async def send(self, action) -> None:
        before = self.state.phase
        outcome = await asyncio.to_thread(self._table_act, action)
        if outcome.ok:
            self._said(outcome.events[-1].text if outcome.events else None, False)
            if self.state.phase != before:
                self.tab = "attacks" if self.state.phase == "combat" else "ship"
        else:
            self._said(outcome.reason, True)
        await self.refresh()

    def _said(self, text: str | None, bad: bool) -> None:
        self.note_text, self.note_bad = text, bad

    def _edit(self, field: str, delta: int, location: str | None):
        async def handler(e):
            if self.selected is None:
                return
            ship = self.state.ship(self.selected)
            stats = M.edited_stats(ship.stats, field, delta, location)
            if stats is None:
                self._said("That would leave the rules' bounds.", True)
                await self.refresh()
                return
            from ...engine.warfleet.actions import SetStats

            await self.send(SetStats(ship=ship.id, stats=stats))
        return handler

    def _reach(self, n: int):
        async def handler(e):
            self.reach = n
            await self.refresh()
        return handler

    def _open_pocket(self, ships: list[str]):
        async def handler(e):
            name = f"Pocket battle {len(self.state.pockets) + 1} · {self.game.name}"
            game_id, text = await asyncio.to_thread(M.open_pocket, self.game, ships, self.app.store, name,
                                                    self._table_act)
            self._said(text, game_id is None)
            self.tab = "pocket"
            await self.refresh()
        return handler

    def _play(self, game_id: str):
        async def handler(e):
            await self.app.navigate(Session("game", game_id))
        return handler

    def _bring_back(self, pocket_id: int):
        async def handler(e):
            outcome = await asyncio.to_thread(M.bring_back, self.game, pocket_id, self.app.store, self._table_act)
            self._said(outcome.events[-1].text if outcome.ok else outcome.reason, not outcome.ok)
            await self.refresh()
        return handler

    async def _undo(self, e) -> None:
        table = self.app.sharing.table(self.game)
        self._undone_or_redone(await asyncio.to_thread(table.undo, self.app.device), "Not undone")
        await self.refresh()

    async def _redo(self, e) -> None:
        table = self.app.sharing.table(self.game)
        self._undone_or_redone(await asyncio.to_thread(table.redo, self.app.device), "Not redone")
        await self.refresh()

    def _undone_or_redone(self, problem: str | None, refused: str) -> None:
        """None: done.  Else the reason: nothing to undo, another side's action, or it could not be saved."""
        if problem is None:
            self._said(None, False)
        elif problem == self.game.save_problem:  # it could not be saved: nothing changed
            self._said(f"{refused}, because it could not be saved: {problem}", True)
        else:
            self._said(problem, not problem.startswith("There is nothing"))

    async def _home(self, e) -> None:
        await self.app.navigate(Session())

    async def _restart(self, e) -> None:
        game, why = await new_battle(self.app)
        if game is None:
            self._said(why, True)
            await self.refresh()
            return
        await self.app.navigate(Session("game", game.id))
        view = self.app.table
        if isinstance(view, WarFleetView):
            view._said("A new War Fleet battle: twenty against twenty (the last one is saved: see Home).", False)
            await view.refresh()

    async def follow_session(self) -> None:
        await self.refresh()

    async def refresh(self, force: bool = False) -> None:
        """Draw the game as it stands (after this device's action, or another device's: live)."""
        self.render()
        self.app.page.update()


__all__ = ["WarFleetView", "build", "find_game", "new_battle", "start_screen"]
