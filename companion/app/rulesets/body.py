"""What War Fleet's and Decisive Victory's bodies in the game frame (views/frame.py) do alike: the
selected ship and the open tab, the ship chips, the log, a step the players are asked about before
it is taken; and the small pieces their panels share (a tagged card, a dialog's closing button, a menu
line, which Quick-Start's menu uses too)."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Sequence

import flet as ft

from ..views.frame import on
from ..views.widgets import TOUCH, muted, tag
from .steps import Step, numbered_log_lines


def box(ident: str, *controls: ft.Control, spacing: int = 4,
        bgcolor: str = ft.Colors.SURFACE_CONTAINER_HIGH) -> ft.Control:
    """One tagged rounded card of a panel (a ship, an attack, a location, a pocket)."""
    return tag(ident, ft.Container(content=ft.Column(list(controls), spacing=spacing, tight=True), padding=10,
                                   border_radius=10, bgcolor=bgcolor))


def closing(page: Any, handler: Callable[..., Awaitable[Any]], *args: Any) -> Callable[[Any], Awaitable[None]]:
    """A dialog's button: the dialog closes, then `handler(*args)` is awaited."""
    async def handle(e) -> None:
        page.pop_dialog()
        await handler(*args)
    return handle


def menu_item(ident: str, words: str, icon: Any, handler: Callable[[Any], Any]) -> ft.PopupMenuItem:
    """One line of a body's menu beside undo and redo."""
    return ft.PopupMenuItem(content=tag(ident, ft.Text(words)), icon=icon, height=TOUCH, on_click=handler)


class ShipsBody:
    """A body that shows one selected ship at a time; `PREFIX` starts its identifiers."""

    PREFIX = ""
    SHARED_SCREEN = True  # the shared screen: the ruleset's own view (GameScreens.screen_view), not this body

    def __init__(self, frame):
        self.frame, self.app, self.game = frame, frame.app, frame.game
        self.read_only = frame.read_only  # the shared screen: it shows the game and changes nothing
        self.selected: str | None = None
        self.tab = "ship"

    @property
    def state(self):
        return self.game.state

    def go_tab(self, key: str) -> None:
        self.tab = key

    def strip(self, models) -> ft.Control | None:
        """What a phone shows under its map (War Fleet: the ships to move); None: nothing."""
        return None

    def sent(self) -> None:
        pass

    def ship_chips(self, ships: Sequence[tuple[str, str]], pick: Callable[[str], Awaitable[None]]) -> ft.Control:
        """A chip a ship ((id, name)), the selected one marked; a tap calls `pick(id)`."""
        return ft.Row([tag(f"{self.PREFIX}ship-{sid}", ft.Chip(label=ft.Text(name), selected=sid == self.selected,
                                                               on_click=on(pick, sid), height=TOUCH))
                       for sid, name in ships], wrap=True, spacing=6, run_spacing=6)

    def log_panel(self) -> list[ft.Control]:
        lines = numbered_log_lines(self.game.history(), self.game.action_numbers())[-80:]
        return [muted("Numbered by action: the last is the 'log' number at the top.", 12),
                tag(f"{self.PREFIX}log", ft.Column([ft.Text(line, size=12) for line in lines], spacing=4, tight=True))]

    def ask(self, step: Step, not_yet: str, take: Callable[[Step], Awaitable[None]]) -> None:
        """Ask before a step the players may not mean (its `confirm`): the step itself when the rules
        allow it, and what they allow instead (its `options`), each taken by `take`."""
        page = self.app.page
        offered = [tag(o.ident, ft.OutlinedButton(content=o.label, on_click=closing(page, take, o)))
                   for o in step.options]
        if step.allowed:
            offered.append(tag(f"{step.ident}-confirm", ft.FilledButton(content=step.label,
                                                                      on_click=closing(page, take, step))))
        page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"{step.label}?"), content=ft.Text(step.confirm),
            actions=[ft.TextButton(content=not_yet, on_click=lambda _: page.pop_dialog()), *offered]))
