"""The log: every action and roll in order, each die shown; undo and redo."""

from __future__ import annotations

import flet as ft

from ...viewmodels import LogLine
from ...views.widgets import faces, muted, tag

ICONS = {
    "initiative": ft.Icons.FLAG, "initiative_tie": ft.Icons.FLAG_OUTLINED, "step": ft.Icons.NAVIGATION,
    "place": ft.Icons.PUSH_PIN, "end_move": ft.Icons.CHECK, "declare_shot": ft.Icons.GPS_FIXED,
    "shot": ft.Icons.CASINO, "slot_destroyed": ft.Icons.WHATSHOT, "keel_break": ft.Icons.DANGEROUS,
    "ship_destroyed": ft.Icons.DANGEROUS, "end_turn": ft.Icons.UPDATE, "phase": ft.Icons.SCHEDULE,
    "mark_slot": ft.Icons.EDIT, "warning": ft.Icons.WARNING_AMBER, "game_over": ft.Icons.EMOJI_EVENTS,
    "settings": ft.Icons.SETTINGS, "cancel_shot": ft.Icons.CLOSE,
}


def log_control(lines: tuple[LogLine, ...], can_undo: bool, can_redo: bool, undo, redo) -> ft.Control:
    rows: list[ft.Control] = []
    firsts = {id(line) for n, line in enumerate(lines) if n == 0 or lines[n - 1].index != line.index}
    for line in reversed(lines):
        body: list[ft.Control] = [ft.Text(line.text, size=13)]
        if line.dice:
            body.append(faces(line.dice, 24))
        rows.append(ft.Row([
            ft.Text(str(line.index) if id(line) in firsts else "", size=11, color=ft.Colors.ON_SURFACE_VARIANT, width=26, text_align=ft.TextAlign.RIGHT),
            ft.Icon(ICONS.get(line.kind, ft.Icons.CIRCLE), size=18,
                    color=ft.Colors.ERROR if line.kind in ("slot_destroyed", "keel_break", "ship_destroyed") else ft.Colors.PRIMARY),
            ft.Column(body, spacing=4, expand=True, tight=True),
        ], vertical_alignment=ft.CrossAxisAlignment.START, spacing=8))
    buttons = ft.Row([
        tag("log-undo", ft.OutlinedButton(content="Undo", icon=ft.Icons.UNDO, on_click=undo, disabled=not can_undo, height=48)),
        tag("log-redo", ft.OutlinedButton(content="Redo", icon=ft.Icons.REDO, on_click=redo, disabled=not can_redo, height=48)),
        muted("Newest first, numbered by action: the last is the 'log' number at the top. "
              "The log is the game: undo steps back through it.", 12),
    ], wrap=True)
    return ft.Column([buttons, *(rows or [muted("Nothing has happened yet.")])], spacing=10, tight=True)
