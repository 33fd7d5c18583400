"""Decisive Victory's "End movement?" (issue 28.1): it named the ships not moved as staying where they
are, then the rules refused it.  Now the dialog names the full-speed ship that must still move and the
inches it owes, offers that move (and half speed before moving), and no End movement while the rules
would refuse it; taking the offered move ends the ship's shortfall."""

from __future__ import annotations

import pytest

from companion.store.store import open_store

from test_dv_turn import in_movement, ok

from .conftest import DESKTOP, Server, by_id, open_app, shoot, tap_until
from .test_sharing import wait_words

pytestmark = pytest.mark.browser


def test_end_movement_names_the_ship_that_must_still_move(tmp_path, browser):
    state = in_movement()  # British won the initiative: the Japanese batch moves first
    for ship in ("ijn-mihon", "ijn-kaze", "ijn-nami"):
        state, _ = ok(state, {"kind": "set_speed", "ship": ship, "mode": "half"})
        state, _ = ok(state, {"kind": "end_move", "ship": ship})
    server = Server(tmp_path / "data")
    store = open_store(server.data)
    game = store.new_game(state, "End movement")
    store.close()
    server.start()
    try:
        page = browser.new_context(viewport=DESKTOP).new_page()
        open_app(page, f"{server.url}game/{game.id}")
        tap_until(page, "dv-end-movement", "dv-least-move-hms-sample", timeout=60)
        wait_words(page, 'HMS Sample is at full speed (15"): it must still move at least 8" more', timeout=20)
        assert by_id(page, "dv-end-movement-confirm").count() == 0  # the rules would refuse it
        assert by_id(page, "dv-half-speed-hms-sample").count() == 1  # not moved yet: half speed is allowed
        shoot(page, "dv-end-movement-dialog-desktop")
        by_id(page, "dv-least-move-hms-sample").click()
        by_id(page, "dv-least-move-hms-sample").wait_for(state="detached", timeout=20000)
        tap_until(page, "dv-end-movement", "dv-least-move-hms-dash", timeout=60)
        assert by_id(page, "dv-least-move-hms-sample").count() == 0  # its 8" moved: no longer owed
        page.context.close()
    finally:
        server.stop()


def test_the_first_batch_goes_through_the_dialogs_defaults_to_the_second(tmp_path, browser):
    """Issue 35 (Major 2): End movement -> "Move X ahead" for each ship of the first batch moved the
    ship but never ended its move: the banner stayed on "British's batch (3 more) moves".  Each
    default now ends the ship's move, and the banner goes on to the Japanese batch."""
    state = in_movement({"British": [1], "Japanese": [6]})  # Japanese won: the British batch moves first
    server = Server(tmp_path / "data")
    store = open_store(server.data)
    game = store.new_game(state, "First batch")
    store.close()
    server.start()
    try:
        page = browser.new_context(viewport=DESKTOP).new_page()
        open_app(page, f"{server.url}game/{game.id}")
        wait_words(page, "British's batch (3 more) moves", timeout=30)
        for ship, left in (("hms-sample", 2), ("hms-dash", 1), ("hms-dart", 0)):
            tap_until(page, "dv-end-movement", f"dv-least-move-{ship}", timeout=60)
            by_id(page, f"dv-least-move-{ship}").click()
            by_id(page, f"dv-least-move-{ship}").wait_for(state="detached", timeout=20000)
            if left:
                wait_words(page, f"British's batch ({left} more) moves", timeout=30)
        wait_words(page, "Japanese's batch (3 more) moves", timeout=30)
        shoot(page, "dv-end-movement-second-batch-desktop")
        page.context.close()
    finally:
        server.stop()
