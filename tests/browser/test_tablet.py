"""A 1024x768 tablet held landscape (issue 14): the map and the panel side by side, every control
of the fire tab and the card within the screen, the map zoomed to the fleets.

Checked from the page, waiting generously: a latency is the benchmark's, never asserted here.
"""

from __future__ import annotations

import pytest

from companion.engine.roller import Roller
from companion.store import TinyDBStore

from .conftest import SEED, Server, by_id, open_app
from .test_fire_ship_destroyed import one_slot_from_wrecked
from .test_sharing import shoot

pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 768}


def inside(page, ident: str) -> dict:
    """The control's box, which must lie wholly within the tablet's screen."""
    node = by_id(page, ident)
    node.wait_for(timeout=20000)
    found = node.bounding_box()
    assert found["x"] >= 0 and found["x"] + found["width"] <= TABLET["width"] + 1, f"{ident} runs off the side"
    assert found["y"] >= 0 and found["y"] + found["height"] <= TABLET["height"] + 1, f"{ident} runs off the foot"
    return found


def test_fire_and_card_on_a_tablet(tmp_path, browser):
    state, ident, _ = one_slot_from_wrecked()
    store = TinyDBStore(tmp_path / "data")
    game = store.new_game(state, "combat on a tablet", roller=Roller.from_seed(SEED))
    store.close()
    server = Server(tmp_path / "data").start()
    try:
        page = browser.new_context(viewport=TABLET, has_touch=True).new_page()
        open_app(page, f"{server.url}game/{game.id}?ship=hml-raven&tab=fire")
        declare = inside(page, ident.replace("ship-destroyed-", "declare-"))
        chart = inside(page, "map")
        assert chart["x"] + chart["width"] <= declare["x"], "the map and the fire panel are side by side"
        assert chart["width"] >= TABLET["width"] / 2, "the map keeps most of the width"
        for tab in ("tab-ship", "tab-fire", "tab-log", "end-turn"):
            inside(page, tab)
        shoot(page, "tablet-fire")
        by_id(page, "tab-ship").click()
        inside(page, "card-hml-raven")
        shoot(page, "tablet-card")
        page.context.close()
    finally:
        server.stop()
