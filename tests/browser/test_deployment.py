"""Deployment in a real browser (issue 14.7): the zone an outline, a hex outside it refused when
tapped in the engine's words (the banner says the same rule), and a facing alone turns a placed
ship where it stands."""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, by_id, open_app, tap_until
from .test_e2e import shoot, wait_banner, wait_note
from .test_sharing import wait_log

pytestmark = pytest.mark.browser


def test_deploying_refuses_a_hex_outside_the_zone_and_turns_a_ship_in_place(server, browser):
    page = browser.new_context(viewport=DESKTOP).new_page()
    open_app(page, server.url)
    by_id(page, "quick-start").wait_for(timeout=15000)
    by_id(page, "quick-start").click()
    wait_banner(page, "Deployment")
    tap_until(page, "ship-hml-raven", "face-NE")
    page.wait_for_function("() => location.href.includes('hml-raven')", timeout=10000)
    box = by_id(page, "map").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # mid-board: no edge near
    wait_note(page, r"must deploy within 4 hexes of a map edge, with the whole ship on the map")
    shoot(page, "deployment-refused-desktop")
    by_id(page, "face-NE").click()  # no hex chosen: the Raven turns where it stands
    wait_log(page, 1, timeout=20)
    wait_note(page, r"HML Raven .*facing NE")
    shoot(page, "deployment-turned-desktop")
    page.context.close()
