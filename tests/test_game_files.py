"""A whole game as one file from the app and back (views/game_files.py, issue 29): the export is the
host's only (it holds the dice seed), the import reads the same leviathans-game/1 document
`companion export` writes, and a file that is not one is refused in plain words."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from companion.app.views import game_files
from companion.engine.cards import FormatError
from companion.store import MemoryStore

from store_helpers import played_game


def test_a_guest_device_gets_no_export_the_host_does(monkeypatch):
    store = MemoryStore()
    game = played_game(store, actions=10)
    sent = []

    async def deliver(app, name, data, what):
        sent.append((name, data))
        return f"{name}: downloaded", False

    monkeypatch.setattr(game_files, "deliver", deliver)
    guest = SimpleNamespace(store=store, device=SimpleNamespace(host=False))
    assert asyncio.run(game_files.export_game(guest, game.id)) == (game_files.HOST_ONLY, True)
    assert sent == []
    host = SimpleNamespace(store=store, device=SimpleNamespace(host=True))
    text, failed = asyncio.run(game_files.export_game(host, game.id))
    assert not failed and sent[0][0] == f"{game.id}.json"
    assert json.loads(sent[0][1])["format"] == "leviathans-game/1"


def test_an_exported_game_is_imported_with_its_whole_log():
    there = MemoryStore()
    game = played_game(there, actions=20)
    data = json.dumps(there.export_game(game.id)).encode("utf-8")
    here = SimpleNamespace(store=MemoryStore())
    imported = game_files.read_game_file(here, "game.json", data)
    assert [e.to_doc() for e in imported.entries] == [e.to_doc() for e in game.entries]
    assert imported.state == game.state


@pytest.mark.parametrize("data, words", [
    (b"\xff\xfe not text", "not a text file"),
    (b"", "empty"),
    (b'{"format": "leviathans-scenario/1"}', "game.json"),
])
def test_a_file_that_is_no_game_is_refused_in_plain_words(data, words):
    here = SimpleNamespace(store=MemoryStore())
    with pytest.raises((FormatError, ValueError)) as refused:
        game_files.read_game_file(here, "game.json", data)
    assert words in str(refused.value) and "Traceback" not in str(refused.value)
