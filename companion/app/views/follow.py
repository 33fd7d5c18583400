"""The host's new game offered on each joined device (issue 28, follow_host.py): "The host started
War Fleet: join as British?", one tap to join as that side, or Not now.  The server decides the role
(`Sharing.choose`, as any first pick in a game); this screen only asks."""

from __future__ import annotations

import asyncio
from typing import Callable

import flet as ft

from ..follow_host import Offer
from ..roles import Role
from ..session import Session
from ..tasks import run_soon
from .widgets import TOUCH, tag, update_shown


def watch(app) -> Callable[[], None]:
    """Offer the host's newest game on this device whenever one is started (and once now, for a
    device coming back; `app.offer_again()` shows the offer still unanswered again, after a reload
    that reconnected the session lost it); returns the way to stop listening.  Only the newest is ever on screen: an
    offer still open when the host starts another game is closed (issue 35: one offer, not one per
    game), and the shared screen is asked nothing: it follows the host by itself."""
    shown: set[int] = set()
    open_: list[ft.AlertDialog] = []

    def heard(*_) -> None:
        run_soon(app.page, look)

    async def look(again: bool = False) -> None:
        offer = app.sharing.offer(app.device) if app.device is not None else None
        if offer is None or (offer.started.number in shown and not again):
            return
        shown.add(offer.started.number)
        for old in open_:  # an older offer, not answered: the newer game replaces it
            if old.open:
                old.open = False
                update_shown(old)
        open_.clear()
        if offer.screen:
            await follow_as_screen(app, offer)
            return
        dialog = _dialog(app, offer)
        open_.append(dialog)
        app.page.show_dialog(dialog)

    run_soon(app.page, look)
    app.offer_again = lambda: run_soon(app.page, look, True)  # a reload reconnects the session (main.py)
    return app.sharing.subscribe(heard)


async def follow_as_screen(app, offer: Offer) -> None:
    """The shared screen goes to the host's new game as the shared screen, with no question: the
    server gives the role (`Sharing.choose`, as any first pick), and shows the role picker if not."""
    app.sharing.answered(app.device, offer)
    try:
        game = await asyncio.to_thread(app.store.game, offer.started.game_id)
    except KeyError:  # deleted meanwhile: this screen stays where it is
        return
    app.sharing.choose(app.device, game, Role.screen())
    await app.navigate(Session("game", offer.started.game_id))


def _dialog(app, offer: Offer) -> ft.AlertDialog:
    async def join(e) -> None:
        app.page.pop_dialog()
        app.sharing.answered(app.device, offer)
        role = offer.role
        if role is not None:
            game = await asyncio.to_thread(app.store.game, offer.started.game_id)
            app.sharing.choose(app.device, game, role)  # refused (the side is taken): the role picker shows
        await app.navigate(Session("game", offer.started.game_id))

    def not_now(e) -> None:
        app.page.pop_dialog()
        app.sharing.answered(app.device, offer)

    label = f"Join as {offer.side}" if offer.side else "Join"
    return ft.AlertDialog(
        title=tag("follow-question", ft.Text(offer.question)),
        content=ft.Text(f"{offer.started.name}: the host's new game. Your current game stays saved."),
        actions=[tag("follow-not-now", ft.TextButton(content="Not now", on_click=not_now, height=TOUCH)),
                 tag("follow-join", ft.FilledButton(content=label, on_click=join, height=TOUCH))])
