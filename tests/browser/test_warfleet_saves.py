"""A War Fleet game survives a reload of the page and a restart of the server: a few actions (a move,
an attack declared and rolled), then the same game, turn, phase and log after reopening, from the
War Fleet tile and from the home screen's list.  Screenshots: tests/screenshots/warfleet-saved-*.png."""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, SCREENSHOTS, by_id, open_app, tap_until, words_in
from .test_warfleet import shoot, start_battle, tap, text_of, to_combat, wait_text

pytestmark = pytest.mark.browser
ROLLED = r"DBlack \d+ = \d+ against \d+"


def log_text(page) -> str:
    tap(page, "wf-tab-log")
    return wait_text(page, "wf-log", r"HML Leviathan moves forward to 1207")


def roll_result(page) -> str:
    """The rolled attack's result line: the dice, the faces, what they did."""
    text = wait_text(page, "wf-attack-1", ROLLED)
    return re.search(ROLLED + r".*", text).group(0)


def saved_games(server) -> list:
    """The War Fleet games in the server's data folder, read as another process would (a restart)."""
    from companion.app.rulesets.war_fleet import model as M
    from companion.store import TinyDBStore

    store = TinyDBStore(server.data)
    try:
        return [(summary, store.game(summary.id).can_redo) for summary in M.war_fleet_games(store)]
    finally:
        store.close()


def saved_game(server):
    """(summary, can redo) of the one War Fleet game saved."""
    games = saved_games(server)
    assert len(games) == 1, games
    return games[0]


def test_a_war_fleet_game_survives_a_reload_and_a_restart(server, browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url)
    to_combat(page)
    tap(page, "wf-ship-hml-leviathan")
    tap(page, "wf-option-0")
    tap(page, "wf-roll-all")
    rolled = roll_result(page)
    banner = wait_text(page, "wf-banner", r"Turn 1 · Combat")
    log = log_text(page)
    saved, _ = saved_game(server)
    assert saved.phase == "combat" and saved.actions == 7 and saved.ruleset == "war-fleet"
    game_id = saved.id
    assert re.search(rf"/game/{game_id}$", page.url), page.url  # a reload comes back here

    open_app(page, page.url)  # a reload of the page
    assert wait_text(page, "wf-banner", r"Turn 1 · Combat") == banner
    assert log_text(page) == log

    server.stop()
    server.start()
    fresh = browser.new_context(viewport=DESKTOP)  # a browser the restarted server has never seen
    other = fresh.new_page()
    open_app(other, server.url)
    tile = by_id(other, f"wf-resume-{game_id}")
    tile.wait_for(timeout=20000)
    assert "Turn 1 · Combat" in words_in(tile) and "British vs French" in words_in(tile)  # a tile holds its replay button too
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    other.screenshot(path=str(SCREENSHOTS / "warfleet-saved-home.png"), full_page=True)
    tap_until(other, "war-fleet", "wf-banner")  # the War Fleet tile resumes the last game played
    assert wait_text(other, "wf-banner", r"Turn 1 · Combat") == banner
    assert log_text(other) == log
    tap(other, "wf-tab-attacks")
    assert roll_result(other) == rolled  # the same dice
    shoot(other, "warfleet-saved-after-restart")

    # the page open before the restart, at the old address of War Fleet games: the same game; undo is saved too
    open_app(page, server.url + f"warfleet/{game_id}")
    assert wait_text(page, "wf-banner", r"Turn 1 · Combat") == banner
    tap(page, "wf-undo")
    wait_text(page, "wf-banner", r"1 attack declared, 1 to roll")
    assert saved_game(server)[1]  # the undone roll waits to be redone
    context.close()
    fresh.close()


def test_home_lists_war_fleet_games_and_a_new_battle_starts_beside_them(server, browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url)
    start_battle(page)
    tap(page, "wf-roll-initiative")
    wait_text(page, "wf-banner", r"Movement")
    tap_until(page, "wf-menu", "wf-restart")  # the bar's one menu (issue 28)
    tap(page, "wf-restart")
    wait_text(page, "wf-note", r"A new War Fleet battle")
    wait_text(page, "wf-banner", r"Turn 1 · Initiative")
    assert len(saved_games(server)) == 2
    tap_until(page, "wf-home", "war-fleet")
    tiles = page.locator("[flt-semantics-identifier^='wf-resume-']")
    tiles.first.wait_for(timeout=20000)
    assert tiles.count() == 2
    words = " ".join(words_in(tiles.nth(i)) for i in range(2))
    assert "Turn 1 · Initiative" in words and "Turn 1 · Movement" in words
    context.close()


def test_a_damaged_war_fleet_file_is_named_on_home_and_the_other_game_still_opens(tmp_path, browser):
    from companion.app.rulesets.war_fleet import model as M
    from companion.files import load_catalogue, shipped_fleets_dir
    from companion.store import TinyDBStore
    from companion.store.segments import GAME_FILE

    from .conftest import Server

    data = tmp_path / "data"
    store = TinyDBStore(data)
    state = M.twenty_against_twenty(load_catalogue(), shipped_fleets_dir(), seed="damaged")
    bad, good = store.new_game(state, "Cut short"), store.new_game(state, "Still good")
    store.close()
    path = data / "games" / bad.id / GAME_FILE
    path.write_bytes(path.read_bytes()[:300])  # cut short, as by a full disk

    server = Server(data).start()
    try:
        page = browser.new_page(viewport=DESKTOP)
        open_app(page, server.url)
        box = by_id(page, "store-problems")
        box.wait_for(timeout=15000)
        words = words_in(box)
        assert bad.id in words and "cut short" in words and "could not be opened" in words
        by_id(page, f"wf-resume-{good.id}").wait_for(timeout=15000)
        assert by_id(page, f"wf-resume-{bad.id}").count() == 0
        assert not path.exists(), "the damaged file is set aside (kept under another name)"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "warfleet-saved-damaged-home.png"), full_page=True)
        tap_until(page, f"wf-resume-{good.id}", "wf-banner")
        wait_text(page, "wf-banner", r"Turn 1 · Initiative")
        page.close()
    finally:
        server.stop()
