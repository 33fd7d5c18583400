"""The shared screen shows the note told to every device (issue 35): "The host ended movement: ..."
stands under whose turn it is until the game changes again."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from companion.app.sharing import Sharing
from companion.app.views.screen import ScreenView
from companion.engine.roller import Roller
from companion.store import MemoryStore

from random_games import starting_state
from test_end_movement_shared import END, seated
from test_sharing import in_movement


class FakePage:
    width, height = 1920, 1080

    def __init__(self):
        self.session = SimpleNamespace(connection=None)  # away: nothing is run on it


def screen_app(sharing):
    async def navigate(session):
        return None

    return SimpleNamespace(page=FakePage(), sharing=sharing, theme_name="light", navigate=navigate)


def test_the_tv_shows_the_host_ended_movement_note_until_the_next_change():
    game = MemoryStore().new_game(starting_state(1), "shared", roller=Roller.from_seed(1))
    in_movement(game)
    sharing, table, host, phones = seated(game, british="British", french="French")
    tv = ScreenView(screen_app(sharing), game)
    heard = []
    table.subscribe(heard.append)
    assert table.act(host, END).ok
    note = table.note_of(heard[-1].entry)
    tv.tell(note)  # as the app's listener does for every screen of the game
    asyncio.run(tv.refresh())
    assert tv.told.visible and tv.told.value.startswith("The host ended movement: British's ")
    told = game.state
    asyncio.run(tv.refresh(force=True))  # a refresh of the same state keeps it
    assert tv.told.visible
    assert table.undo(host) is None  # the next change to the game (here the host's undo)
    game_changed = game.state
    assert game_changed is not told
    asyncio.run(tv.refresh())
    assert tv.state is game_changed
    assert not tv.told.visible  # gone with the next change


def test_a_tv_told_nothing_shows_no_note():
    game = MemoryStore().new_game(starting_state(1), "shared", roller=Roller.from_seed(1))
    tv = ScreenView(screen_app(Sharing()), game)
    asyncio.run(tv.refresh())
    assert not tv.told.visible
