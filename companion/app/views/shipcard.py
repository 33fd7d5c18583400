"""The ship card, laid out like the printed one: locations, six slots, breach numbers, dice.

As on the printed card (issue 18, docs/printing.md): the bow on top, port left and starboard
right, the stern at the foot, where the width allows (a phone stacks them in that order); MP as
"6 of 9" (this turn's of the printed Starting MP), the SI as printed, the destroyed slots of the
half SI that destroys the ship, and one legend for the ▶ go and ■ stop dice of every location.

Circled (destroyed this turn) slots get a red ring; destroyed slots are struck
through.  Tapping a slot offers to mark or clear it by hand.  The slot the latest shot destroyed
flashes once, for about a second (issue 18, motion that helps: `CardView.flash`).

`ShipCard` is the card kept on screen: `show(card)` changes its texts, colours
and borders in place, so only what changed is sent (a card built anew is some
five hundred controls).  The card and each slot are `Kept` pieces: the update
around them compares only those marked changed (`sent` clears the marks), so
the slots that stayed the same are not even compared.
"""

from __future__ import annotations

from typing import Awaitable, Callable

import flet as ft

from ..tasks import soon
from ..theme import CIRCLED, FLASH, marks_style
from ..viewmodels import DICE_LEGEND, CardView, LocationView, SlotView
from .widgets import flash_box, flash_off, flash_on, muted, put, sent, show_chips, tag

STATUS_WORDS = {"live": "working", "destroyed_this_turn": "destroyed this turn (circled)",
                "destroyed": "destroyed (struck through)"}

STAT_LABELS = ("Starting MP", "Structural Integrity", "Slots destroyed", "Enter hexes before turn")

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
        self.glow = flash_box(height=84, left=0, right=0, top=0, border_radius=8,
                              border=ft.Border.all(4, FLASH), bgcolor=ft.Colors.with_opacity(0.3, FLASH))
        self.face = ft.GestureDetector(content=ft.Stack([self.body, self.cross, self.glow], height=84),
                                       on_tap=self._tapped)
        self.control = tag("", self.face, kept=True)
        self._key: tuple[str, str, SlotView] | None = None
        self.show(card, location, slot)

    def flash(self) -> None:
        """Highlight this slot for about a second: it was just hit."""
        if soon(None, flash_off, self.glow):  # off the event loop (a test, a print): no flash
            flash_on(self.glow)
            self.control.stale = True

    def _tappable(self) -> bool:
        return self.on_slot is not None and self.slot.kind != "miss"

    async def _tapped(self, e) -> None:
        if self._tappable() and self.on_slot is not None:  # (_tappable: it is not None)
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
        _set(self.breach, value=slot.breach_text, style=title_style,
             tooltip=None if slot.breach is None or slot.printed is None or slot.breach == slot.printed
             else f"printed {slot.printed}, armour {slot.breach - slot.printed:+d}: breached on {slot.breach}")
        _set(self.title, value=slot.title, style=title_style)
        groups = [row for row in self.dice.controls[:len(slot.dice)] if isinstance(row, ft.Row)]  # each a chips row
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
    """One location: its name, armour, ▶ go and ■ stop dice, and its slots (three a row at a side)."""

    def __init__(self, on_slot: SlotHandler | None):
        self.on_slot = on_slot
        self.name = ft.Text("", weight=ft.FontWeight.BOLD, size=14, max_lines=1)
        self.armour = muted("", 11)
        self.title = ft.Column([self.name], spacing=0, tight=True)
        self.go = ft.Row([], spacing=3, tight=True)
        self.stop = ft.Row([], spacing=3, tight=True)
        self.dice = ft.Row([_arrow("▶"), self.go, _arrow("■"), self.stop], spacing=4, tight=True)
        self.head = ft.Row([self.title, ft.Container(expand=True), self.dice], spacing=6,
                           vertical_alignment=ft.CrossAxisAlignment.START)
        self.cells: list[SlotCell] = []
        self.holders: list[ft.Container] = []
        self.grid = ft.ResponsiveRow([], spacing=4, run_spacing=4)
        self.control = ft.Container(content=ft.Column([self.head, self.grid], spacing=6, tight=True), padding=8,
                                    border_radius=10)
        self.tagged = tag("", self.control)
        self.holder = ft.Container(content=self.tagged)

    def show(self, card: CardView, loc: LocationView) -> None:
        self.tagged.identifier = f"loc-{card.id}-{loc.key}"
        self.name.value = loc.name
        self.armour.value = f"armour +{loc.armour}"
        put(self.title, [self.name, self.armour] if loc.armour else [self.name])
        show_chips(self.go, loc.go, 14 if loc.rolling == "go" else 11)
        show_chips(self.stop, loc.stop, 14 if loc.rolling == "stop" else 11)
        side = loc.place in ("left", "right")
        self.holder.col = {"xs": 12, "sm": 6} if side else {"xs": 12}
        for i, slot in enumerate(loc.slots):
            if i == len(self.cells):
                cell = SlotCell(card, loc.key, slot, self.on_slot)
                self.cells.append(cell)
                self.holders.append(ft.Container(content=cell.control))
            else:
                self.cells[i].show(card, loc.key, slot)
            self.holders[i].col = {"xs": 4} if side else {"xs": 4, "sm": 2}
        del self.cells[len(loc.slots):], self.holders[len(loc.slots):]
        put(self.grid, self.holders)
        self.control.bgcolor = ft.Colors.with_opacity(0.08, CIRCLED) if loc.wrecked else ft.Colors.SURFACE_CONTAINER_LOW


