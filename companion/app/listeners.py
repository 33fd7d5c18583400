"""Who hears changes: a list of listeners kept under a lock, told in order (sharing.py's tables
and hub).  No flet here."""

from __future__ import annotations

from typing import Any, Callable


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
    for listener in listeners:
        try:
            listener(*args)
        except Exception:  # a closed session must not stop the others hearing
            pass
