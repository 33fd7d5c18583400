"""The ship card reads like the printed card (issue 18), in a real browser: the Raven with an engine
lost in an earlier turn shows "6 of 9" MP, the go/stop legend once, and its locations as the printed
card lays them out (bow on top, port left of starboard, stern below) on a desktop, stacked in card
order on a phone.  Screenshots: card-look-desktop.png, card-look-phone.png."""

from __future__ import annotations

import pytest

from cards_for_tests import position, ship
from companion.engine.board import Board
from companion.engine.roller import Roller
from companion.files import load_catalogue
from companion.store import TinyDBStore

from .conftest import DESKTOP, PHONE, SEED, Server, by_id, open_app, words_in
from .test_sharing import shoot

pytestmark = pytest.mark.browser

TALL_DESKTOP = dict(DESKTOP, height=1400)
TALL_PHONE = dict(PHONE, height=2400)
LEGEND = "Location dice: ▶ go if this ship entered a new hex this turn, ■ stop if not"


def damaged_raven_game(data):
    cards = load_catalogue()
    board = Board()
    raven = ship("hml-raven", "British", cards["hml-raven"], "1012", "N", board=board,
                 damage={("stern", 2): "destroyed", ("bow", 3): "destroyed_this_turn"})
    pontbriand = ship("pontbriand", "French", cards["pontbriand"], "1006", "S", board=board)
    store = TinyDBStore(data)
    game = store.new_game(position(raven, pontbriand, board=board, seed=SEED), "a damaged Raven",
                          roller=Roller.from_seed(SEED))
    store.close()
    return game.id


def boxes(page) -> dict[str, dict]:
    """Each location's box (the window is tall enough for the whole card: nothing scrolls)."""
    found = {}
    for key in ("bow", "port", "starboard", "stern"):
        node = by_id(page, f"loc-hml-raven-{key}")
        node.wait_for(timeout=10000)
        found[key] = node.bounding_box()
    return found


def test_the_card_reads_like_the_printed_card_on_a_desktop_and_a_phone(tmp_path, browser):
    game = damaged_raven_game(tmp_path / "data")
    server = Server(tmp_path / "data").start()
    try:
        page = browser.new_context(viewport=TALL_DESKTOP).new_page()
        open_app(page, f"{server.url}game/{game}?ship=hml-raven&tab=ship")
        by_id(page, "card-mp").wait_for(timeout=20000)
        assert "Starting MP: 6 of 9" in words_in(by_id(page, "card-mp"))
        assert "Structural Integrity: 20" in words_in(by_id(page, "card-si"))
        assert "Slots destroyed: 2 of 10" in words_in(by_id(page, "card-destroyed"))
        assert by_id(page, "dice-legend").count() == 1 and LEGEND in words_in(by_id(page, "dice-legend"))
        where = boxes(page)
        assert abs(where["port"]["y"] - where["starboard"]["y"]) < 2, "port and starboard side by side"
        assert where["port"]["x"] + where["port"]["width"] <= where["starboard"]["x"] + 1, "port left of starboard"
        assert where["bow"]["y"] + where["bow"]["height"] <= where["port"]["y"] + 1, "the bow above"
        assert where["port"]["y"] + where["port"]["height"] <= where["stern"]["y"] + 1, "the stern below"
        shoot(page, "card-look-desktop")
        page.context.close()

        page = browser.new_context(viewport=TALL_PHONE, is_mobile=True, has_touch=True).new_page()
        open_app(page, f"{server.url}game/{game}?ship=hml-raven&tab=ship")
        by_id(page, "card-mp").wait_for(timeout=20000)
        assert "Starting MP: 6 of 9" in words_in(by_id(page, "card-mp"))
        shoot(page, "card-look-phone")
        where = boxes(page)
        assert abs(where["port"]["x"] - where["starboard"]["x"]) < 2, "stacked, one under the other"
        page.context.close()
    finally:
        server.stop()
