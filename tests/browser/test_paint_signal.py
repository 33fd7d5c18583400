"""The paint signal the browser tests wait on (issue 26): the game screen's top bar carries the
node `painted`, labelled "painted <N>", N counting the renders the server sent; a tap that changes the game sends
a render, so N grows."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, by_id, open_app, painted, tap_until, wait_painted

pytestmark = pytest.mark.browser


def test_a_change_bumps_the_paint_counter(server, browser):
    page = browser.new_page(viewport=DESKTOP)
    open_app(page, server.url)
    tap_until(page, "quick-start", "start-game")
    first = wait_painted(page, 0)  # the game screen's first render is on screen
    assert first >= 1
    by_id(page, "start-game").click()
    by_id(page, "roll-initiative").wait_for(timeout=20000)
    assert wait_painted(page, first) > first
    assert painted(page) > first
    page.close()
