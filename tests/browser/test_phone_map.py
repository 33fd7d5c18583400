"""A phone goes back to the map every turn (issue 25): on a 390x844 phone, open a game, go to
another tab, then to the Map, and the map is still there 15 s later (past Flet's 10 s wait for a
method call the client cannot answer), with no crash on the screen or in the server's output.

Going back to the map used to scroll the panel the phone had just hidden: the client never
answered, the call failed after 10 s, and the whole screen became "Error running app".
"""

from __future__ import annotations

import time

import pytest

from .conftest import PHONE, Server, by_id, open_app, tap_until

pytestmark = pytest.mark.browser

HOLD = 15  # seconds the map must stay: longer than the client's 10 s wait for a method's listener
DEAD = ("Error running app", "Reload the page", "Something went wrong")

GAMES = {  # ruleset: (how it is opened: taps, each until the next shows), the tabs visited, the map's control
    "quick-start": ((("quick-start", "banner"),), ("tab-fire", "tab-log"), "tab-map", "map"),
    "war-fleet": ((("war-fleet", "wf-start-20v20"), ("wf-start-20v20", "wf-banner")),
                  ("wf-tab-attacks", "wf-tab-log"), "wf-tab-map", "map"),
    "decisive-victory": ((("decisive-victory", "dv-scenario-sample"), ("dv-scenario-sample", "dv-banner")),
                         ("dv-tab-ship", "dv-tab-attacks", "dv-tab-log"), "dv-tab-map", "dv-fleets"),
}


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "data").start()
    yield srv
    srv.stop()


def screen_words(page) -> str:
    """Every label and text of the page (the semantics tree and anything drawn outside it)."""
    return page.evaluate("""() => [...document.querySelectorAll('flt-semantics, body *')].map(
        e => (e.getAttribute('aria-label') || '') + ' ' + (e.childElementCount ? '' : e.textContent)).join(' ')""")


def hold_the_map(page, the_map: str, seconds: float) -> None:
    """Check every 0.2 s for `seconds` that the map is shown and no crash message is."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        words = screen_words(page)
        dead = [d for d in DEAD if d in words]
        assert not dead, f"the screen died: {dead[0]!r} shown"
        assert by_id(page, the_map).count(), f"the map ({the_map}) is gone from the phone's screen"
        page.wait_for_timeout(200)


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_the_map_tab_stays_on_a_phone(server, browser, ruleset):
    opening, tabs, map_tab, the_map = GAMES[ruleset]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_app(page, server.url)
        for tap, shown in opening:
            tap_until(page, tap, shown)
        for tab in tabs:
            by_id(page, tab).wait_for(timeout=30000)
            by_id(page, tab).click()
        by_id(page, map_tab).click()
        by_id(page, the_map).wait_for(timeout=30000)
        hold_the_map(page, the_map, HOLD)
    finally:
        context.close()
    output = server.output()
    assert "crashed" not in output and "Traceback" not in output, output[-3000:]
