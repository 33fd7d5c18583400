"""The app inside the browser (Pyodide): the one switch for what a browser cannot do.

- Threads: Pyodide has none, so `asyncio.to_thread` runs its work inline (the page has one
  user; the work is the same as on the server, just not on another thread).
- Saved games: the data folder is an IndexedDB-backed folder (Emscripten's IDBFS), read back
  when the page opens; every durable write of the store ends in `os.fsync`, and here that
  also copies the folder to IndexedDB, so each action is kept as soon as it is made, as on
  disk (a reload, a closed tab or a crashed page lose nothing already acted).
- No shared table: `IN_BROWSER` tells the sharing screens to say so in one line.

Nothing here runs on the server: `companion`, `companion web` and the shared table are unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from ..app.prints import PRINT_DIALOG

log = logging.getLogger(__name__)

#: Whether this Python runs inside a browser page (Pyodide), not on a computer.
IN_BROWSER = sys.platform == "emscripten"
#: The data folder inside the browser: kept in IndexedDB ("leviathans" database of the page's origin).
DATA_FOLDER = "/leviathans-data"
#: One line for the sharing screens of the static build (home, and the role bar's Devices).
NO_SHARED_TABLE = ("This app plays on this device alone: no other device joins it. To go on with others, "
                   "Export the game (the game's menu) and import it where companion web runs on a computer "
                   "(Load a scenario > Import a game file).")

if IN_BROWSER:  # Pyodide's modules exist only inside the browser
    import js
    import pyodide_js
    from pyodide.ffi import create_once_callable, to_js

_started = False


async def _inline(func, /, *args, **kwargs):
    """`asyncio.to_thread` for a browser with no threads: the work runs now, on the page's loop."""
    return func(*args, **kwargs)


#: Tries of one copy to IndexedDB before its failure is told: IDBFS lists the folder, then copies
#: each file, and a file the store renamed away meanwhile (its temporary file) fails that copy with
#: ENOENT; the next copy sees the folder as it is now and succeeds.
TRIES = 4
#: What the player reads when a copy has failed for good, by the browser's name for the failure.
FAILURES = {"QuotaExceededError": "storage is full",
            "InvalidStateError": "this browser does not keep data for this page (a private window?)",
            "UnknownError": "the browser's storage failed"}


class _Persister:
    """Copies the data folder to IndexedDB after each durable write; one copy at a time (a write
    during a copy asks for one more copy after it, so the last write is always kept). A failed copy
    is tried again (`TRIES`); one that still fails is told on the screen (`say`) and in the log."""

    def __init__(self, fs):
        self.fs = fs
        self.running = False
        self.again = False
        self.tries = 0
        self.say = None  # set by the page: tells the player, in words, that the game was not kept

    def request(self) -> None:
        if self.running:
            self.again = True
            return
        self.running, self.again = True, False
        self.fs.syncfs(False, create_once_callable(self._done))

    def _done(self, error=None) -> None:
        self.running = False
        if error:
            self.tries += 1
            if self.tries < TRIES:
                self.again = True
            else:
                self.tries = 0
                self._failed(error)
        else:
            self.tries = 0
        if self.again:
            self.request()

    def _failed(self, error) -> None:
        words = "This browser did not keep the game: " + failure_words(error)
        log.error("%s (%s)", words, describe(error))
        if self.say is not None:
            self.say(words)


def describe(error) -> str:
    """A JavaScript error as a line: its name, errno and message (not "[object Object]")."""
    parts = [str(getattr(error, name, "") or "") for name in ("name", "errno", "code", "message")]
    return " ".join(p for p in parts if p) or str(error)


def failure_words(error) -> str:
    name = str(getattr(error, "name", "") or "")
    if name in FAILURES:
        return FAILURES[name]
    return f"its storage refused the copy ({describe(error)}); export the game from its menu to keep it"


PERSISTER: _Persister | None = None


async def mount_data_folder(path: str = DATA_FOLDER) -> str:
    """Mount IndexedDB at `path`, fill it with what this browser kept, and make `os.fsync` keep writes."""
    global PERSISTER
    if PERSISTER is not None:  # mounted by an earlier session of this page
        return path

    fs = pyodide_js.FS
    os.makedirs(path, exist_ok=True)
    fs.mount(fs.filesystems.IDBFS, to_js({}, dict_converter=js.Object.fromEntries), path)
    loaded = asyncio.get_running_loop().create_future()
    fs.syncfs(True, create_once_callable(lambda error=None: loaded.set_result(error)))
    error = await loaded
    if error:
        log.error("the games kept in this browser could not be read: %s", error)
    PERSISTER = _Persister(fs)
    real_fsync = os.fsync

    def fsync(fd):  # the store's "now it is on disk": here, "now copy it to IndexedDB"
        real_fsync(fd)
        PERSISTER.request()

    os.fsync = fsync
    return path


def print_page_address(html: str) -> str:
    """The print page as a `blob:` address of this page's origin (there is no server to keep it at
    `/print/<token>`), its print dialog opening by itself as `companion`'s does (app/prints.py)."""

    page = html.replace("</body>", f"{PRINT_DIALOG}\n</body>", 1)
    options = to_js({"type": "text/html"}, dict_converter=js.Object.fromEntries)
    return str(js.URL.createObjectURL(js.Blob.new(to_js([page]), options)))


def switch_on() -> None:
    """The browser's switches, once: threads run inline (the store's writes are kept by `mount_data_folder`)."""
    global _started
    if _started:
        return
    _started = True
    asyncio.to_thread = _inline
    logging.basicConfig(level=logging.WARNING)
