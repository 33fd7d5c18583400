"""Decisive Victory's shared screen on a 1920 x 1080 TV, read from three metres (issue 35): all six
ships of the sample battle on screen at once, no scrolling, each name at least 24 px and each grid
whole with its boxes' words and row labels at least 20 px; the section labels and the top bar at
least 20 px; an attack once rolled leaves "Declared attacks" (the one still to roll stays); LAST
ROLL shows every stage of the rolled attack in words.  Sizes are the rendered boxes of the page's
semantics nodes (the texts' own boxes).  Screenshot: tests/screenshots/dv-tv-1920.png."""

from __future__ import annotations

import pytest

from companion.store.store import open_store

from dv_for_tests import sample_game

from .conftest import SharedServer, by_id, shoot, words_in
from .test_sharing import join, network_address, wait_log

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
LEAST_NAME, LEAST_WORDS = 24, 20

ROLLED = [  # HMS Sample's main battery hits twice (a N7 and its bonus roll), both saves failed
    {"kind": "declare_attack", "ship": "hms-sample", "system": "main", "target": "ijn-mihon", "distance": "12"},
    {"kind": "roll_attack", "attack": 1,
     "table": {"attack": [4, 3], "bonus": [2, 5], "saves": [[6, 3], [1, 1]], "damage": [[4, 2], [5, 5]]}},
    {"kind": "end_activation"},
    {"kind": "declare_attack", "ship": "hms-dash", "system": "torpedoes", "target": "ijn-kaze", "distance": "6"},
]


def _box(page, ident: str) -> dict:
    node = by_id(page, ident).first
    node.wait_for(timeout=10000)
    box = node.bounding_box()
    assert box is not None, f"{ident} is not on screen"
    return box


def _on_screen(box: dict) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= TV["width"] + 1 \
        and box["y"] + box["height"] <= TV["height"] + 1


def test_six_ships_read_from_three_metres_on_a_1920_tv(tmp_path, browser):
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    server = SharedServer(tmp_path / "data")
    store = open_store(server.data)
    game = store.new_game(sample_game("attacks"), "Six ships")
    for action in ROLLED:
        outcome = game.act(action)
        assert outcome.ok, outcome.reason
    ships = [s.id for s in game.state.ships]
    stages = len(game.history()) - len([e for e in game.history() if e.kind in ("declare_attack", "end_activation")])
    store.close()
    server.start()
    tv = browser.new_context(viewport=TV).new_page()
    try:
        join(tv, f"{server.lan_url}game/{game.id}", server.pin, "screen")
        by_id(tv, "screen-headline").wait_for(timeout=20000)
        wait_log(tv, len(ROLLED), timeout=20)
        by_id(tv, "screen-odds-1").first.wait_for(timeout=10000)
        shoot(tv, "dv-tv-1920")
        assert len(ships) == 6
        for ship in ships:  # every ship whole on the screen, no scrolling
            name = _box(tv, f"screen-name-{ship}")
            assert name["height"] >= LEAST_NAME and _on_screen(name), (ship, name)
            assert _on_screen(_box(tv, f"screen-grid-{ship}")), ship
            for g in range(1, 5):
                assert _box(tv, f"screen-row-{ship}-{g}")["height"] >= LEAST_WORDS, (ship, g)
            words = tv.locator(f"[flt-semantics-identifier^='screen-box-{ship}-']")
            assert words.count() == 24, ship
            for n in range(words.count()):
                box = words.nth(n).bounding_box()
                assert box["height"] >= LEAST_WORDS and _on_screen(box), (ship, n, box)
        marked = tv.locator("[flt-semantics-identifier^='screen-box-ijn-mihon-'][flt-semantics-identifier$='-marked']")
        assert marked.count() == 2  # the two boxes the failed saves marked
        for ident in ("screen-last-roll-title", "screen-shots-title", "screen-game-name", "sync"):
            assert _box(tv, ident)["height"] >= LEAST_WORDS, ident
        declared = words_in(by_id(tv, "screen-shots"))
        assert "HMS Dash" in declared and "HMS Sample" not in declared  # the rolled attack has left
        assert by_id(tv, "screen-odds-2").count() == 0
        said = [words_in(by_id(tv, f"screen-stage-{n}")) for n in range(1, stages + 1)]
        assert by_id(tv, f"screen-stage-{stages + 1}").count() == 0
        assert _on_screen(_box(tv, f"screen-stage-{stages}")) and _on_screen(_box(tv, "screen-odds-1"))
        for words in ("4, 3 at +3 (a N7): hit", "N7 bonus roll", "Hit 1 on IJN Mihon", "armour save 6, 3",
                      "damage dice 4, 2", "Struct marked", "Hit 2 on IJN Mihon", "armour save 1, 1",
                      "damage dice 5, 5", "Guns marked"):
            assert any(words in s for s in said), words
        assert tv.locator("[flt-semantics-identifier^='screen-die-']").count() == 12  # 2 + 2 + 2 + 2 + 2 + 2
    finally:
        tv.context.close()
        server.stop()
