"""Entry point of the static web build: the archive's `main.py` (Flet's Pyodide worker runs it as
`__main__`; imported, it does nothing).

The same app as `companion`, over a store kept in the browser: the browser's switches
(`companion.web.browser`), the store in IndexedDB, then the same `create_app`.
"""

import flet as ft

from companion.app.main import create_app
from companion.store import open_store
from companion.web.browser import mount_data_folder, switch_on


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


if __name__ == "__main__":
    ft.run(browser_main)
