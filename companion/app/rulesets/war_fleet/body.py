"""The War Fleet battle, the body `frame.GameFrame` shows for a War Fleet game: the map (one hex
per ship, any number of ships to a hex) beside a panel to move, declare attacks with their exact
odds, roll, read the converted cards beside their source cards, and send pockets of ships to a
Quick-Start battle and bring the result back.

Thin: reads `warfleet_model` rows, draws them, sends the actions they carry.  The map is the
shared `HexMap` (grid, pan, zoom, arcs, marks); War Fleet ships are drawn into its ship layer.
"""

from __future__ import annotations

import asyncio

import flet as ft

from ....engine.hexes import Hex
from ....engine.kernel import Refused
from ....engine.war_fleet.actions import SetStats
from ....engine.war_fleet.turn import to_move
from . import model as M
from ...roles import ends_own_moves, waiting_for
from ...session import Session
from ...theme import DICE
from ..body import ShipsBody, box, menu_item
from ...views.frame import on
from ...views.game_files import export_from
from ...views.hexmap import HexMap
from ...views.planner import Planner
from .planner_guns import guns_from
from .start import new_battle
from .tokens import draw_tokens
from ...views.widgets import TOUCH, button, heading, icon_button, muted, pill, tag

SCREEN_TABS = ("card", "log")  # what the shared screen shows beside the map
TABS = (("ship", ft.Icons.DIRECTIONS_BOAT_OUTLINED, ft.Icons.DIRECTIONS_BOAT, "Ship"),
        ("attacks", ft.Icons.GPS_NOT_FIXED, ft.Icons.GPS_FIXED, "Attacks"),
        ("card", ft.Icons.STYLE_OUTLINED, ft.Icons.STYLE, "Card"),
        ("pocket", ft.Icons.CALL_SPLIT, ft.Icons.CALL_SPLIT, "Pocket"), ("log", ft.Icons.LIST, ft.Icons.LIST, "Log"))


def _dice_row(dice: tuple[str, ...]) -> ft.Control:
    return ft.Row([pill(ft.Text(f"D{d}", size=11, color=DICE[d][1], weight=ft.FontWeight.BOLD), DICE[d][0])
                   for d in dice], spacing=4, tight=True)


