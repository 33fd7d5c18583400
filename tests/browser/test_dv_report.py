"""A Decisive Victory game with attacks in the app's report and replay (issue 25): the game, played
through its options and steered to declare and roll attacks (tests/random_games.py), opens at
/report/<id> with its charts and the damage-point words, and at /replay/<id>, stepped to its end,
with no screen dying; screenshots in tests/screenshots/dv-report-*.png, dv-replay-attacks.png."""

from __future__ import annotations

import pytest

from companion.engine.registry import find_ruleset
from companion.store.store import TinyDBStore

from random_games import dv_attack_offers, options_game
from .conftest import by_id, open_app, shoot, words_in
from .test_editor import wait_text
from .test_replay import tap

pytestmark = pytest.mark.browser

CHARTS = ("report-luck", "report-damage", "report-guns", "report-lost")


def dv_game_with_attacks(data) -> str:
    from test_rulesets import _dv_start

    ruleset = find_ruleset("decisive-victory")
    initial = _dv_start(3)
    _, log = options_game(ruleset, initial, 3, 60, dv_attack_offers)
    assert any(a["kind"] == "roll_attack" for a in log)
    store = TinyDBStore(data)
    game = store.new_game(initial, "Cruisers at dusk", roller=initial.roller)
    for action in log:
        assert game.act(action).ok, action
    store.close()
    return game.id


def test_the_report_and_the_replay_of_a_dv_game_with_attacks(server, browser):
    game_id = dv_game_with_attacks(server.data)
    context = browser.new_context(viewport={"width": 1280, "height": 1500})
    page = context.new_page()
    open_app(page, server.url + f"report/{game_id}")
    for chart in CHARTS:
        by_id(page, chart).wait_for(timeout=30000)
    british = words_in(by_id(page, "report-side-British"))
    assert "damage points / expected" in british and "attacks rolled" in british
    assert "armour saves (fail, success, critical) for the saving side" in words_in(by_id(page, "report-when"))
    shoot(page, "dv-report-desktop")
    open_app(page, server.url + f"replay/{game_id}")
    wait_text(page, "replay-count", "step 0 of ", timeout=60)
    tap(page, "replay-last", "replay-count", "step 60 of 60")
    by_id(page, "dv-card-hms-sample").wait_for(timeout=20000)
    shoot(page, "dv-replay-attacks")
    context.close()
