"""The ship card, laid out like the printed one: locations, six slots, breach numbers, dice.

Circled (destroyed this turn) slots get a red ring; destroyed slots are struck
through.  Tapping a slot offers to mark or clear it by hand.

`ShipCard` is the card kept on screen: `show(card)` changes its texts, colours
and borders in place, so only what changed is sent (a card built anew is some
five hundred controls).  The card and each slot are `Kept` pieces: the update
around them compares only those marked changed (`sent` clears the marks), so
the slots that stayed the same are not even compared.
"""

from __future__ import annotations

from typing import Awaitable, Callable

import flet as ft

from ..theme import CIRCLED, marks_style
from ..viewmodels import CardView, LocationView, SlotView
from .widgets import muted, put, sent, show_chips, tag

STATUS_WORDS = {"live": "working", "destroyed_this_turn": "destroyed this turn (circled)",
                "destroyed": "destroyed (struck through)"}

SlotHandler = Callable[[str, int, str], Awaitable[None]]


def _set(control: ft.Control, **values) -> None:
    """Set properties; one left as it was is not sent again."""
    for name, value in values.items():
        setattr(control, name, value)


class SlotCell:
    """One slot: its number, breach number, title, dice and detail, changed in place.

    Every cell has the same make-up (the cross of a destroyed slot shown or hidden, the tap
    answered or not: a miss slot is not), so another ship's card reuses the cells on screen."""

    def __init__(self, card: CardView, location: str, slot: SlotView, on_slot: SlotHandler | None):
        self.location, self.slot, self.on_slot = location, slot, on_slot
        self.number_text = ft.Text(str(slot.number), size=11, weight=ft.FontWeight.BOLD)
        self.number = ft.Container(content=self.number_text, width=20, height=20, border_radius=10,
                                   alignment=ft.Alignment.CENTER)
        self.breach = ft.Text("", size=15, weight=ft.FontWeight.BOLD)
        self.title = ft.Text("", size=12, weight=ft.FontWeight.W_600, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)
        self.dice = ft.Row([], spacing=6, tight=True)
        self.detail = ft.Text("", size=10, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=1)
        self.head = ft.Row([self.number, ft.Container(expand=True), self.breach], spacing=2)
        self.lines = ft.Column([], spacing=2, tight=True)
        self.body = ft.Container(content=self.lines, padding=6, border_radius=8, height=84)
        self.cross = ft.Container(content=ft.Icon(ft.Icons.CLOSE, size=54, color=ft.Colors.with_opacity(0.35, CIRCLED)),
                                  alignment=ft.Alignment.CENTER, height=84, left=0, right=0, top=0)
        self.face = ft.GestureDetector(content=ft.Stack([self.body, self.cross], height=84), on_tap=self._tapped)
        self.control = tag("", self.face, kept=True)
        self._key = None
        self.show(card, location, slot)

    def _tappable(self) -> bool:
        return self.on_slot is not None and self.slot.kind != "miss"

    async def _tapped(self, e) -> None:
        if self._tappable():
            await self.on_slot(self.location, self.slot.number, self.slot.status)

    def show(self, card: CardView, location: str, slot: SlotView) -> bool:
        """Put this slot on the cell; whether anything changed."""
        if self._key == (card.id, location, slot):
            return False
        self._key = (card.id, location, slot)
        self.location, self.slot = location, slot
        self.control.stale = True
        struck = slot.status == "destroyed"
        circled = slot.status == "destroyed_this_turn"
        miss = slot.kind == "miss"
        title_style = ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH, decoration_thickness=2) if struck else None
        _set(self.number_text, value=str(slot.number),
             color=ft.Colors.WHITE if circled else ft.Colors.ON_SURFACE_VARIANT)
        _set(self.number, bgcolor=CIRCLED if circled else None,
             border=ft.Border.all(2, CIRCLED) if circled else None)
        _set(self.breach, value="—" if slot.breach is None else str(slot.breach), style=title_style,
             tooltip=None if slot.breach is None or slot.breach == slot.printed
             else f"printed {slot.printed}, armour included")
        _set(self.title, value=slot.title, style=title_style)
        groups = self.dice.controls[:len(slot.dice)]
        groups += [ft.Row([], spacing=3, tight=True) for _ in range(len(slot.dice) - len(groups))]
        put(self.dice, [show_chips(row, colours, 12) for row, colours in zip(groups, slot.dice)])
        _set(self.detail, value=slot.detail, style=marks_style(struck))
        put(self.lines, [self.head, self.title] + ([self.dice] if slot.dice else []) + ([self.detail] if slot.detail else []))
        _set(self.body,
             bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST if struck else (
                 ft.Colors.SURFACE if not miss else ft.Colors.SURFACE_CONTAINER),
             border=ft.Border.all(2.5, CIRCLED) if circled else ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
             opacity=0.7 if struck else 1.0)
        _set(self.cross, visible=struck)
        _set(self.face, mouse_cursor=ft.MouseCursor.CLICK if self._tappable() else ft.MouseCursor.BASIC)
        _set(self.control, identifier=f"slot-{card.id}-{location}-{slot.number}",
             label=f"{location} slot {slot.number} {slot.title}: {STATUS_WORDS[slot.status]}")
        return True


