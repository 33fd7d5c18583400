"""The selected ship's moves: its MP, the step buttons, end move, placing it by hand, and the
house rules' moves (declare or cancel a turn, seize the initiative, record a secret end position).

Kept on screen and changed in place (`show`), so a step or another ship sends
only the texts and buttons that changed.  The phone's strip over the map has
its own, compact one.
"""

from __future__ import annotations

from typing import Awaitable, Callable

import flet as ft

from ....engine.hexes import FACING_NAMES
from .house_model import HouseMoves
from ...panels import MoveOption, MovePanel
from ...views.frame import on
from ...views.widgets import TOUCH, inner, muted, put, tag

RECORD = "Record the end position (sealed until every ship of the group has recorded)"
STEP_ICONS = {"forward": ft.Icons.ARROW_UPWARD, "port": ft.Icons.TURN_LEFT, "starboard": ft.Icons.TURN_RIGHT}


class MoveControls:
    def __init__(self, compact: bool, on_step: Callable[[str], Awaitable[None]],
                 on_end_move: Callable[[str], Awaitable[None]],
                 on_place: Callable[[str, int, str], Awaitable[None]],
                 on_house: Callable[[dict], Awaitable[None]],
                 on_plan: Callable[[str], Awaitable[None]] | None = None):
        self.compact = compact
        self.on_step, self.on_end_move, self.on_place, self.on_house = on_step, on_end_move, on_place, on_house
        self.on_plan = on_plan  # the movement planner (views/planner.py): on and off
        self.planning = False
        self.plan_button = tag("plan-toggle", ft.OutlinedButton(content="Plan", icon=ft.Icons.ROUTE,
                                                                on_click=self._plan, height=TOUCH,
                                                                tooltip="Every end position this turn, by MP"))
        self.ship: str | None = None
        self.name = ft.Text("", weight=ft.FontWeight.BOLD, size=15)
        self.position = muted("", 12)
        self.mp = ft.Text("", weight=ft.FontWeight.BOLD)
        self.head = ft.Row([self.name, self.position, ft.Container(expand=True), tag("mp-left", self.mp)], spacing=8)
        self.deploy_hint = muted("Deploy: tap an outlined hex on the map (or type its label), then a facing; "
                                 "a facing alone turns the ship where it stands.", 12)
        self.step_buttons: dict[str, ft.Control] = {}
        self.end_move = tag("end-move", ft.OutlinedButton(content="End move", icon=ft.Icons.CHECK,
                                                          on_click=self._end_move, height=TOUCH))
        self.steps = ft.Row([], wrap=True, spacing=6, run_spacing=6)
        self.note = muted("", 12)
        self.field = ft.TextField(label="Hex", value="", width=92, height=TOUCH, dense=True,
                                  keyboard_type=ft.KeyboardType.NUMBER, hint_text="CCRR")
        facings: list[ft.Control] = [
            tag(f"face-{name}", ft.OutlinedButton(content=name, on_click=self._facing(i), height=TOUCH,
                                                  width=TOUCH, tooltip=f"Bow hex and facing {name}",
                                                  style=ft.ButtonStyle(padding=0)))
            for i, name in enumerate(FACING_NAMES)
        ]
        self.place_title = muted("", 12)
        self.place = ft.Column([self.place_title, ft.Row([tag("place-hex", self.field), ft.Row(facings, spacing=4, tight=True)],
                                                         wrap=True, spacing=6, run_spacing=6)],
                               spacing=4, tight=True)
        self.house_buttons: dict[str, ft.Control] = {}
        self.house = ft.Row([], wrap=True, spacing=6, run_spacing=6)
        self.house_status = tag("house-status", ft.Text("", size=12, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY))
        self.lines = ft.Column([], spacing=8, tight=True)
        self.control = ft.Container(content=self.lines, padding=10, border_radius=10,
                                    bgcolor=ft.Colors.SURFACE_CONTAINER_LOW)

    def show(self, move: MovePanel, phase: str, placing: bool, place_label: str,
             house: HouseMoves | None = None) -> ft.Control:
        self.ship = move.ship
        recording = house is not None and house.recording
        self.name.value = move.name
        self.position.value = move.position
        self.mp.value = f"{move.mp_left}/{move.mp} MP"
        lines: list[ft.Control] = [self.head]
        if phase == "setup":
            lines.append(self.deploy_hint)
        else:
            inner(self.plan_button, ft.OutlinedButton).content = "Planning" if self.planning else "Plan"
            inner(self.plan_button, ft.OutlinedButton).style = ft.ButtonStyle(bgcolor=ft.Colors.SECONDARY_CONTAINER) if self.planning else None
            put(self.steps, [self._step_button(option) for option in move.options]
                + ([self.end_move] if move.can_end else [])
                + ([self.plan_button] if self.on_plan and phase == "movement" and move.mp_left > 0 else []))
            lines += [] if recording else [self.steps]
            if house is not None:
                lines += self._house(house)
            if not self.compact:
                self.note.value = move.note
                lines.append(self.note)
        if not self.compact or phase == "setup" or placing or recording:
            self.field.value = place_label
            self.place_title.value = ("Deploy at" if phase == "setup" else RECORD if recording
                                      else "Place at (the table says otherwise)")
            lines.append(self.place)
        put(self.lines, lines)
        return self.control

    def _house(self, house: HouseMoves) -> list[ft.Control]:
        """The house rules' buttons (each an action the rules accept now) and the ship's status."""
        buttons = []
        for move in house.moves:
            tagged = self.house_buttons.get(move.ident)
            if tagged is None:
                tagged = self.house_buttons[move.ident] = tag(move.ident, ft.OutlinedButton(
                    content=move.label, on_click=on(self.on_house, move.action), height=TOUCH))
            inner(tagged, ft.OutlinedButton).on_click = on(self.on_house, move.action)
            buttons.append(tagged)
        put(self.house, buttons)
        inner(self.house_status, ft.Text).value = house.status
        return ([self.house] if buttons else []) + ([self.house_status] if house.status else [])

    def _step_button(self, option: MoveOption) -> ft.Control:
        tagged = self.step_buttons.get(option.step)
        if tagged is None:
            tagged = self.step_buttons[option.step] = tag(f"step-{option.step}", ft.FilledButton(
                content="", icon=STEP_ICONS[option.step], on_click=on(self.on_step, option.step), height=TOUCH))
        button = inner(tagged, ft.FilledButton)
        button.content = option.label if not self.compact else option.label.replace("Turn to ", "").capitalize()
        button.style = None if option.reason is None else ft.ButtonStyle(bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                                                                         color=ft.Colors.ON_SURFACE_VARIANT)
        button.tooltip = option.reason
        return tagged

    async def _plan(self, e) -> None:
        if self.ship and self.on_plan:
            await self.on_plan(self.ship)

    async def _end_move(self, e) -> None:
        if self.ship:
            await self.on_end_move(self.ship)

    def _facing(self, facing: int):
        async def handler(e):
            if self.ship:
                await self.on_place(self.ship, facing, (self.field.value or "").strip())
        return handler
