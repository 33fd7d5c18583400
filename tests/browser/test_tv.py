"""The shared screen on a 1920 x 1080 TV (issue 14.3): zoomed to the ships in play, a declared
shot drawn from the gun to its target with its odds, the last roll large."""

from __future__ import annotations

import pytest

from companion.engine.quick_start import actions as A
from companion.store.store import open_store

from random_games import close_battle

from .test_sharing import SharedServer, join, label, network_address, shoot, wait_log

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}


def test_the_tv_shows_the_ships_close_the_declared_shot_and_its_odds_and_the_last_roll(tmp_path, browser):
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    server = SharedServer(tmp_path / "data")
    store = open_store(server.data)
    game = store.new_game(close_battle(), "Close battle")
    for action in (A.DeclareShot(attacker="pontbriand", location="bow", slot=1, target="hertfordshire",
                                 target_location="bow"), A.ResolveShot(shot=1),
                   A.DeclareShot(attacker="hertfordshire", location="bow", slot=1, target="pontbriand",
                                 target_location="bow")):
        assert game.act(action).ok
    store.close()
    server.start()
    try:
        tv = browser.new_context(viewport=TV).new_page()
        join(tv, f"{server.lan_url}game/{game.id}", server.pin, "screen")
        by_headline = tv.locator("[flt-semantics-identifier='screen-headline']")
        by_headline.wait_for(timeout=15000)
        wait_log(tv, 3)
        shots = tv.locator("[flt-semantics-identifier='screen-shots']")
        shots.wait_for(timeout=10000)
        assert "HML Hertfordshire" in label(shots) and "to damage" in label(shots)
        assert "Pontbriand" in label(tv.locator("[flt-semantics-identifier='screen-last-roll']"))
        shoot(tv, "screen-tv-1920")
        tv.context.close()
    finally:
        server.stop()
