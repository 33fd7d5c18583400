"""The server's calls on a browser (scroll a panel to its top, read or keep a stored value, open a
file picker or a new tab): one way to make them, so none can take a screen down (issue 25).

Flet runs such a call on the client and waits for its answer.  A control the client is not drawing
(a panel behind a phone's map tab, a control under a hidden one) has no one to answer: Flet's client
waits 10 s for it, then answers with an error, and the handler that made the call failed, which Flet
answered by replacing the whole screen with "Error running app".  So a call on a control is made only
while the browser shows it (`shown`), and its failure or timeout is logged and answered with a default:
what the call was for (a scroll, a wake lock) never matters more than the screen.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
WAIT = 5.0  # seconds a browser has to answer a call (a phone on a busy Wi-Fi answers in well under one)


def shown(control: Any) -> bool:
    """Whether the browser draws `control` now: on the page, it and every control around it visible."""
    try:
        if control.page is None:
            return False
        node = control
        while node is not None:
            if getattr(node, "visible", True) is False:
                return False
            node = node.parent
    except RuntimeError:  # not on a page
        return False
    return True


async def ask(what: str, call: Callable[[], Awaitable[T]], *, on: Any = None, wait: float | None = WAIT,
              default: Any = None) -> T | Any:
    """`await call()` (a method of a browser's control or service), unless it is on a control the browser
    is not showing (`on`: then it is not made); `default` if it is not made, fails or takes more than
    `wait` seconds (None: no limit, for a picker the player takes their time over).  `what` names the
    call in the host's log ("scroll the panel to its top")."""
    if on is not None and not shown(on):
        log.debug("not asked of the browser (its control is not shown): %s", what)
        return default
    try:
        return await (call() if wait is None else asyncio.wait_for(call(), wait))
    except Exception as exc:  # a timeout, the client's error, a session closed meanwhile
        log.info("the browser did not %s: %s", what, exc or type(exc).__name__)
        return default
