"""Table dice on a phone (issue 14.8): each die's faces as buttons, one tap a die, every die still
to pick named beside its row at once, then the shot resolved with the faces the players rolled."""

from __future__ import annotations

import pytest

from companion.engine.quick_start import actions as A
from companion.store.store import open_store

from random_games import close_battle

from .conftest import PHONE, by_id, open_app, Server, settle, tap_until
from .test_sharing import shoot, wait_log

pytestmark = pytest.mark.browser


def test_table_dice_are_picked_with_one_tap_a_die_and_every_missing_die_is_named(tmp_path, browser):
    server = Server(tmp_path / "data")
    store = open_store(server.data)
    game = store.new_game(close_battle(), "Table dice")
    assert game.act(A.DeclareShot(attacker="hertfordshire", location="bow", slot=1, target="pontbriand",
                                  target_location="bow")).ok
    store.close()
    server.start()
    try:
        page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        open_app(page, f"{server.url}game/{game.id}")
        tap_until(page, "tab-fire", "enter-1")
        tap_until(page, "enter-1", "resolve-1")
        rows = page.locator("[flt-semantics-identifier^='face-1-'][flt-semantics-identifier$='-1']")
        rows.first.wait_for(timeout=10000)
        dice = rows.count()  # one '1' button a die: the pool, then the slot die
        assert dice >= 3
        by_id(page, "resolve-1").click()
        problems = page.locator("[flt-semantics-identifier^='face-problem-1-']")
        problems.first.wait_for(timeout=10000)
        settle(page)
        assert problems.count() == dice  # every die still to pick, at once, each beside its own row
        shoot(page, "table-dice-phone")
        for die in range(dice):  # all ones: no breach, so no further die is asked for
            by_id(page, f"face-1-{die}-1").click()
            by_id(page, f"face-problem-1-{die}").wait_for(state="detached", timeout=10000)
        by_id(page, "resolve-1").click()
        wait_log(page, 2, timeout=20)
        by_id(page, "resolve-1").wait_for(state="detached", timeout=10000)
        shoot(page, "table-dice-resolved-phone")
        page.context.close()
    finally:
        server.stop()
