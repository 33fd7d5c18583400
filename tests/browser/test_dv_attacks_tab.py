"""Decisive Victory's Attacks tab picks a ship of the side that attacks (issue 35): with a Japanese
ship selected on the Ships tab while the British batch attacks, it kept the Japanese ship picked."""

from __future__ import annotations

import pytest

from companion.store.store import open_store

from dv_for_tests import sample_game

from .conftest import DESKTOP, Server, by_id, open_app, tap_until

pytestmark = pytest.mark.browser


def test_the_attacks_tab_picks_a_ship_of_the_attacking_side(tmp_path, browser):
    server = Server(tmp_path / "data")
    store = open_store(server.data)
    game = store.new_game(sample_game("attacks", initiative="British"), "Attacks tab")  # British attack first
    store.close()
    server.start()
    try:
        page = browser.new_context(viewport=DESKTOP).new_page()
        open_app(page, f"{server.url}game/{game.id}")
        tap_until(page, "dv-tab-ship", "dv-ship-ijn-mihon")
        tap_until(page, "dv-ship-ijn-mihon", "dv-card-ijn-mihon")  # the Japanese ship selected
        tap_until(page, "dv-tab-attacks", "dv-attacker-hms-sample-picked")
        assert by_id(page, "dv-attacker-ijn-mihon").count() == 0  # Japan does not attack now
        assert by_id(page, "dv-attacker-ijn-mihon-picked").count() == 0
        page.context.close()
    finally:
        server.stop()
