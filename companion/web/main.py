"""Entry point of the static web build: the archive's `main.py` (Flet's Pyodide worker runs it as
`__main__`; imported, it does nothing).

The same app as `companion`, over a store kept in the browser: the browser's switches
(`companion.web.browser`), the store in IndexedDB, then the same `create_app`.
"""

import time

_STARTED = time.perf_counter()

import flet as ft  # noqa: E402  (after the clock: the marks say how long the imports took)

from companion.app.main import create_app  # noqa: E402
from companion.store import open_store  # noqa: E402
from companion.web import browser  # noqa: E402
from companion.web.browser import mount_data_folder, switch_on  # noqa: E402


def mark(words: str) -> None:
    """A line in the browser's console (not the app's): where the open's time goes (bench_static); the
    page's progress bar hears it too."""
    if browser.IN_BROWSER:
        import js  # exists only in the browser (Pyodide)

        line = f"leviathans: {words} after {time.perf_counter() - _STARTED:.2f} s"
        js.console.log(line)
        js.BroadcastChannel.new("leviathans-progress").postMessage(line)  # the page's progress bar (build.PROGRESS)


async def browser_main(page) -> None:
    """Flet's `main` in the browser: the switches, the store in IndexedDB, then the same app; a game
    the browser failed to keep is told on the screen (`tell_not_kept`)."""
    mark("the app imported")
    switch_on()
    folder = await mount_data_folder()
    store = open_store(folder)
    mark("the games read from IndexedDB")
    await create_app(store, seed=_seed())(page)
    mark("the first screen sent")
    if browser.PERSISTER is not None:  # mounted above
        browser.PERSISTER.say = lambda words: tell_not_kept(page, words)


def tell_not_kept(page, words: str) -> None:
    """A dialog the player must close: the browser did not keep the game, and why, in words."""
    page.show_dialog(ft.AlertDialog(
        title=ft.Text("The game was not kept"),
        content=ft.Semantics(identifier="storage-failed", content=ft.Text(words)),
        actions=[ft.TextButton(content="Close", on_click=lambda _: page.pop_dialog())]))


def _seed() -> str | None:
    """The dice seed a test build carries (`companion build-web --seed`), else none: real dice."""
    try:
        with open("seed.txt", encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None


if __name__ == "__main__":
    ft.run(browser_main)
