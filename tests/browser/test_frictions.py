"""Frictions of issue 35 seen only in a browser: the dice roller clears the last roll's dice under a
new error (they stood under "no such dice" as if they were its roll)."""

from __future__ import annotations

import pytest

from .conftest import PHONE, by_id, focus_field, module_scoped_server, open_app, shoot, wait_until, words_in

pytestmark = pytest.mark.browser
server = module_scoped_server()


def test_the_dice_roller_clears_its_dice_under_a_new_error(server, browser):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    open_app(page, server.url + "dice")
    by_id(page, "roll-dice").wait_for(timeout=15000)
    by_id(page, "roll-dice").click()
    by_id(page, "rolled").wait_for(timeout=10000)
    focus_field(page, "dice-pool")
    page.keyboard.press("Control+A")
    page.keyboard.type("DPurple", delay=10)
    wait_until(lambda: "purple" in words_in(by_id(page, "dice-message").first).lower(), "the error shown", timeout=20)
    wait_until(lambda: by_id(page, "rolled").count() == 0, "the old dice cleared under it", timeout=20)
    shoot(page, "dice-error-phone")
    page.context.close()
