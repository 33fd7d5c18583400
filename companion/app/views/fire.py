"""The fire panel: every gun with its targets, range, band, dice, exact odds; declared shots.

A shot resolves by the app's dice ("Roll") or by the players' own ("Table
dice": type each face, focus moves on by itself).
"""

from __future__ import annotations

from typing import Awaitable, Callable

import flet as ft

from ..theme import DICE
from ..viewmodels import FaceField, GunView, ShotView, StrikeView
from .widgets import TOUCH, chips, faces, heading, icon_button, muted, tag

Declare = Callable[[str, int, str, str], Awaitable[None]]

FACE_MAX = {"Green": 4, "Blue": 6, "Yellow": 8, "Red": 10, "Black": 12, "D6": 6}


def _strike_row(gun: GunView, target_id: str, strike: StrikeView, declare: Declare | None) -> ft.Control:
    slot_bits = [
        ft.Container(
            content=ft.Text(f"{o.slot} {o.name} {o.text}", size=11),
            padding=ft.Padding.symmetric(horizontal=6, vertical=2), border_radius=6,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, tooltip=f"exactly {o.chance}",
        )
        for o in strike.slots
    ]
    if strike.keel:
        slot_bits.append(ft.Container(
            content=ft.Text(f"keel {strike.keel_text}", size=11, color=ft.Colors.ON_ERROR_CONTAINER),
            padding=ft.Padding.symmetric(horizontal=6, vertical=2), border_radius=6,
            bgcolor=ft.Colors.ERROR_CONTAINER, tooltip=f"exactly {strike.keel}",
        ))
    button = []
    if declare is not None:
        async def go(e):
            await declare(gun.location, gun.slot, target_id, strike.location)
        button = [tag(f"declare-{gun.location}-{gun.slot}-{target_id}-{strike.location}",
                      ft.FilledTonalButton(content="Declare", icon=ft.Icons.GPS_FIXED, on_click=go, height=TOUCH))]
    return ft.Container(
        content=ft.Column([
            ft.Row([ft.Text(f"at the {strike.name.lower()}", weight=ft.FontWeight.W_600), chips(strike.pool, 16),
                    muted(strike.pool_text, 11)], wrap=True, spacing=6),
            ft.Row([ft.Text(f"Breach {strike.damage_text}", weight=ft.FontWeight.BOLD, size=15,
                            tooltip=f"exactly {1 - strike.no_effect}"),
                    *slot_bits], wrap=True, spacing=4, run_spacing=4),
            *button,
        ], spacing=6, tight=True),
        padding=8, border_radius=8, bgcolor=ft.Colors.SURFACE,
    )


def gun_control(gun: GunView, declare: Declare | None) -> ft.Control:
    lines: list[ft.Control] = [ft.Row([
        ft.Icon(ft.Icons.ADJUST, size=18),
        ft.Text(f"{gun.name}", weight=ft.FontWeight.BOLD),
        muted(f"{gun.location} slot {gun.slot} · {gun.bands}", 12),
        ft.Container(expand=True),
        ft.Text("declared", color=ft.Colors.PRIMARY, size=12) if gun.fired else ft.Container(),
    ], spacing=6)]
    for target in gun.targets:
        if not target.strikes:
            lines.append(muted(f"{target.name}: {target.summary}", 12))
            continue
        lines.append(ft.Text(f"{target.name} · {target.summary}", size=13))
        for strike in target.strikes:
            lines.append(_strike_row(gun, target.target, strike, None if gun.fired else declare))
    return ft.Container(content=ft.Column(lines, spacing=6, tight=True), padding=10, border_radius=10,
                        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW)


