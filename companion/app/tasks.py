"""Work a screen starts in the background (reading saved games, laying out the map), started so
that a browser going away mid-build cannot crash its session.

Flet's `page.run_task` needs the session's connection: a phone that slept, or a socket closed,
just as a screen was being built made it raise and ended the whole session, which then could
not be reconnected (issue 11: seen as a reconnect that never came back).  On the server's own
event loop a task needs no connection: what it draws is sent when the browser is back (Flet sends
the whole page on a reconnect)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

from .server import PEER_KEY

log = logging.getLogger(__name__)

#: what Flet answers a call on the browser that was pending when its session closed
CLOSED = "Session closed"

_RUNNING: set[asyncio.Task] = set()  # strong references until done (the loop keeps only weak ones)


def soon(page, handler: Callable[..., Awaitable[Any]], *args: Any) -> bool:
    """Run `handler(*args)` as a task of the page's session, even while its browser is away; False
    if it could not be started (from a worker thread, with the browser away: see `run_soon`)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # a worker thread: only the connection knows the session's loop
        return run_soon(page, handler, *args)
    task = loop.create_task(_logged(page, handler, *args))
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)
    return True


def run_soon(page, handler: Callable[..., Awaitable[Any]], *args: Any) -> bool:
    """Run `handler(*args)` on the page's own event loop, from any thread; False if the browser is away
    (a disconnected session has no loop to run on: it refreshes when it reconnects)."""
    session = session_of(page)
    if session is None or getattr(session, "connection", None) is None:
        return False
    try:
        page.run_task(_logged, page, handler, *args)
    except Exception:  # the session closed meanwhile
        return False
    return True


def session_of(page):
    """The page's Flet session, or None once Flet destroyed it (its socket closed a while ago: a
    listener of the game still hears changes; Flet's `page.session` raises RuntimeError then)."""
    try:
        return getattr(page, "session", None)
    except RuntimeError:
        return None


async def _logged(page, handler: Callable[..., Awaitable[Any]], *args: Any) -> None:
    """`handler(*args)`, its failure logged with the session's device and the traceback for the host's
    terminal (never raised into the event loop, where nobody reads it, nor swallowed).  A call on the
    browser that its closing session cut short is no failure: the device went away."""
    try:
        await handler(*args)
    except Exception as exc:
        name = getattr(handler, "__qualname__", handler)
        if isinstance(exc, RuntimeError) and str(exc) == CLOSED:
            log.debug("a background task of a screen (%s) ended with its session", name)
            return
        session = session_of(page)
        peer = session.store.get(PEER_KEY) if session is not None else None
        log.error("a background task of a screen failed (%s) on the device at %s (session %s)",
                  name, peer, getattr(session, "id", None), exc_info=True)
