"""A Decisive Victory game, the body `frame.GameFrame` shows for it: the fleets, the selected
ship (damage, systems, its hit grid as a 4×6 table), the phase's own controls (abilities,
initiative, speed and moves typed as numbers, attacks with their exact odds before rolling,
table dice, maintenance) and the log.  Undo, redo and the note come from the frame.

Thin: reads `dv_model` rows, draws them, sends the actions they carry (spec §16 data); the
server checks each for this device's side and the rules answer in their own words.
"""

from __future__ import annotations

import asyncio
import time

import flet as ft

from ....files import shipped_fleets_dir
from . import model as M
from ...session import Session
from ...roles import ends_own_moves, waiting_for
from ...theme import side_colour
from .air import AirPanel
from .attack import AttackPanel
from .controls import heading
from .hand import HandControls
from .ship import ship_card, ship_line
from ..body import ShipsBody, box, closing
from ...views.frame import on
from ...views.game_files import export_from
from ...views.pages import may_start
from ...views.widgets import TOUCH, button, icon_button, muted, tag
from ....messages import without_paths

TABS = (("ship", ft.Icons.DIRECTIONS_BOAT_OUTLINED, ft.Icons.DIRECTIONS_BOAT, "Ships"),
        ("attacks", ft.Icons.GPS_NOT_FIXED, ft.Icons.GPS_FIXED, "Attacks"),
        ("air", ft.Icons.FLIGHT_OUTLINED, ft.Icons.FLIGHT, "Aircraft"),
        ("maintenance", ft.Icons.BUILD_OUTLINED, ft.Icons.BUILD, "Repair"),
        ("log", ft.Icons.LIST, ft.Icons.LIST, "Log"))


def field(label: str, width: int = 110, value: str = "") -> ft.TextField:
    return ft.TextField(label=label, value=value, width=width, dense=True, keyboard_type=ft.KeyboardType.NUMBER)


class FleetView:
    """What a DV game shows where a hex game shows its map: every ship, one line each (tap to select)."""

    def __init__(self, body):
        self.body = body
        self.list = ft.Column(spacing=6, scroll=ft.ScrollMode.AUTO, expand=True)
        self.control = tag("dv-fleets", ft.Container(self.list, padding=10, expand=True))

    def remounted(self) -> None:
        pass

    def show(self, state, rows) -> None:
        self.list.controls = [heading("Fleets", 15)] + [tag(f"dv-fleet-{r.id}", ft.Container(ft.Column([
            ft.Text(r.name, weight=ft.FontWeight.BOLD, color=side_colour(state.sides, r.side, self.body.app.theme_name)),
            ft.Text(ship_line(r), size=12)], spacing=0, tight=True), padding=8, border_radius=8,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, on_click=on(self.body.select, r.id))) for r in rows]


