"""The Decisive Victory editor in a real browser (issue 16): a ship record copied from a sample,
one field changed (with its plain-word problem on the way), saved; a grid cell changed and the
grid saved; the page reloaded shows both as saved, and the group's files on disk hold them."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import DESKTOP, by_id, open_app, shoot, tap_until
from .test_editor import choose, type_into, wait_text

pytestmark = pytest.mark.browser


def test_a_ship_field_and_a_grid_cell_are_edited_saved_and_reloaded(server, browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url + "fleets")
    tap_until(page, "fleets-dv-editor", "dv-tab-ships")

    # a ship record from the sample cruiser: a bad speed is named, then fixed
    choose(page, "dv-copy-sample", "Sample light cruiser")
    wait_text(page, "dv-problems", "ready to save")
    type_into(page, "dv-speed", "fast")
    wait_text(page, "dv-problems", "Speed must be a whole number, not 'fast'")
    save = by_id(page, "dv-save").locator("[role='button']")
    assert save.get_attribute("aria-disabled") == "true"
    type_into(page, "dv-speed", "16")
    type_into(page, "dv-name", "HMS Club Cruiser")
    wait_text(page, "dv-problems", "The ship record is complete: ready to save.")
    by_id(page, "dv-save").click()
    wait_text(page, "dv-message", "Saved HMS Club Cruiser to the group's ships (id sample-light-cruiser).")
    shoot(page, "dv-editor-ship")

    # the grid: row 2-3 column 3 (a reconstructed cell) becomes Torp
    by_id(page, "dv-tab-grid").click()
    by_id(page, "dv-grid-r2-c3").wait_for(timeout=10000)
    choose(page, "dv-grid-r2-c3", "Torp")
    wait_text(page, "dv-problems", "The grid is complete: ready to save.")
    by_id(page, "dv-save").click()
    wait_text(page, "dv-message", "Saved the group's hit grid")
    shoot(page, "dv-editor-grid")

    # reloaded in a new browser session: the saved ship and grid come back from the group's files
    context.close()
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url + "dv-editor")
    wait_text(page, "dv-problems", "The ship record is complete: saved.")
    wait_text(page, "dv-ship-summary", 'HMS Club Cruiser (sample-light-cruiser): cruiser, speed 16", turning class 2')
    wait_text(page, "dv-problems", "The ship record is complete: saved.")
    tap_until(page, "dv-tab-grid", "dv-grid-r2-summary")
    wait_text(page, "dv-grid-r2-summary", "Row 2-3, belt: AA, Guns, Torp, Flight, Guns, AA (reconstructed: 4, 5, 6)")
    shoot(page, "dv-editor-reloaded")
    context.close()

    folder = server.data / "decisive-victory"
    ships = json.loads((folder / "ships.json").read_text())
    assert ships["format"] == "decisive-victory-fleet/1"
    assert [(s["name"], s["speed"]) for s in ships["ships"]] == [("HMS Club Cruiser", 16)]
    grid = json.loads((folder / "hit-grid.json").read_text())
    assert grid["rows"][1]["cells"][2] == "Torp" and 3 not in grid["rows"][1]["unverified"]
    assert re.match(r"decisive-victory-hit-grid/1", grid["format"])