def _arrow(mark: str) -> ft.Control:
    """The printed card's GO (▶) or STOP (■) arrow before a location's dice."""
    return ft.Text(mark, size=11, color=ft.Colors.ON_SURFACE_VARIANT, style=marks_style())


class ShipCard:
    """A card kept on screen; `show` puts another card, or the same one changed, on it."""

    def __init__(self, on_slot: SlotHandler | None = None):
        self.on_slot = on_slot
        self.name = ft.Text("", size=20, weight=ft.FontWeight.BOLD)
        self.line = muted("", 12)
        self.header = ft.Column([self.name, self.line], spacing=0, tight=True)
        self.values = [ft.Text("", size=16, weight=ft.FontWeight.BOLD) for _ in range(4)]
        self.subs = [ft.Text("", size=10, color=ft.Colors.ON_SURFACE_VARIANT) for _ in range(4)]
        self.tiles = [tag(ident, _stat(label, value, sub)) for ident, label, value, sub in
                      zip(("card-mp", "card-si", "card-destroyed", "card-enter"), STAT_LABELS, self.values, self.subs)]
        self.stats = ft.Row([*self.tiles], spacing=8, wrap=True)
        self.legend = tag("dice-legend", ft.Text(DICE_LEGEND, size=11, color=ft.Colors.ON_SURFACE_VARIANT,
                                                 style=marks_style()), label=DICE_LEGEND)
        self.places = ft.ResponsiveRow([], spacing=8, run_spacing=8)
        self.unruled = muted("", 12)  # the slots without a Quick-Start rule, in one line
        self.destruction = ft.Text("", color=ft.Colors.ON_ERROR_CONTAINER)
        self.warning = ft.Container(content=self.destruction, bgcolor=ft.Colors.ERROR_CONTAINER, padding=8,
                                    border_radius=8)
        self.blocks: list[LocationBlock] = []
        self.column = ft.Column([], spacing=8, tight=True)
        self.control = tag("", self.column, kept=True)
        self._card: CardView | None = None
        self._flashed: dict[str, int] = {}  # per ship, the log event of the hit it last flashed

    def show(self, card: CardView) -> ft.Control:
        if card == self._card:
            return self.control
        self._card = card
        self.control.stale = True
        self.control.identifier = f"card-{card.id}"
        self.name.value = card.name
        self.line.value = f"{card.ship_class} · {card.side} · Type {card.type} · {card.position}"
        for text, value in zip(self.values, (card.mp_text, card.si_text, card.destroyed_text,
                                             str(card.enter_before_turn))):
            text.value = value
        for text, value in zip(self.subs, (card.mp_left_text, "", "lost at half SI", "")):
            text.value, text.visible = value, bool(value)
        for tile, label, text, sub in zip(self.tiles, STAT_LABELS, self.values, self.subs):
            tile.label = f"{label}: {text.value}" + (f", {sub.value}" if sub.value else "")
        self.destruction.value = f"Destroyed: {card.destruction}." if card.destruction else ""
        self.unruled.value = card.unruled
        while len(self.blocks) < len(card.locations):
            self.blocks.append(LocationBlock(self.on_slot))
        del self.blocks[len(card.locations):]
        for block, loc in zip(self.blocks, card.locations):
            block.show(card, loc)
        put(self.places, [block.holder for block in self.blocks])
        put(self.column, [self.header, self.stats, self.legend, *([self.unruled] if card.unruled else []),
                          *([self.warning] if card.destruction else []), self.places])
        self._flash(card)
        return self.control

    def _flash(self, card: CardView) -> None:
        """Flash the slot the latest shot destroyed, once per hit."""
        if card.flash is None or self._flashed.get(card.id) == card.flash[0]:
            return
        self._flashed[card.id] = card.flash[0]
        _, location, number = card.flash
        for block, loc in zip(self.blocks, card.locations):
            if loc.key == location and 0 < number <= len(block.cells):
                block.cells[number - 1].flash()

    def sent(self) -> None:
        sent(self.control, *(cell.control for block in self.blocks for cell in block.cells))


def _stat(label: str, value: ft.Text, sub: ft.Text) -> ft.Control:
    return ft.Container(
        content=ft.Column([ft.Text(label, size=10, color=ft.Colors.ON_SURFACE_VARIANT), value, sub], spacing=0,
                          tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.symmetric(horizontal=10, vertical=4), border_radius=8,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
    )
