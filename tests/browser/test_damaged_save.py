"""A damaged save file is named on the home screen, and the other games still open."""

from __future__ import annotations

import pytest

from companion.store import TinyDBStore
from store_helpers import played_game

from .conftest import DESKTOP, SCREENSHOTS, Server, by_id, open_app, words_in

pytestmark = pytest.mark.browser


def test_home_names_a_damaged_save_and_lists_the_good_games(tmp_path, browser):
    data = tmp_path / "data"
    store = TinyDBStore(data)
    bad, good = played_game(store, 1, actions=12), played_game(store, 2, actions=12)
    store.close()
    game_file = data / "games" / bad.id / "game.json"
    game_file.write_bytes(game_file.read_bytes()[:40])  # cut short, as by a full disk

    server = Server(data).start()
    try:
        page = browser.new_page(viewport=DESKTOP)
        open_app(page, server.url)
        box = by_id(page, "store-problems")
        box.wait_for(timeout=15000)
        words = words_in(box)
        assert "could not be read" in words and "cut short" in words and "game.json" in words
        assert by_id(page, f"resume-{good.id}").count() == 1  # the good game is still there
        assert by_id(page, f"resume-{bad.id}").count() == 0
        assert list(game_file.parent.glob("game.json.bad-*")), "the damaged file is kept, set aside"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "home-damaged-save-desktop.png"))
        page.close()
    finally:
        server.stop()