class DecisiveVictoryBody(ShipsBody):
    """A Decisive Victory game inside the game frame."""

    PREFIX = "dv-"

    def __init__(self, frame):
        super().__init__(frame)
        self.map = FleetView(self)
        self.inches, self.turns = field("Inches"), field("Turns", 90)
        self.carried = ft.Checkbox(label="Use carried turn", value=False)
        self.initiative = {side: field(f"{side} d6", 130) for side in self.game.state.sides}
        self.attacks = AttackPanel(self)
        self.air = AirPanel(self)
        self.hand = HandControls(self)
        self.maintenance_dice: dict[str, tuple[ft.TextField, ...]] = {}
        self.close_with: str | None = None  # the other ship of a close action being entered
        self.by_hand = False  # the selected ship's record open to corrections

    @property
    def my_side(self) -> str | None:
        role = self.app.role
        return getattr(role, "side", None)

    def mine(self, ship_id: str) -> bool:
        side = self.my_side
        return not self.read_only and (side is None or self.state.ship(ship_id).side == side)

    def tabs(self) -> list[tuple]:
        """The Aircraft tab only in a game with flights (§12)."""
        return [t for t in TABS if t[0] != "air" or self.state.flights]

    def top_actions(self) -> list[ft.Control]:
        return [icon_button(ft.Icons.DOWNLOAD, "Export the game (JSON)", on(export_from, self.frame, self.app, self.game.id), "dv-export")]

    def compute(self, state):
        if self.selected and not state.has_ship(self.selected):
            self.selected = None
        return state, M.banner(state), M.ship_rows(state)

    def banner(self, models) -> tuple:
        state, banner, _ = models
        chips = [tag(f"dv-step-{step}", ft.Container(
            ft.Text(M.PHASES[step], size=12, weight=ft.FontWeight.BOLD if step == banner.phase else None,
                    color=ft.Colors.ON_PRIMARY if step == banner.phase else None),
            padding=ft.Padding.symmetric(horizontal=8, vertical=4), border_radius=12,
            bgcolor=ft.Colors.PRIMARY if step == banner.phase else ft.Colors.SURFACE_CONTAINER_HIGHEST))
            for step in M.STEPS if step != "aircraft" or state.flights]
        actions, waiting = [], []
        role, host = self.app.role, getattr(self.app.device, "host", False)
        for step in () if self.read_only else banner.steps:
            wait = waiting_for(role, step.action, state, self.game.ruleset, host)
            if wait:  # another side's ships: their moves are its own to end (issue 35), so not offered here
                waiting.append(wait)
                continue
            label = "End my side's moves" if step.ident == "dv-end-movement" and ends_own_moves(role, host) else step.label
            actions.append(button(step.ident, label, on(self.step, step), filled=True))
        return banner.title, banner.detail + (f" {waiting[-1]}." if waiting else ""), chips, actions

    def render(self, models) -> list[ft.Control]:
        state, _, rows = models
        self.map.show(state, rows)
        return [self.map.control]

    def panel(self, models) -> list[ft.Control]:
        state, _, rows = models
        tabs = {"attacks": lambda: self.attacks.controls(state), "maintenance": lambda: self._maintenance(state),
                "air": lambda: self.air.controls(state),
                "log": lambda: [*self.hand.table_section(state), *self.log_panel()]}
        return tabs.get(self.frame.tab, lambda: self._ships(state, rows))()

    # --- the ships tab ------------------------------------------------------------------------

    def _ships(self, state, rows) -> list[ft.Control]:
        out: list[ft.Control] = []
        if state.phase == "initiative" and not self.read_only:
            out += self._initiative(state)
        out.append(self.ship_chips([(r.id, r.name) for r in rows if not r.removed], self.select))
        if self.selected is None:
            out.append(muted("Select a ship: its damage, systems, hit grid and what it may do now."))
            return out
        ship = state.ship(self.selected)
        row = next(r for r in rows if r.id == ship.id)
        out += self._orders(state, ship)
        correcting = self.by_hand and self.mine(ship.id)
        out.append(ship_card(row, box_size=44 if self.app.wide else 38,
                             on_box=(lambda box: self._toggle_box(ship.id, box)) if correcting else None))
        if self.mine(ship.id):
            out.append(tag("dv-by-hand", ft.Switch(label="Correct by hand (the table is the truth)", value=self.by_hand,
                                                   on_change=on(self._by_hand))))
        if correcting:
            out += [self._corrections(ship), *self.hand.corrections(state, ship)]
        return out

    def _corrections(self, ship) -> ft.Control:
        """Damage points and minor damage one up or down; a tap on a grid box marks or clears it (§16 by hand)."""
        def stepper(what: str, kind: str, key: str, value: int) -> ft.Control:
            return ft.Row([ft.Text(f"{what} {value}", size=13, expand=True),
                           icon_button(ft.Icons.REMOVE, f"Less {what.lower()}",
                                       on(self.send, {"kind": kind, "ship": ship.id, key: max(0, value - 1)}),
                                       f"dv-{key}-down"),
                           icon_button(ft.Icons.ADD, f"More {what.lower()}",
                                       on(self.send, {"kind": kind, "ship": ship.id, key: value + 1}), f"dv-{key}-up")])
        return ft.Column([muted("Tap a grid box to mark or clear it.", 12),
                          stepper("Damage points", "set_damage", "points", ship.damage_points),
                          stepper("Minor damage", "set_minor", "minor", ship.minor_damage)], spacing=0, tight=True)

    async def _by_hand(self) -> None:
        self.by_hand = not self.by_hand
        await self.frame.refresh(force=True)

    async def _toggle_box(self, ship_id: str, box: tuple[int, int]) -> None:
        marked = box in self.state.ship(ship_id).boxes
        await self.send({"kind": "mark_box", "ship": ship_id, "box": list(box), "marked": not marked})

    def _initiative(self, state) -> list[ft.Control]:
        return [box("dv-initiative",
                    heading("Initiative with table dice", 14),
                    muted("Each side's d6 (a re-roll's face after it, for a tie). Or tap Roll initiative above.", 12),
                    ft.Row([tag(f"dv-initiative-{side}", f) for side, f in self.initiative.items()], wrap=True, spacing=8),
                    button("dv-initiative-table", "Roll with these faces", on(self._initiative_table), filled=True),
                    *self.hand.initiative(state), spacing=6)]

    def _orders(self, state, ship) -> list[ft.Control]:
        """The phase's own controls for the selected ship, on a device that holds its side."""
        if not self.mine(ship.id) or not ship.in_play:
            return []
        out: list[ft.Control] = []
        if state.phase == "command":
            choices = M.ability_choices(state, ship.id) + M.damage_control_choices(state, ship.id)
            out += [heading(f"Abilities ({ship.label} has {ship.cp} CP)", 14),
                    ft.Row([button(c.ident, c.label, on(self.send, c.action), disabled=c.problem is not None,
                                   tooltip=c.problem) for c in choices], wrap=True, spacing=6, run_spacing=6)]
        if state.phase == "movement":
            out += [heading("Move", 14), tag("dv-move-limits", muted(M.movement_words(state, ship.id), 12)),
                    ft.Row([button(c.ident, c.label, on(self.send, c.action)) for c in M.speed_choices(state, ship.id)],
                           wrap=True, spacing=6),
                    ft.Row([tag("dv-inches", self.inches), tag("dv-turns", self.turns), self.carried], wrap=True,
                           spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                    ft.Row([button("dv-move", "Move", on(self._move, ship.id), filled=True),
                            button("dv-end-move", "End move", on(self.send, {"kind": "end_move", "ship": ship.id}))],
                           spacing=6),
                    *self._close_action(state, ship)]
        if state.phase == "attacks":
            out.append(button("dv-open-attacks", "Attacks of this ship", on(self.frame.go_tab, "attacks")))
        return out

    def _close_action(self, state, ship) -> list[ft.Control]:
        """Came within 1" of another ship (§7.6): pick it, then who pays or the collision."""
        others = [s for s in state.ships if s.in_play and s.id != ship.id]
        out: list[ft.Control] = [muted("Within 1\" of another ship? Close action with:", 12), ft.Row([
            tag(f"dv-close-{o.id}" + ("-picked" if o.id == self.close_with else ""), ft.Chip(
                label=ft.Text(o.label, size=12), selected=o.id == self.close_with, height=TOUCH,
                on_click=on(self._pick_close, o.id))) for o in others], wrap=True, spacing=6, run_spacing=6)]
        if self.close_with and state.has_ship(self.close_with):
            out.append(ft.Row([button(c.ident, c.label, on(self.send, c.action))
                               for c in M.close_action_choices(state, ship.id, self.close_with)], wrap=True, spacing=6))
            out += self.hand.collision(state, ship.id, self.close_with)
        return out

    async def _pick_close(self, other: str) -> None:
        self.close_with = None if other == self.close_with else other
        await self.frame.refresh(force=True)

    # --- maintenance ---------------------------------------------------------------------------

    def _maintenance(self, state) -> list[ft.Control]:
        rows = M.maintenance_rows(state)
        out: list[ft.Control] = [heading("Maintenance", 15)]
        if state.phase != "maintenance":
            out.append(muted("Maintenance comes after the attacks: catastrophic damage, minor damage, "
                             "damage control and abandon ship, in that order. System rolls due show here."))
        elif not rows:
            out.append(muted("No ship has anything to roll: end the turn."))
        for row in rows:
            out.append(self._maintenance_row(row))
        smoke = M.smoke_choices(state)
        if smoke and not self.read_only:
            out.append(ft.Row([button(c.ident, c.label, on(self.send, c.action)) for c in smoke], wrap=True, spacing=6))
        return out

    def _maintenance_row(self, row: M.MaintenanceRow) -> ft.Control:
        controls: list[ft.Control] = [ft.Text(row.name, weight=ft.FontWeight.BOLD),
                                      *[ft.Text(t, size=13) for t in row.lines]]
        if self.mine(row.ship) and row.steps:
            fields = self.maintenance_dice.setdefault(row.ship, (field("Dice", 120), field("Grid 1st 2nd", 130),
                                                                  field("Side die", 100)))
            controls += [ft.Row([button(c.ident, c.label, on(self._maintenance_roll, c.action)) for c in row.steps],
                                wrap=True, spacing=6),
                         muted("Or the table's dice, then the step's button: its d6s in order; a grid roll's "
                               "1st and 2nd die, \"/\" between rolls.", 11),
                         ft.Row([tag(f"dv-maint-{row.ship}-{n}", f) for n, f in zip(("dice", "grid", "side"), fields)],
                                wrap=True, spacing=6)]
        return box(f"dv-maint-{row.ship}", *controls)

    async def _maintenance_roll(self, action: dict) -> None:
        """A maintenance step with the table's dice when any were typed (cleared once used)."""
        fields = self.maintenance_dice.get(action["ship"])
        if fields and action["kind"] in ("maintenance_roll", "trade_damage"):
            try:
                table = M.maintenance_table(*(f.value or "" for f in fields))
            except ValueError as exc:
                await self.say(str(exc))
                return
            if table:
                action = {**action, "table": table}
                for f in fields:
                    f.value = ""
        await self.send(action)

    # --- handlers ------------------------------------------------------------------------------

    async def select(self, ship_id: str) -> None:
        self.selected = ship_id
        self.close_with = None
        self.attacks.ship_changed()
        if self.frame.tab not in ("ship", "attacks"):
            await self.frame.go_tab("ship")
        else:
            await self.frame.refresh(force=True)

    async def step(self, step: M.Step) -> None:
        if step.confirm:
            self.ask(step, "Not yet", lambda chosen: self.send(chosen.action))
            return
        await self.send(step.action)

    async def send(self, action) -> None:
        before = self.state.phase
        outcome = await self.frame.act(action)
        if outcome.ok and self.state.phase != before:
            tab = {"attacks": "attacks", "maintenance": "maintenance", "aircraft": "air"}.get(self.state.phase, "ship")
            if tab != self.frame.tab:
                await self.frame.go_tab(tab)

    async def say(self, problem: str) -> None:
        self.frame.message(problem)
        await self.frame.refresh(force=True)

    async def send_or_say(self, action: dict | str, *typed: ft.TextField) -> None:
        """Send an action made of what was typed, then empty the fields `typed`; or say what is wrong with it."""
        if isinstance(action, str):
            await self.say(action)
            return
        for f in typed:
            f.value = ""
        await self.send(action)

    async def _move(self, ship_id: str) -> None:
        await self.send_or_say(M.move_action(ship_id, self.inches.value or "", self.turns.value or "",
                                             bool(self.carried.value)))

    async def _initiative_table(self) -> None:
        try:
            faces = M.initiative_faces({side: f.value or "" for side, f in self.initiative.items()})
        except ValueError as exc:
            await self.say(str(exc))
            return
        await self.send({"kind": "roll_initiative", "faces": faces})


async def start_sample(app, scenario: str | None = None) -> None:
    """New game: a shipped Decisive Victory scenario (fleets/decisive-victory/: the sample or the
    carrier strike), picked in a dialog, stored like any game with the group's own hit grid and
    Table 1 when it saved them; only the host starts games."""
    refused = may_start(app)
    if refused:
        await app.navigate(Session(message=refused))
        return
    if scenario is None:
        _choose_scenario(app)
        return
    try:
        state = await asyncio.to_thread(M.sample_game, shipped_fleets_dir(), app.seed, app.store, scenario)
    except (OSError, ValueError) as exc:
        await app.navigate(Session(message=f"The Decisive Victory scenario could not be read: {without_paths(str(exc))}"))
        return
    await app.create_game(state, "Decisive Victory " + time.strftime("%d %b %H:%M"))


def _choose_scenario(app) -> None:
    """Which shipped scenario to play: each one a button (ids dv-scenario-<file stem>)."""
    page = app.page
    page.show_dialog(ft.AlertDialog(
        title=ft.Text("Decisive Victory: which scenario?"),
        content=ft.Column([muted("Shipped sample data (unverified values). The group's own hit grid and "
                                 "Table 1 are used when it saved them.", 12),
                           *[tag("dv-scenario-" + file.rsplit("/", 1)[1].removesuffix(".json"),
                                 ft.FilledButton(content=words, height=TOUCH, on_click=closing(page, start_sample, app, file)))
                             for file, words in M.SCENARIOS]], tight=True, spacing=10),
        actions=[ft.TextButton(content="Cancel", on_click=lambda _: page.pop_dialog())]))