class WarFleetBody(ShipsBody):
    """The War Fleet battle inside the game frame: its ships on the map, its tabs and banner steps."""

    PREFIX = "wf-"

    def __init__(self, frame):
        super().__init__(frame)
        # a phone opens on the map (issue 35: on "Ship" with no ship picked it opened on an empty tab)
        self.tab = "log" if self.read_only else "ship" if getattr(self.app, "wide", True) else "map"
        self.reach = 2  # hexes around the selected ship that make its pocket
        self.map = HexMap(self.game.state, self.app.theme_name, self.tapped, ring=False)
        self.map.fleet = tuple(s.hex for s in self.game.state.active_ships if s.placed)
        self.planner = Planner(self.map, self.frame.act, lambda: self.frame.refresh(force=True), prefix="wf-",
                               guns=guns_from)
        self._plan: tuple = (None, None)

    def tabs(self) -> list[tuple]:
        return [t for t in TABS if not self.read_only or t[0] in SCREEN_TABS]

    def top_actions(self) -> list[ft.Control]:
        """One menu beside undo and redo, as Quick-Start's: the report, the replay and a new battle
        (three look-alike icons on a phone's bar hid the game's title: issue 28)."""
        items = [menu_item("wf-report", "After-action report", ft.Icons.INSIGHTS,
                           on(self.app.navigate, Session("report", self.game.id))),
                 menu_item("wf-replay", "Replay, turn by turn", ft.Icons.REPLAY,
                           on(self.app.navigate, Session("replay", self.game.id)))]
        if not self.read_only:
            items.append(menu_item("wf-restart", "A new War Fleet battle", ft.Icons.ADD_CIRCLE_OUTLINE, self._restart))
        if getattr(self.app.device, "host", False):  # the file holds the dice seed: the host's only (game_files)
            items.append(menu_item("wf-export", "Export the game (a file to import elsewhere)", ft.Icons.DOWNLOAD,
                                   on(export_from, self.frame, self.app, self.game.id)))
        return [tag("wf-menu", ft.PopupMenuButton(icon=ft.Icons.MORE_VERT, tooltip="Report, replay, new battle",
                                                  width=TOUCH, height=TOUCH, items=items))]

    def compute(self, state):
        """The banner and the selected ship's arcs (the selection dropped once its ship has gone)."""
        if self.selected and (not state.has_ship(self.selected) or state.ship(self.selected).removed):
            self.selected = None
        plan = self.planner.compute(state, self.selected) if not self.read_only else (None, None)
        return state, M.banner(state), M.arc_shades(state, self.selected) if self.selected else (), plan

    def banner(self, models) -> tuple:
        banner, steps, waiting = models[1], [], []
        role, host = self.app.role, getattr(self.app.device, "host", False)
        for step in () if self.read_only else banner.steps:
            wait = None if isinstance(step.action, str) else waiting_for(role, step.action, models[0],
                                                                         self.game.ruleset, host)
            if wait:  # another side's moves: its own to end (issue 35), so not offered here
                waiting.append(wait)
                continue
            label = "End my side's moves" if step.ident == "wf-end-movement" and ends_own_moves(role, host) else step.label
            steps.append(button(step.ident, label, on(self._step, step), filled=True))
        detail = banner.detail + (f" {waiting[-1]}." if waiting else "")
        return banner.title, detail, [], steps

    def render(self, models) -> list[ft.Control]:
        state, _, shades, plan = models
        self._ships(state)
        ship = state.ship(self.selected) if self.selected else None
        self.map.focus = ship.hex if ship else None
        return [self.map.ships,
                *self.map.show_arcs(shades, (self.selected, ship.hex, ship.facing, tuple(ship.destroyed)) if ship else None),
                *self.map.show_marks([ship.hex] if ship else [], (), (self.selected, ship.hex) if ship else None),
                *self.planner.render(*plan)]

    def panel(self, models) -> list[ft.Control]:
        """The open tab's panel (on a phone's map tab the ship panel, kept ready under the map)."""
        self._plan = models[3]
        return {"attacks": self._attack_panel, "card": self._card_panel, "pocket": self._pocket_panel,
                "log": self.log_panel}.get(self.frame.tab, self._ship_panel)()

    def _ships(self, state) -> None:
        """Every ship into the map's ship layer: a token per ship, several to a hex in a ring."""
        draw_tokens(self.map, self.app.theme_name, state, self.selected)

    # --- panels --------------------------------------------------------------------------------

    async def _pick(self, ship_id: str) -> None:
        """A ship chip: the ship selected; on a phone its Ship tab opens (the chips of the map's strip)."""
        await self._show(selected=ship_id, tab=None if self.app.wide or self.frame.tab == "ship" else "ship")

    def _movers(self, state) -> tuple[tuple[str, int] | None, list[tuple[str, str]]]:
        """The group that moves now and its ships still to move, as (id, name)."""
        group = to_move(state) if state.phase == "movement" else None
        return group, [(s.id, s.name) for s in state.active_ships if group and (s.side, s.ship_class) == group
                       and not s.move_done and s.placed and s.pocket is None]

    def strip(self, models) -> ft.Control | None:
        """Under a phone's map (the tab it opens on, issue 35): the ships to move now, one tap from
        their Ship tab; nothing when no group moves."""
        group, movers = self._movers(models[0])
        if not group or not movers:
            return None
        return ft.Row([muted(f"{group[0]}: class {group[1]} to move", 12), self.ship_chips(movers, self._pick)],
                      spacing=8, scroll=ft.ScrollMode.AUTO)

    def _ship_panel(self) -> list[ft.Control]:
        state = self.state
        out: list[ft.Control] = []
        group, movers = self._movers(state)
        if group:
            out += [heading(f"{group[0]}: class {group[1]} ships to move", 14), self.ship_chips(movers, self._pick)]
        if self.selected is None:
            out.append(muted("Tap a ship on the map (tap again to cycle through the ships sharing a hex)."))
            return out
        ship = state.ship(self.selected)
        where = ship.describe_position(state.board)
        status = ["casualty" if ship.casualty else None, "lost" if ship.lost else None,
                  f"in pocket battle {ship.pocket}" if ship.pocket else None,
                  "destroyed: " + ", ".join(l.replace("_", " ") for l in ship.destroyed) if ship.destroyed else None]
        out.append(box("wf-selected", ft.Text(ship.name, size=18, weight=ft.FontWeight.BOLD),
                       ft.Text(f"{ship.side} · class {ship.ship_class} · {where} · MP {ship.mp_left} of {ship.mp}"),
                       *[ft.Text(s, color=ft.Colors.ERROR) for s in status if s], spacing=2))
        moves = M.moves(state, ship.id)
        planning = self.planner.panel(*self._plan)
        if planning is not None:  # the movement planner (issue 17): the tapped end position first
            out.append(planning)
        if moves and ship.mp_left > 0:
            out.append(button("wf-plan-toggle", "Planning" if self.planner.on else "Plan",
                               on(self.planner.toggle, ship.id), icon=ft.Icons.ROUTE,
                               tooltip="Every end position this turn, by MP"))
        if moves:
            out.append(ft.Row([button(m.ident, m.label, on(self.send, m.action), disabled=m.problem is not None,
                                       tooltip=m.problem) for m in moves if not m.ident.startswith("wf-pivot")],
                              wrap=True, spacing=6, run_spacing=6))
            pivots = [m for m in moves if m.ident.startswith("wf-pivot")]
            if pivots and all(m.problem is None for m in pivots):
                out += [muted("Or spend every MP to face any way:"),
                        ft.Row([button(m.ident, m.label.replace("Pivot to ", ""), on(self.send, m.action)) for m in pivots],
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
            out.append(heading("Declared attacks", 14))
        for row in declared:
            buttons = [] if row.result else [button(f"wf-roll-{row.id}", "Roll", on(self.send, row.roll), filled=True,
                                                     icon=ft.Icons.CASINO),
                                             button(f"wf-cancel-{row.id}", "Cancel", on(self.send, row.cancel))]
            out.append(box(f"wf-attack-{row.id}", heading(row.title, 14),
                           ft.Row([_dice_row(row.dice), ft.Text(row.odds, size=12, expand=True)], spacing=8)
                           if row.odds else ft.Container(),
                           ft.Text(row.result, size=13) if row.result else ft.Container(),
                           ft.Row(buttons, spacing=6), bgcolor=ft.Colors.SURFACE_CONTAINER))
        if state.phase == "combat" and not state.firing:
            ready = [(s.id, s.name) for s in state.active_ships if s.placed and s.pocket is None
                     and M.option_rows(state, s.id)]
            out += [heading("Ships with an attack to declare", 14), self.ship_chips(ready, self._pick)]
        if self.selected and state.phase == "combat":
            rows = M.option_rows(state, self.selected)
            if rows:
                out.append(heading(f"{state.ship(self.selected).name}: attacks with exact odds", 14))
            for i, option in enumerate(rows):
                strikes = [ft.Row([
                    ft.Text(f"{s.location}: destroyed {s.destroyed}, casualty {s.casualty}", expand=True, size=13,
                            tooltip=s.exact),
                    button(f"wf-option-{i}" + ("" if j == 0 else f"-{j}"), "Declare", on(self.send, s.action), filled=True,
                            icon=ft.Icons.GPS_FIXED),
                ]) for j, s in enumerate(option.strikes)]
                out.append(box(f"wf-option-row-{i}", heading(option.title, 14),
                               ft.Row([_dice_row(option.dice), ft.Text(option.detail, size=12, expand=True)], spacing=8),
                               *strikes))
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
            heading(f"War Fleet: {card.head}", 14),
            ft.Row([ft.Text("SI", size=13), *self._steppers("si", None), ft.Text("MP", size=13), *self._steppers("mp", None)],
                   spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            muted(f"Converted from {card.source_head}" + (" · edited by hand" if card.edited else "")),
        ]
        for name, line in zip(ship.locations, card.lines):
            war_fleet = ft.Column([
                ft.Text(line.location + (" (destroyed)" if line.destroyed else ""), weight=ft.FontWeight.BOLD,
                        color=ft.Colors.ERROR if line.destroyed else None),
                self._number(f"Resilience {line.resilience}", "resilience", name),
                self._number(f"Destroyed {line.destroyed_resilience}", "destroyed_resilience", name),
                self._number(f"SI modifier {line.si_modifier}", "si_modifier", name),
                ft.Text(line.attack, size=12),
                ft.Column([self._number("Short dice", "short", name, "short dice"),
                           self._number("Long dice", "long", name, "long dice")], spacing=0, tight=True)
                if "no attack" not in line.attack else ft.Container(),
            ], spacing=2, tight=True, expand=1)
            source = ft.Column([heading("Quick-Start", 12),
                                *[ft.Text(text, size=11) for text in line.source]], spacing=1, tight=True, expand=1)
            out.append(box(f"wf-card-{name}", ft.Row([war_fleet, source], vertical_alignment=ft.CrossAxisAlignment.START),
                           ft.ExpansionTile(title=ft.Text("How it was converted", size=12),
                                            controls=[ft.Text(w, size=11) for w in line.working])
                           if line.working else ft.Container()))
        return [tag("wf-card", ft.Column(out, spacing=8, tight=True))]

    def _number(self, text: str, field: str, location: str, what: str | None = None) -> ft.Control:
        """A line of a location's stats with its less and more buttons."""
        return ft.Row([ft.Text(text, size=13, expand=True), *self._steppers(field, location, what)], spacing=0)

    def _steppers(self, field: str, location: str | None, what: str | None = None) -> list[ft.Control]:
        where = location or "ship"
        word = what or field.replace("_", " ")
        return [icon_button(ft.Icons.REMOVE, f"Less {word}", on(self._edit, field, -1, location),
                            f"wf-edit-{where}-{field}-down", icon_size=18),
                icon_button(ft.Icons.ADD, f"More {word}", on(self._edit, field, +1, location),
                            f"wf-edit-{where}-{field}-up", icon_size=18)]

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
                                                                  selected=n == self.reach, on_click=on(self._show, reach=n),
                                                                  height=TOUCH)) for n in (1, 2, 3)]],
                           spacing=6, wrap=True),
                    ft.Text(f"Pocket around {state.ship(self.selected).name}: {names}", size=13),
                    button("wf-open-pocket", "Open pocket battle at Quick-Start scale", on(self._open_pocket, pocket),
                            icon=ft.Icons.CALL_SPLIT, filled=True)]
        elif state.phase != "combat" or state.firing:
            out.append(muted("Pockets are opened in the combat phase, before the first roll."))
        else:
            out.append(muted("Select a ship: its pocket is every ship within a few hexes of it."))
        for row in M.pocket_rows(self.game):
            buttons = []
            if row.open and row.game_id:
                buttons = [button(f"wf-play-pocket-{row.id}", "Play it", on(self.app.navigate, Session("game", row.game_id)),
                                   icon=ft.Icons.PLAY_ARROW),
                           button(f"wf-bring-back-{row.id}", "Bring the result back", on(self._bring_back, row.id),
                                   filled=True, icon=ft.Icons.CALL_MERGE)]
            out.append(box(f"wf-pocket-{row.id}", heading(f"Pocket battle {row.id}: {row.ships}", 14),
                           ft.Text("Being fought at Quick-Start scale" if row.open else f"Result: {row.outcome}", size=13),
                           ft.Row(buttons, spacing=6, wrap=True)))
        return out

    # --- handlers --------------------------------------------------------------------------------

    async def _show(self, note: tuple | None = None, tab: str | None = None, **changes) -> None:
        """Change what this device shows (the selection, the pocket's reach, the tab) and redraw;
        `note`: (text or None, whether it is a refusal) to say, else the note stays."""
        for name, value in changes.items():
            setattr(self, name, value)
        if note:
            self.frame.message(note[0], info=not note[1])
        await (self.frame.go_tab(tab) if tab else self.frame.refresh(force=True))

    async def tapped(self, cell: Hex) -> None:
        if await self.planner.tapped(cell):  # planning: a shaded hex is an end position to look at
            return
        chosen = M.next_on_tap(self.state, cell, self.selected)
        if chosen is not None:
            await self._show((None, False), selected=chosen)

    async def _step(self, step: M.Step, confirmed: bool = False) -> None:
        if step.confirm and not confirmed:
            self.ask(step, "Keep moving", lambda chosen: self._step(chosen, confirmed=True))
            return
        if step.action != "roll-all":
            await self.send(step.action)
            return
        outcomes = await asyncio.to_thread(M.roll_all, self.game, self.frame.table_act)
        bad = next((o for o in outcomes if isinstance(o, Refused)), None)
        n = len(outcomes)
        await self._show((bad.reason if bad else f"{n} attack{'s' if n != 1 else ''} rolled.", bad is not None))

    async def send(self, action) -> None:
        """Act (`GameFrame.act` says what happened or why not); a new phase opens its tab (movement: on
        a phone, the map with the ships to move under it)."""
        before = self.state.phase
        outcome = await self.frame.act(action)
        if outcome.ok and self.state.phase != before:
            await self.frame.go_tab("attacks" if self.state.phase == "combat" else "ship" if self.app.wide else "map")

    async def _edit(self, field: str, delta: int, location: str | None) -> None:
        if self.selected is None:
            return
        ship = self.state.ship(self.selected)
        stats = M.edited_stats(ship.stats, field, delta, location)
        if stats is None:
            await self._show(("That would leave the rules' bounds.", True))
            return
        await self.send(SetStats(ship=ship.id, stats=stats))

    async def _open_pocket(self, ships: list[str]) -> None:
        name = f"Pocket battle {len(self.state.pockets) + 1} · {self.game.name}"
        game_id, text = await asyncio.to_thread(M.open_pocket, self.game, ships, self.app.store, name,
                                                self.frame.table_act)
        await self._show((text, game_id is None), tab="pocket")

    async def _bring_back(self, pocket_id: int) -> None:
        outcome = await asyncio.to_thread(M.bring_back, self.game, pocket_id, self.app.store, self.frame.table_act)
        await self._show((outcome.reason, True) if isinstance(outcome, Refused) else (outcome.events[-1].text, False))

    async def _restart(self, e) -> None:
        game, why = await new_battle(self.app)
        if game is None:
            await self._show((why, True))
            return
        await self.app.navigate(Session("game", game.id))
        frame = self.app.table
        if frame is not None:
            frame.message("A new War Fleet battle: twenty against twenty (the last one is saved: see Home).", info=True)
            await frame.refresh()
