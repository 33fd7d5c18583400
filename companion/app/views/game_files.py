"""A whole game as one file (the `leviathans-game/1` export, formats.md) from the app, and back.

The same document `companion export` writes and `companion import` reads, so a game started on
a phone's static web build goes on at a computer's shared table, and the other way round
(issue 29).  Exporting is a download in the browser; importing reads a chosen file (its bytes:
the browser gives no path) and opens the game.
"""

from __future__ import annotations

import asyncio
import json
import logging

import flet as ft

from ...engine.cards import FormatError
from ...files import MAX_EXPORT_BYTES, parse_json
from ...messages import without_paths
from ...store.export import check_sizes
from ..session import Session
from .pages import deliver, may_start, picker
from .widgets import tag


log = logging.getLogger(__name__)

#: Why a device other than the host gets no export: the file holds the dice seed (store/export.py).
HOST_ONLY = "Only the host's device exports a game: the file holds the dice seed of the rolls to come."


async def export_game(app, game_id: str) -> tuple[str, bool]:
    """Download the game's document; what happened in words, and whether it failed.  The host's
    device only, as the server knows it (a guest with the seed would know every roll to come)."""
    device = getattr(app, "device", None)
    if device is None or not device.host:
        return HOST_ONLY, True
    document = await asyncio.to_thread(app.store.export_game, game_id)
    data = json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8")
    return await deliver(app, f"{game_id}.json", data, "game file")


async def export_from(frame, app, game_id: str) -> None:
    """A game menu's Export (`export_game`): what happened as the frame's message, the frame redrawn."""
    text, failed = await export_game(app, game_id)
    frame.message(text, info=not failed)
    await frame.refresh(force=True)


def read_game_file(app, name: str, data: bytes):
    """The imported game from a chosen file's bytes; FormatError in plain words if it is not one."""
    if len(data) > MAX_EXPORT_BYTES:
        raise FormatError(f"{len(data) / 1e6:.1f} MB is more than a game file holds "
                          f"({MAX_EXPORT_BYTES // 2**20} MB)", source=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError("not a text file (a game file is JSON)", source=name) from None
    return app.store.import_game(parse_json(text, name, limit=MAX_EXPORT_BYTES, first=check_sizes), source=name)


def refusal_words(exc: BaseException) -> str:
    """An import's refusal as any device may read it: a file's problem as it is (the chosen file is named
    by its name alone), a failure of the host's disk in its own words without the host's paths."""
    if isinstance(exc, OSError):
        return f"The game could not be saved ({(exc.strerror or exc.__class__.__name__).lower()}): nothing was added."
    return without_paths(str(exc))


def import_button(app, say) -> ft.Control:
    """"Import a game file": choose an exported game, add it to the saved games and open it; a
    refusal goes to `say(text)` (the file named, what is wrong)."""

    async def choose(e) -> None:
        refused = may_start(app)  # decided on the server from the device it holds, as Load and play
        if refused:
            say(refused)
            return
        files = await picker(app).pick_files(dialog_title="Choose a game file (leviathans-game/1)",
                                             file_type=ft.FilePickerFileType.CUSTOM,
                                              allowed_extensions=["json"], with_data=True)
        if not files:
            return
        chosen = files[0]
        try:
            game = await asyncio.to_thread(read_game_file, app, chosen.name, chosen.bytes or b"")
        except (FormatError, ValueError, OSError) as exc:  # the file named by its name only, never a host path
            log.warning("Import a game file (%s) refused: %s", chosen.name, exc)  # the host's terminal: all of it
            say(refusal_words(exc))
            return
        await app.navigate(Session("game", game.id))

    return tag("import-game", ft.OutlinedButton(content="Import a game file", icon=ft.Icons.UPLOAD_FILE,
                                                height=52, on_click=choose))
