"""New game offers the house rules and the table rules (issue 15): switched on and chosen there,
they start the game and the banner names them.

Checked from the page, waiting generously: a latency is the benchmark's, never asserted here.
"""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, by_id, open_app
from .test_e2e import wait_banner
from .test_phone_turn import server  # noqa: F401  (the fixture)
from .test_sharing import shoot

pytestmark = pytest.mark.browser


def test_new_game_with_house_and_table_rules(server, browser):  # noqa: F811
    page = browser.new_page(viewport=DESKTOP)
    open_app(page, server.url + "new")
    switch = by_id(page, "house-seize_initiative")
    switch.wait_for(timeout=20000)
    by_id(page, "house-unit_initiative").click()
    by_id(page, "house-declared_turns").click()
    by_id(page, "table-crew_slots").click()
    page.get_by_role("button", name="only the best counts").click()
    shoot(page, "new-game-rules-desktop")
    by_id(page, "quick-start-setup").click()
    text = wait_banner(page, "House rules")
    assert "House rules: unit initiative, declared turns." in text
    assert "Table rules: several crew slots in one location: only the best counts." in text
    shoot(page, "game-banner-rules-desktop")
    page.close()
