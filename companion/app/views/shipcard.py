"""The ship card, laid out like the printed one: locations, six slots, breach numbers, dice.

Circled (destroyed this turn) slots get a red ring; destroyed slots are struck
through.  Tapping a slot offers to mark or clear it by hand.
"""

from __future__ import annotations

from typing import Awaitable, Callable

import flet as ft

from ..theme import CIRCLED
from ..viewmodels import CardView, SlotView
from .widgets import chips, muted, tag

STATUS_WORDS = {"live": "working", "destroyed_this_turn": "destroyed this turn (circled)",
                "destroyed": "destroyed (struck through)"}

SlotHandler = Callable[[str, int, str], Awaitable[None]]


def _slot_cell(card: CardView, location: str, slot: SlotView, on_slot: SlotHandler | None) -> ft.Control:
    struck = slot.status == "destroyed"
    circled = slot.status == "destroyed_this_turn"
    miss = slot.kind == "miss"
    title_style = ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH, decoration_thickness=2) if struck else None
    number = ft.Container(
        content=ft.Text(str(slot.number), size=11, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.WHITE if circled else ft.Colors.ON_SURFACE_VARIANT),
        width=20, height=20, border_radius=10, alignment=ft.Alignment.CENTER,
        bgcolor=CIRCLED if circled else None,
        border=ft.Border.all(2, CIRCLED) if circled else None,
    )
    breach = ft.Text("—" if slot.breach is None else str(slot.breach), size=15, weight=ft.FontWeight.BOLD,
                     style=title_style,
                     tooltip=None if slot.breach is None or slot.breach == slot.printed
                     else f"printed {slot.printed}, armour included")
    lines: list[ft.Control] = [
        ft.Row([number, ft.Container(expand=True), breach], spacing=2),
        ft.Text(slot.title, size=12, weight=ft.FontWeight.W_600, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                style=title_style),
    ]
    if slot.dice:
        lines.append(ft.Row([chips(d, 12) for d in slot.dice], spacing=6, tight=True))
    if slot.detail:
        lines.append(ft.Text(slot.detail, size=10, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=1, style=title_style))
    bg = ft.Colors.SURFACE_CONTAINER_HIGHEST if struck else (
        ft.Colors.SURFACE if not miss else ft.Colors.SURFACE_CONTAINER)
    body = ft.Container(
        content=ft.Column(lines, spacing=2, tight=True),
        padding=6, border_radius=8, bgcolor=bg, height=84,
        border=ft.Border.all(2.5, CIRCLED) if circled else ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        opacity=0.7 if struck else 1.0,
    )
    if struck:
        body = ft.Stack([body, ft.Container(
            content=ft.Icon(ft.Icons.CLOSE, size=54, color=ft.Colors.with_opacity(0.35, CIRCLED)),
            alignment=ft.Alignment.CENTER, height=84, left=0, right=0, top=0)], height=84)
    if on_slot is not None and not miss:
        async def tapped(e):
            await on_slot(location, slot.number, slot.status)
        body = ft.GestureDetector(content=body, on_tap=tapped, mouse_cursor=ft.MouseCursor.CLICK)
    words = STATUS_WORDS[slot.status]
    return tag(f"slot-{card.id}-{location}-{slot.number}", body,
               label=f"{location} slot {slot.number} {slot.title}: {words}")


def card_control(card: CardView, dark: bool, compact: bool = False, on_slot: SlotHandler | None = None) -> ft.Control:
    blocks: list[ft.Control] = []
    for loc in card.locations:
        dice = ft.Row([
            muted("go", 11), chips(loc.go, 14 if loc.rolling == "go" else 11),
            muted("stop", 11), chips(loc.stop, 14 if loc.rolling == "stop" else 11),
        ], spacing=4, tight=True)
        head = ft.Row([
            ft.Text(loc.name, weight=ft.FontWeight.BOLD, size=14),
            muted(f"armour +{loc.armour}", 11) if loc.armour else ft.Container(),
            ft.Container(expand=True), dice,
        ], spacing=8)
        cells = ft.ResponsiveRow(
            [ft.Container(content=_slot_cell(card, loc.key, s, on_slot), col={"xs": 4, "sm": 2}) for s in loc.slots],
            spacing=4, run_spacing=4,
        )
        blocks.append(ft.Container(
            content=ft.Column([head, cells], spacing=6, tight=True), padding=8, border_radius=10,
            bgcolor=ft.Colors.with_opacity(0.08, CIRCLED) if loc.wrecked else ft.Colors.SURFACE_CONTAINER_LOW,
        ))
    stats = ft.Row([
        _stat("MP", f"{card.mp_left}/{card.mp}"),
        _stat("SI", str(card.si)),
        _stat("Destroyed", f"{card.destroyed}/{card.half_si}"),
        _stat("Enter before turn", str(card.enter_before_turn)),
    ], spacing=8, wrap=True)
    warning = []
    if card.destruction:
        warning.append(ft.Container(
            content=ft.Text(f"Destroyed: {card.destruction}.", color=ft.Colors.ON_ERROR_CONTAINER),
            bgcolor=ft.Colors.ERROR_CONTAINER, padding=8, border_radius=8))
    header = ft.Column([
        ft.Text(card.name, size=20, weight=ft.FontWeight.BOLD),
        muted(f"{card.ship_class} · {card.side} · Type {card.type} · {card.position}", 12),
    ], spacing=0, tight=True)
    return tag(f"card-{card.id}", ft.Column([header, stats, *warning, *blocks], spacing=8, tight=True))


def _stat(label: str, value: str) -> ft.Control:
    return ft.Container(
        content=ft.Column([ft.Text(label, size=10, color=ft.Colors.ON_SURFACE_VARIANT),
                           ft.Text(value, size=16, weight=ft.FontWeight.BOLD)], spacing=0, tight=True,
                          horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.symmetric(horizontal=10, vertical=4), border_radius=8,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
    )
