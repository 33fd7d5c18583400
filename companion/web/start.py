"""Flet's `main` in the browser (the static web build's `main.py` runs it): the browser's switches,
the store in IndexedDB, then the same app as `companion`."""

from __future__ import annotations

from ..app.main import create_app
from ..store import open_store
from .browser import mount_data_folder, switch_on


async def browser_main(page) -> None:
    """Flet's `main` in the browser: the switches, the store in IndexedDB, then the same app."""
    switch_on()
    folder = await mount_data_folder()
    store = open_store(folder)
    await create_app(store, seed=_seed())(page)


def _seed() -> str | None:
    """The dice seed a test build carries (`companion build-web --seed`), else none: real dice."""
    try:
        with open("seed.txt", encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None