class TableDiceEntry:
    """Fields for the faces the players rolled, focus moving on as each is typed."""

    def __init__(self, shot: ShotView, fields: tuple[FaceField, ...], submit, cancel):
        self.shot = shot
        self.fields = list(fields)
        self.submit = submit
        self.inputs: list[ft.TextField] = []
        self.column = ft.Column(spacing=8, tight=True)
        self.cancel = cancel
        self._build()

    def add(self, purpose: str, colour: str, label: str, count: int = 1) -> None:
        for _ in range(count):
            self.fields.append(FaceField(purpose, colour, label))
        self._build(keep=[f.value for f in self.inputs_raw])

    def _build(self, keep: list[str] | None = None) -> None:
        self.inputs = []
        for i, f in enumerate(self.fields):
            value = keep[i] if keep and i < len(keep) else ""
            fill = DICE.get(f.colour, ("#888888", "#ffffff"))[0]
            slots_before = sum(1 for g in self.fields[:i] if g.purpose == "slot")
            short = {"pool": f.colour, "slot": "Slot" if not slots_before else "Re-roll", "keel": "Keel"}[f.purpose]
            field = ft.TextField(value=value, label=short,
                                 width=72, height=56, text_size=18, text_align=ft.TextAlign.CENTER,
                                 border_color=fill if f.colour not in ("D6", "Black") else None, border_width=2,
                                 focused_border_color=fill if f.colour not in ("D6", "Black") else None,
                                 keyboard_type=ft.KeyboardType.NUMBER, tooltip=f"{f.label}: the face it shows",
                                 on_change=self._changed, on_submit=self._submitted, data=i)
            self.inputs.append(tag(f"face-{self.shot.id}-{i}", field))
        self.inputs_raw = [w.content for w in self.inputs]
        self.column.controls = [
            muted("Type each face as rolled, the pool in order, then the slot die: the cursor moves on by itself.", 12),
            ft.Row(self.inputs, wrap=True, spacing=6, run_spacing=6),
            ft.Row([tag(f"resolve-{self.shot.id}", ft.FilledButton(content="Resolve", icon=ft.Icons.CHECK, on_click=self._submitted, height=TOUCH)),
                    ft.TextButton(content="Close", on_click=self.cancel, height=TOUCH)]),
        ]

    async def focus_first_empty(self) -> None:
        """Put the cursor in the first die still to type (focus then moves on by itself)."""
        for field in self.inputs_raw:
            if not (field.value or "").strip():
                await field.focus()
                return

    def values(self) -> list[str]:
        return [f.value or "" for f in self.inputs_raw]

    async def _changed(self, e) -> None:
        i = e.control.data
        text = (e.control.value or "").strip()
        if not text.isdigit():
            return
        top = FACE_MAX.get(self.fields[i].colour, 12)
        if len(text) >= 2 or int(text) * 10 > top:
            if i + 1 < len(self.inputs_raw):
                await self.inputs_raw[i + 1].focus()

    async def _submitted(self, e) -> None:
        await self.submit(self)


def shot_control(shot: ShotView, roll, enter, cancel, entry: TableDiceEntry | None) -> ft.Control:
    lines: list[ft.Control] = [ft.Row([ft.Text(f"Shot {shot.id}", weight=ft.FontWeight.BOLD), ft.Text(shot.text, size=13, expand=True)],
                                      vertical_alignment=ft.CrossAxisAlignment.START)]
    if shot.resolved:
        colour = {"slot_destroyed": ft.Colors.ERROR, "keel_break": ft.Colors.ERROR}.get(shot.outcome, ft.Colors.ON_SURFACE)
        lines += [faces(shot.dice, 32), tag(f"result-{shot.id}", ft.Text(shot.result, color=colour, weight=ft.FontWeight.W_600))]
    else:
        async def do_roll(e):
            await roll(shot.id)

        async def do_enter(e):
            await enter(shot.id)

        async def do_cancel(e):
            await cancel(shot.id)

        lines.append(ft.Row([chips(shot.pool, 16), muted("+ slot die", 11)], spacing=6))
        lines.append(ft.Row([
            tag(f"roll-{shot.id}", ft.FilledButton(content="Roll", icon=ft.Icons.CASINO, on_click=do_roll, height=TOUCH)),
            tag(f"enter-{shot.id}", ft.OutlinedButton(content="Table dice", icon=ft.Icons.KEYBOARD, on_click=do_enter, height=TOUCH)),
            icon_button(ft.Icons.DELETE_OUTLINE, "Cancel this shot", do_cancel, f"cancel-{shot.id}"),
        ], wrap=True))
        if entry is not None:
            lines.append(entry.column)
    return ft.Container(content=ft.Column(lines, spacing=6, tight=True), padding=10, border_radius=10,
                        bgcolor=ft.Colors.SECONDARY_CONTAINER if not shot.resolved else ft.Colors.SURFACE_CONTAINER_LOW)


def fire_control(ship_name: str | None, phase: str, guns: tuple[GunView, ...], shots: tuple[ShotView, ...],
                 declare: Declare, roll, enter, cancel, entries: dict[int, TableDiceEntry]) -> ft.Control:
    parts: list[ft.Control] = []
    if shots:
        parts.append(heading("Declared shots"))
        parts += [shot_control(s, roll, enter, cancel, entries.get(s.id)) for s in shots]
    if ship_name is None:
        parts.append(muted("Select a ship on the map or in the ship list to see its guns and targets."))
    else:
        parts.append(heading(f"{ship_name}: guns"))
        if phase != "combat":
            parts.append(muted("Shots are declared in the fire phase; the odds below are for the table as it stands."))
        if not guns:
            parts.append(muted("No working guns."))
        parts += [gun_control(g, declare if phase == "combat" else None) for g in guns]
    return ft.Column(parts, spacing=10, tight=True)
