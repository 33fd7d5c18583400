"""Who hears changes: a list of listeners kept under a lock, told in order (sharing.py's tables
and hub).  No flet here."""

from __future__ import annotations

import logging
from typing import Any, Callable

log = logging.getLogger(__name__)


def subscribe(lock: Any, listeners: list, listener: Callable) -> Callable[[], None]:
    """Add `listener` to `listeners` (under `lock`); returns the way to stop."""
    with lock:
        listeners.append(listener)

    def stop() -> None:
        with lock:
            if listener in listeners:
                listeners.remove(listener)

    return stop


def tell(listeners: list, *args: Any) -> None:
    """Tell every listener, in order; one that fails is logged with its traceback for the host's
    terminal, and the others still hear (a closed session must not stop them)."""
    for listener in listeners:
        try:
            listener(*args)
        except Exception:
            log.error("a listener failed (%r); the others are told", listener, exc_info=True)
