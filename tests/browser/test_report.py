"""The after-action report in a real browser (issue 17): a seeded 10-turn Quick-Start game (played
through the ruleset's options, tests/helpers/ten_turns.py) opened in the app, the game menu's
"After-action report" taken, the report view's flet-charts charts drawn; the same at phone width
from its address, one turn picked; screenshots in tests/screenshots/report-*.png."""

from __future__ import annotations


import pytest

from companion.commands import main
from companion.store.store import TinyDBStore

from helpers.ten_turns import play_turns, write_scenario
from .conftest import PHONE, SCREENSHOTS, by_id, open_app, shoot, tap_until, words_in
from .test_editor import choose, wait_text

TALL_DESKTOP = {"width": 1280, "height": 1500}  # the four charts in one screenshot

pytestmark = pytest.mark.browser

CHARTS = ("report-luck", "report-damage", "report-guns", "report-lost")


def ten_turn_game(data, folder) -> str:
    """The seeded ten-turn game, new in `data` (a module's server may hold other tests' games)."""
    store = TinyDBStore(data)
    before = {g.id for g in store.games()}
    store.close()
    assert main(["new", write_scenario(folder), "--data", str(data), "--seed", "5", "--name", "Ten turns"]) == 0
    store = TinyDBStore(data)
    [summary] = [g for g in store.games() if g.id not in before]
    play_turns(store.game(summary.id), 5)
    store.close()
    return summary.id


def test_the_report_view_draws_the_ten_turn_games_charts(server, browser, tmp_path):
    game_id = ten_turn_game(server.data, tmp_path)
    context = browser.new_context(viewport=TALL_DESKTOP)
    page = context.new_page()
    open_app(page, server.url + f"game/{game_id}")
    tap_until(page, "menu", "menu-report", timeout=60)
    tap_until(page, "menu-report", "report-luck", timeout=60)
    for chart in CHARTS:
        by_id(page, chart).wait_for(timeout=20000)
    assert "/report/" + game_id in page.url
    british = words_in(by_id(page, "report-side-British"))
    assert "slots destroyed / expected" in british and "10 / 6.03" in british
    assert "0 / 0.03" in words_in(by_id(page, "report-side-French"))
    shoot(page, "report-desktop")
    context.close()

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    open_app(page, server.url + f"report/{game_id}")
    by_id(page, "report-luck").wait_for(timeout=30000)
    shoot(page, "report-phone")
    choose(page, "report-turn", "Turn 8")
    wait_text(page, "report-when", "Ten turns: turn 8.")
    assert "1" in words_in(by_id(page, "report-side-French")).split("ships lost")[1]  # the keel broke in turn 8
    page.mouse.move(195, 600)
    page.mouse.wheel(0, 1200)
    shoot(page, "report-phone-turn-8")
    context.close()


def test_the_html_report_reads_on_a_phone_and_a_desktop_and_fetches_nothing(browser, tmp_path):
    """`companion report GAME --out report.html` opened in Chromium at 390 x 844 and 1280 x 900."""
    data = tmp_path / "data"
    game_id = ten_turn_game(data, tmp_path)
    out = tmp_path / "report.html"
    assert main(["report", game_id, "--data", str(data), "--out", str(out)]) == 0
    for name, viewport in (("report-html-phone", {"width": 390, "height": 844}),
                           ("report-html-desktop", {"width": 1280, "height": 900})):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        fetched: list[str] = []
        page.on("request", lambda request: fetched.append(request.url))
        page.goto(out.as_uri())
        assert page.locator("svg").count() == 4
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # no sideways scroll
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
        page.screenshot(path=str(SCREENSHOTS / f"{name}-full.png"), full_page=True)
        assert fetched == [out.as_uri()]
        context.close()
