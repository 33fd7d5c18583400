"""Page helpers every screen shares: the content column (`centred`, `page_width`, `titled`), the host-only
refusal (`host_only`, `may_start`, `may_edit_cards`), the file picker and `deliver` (a download),
and `follow` (redraw on every change to the devices or a table).

They live here, below the screens, so home, new game, fleets, the editors, join and share use them
without importing one another (issue 27: no import cycle)."""

from __future__ import annotations

import weakref
from typing import Any

import flet as ft

from ..client_calls import ask
from ..session import Session
from ..tasks import run_soon, session_of
from .frame import on
from .widgets import heading, icon_button, mounted, tag

FOLLOWING = "_following"  # the app's attribute holding the stops of its `follow` listeners


def page_width(app, widest: int = 760) -> float:
    """Content width: the page less its margins, at most `widest`."""
    return max(280, min(widest, (app.page.width or widest) - 32))


def centred(app, content: ft.Control, widest: int = 760, margin: int = 16) -> ft.Control:
    """A screen's content, centred at `page_width`, inside the page's margins and safe area."""
    return ft.SafeArea(ft.Container(
        content=ft.Row([ft.Container(content=content, width=page_width(app, widest))],
                       alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        padding=ft.Padding.symmetric(horizontal=margin, vertical=8), expand=True), expand=True)


def titled(app, title: str, *controls: ft.Control, back: ft.Control | None = None, widest: int = 760,
           margin: int = 16) -> ft.Control:
    """A screen of its own, `centred`: the way back (Home, unless `back`) and its title over its controls."""
    back = back or icon_button(ft.Icons.ARROW_BACK, "Home", on(app.navigate, Session()), "back")
    return centred(app, ft.Column([ft.Row([back, heading(title, 22)]), *controls], spacing=12,
                                  scroll=ft.ScrollMode.AUTO, expand=True), widest, margin)


def host_only(app, title: str, problem: str | None) -> ft.Control | None:
    """A screen saying why this device may not open `title` (`problem`, decided by `Sharing` from
    the device the server holds), with the way home; None when there is no problem."""
    if not problem:
        return None

    return ft.SafeArea(ft.Container(content=ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, "Home", on(app.navigate, Session()), "back"), heading(title, 22)]),
        tag("host-only", ft.Text(problem, size=15), label=problem),
    ], spacing=12), padding=ft.Padding.symmetric(horizontal=16, vertical=8), expand=True), expand=True)


def may_start(app) -> str | None:
    """Why this device may not start a game here (only the host does), or None."""
    sharing, device = getattr(app, "sharing", None), getattr(app, "device", None)
    return sharing.may_start(device) if sharing is not None and device is not None else None


def may_edit_cards(app) -> str | None:
    """Why this device may not change the ship cards (only the host does), or None."""
    sharing, device = getattr(app, "sharing", None), getattr(app, "device", None)
    return sharing.may_edit_cards(device) if sharing is not None and device is not None else None


_PICKERS: "weakref.WeakKeyDictionary[Any, ft.FilePicker]" = weakref.WeakKeyDictionary()


def picker(app) -> ft.FilePicker:
    """One file picker per browser session (a Flet service, kept alive here)."""
    if app not in _PICKERS:
        _PICKERS[app] = ft.FilePicker()
    return _PICKERS[app]


async def deliver(app, file_name: str, data: bytes, what: str) -> tuple[str, bool]:
    """A download in the browser; a save dialog in the desktop window.  (What happened, failed?)"""
    async def saved() -> bool:
        await picker(app).save_file(dialog_title=f"Save the {what}", file_name=file_name, src_bytes=data)
        return True

    if not await ask(f"save {file_name}", saved, wait=None, default=False):  # the browser or the window refused
        return f"Could not save {file_name}: the browser did not take the file.", True
    return f"{file_name}: the {what} is downloaded (or saved where you chose).", False


def follow(app, control: ft.Control, changed, source=None) -> None:
    """Call `changed()` on the page's loop after every change to the devices (or to `source`, a
    table), while `control` is on screen; it stops listening once the control has gone, or once the
    session has (`stop_following`, when the session closes; at the next change heard after Flet let
    the session go): a device that left is not kept by the hub, nor told of every change."""
    def heard(*_) -> None:
        if session_of(app.page) is None:  # the session is gone: nothing to draw on, ever
            stop()
            return
        run_soon(app.page, update)

    async def update() -> None:
        if not mounted(control):
            stop()
            return
        try:
            await changed()
        except RuntimeError:  # no longer on screen
            stop()

    stop = _listening(app, (source or app.sharing).subscribe(heard))


def follow_drawn(app, control: ft.Control, draw, source=None, game=None) -> None:
    """Draw `control` now (`draw()`) and again after every change `follow` hears; with `game`, only
    while the app shows that game (away: the next change or the reconnect shows it)."""
    async def changed() -> None:
        if game is not None and app.game is not game:
            raise RuntimeError("gone")
        draw()
        control.update()

    draw()
    follow(app, control, changed, source)


def _listening(app, unsubscribe):
    """`unsubscribe`, kept among the session's listeners (`stop_following`) until it is called."""
    stops = getattr(app, FOLLOWING, None)
    if stops is None:
        stops = set()
        setattr(app, FOLLOWING, stops)

    def stop() -> None:
        unsubscribe()
        stops.discard(stop)

    stops.add(stop)
    return stop


def stop_following(app) -> None:
    """The session closed: every listener `follow` registered for it is unregistered."""
    for stop in list(getattr(app, FOLLOWING, None) or ()):
        stop()
