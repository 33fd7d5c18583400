"""A Decisive Victory ship on the shared screen (TV), read from three metres (issue 35): its name,
damage, speed and hurt systems in large type over its hit grid, whose boxes name their systems
in type as large as the phones' body text is small.  Six ships (and more) fit a 1920 x 1080 TV
beside the last roll and the declared attacks, two or three cards a row by the width there is."""

from __future__ import annotations

import flet as ft

from ...theme import side_colour
from ...views.widgets import tag
from . import model as M
from .ship import STATUS_COLOUR

#: Type sizes on the TV: a ship's name, its lines, its grid's box words and row labels (px).
NAME, LINE, BOX, LABEL = 30, 22, 20, 20
CARD_PADDING, LABEL_WIDTH, GAP = 12, 64, 3
#: The narrowest card that keeps the grid's words at BOX px ("Struct", "Speed" whole in a box).
LEAST_CARD = 440


def columns(width: float, ships: int) -> int:
    """How many ship cards a row of `width` px holds (1 to 3), never more than there are ships."""
    return max(1, min(3, int(width // LEAST_CARD), ships))


def ship_card(state, row: M.ShipRow, width: float, theme: str) -> ft.Control:
    """The card `width` px wide: name and damage, speed and hurt systems, the grid."""
    colour = side_colour(state.sides, row.side, theme)
    name = row.name + (f" ({row.removed})" if row.removed else "")
    box = max(40, int((width - 2 * CARD_PADDING - LABEL_WIDTH) // 6) - GAP)
    return tag(f"screen-ship-{row.id}", ft.Container(ft.Column([
        ft.Row([tag(f"screen-name-{row.id}", ft.Text(name, size=NAME, weight=ft.FontWeight.BOLD, color=colour)),
                tag(f"screen-damage-{row.id}", ft.Text(row.damage, size=LINE, weight=ft.FontWeight.W_600))],
               wrap=True, spacing=14, vertical_alignment=ft.CrossAxisAlignment.END),
        tag(f"screen-state-{row.id}", ft.Text(f"{row.speed} · {M.systems_words(row)}", size=LINE,
                                              color=_worst_colour(row))),
        grid(row, box)], spacing=4, tight=True),
        padding=CARD_PADDING, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW, width=width))


def _worst_colour(row: M.ShipRow):
    statuses = {s.status for s in row.systems}
    return STATUS_COLOUR["disabled" if "disabled" in statuses else "damaged" if "damaged" in statuses else "working"]


def grid(row: M.ShipRow, box: int) -> ft.Control:
    """The hit grid: a row per 1st-die group (its dice and armour), a box per 2nd die naming its
    system, a marked box filled and bold."""
    header = ft.Row([ft.Container(width=LABEL_WIDTH), *[
        ft.Container(ft.Text(str(c), size=LABEL - 4, weight=ft.FontWeight.BOLD), width=box, alignment=ft.Alignment.CENTER)
        for c in range(1, 7)]], spacing=GAP)
    lines: list[ft.Control] = [header]
    for g, line in enumerate(row.grid, start=1):
        dice, _, armour = line.label.partition(" ")
        label = ft.Column([tag(f"screen-row-{row.id}-{g}", ft.Text(dice, size=LABEL, weight=ft.FontWeight.BOLD)),
                           ft.Text(armour.strip("()"), size=12, no_wrap=True)], spacing=0, tight=True)
        lines.append(ft.Row([ft.Container(label, width=LABEL_WIDTH),
                             *[_box(row.id, cell, box) for cell in line.cells]], spacing=GAP))
    return tag(f"screen-grid-{row.id}", ft.Column(lines, spacing=GAP, tight=True))


def _box(ship: str, cell: M.Cell, width: int) -> ft.Control:
    g, c = cell.box
    text = ft.Text(cell.system, size=BOX, italic=cell.unverified, no_wrap=True,
                   weight=ft.FontWeight.BOLD if cell.marked else None,
                   color=ft.Colors.ON_ERROR_CONTAINER if cell.marked else None)
    marked = "-marked" if cell.marked else ""
    words = f"{cell.system} box {g},{c}" + (" marked" if cell.marked else "")
    return tag(f"dv-box-{ship}-{g}-{c}{marked}", ft.Container(  # the same box as the phones' grid (ship.py)
        tag(f"screen-box-{ship}-{g}-{c}{marked}", text),
        width=width, height=46, alignment=ft.Alignment.CENTER, border_radius=6,
        bgcolor=ft.Colors.ERROR_CONTAINER if cell.marked else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(3, ft.Colors.ERROR) if cell.marked else None), label=words)
