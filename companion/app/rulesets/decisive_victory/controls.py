"""The small controls the Decisive Victory tabs share (ships, attacks, aircraft, rolls by hand)."""

from __future__ import annotations

import flet as ft


def heading(text: str, size: int = 15) -> ft.Text:
    """A section's title in the bold face (the W_600 face falls back to a serif on the web renderer)."""
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD)


def entry(label: str, width: int = 130) -> ft.TextField:
    """A small text field for faces or inches typed in."""
    return ft.TextField(label=label, width=width, dense=True)