class LocationBlock:
    """One location: its name, armour, go and stop dice, and its slots."""

    def __init__(self, on_slot: SlotHandler | None):
        self.on_slot = on_slot
        self.name = ft.Text("", weight=ft.FontWeight.BOLD, size=14)
        self.armour = muted("", 11)
        self.no_armour = ft.Container()
        self.go = ft.Row([], spacing=3, tight=True)
        self.stop = ft.Row([], spacing=3, tight=True)
        self.dice = ft.Row([muted("go", 11), self.go, muted("stop", 11), self.stop], spacing=4, tight=True)
        self.spacer = ft.Container(expand=True)
        self.head = ft.Row([], spacing=8)
        self.cells: list[SlotCell] = []
        self.holders: list[ft.Container] = []
        self.grid = ft.ResponsiveRow([], spacing=4, run_spacing=4)
        self.control = ft.Container(content=ft.Column([self.head, self.grid], spacing=6, tight=True), padding=8,
                                    border_radius=10)

    def show(self, card: CardView, loc: LocationView) -> None:
        self.name.value = loc.name
        self.armour.value = f"armour +{loc.armour}"
        put(self.head, [self.name, self.armour if loc.armour else self.no_armour, self.spacer, self.dice])
        show_chips(self.go, loc.go, 14 if loc.rolling == "go" else 11)
        show_chips(self.stop, loc.stop, 14 if loc.rolling == "stop" else 11)
        for i, slot in enumerate(loc.slots):
            if i == len(self.cells):
                cell = SlotCell(card, loc.key, slot, self.on_slot)
                self.cells.append(cell)
                self.holders.append(ft.Container(content=cell.control, col={"xs": 4, "sm": 2}))
            else:
                self.cells[i].show(card, loc.key, slot)
        del self.cells[len(loc.slots):], self.holders[len(loc.slots):]
        put(self.grid, self.holders)
        self.control.bgcolor = ft.Colors.with_opacity(0.08, CIRCLED) if loc.wrecked else ft.Colors.SURFACE_CONTAINER_LOW


class ShipCard:
    """A card kept on screen; `show` puts another card, or the same one changed, on it."""

    def __init__(self, on_slot: SlotHandler | None = None):
        self.on_slot = on_slot
        self.name = ft.Text("", size=20, weight=ft.FontWeight.BOLD)
        self.line = muted("", 12)
        self.header = ft.Column([self.name, self.line], spacing=0, tight=True)
        self.values = [ft.Text("", size=16, weight=ft.FontWeight.BOLD) for _ in range(4)]
        self.stats = ft.Row([_stat(label, value) for label, value in
                             zip(("MP", "SI", "Destroyed", "Enter before turn"), self.values)], spacing=8, wrap=True)
        self.unruled = muted("", 12)  # the slots without a Quick-Start rule, in one line
        self.destruction = ft.Text("", color=ft.Colors.ON_ERROR_CONTAINER)
        self.warning = ft.Container(content=self.destruction, bgcolor=ft.Colors.ERROR_CONTAINER, padding=8,
                                    border_radius=8)
        self.blocks: list[LocationBlock] = []
        self.column = ft.Column([], spacing=8, tight=True)
        self.control = tag("", self.column, kept=True)
        self._card: CardView | None = None

    def show(self, card: CardView) -> ft.Control:
        if card == self._card:
            return self.control
        self._card = card
        self.control.stale = True
        self.control.identifier = f"card-{card.id}"
        self.name.value = card.name
        self.line.value = f"{card.ship_class} · {card.side} · Type {card.type} · {card.position}"
        for text, value in zip(self.values, (f"{card.mp_left}/{card.mp}", str(card.si),
                                             f"{card.destroyed}/{card.half_si}", str(card.enter_before_turn))):
            text.value = value
        self.destruction.value = f"Destroyed: {card.destruction}." if card.destruction else ""
        self.unruled.value = card.unruled
        while len(self.blocks) < len(card.locations):
            self.blocks.append(LocationBlock(self.on_slot))
        del self.blocks[len(card.locations):]
        for block, loc in zip(self.blocks, card.locations):
            block.show(card, loc)
        put(self.column, [self.header, self.stats, *([self.unruled] if card.unruled else []),
                          *([self.warning] if card.destruction else []),
                          *(block.control for block in self.blocks)])
        return self.control

    def sent(self) -> None:
        sent(self.control, *(cell.control for block in self.blocks for cell in block.cells))


def _stat(label: str, value: ft.Text) -> ft.Control:
    return ft.Container(
        content=ft.Column([ft.Text(label, size=10, color=ft.Colors.ON_SURFACE_VARIANT), value], spacing=0, tight=True,
                          horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.symmetric(horizontal=10, vertical=4), border_radius=8,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
    )
