"""The replay in a real browser (issue 17, "Beyond paper"): a seeded 10-turn Quick-Start game
(tests/helpers/ten_turns.py) opened in replay on a TV-size screen (1920 x 1080) from the saved
games list, stepped through by turn and by step with the map, the dice and the cards as they were,
turn 3 picked from the turn list, and "Play from here" (the host) forks a new game that opens at
turn 3; the same replay from the game's menu.  Screenshots in tests/screenshots/replay-*.png."""

from __future__ import annotations

import re

import pytest

from companion.store.store import TinyDBStore

from .conftest import by_id, module_scoped_server, open_app, shoot, tap_until, words_in
from .test_editor import choose, wait_text
from .test_report import ten_turn_game

TV = {"width": 1920, "height": 1080}

pytestmark = pytest.mark.browser
server = module_scoped_server()  # one server for the module: each test starts its own games


def step_of(page) -> int:
    return int(re.search(r"step (\d+) of", wait_text(page, "replay-count", "step ")).group(1))


def tap(page, ident: str, then: str, words: str) -> str:
    """Tap a replay button until `then` says `words` (a tap lost on a busy machine is tapped again)."""
    for _ in range(4):
        by_id(page, ident).click()
        try:
            return wait_text(page, then, words, timeout=12)
        except AssertionError:
            continue
    return wait_text(page, then, words, timeout=1)


def test_a_tv_replays_the_ten_turn_game_and_forks_it_from_turn_3(server, browser, tmp_path):
    game_id = ten_turn_game(server.data, tmp_path)
    marks = _marks(server.data, game_id)
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    open_app(page, server.url)
    tap_until(page, "replay-" + game_id, "replay-where", timeout=60)
    assert "/replay/" + game_id in page.url
    wait_text(page, "replay-count", "step 0 of ")
    assert "Turn 1" in wait_text(page, "replay-where", "Turn 1")
    by_id(page, "replay-card").wait_for(timeout=10000)  # HML Hertfordshire's card as it was
    shoot(page, "replay-tv-start")

    tap(page, "replay-next", "replay-count", "step 1 of")  # the initiative roll: its dice large
    assert "Initiative" in words_in(by_id(page, "replay-step")) or "initiative" in words_in(by_id(page, "replay-step"))
    assert "No dice" not in words_in(by_id(page, "replay-rolls"))
    tap(page, "replay-next-turn", "replay-where", "Turn 2")
    second = step_of(page)
    tap(page, "replay-back", "replay-where", "Turn 1")  # one step back: the end of turn 1
    assert step_of(page) == second - 1
    for turn in range(2, 9):
        tap(page, "replay-next-turn", "replay-where", f"Turn {turn}")
    assert step_of(page) == marks["eighth"]
    for number in range(marks["eighth"] + 1, marks["shot"] + 1):  # step by step to turn 8's first breach roll
        tap(page, "replay-next", "replay-count", f"step {number} of")
    assert marks["shot_words"] in words_in(by_id(page, "replay-step"))
    assert "No dice" not in words_in(by_id(page, "replay-rolls"))
    shoot(page, "replay-tv-turn-8-shot")

    choose(page, "replay-turn", "Turn 3")
    wait_text(page, "replay-where", "Turn 3")
    assert step_of(page) == marks["third"]
    shoot(page, "replay-tv-turn-3")

    tap_until(page, "replay-fork", "banner", timeout=60)  # the host plays from here: a new game at turn 3
    wait_text(page, "banner", "Turn 3", timeout=30)
    new_id = page.url.rstrip("/").split("/game/")[1].split("?")[0]
    assert new_id != game_id
    shoot(page, "replay-tv-forked-game")
    open_app(page, server.url)  # listed among the saved games under its name
    by_id(page, "resume-" + new_id).wait_for(timeout=30000)
    assert "What if from turn 3 of Ten turns" in words_in(by_id(page, "resume-" + new_id))
    context.close()


def _marks(data, game_id: str) -> dict:
    """Where the replay's turns 3 and 8 start and turn 8's first breach roll, read before the app opens the game."""
    from companion.app.replay_model import replay_of

    store = TinyDBStore(data)
    try:
        replay = replay_of(store, game_id)
        eighth = replay.turn_start(8)
        shot = next(s for s in replay.steps[eighth:] if s.rolls and s.turn == 8 and "nitiative" not in s.title)
        return {"third": replay.turn_start(3), "eighth": eighth, "shot": shot.number, "shot_words": shot.title[:20]}
    finally:
        store.close()


def test_the_replay_opens_from_the_game_menu(server, browser, tmp_path):
    game_id = ten_turn_game(server.data, tmp_path)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    open_app(page, server.url + f"game/{game_id}")
    tap_until(page, "menu", "menu-replay", timeout=60)
    tap_until(page, "menu-replay", "replay-where", timeout=60)
    assert "/replay/" + game_id in page.url
    tap(page, "replay-last", "replay-where", "Turn 11")
    tap_until(page, "replay-back-to-game", "banner", timeout=30)
    context.close()


def _war_fleet_and_dv_games(data) -> tuple[str, str]:
    """A War Fleet battle with its initiative rolled and the Leviathan moved, and Decisive Victory's
    sample with a few of its first possible actions taken, stored in the server's data folder."""
    from companion.app.rulesets.war_fleet import model as M
    from companion.engine.registry import find_ruleset
    from companion.engine.war_fleet import actions as A
    from companion.files import load_catalogue, shipped_fleets_dir
    from dv_for_tests import sample_game

    store = TinyDBStore(data)
    try:
        war = store.new_game(M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="replay"), "Twenty")
        assert war.act(A.RollInitiative()).ok
        if war.state.initiative != "French":
            assert war.act(A.SetInitiative(side="French")).ok
        assert war.act(A.Step(ship="hml-leviathan", step="forward")).ok
        dv_rules = find_ruleset("decisive-victory")
        dv = store.new_game(sample_game(phase="command"), "Sample")
        for _ in range(4):
            possible = [o.action for o in dv_rules.options(dv.state) if o.possible]
            if possible:
                assert dv.act(possible[0]).ok
        return war.id, dv.id
    finally:
        store.close()


def test_war_fleet_and_decisive_victory_replays(server, browser):
    war_id, dv_id = _war_fleet_and_dv_games(server.data)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_app(page, server.url + f"replay/{war_id}")
    try:
        wait_text(page, "replay-where", "Turn 1", timeout=90)  # forty ships: the first drawing takes a while
    except AssertionError:
        shoot(page, "replay-war-fleet-failed")
        raise
    tap(page, "replay-last", "replay-where", "Movement")
    assert "moved" in words_in(by_id(page, "replay-changes"))
    assert "HML Leviathan" in words_in(by_id(page, "replay-ships"))
    shoot(page, "replay-war-fleet")
    open_app(page, server.url + f"replay/{dv_id}")
    wait_text(page, "replay-count", "step 0 of ", timeout=60)
    by_id(page, "dv-card-hms-sample").wait_for(timeout=20000)  # Decisive Victory: its ship cards, no map
    tap(page, "replay-next", "replay-count", "step 1 of")
    shoot(page, "replay-decisive-victory")
    context.close()
