"""A Decisive Victory ship on screen: its record line, speed mode, damage, command points,
abilities, systems and its hit grid as a 4×6 table of boxes (spec §10.1), the marked boxes
crossed out and the reconstructed cells [R-40] marked.  Draws `dv_model.ShipRow`; no rules here."""

from __future__ import annotations

import flet as ft

from .model import GridLine, ShipRow
from ...views.frame import on
from ...views.widgets import muted, tag

STATUS_COLOUR = {"working": None, "damaged": "#c77800", "disabled": ft.Colors.ERROR}


def grid_table(row: ShipRow, box_size: int = 44, on_box=None) -> ft.Control:
    """The grid: a row per 1st-die group (with its armour), a box per 2nd die; a marked box filled
    and crossed, a reconstructed cell in italics with a dashed note under the table."""
    label_width = box_size * 2 if box_size >= 44 else 72
    header = ft.Row([ft.Container(width=label_width), *[
        ft.Container(ft.Text(str(c), size=11, weight=ft.FontWeight.BOLD), width=box_size,
                     alignment=ft.Alignment.CENTER) for c in range(1, 7)]], spacing=2)
    lines: list[ft.Control] = [header]
    for g, line in enumerate(row.grid, start=1):
        lines.append(ft.Row([ft.Container(ft.Text(line.label + (" *" if line.reconstructed else ""), size=11),
                                          width=label_width),
                             *[_box(row.id, cell, box_size, on_box) for cell in line.cells]], spacing=2))
    marked = sum(c.marked for line in row.grid for c in line.cells)
    notes: list[ft.Control] = [muted(f"{marked} of 24 boxes marked. 1st die: row; 2nd die: column.", 11)]
    if any(line.reconstructed for line in row.grid):
        notes.append(tag(f"dv-grid-reconstructed-{row.id}", muted(
            "* Rows with reconstructed cells (italic, dotted): the seed's printed grid lost them; "
            "the app's placeholder until a printed grid replaces it.", 11)))
    return tag(f"dv-grid-{row.id}", ft.Column([*lines, *notes], spacing=2, tight=True))


def _box(ship: str, cell, size: int, on_box) -> ft.Control:
    g, c = cell.box
    text = ft.Text(cell.system, size=10, italic=cell.unverified,
                   weight=ft.FontWeight.BOLD if cell.marked else None,
                   color=ft.Colors.ON_ERROR_CONTAINER if cell.marked else None)
    cross = [ft.Container(ft.Icon(ft.Icons.CLOSE, size=28, color=ft.Colors.with_opacity(0.55, ft.Colors.ERROR)),
                          alignment=ft.Alignment.CENTER, width=size, height=30)] if cell.marked else []
    content = ft.Stack([*cross, ft.Container(text, alignment=ft.Alignment.CENTER, width=size, height=30)])
    box = ft.Container(content, width=size, height=30, border_radius=4,
                       bgcolor=ft.Colors.ERROR_CONTAINER if cell.marked else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                       border=ft.Border.all(1, ft.Colors.OUTLINE if not cell.unverified else ft.Colors.OUTLINE_VARIANT),
                       on_click=on(on_box, cell.box) if on_box else None)
    words = f"{cell.system} box {g},{c}" + (" marked" if cell.marked else "") + (" reconstructed" if cell.unverified else "")
    return tag(f"dv-box-{ship}-{g}-{c}" + ("-marked" if cell.marked else ""), box, label=words)


def systems_row(row: ShipRow) -> ft.Control:
    """Each system with its boxes marked, coloured by status (damaged, disabled: §10.2)."""
    return ft.Row([tag(f"dv-system-{row.id}-{s.name}", ft.Container(
        ft.Text(f"{s.name} {s.marked}/{s.boxes}" + ("" if s.status == "working" else f" {s.status}"), size=12,
                color=STATUS_COLOUR[s.status], weight=None if s.status == "working" else ft.FontWeight.BOLD),
        padding=ft.Padding.symmetric(horizontal=6, vertical=2), border_radius=6,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST), label=f"{s.name} {s.status}") for s in row.systems],
        wrap=True, spacing=4, run_spacing=4)


def ship_card(row: ShipRow, box_size: int = 44, with_grid: bool = True, on_box=None) -> ft.Control:
    lost = [ft.Text(f"Out of play: {row.removed}", color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD)] if row.removed else []
    abilities = f" · abilities: {', '.join(row.abilities)}" if row.abilities else ""
    return tag(f"dv-card-{row.id}", ft.Container(ft.Column([
        ft.Text(row.name, size=18, weight=ft.FontWeight.BOLD),
        muted(f"{row.side} · {row.head}", 12),
        *lost,
        tag(f"dv-speed-{row.id}", ft.Text(row.speed, size=13)),
        tag(f"dv-damage-{row.id}", ft.Text(row.damage, size=14, weight=ft.FontWeight.W_600)),
        tag(f"dv-cp-{row.id}", ft.Text(f"CP {row.cp}{abilities}", size=13)),
        systems_row(row),
        *[muted(n, 12) for n in row.notes],
        *([tag(f"dv-tables-{row.id}", muted(row.tables, 12))] if row.tables else []),
        *([ft.Text("Hit location grid", size=13, weight=ft.FontWeight.BOLD),
           grid_table(row, box_size, on_box=on_box)] if with_grid else []),
    ], spacing=4, tight=True), padding=10, border_radius=10, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))


def ship_line(row: ShipRow) -> str:
    """One line of a ship for a list: name, damage, what is hurt."""
    hurt = [f"{s.name} {s.status}" for s in row.systems if s.status != "working"]
    return f"{row.damage}" + (f" · {', '.join(hurt)}" if hurt else "") + (f" · {row.removed}" if row.removed else "")


__all__ = ["grid_table", "ship_card", "ship_line", "systems_row", "GridLine"]
