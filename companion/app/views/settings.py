"""Settings of this device (issue 18): the theme, light, dark or high contrast, chosen from Home or a
game's menu, applied at once and kept in this browser (`App.set_theme`)."""

from __future__ import annotations

import flet as ft

from ..palettes import LABELS, PALETTES
from .widgets import TOUCH, icon_button, inner, tag

HINTS = {"light": "Parchment and ink, for a lit table",
         "dark": "For a dim table: light text on a dark ground",
         "contrast": "Black, white and yellow: the strongest contrast"}
ICONS = {"light": ft.Icons.LIGHT_MODE, "dark": ft.Icons.DARK_MODE, "contrast": ft.Icons.CONTRAST}


def theme_choices(app, after=None) -> ft.Column:
    """One row per palette (tagged `theme-<name>`), the device's own marked; a tap applies it."""
    def choose(name: str):
        async def chosen(e) -> None:
            if after is not None:
                after()
            await app.set_theme(name)
        return chosen

    rows: list[ft.Control] = []
    for name in PALETTES:
        current = name == app.theme_name
        rows.append(tag(f"theme-{name}", ft.ListTile(
            leading=ft.Icon(ICONS[name], color=ft.Colors.PRIMARY if current else None),
            title=ft.Text(LABELS[name], weight=ft.FontWeight.W_600 if current else None),
            subtitle=ft.Text(HINTS[name]),
            trailing=ft.Icon(ft.Icons.CHECK, color=ft.Colors.PRIMARY) if current else None,
            selected=current, on_click=choose(name), min_height=TOUCH + 8,
        ), label=f"{LABELS[name]} theme{' (chosen)' if current else ''}"))
    return ft.Column(rows, spacing=0, tight=True)


def open_theme_dialog(app) -> None:
    """The theme choice in a dialog (Home's theme button, a game's menu)."""
    dialog = ft.AlertDialog(title=ft.Text("Theme"), content=tag("theme-dialog", ft.Container(width=340)))
    inner(inner(dialog, ft.Semantics), ft.Container).content = theme_choices(app, after=app.page.pop_dialog)
    dialog.actions = [ft.TextButton("Close", on_click=lambda e: app.page.pop_dialog())]
    app.page.show_dialog(dialog)


def theme_button(app, ident: str = "theme") -> ft.Control:
    """The icon button that opens the theme choice."""
    return icon_button(ft.Icons.PALETTE_OUTLINED, f"Theme ({LABELS[app.theme_name].lower()}): light, dark or high contrast",
                       lambda e: open_theme_dialog(app), ident)
