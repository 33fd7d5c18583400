"""App.create_game, the one door through which every screen starts a game (issue 11): only the
host starts games, and a store that cannot save says so in plain words instead of a traceback."""

from __future__ import annotations

import asyncio

from companion.app.main import App
from companion.app.sharing import Sharing
from companion.store import MemoryStore, StoreError
from random_games import starting_state


class FakePage:
    def __init__(self):
        self.dialogs = []

    def show_dialog(self, dialog):
        self.dialogs.append(dialog)


def an_app(store, host: bool):
    app = App(FakePage(), store, catalogue=dict, seed="7", sharing=Sharing())
    app.device = app.sharing.connect(None, "127.0.0.1" if host else "192.0.2.9")
    app.opened = []

    async def navigate(session):
        app.opened.append(session.game_id)

    app.navigate = navigate
    return app


def test_the_host_starts_a_game_and_it_opens():
    store = MemoryStore()
    app = an_app(store, host=True)
    assert asyncio.run(app.create_game(starting_state(1), "Evening")) is None
    assert app.opened == [store.games()[0].id]


def test_a_guest_starts_no_game_even_past_the_screens():
    store = MemoryStore()
    app = an_app(store, host=False)
    problem = asyncio.run(app.create_game(starting_state(1), "Sneaky"))
    assert problem and "host" in problem
    assert store.games() == [] and app.opened == []
    assert app.page.dialogs, "the refusal is shown"


class FullDisk(MemoryStore):
    def new_game(self, *args, **kwargs):
        raise StoreError("no space left on the device")


def test_a_game_that_cannot_be_saved_is_said_plainly_and_not_opened():
    app = an_app(FullDisk(), host=True)
    problem = asyncio.run(app.create_game(starting_state(1), "Evening"))
    assert problem == "The game could not be saved, so it was not started: no space left on the device"
    assert app.opened == []
    assert app.page.dialogs[0].content.value == problem


def test_new_games_sides_that_look_alike_are_refused_in_words():
    """New game is held to `new`'s checks (issue 36): sides that differ only by case or by a
    lookalike letter would give two role cards that look the same."""
    for other in ("BRITISH", "\u0412ritish"):  # upper case; a Cyrillic capital Ve
        store = MemoryStore()
        app = an_app(store, host=True)
        state = starting_state(1)  # British against French
        alike = state.model_copy(update={"sides": ["British", other], "ships": [
            s.model_copy(update={"side": other}) if s.side == "French" else s for s in state.ships]})
        problem = asyncio.run(app.create_game(alike, "Evening"))
        assert problem and "look" in problem, (other, problem)
        assert store.games() == [] and app.opened == []
