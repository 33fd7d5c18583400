"""The card editor and the fleets screen in a real browser (issue 3, "Done when").

A new card is made, a location given five slots (the plain message shows and
saving is refused), fixed, saved, and then played: it is in the new-game ship
picker and on the table.  Export downloads the card's JSON; pasting a card's
JSON imports it as the player's own.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from .conftest import DESKTOP, PHONE, SCREENSHOTS, by_id, focus_field, open_app, shoot

pytestmark = pytest.mark.browser

FIVE_SLOTS = "Port has 5 slots; a location needs exactly 6 (one for each face of the slot die)"


def text_of(node) -> str:
    return (node.get_attribute("aria-label") or "") + "\n" + node.inner_text()


def wait_text(page, ident: str, words: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        node = by_id(page, ident)
        if node.count():
            text = text_of(node.first)
            if words in text:
                return text
        time.sleep(0.1)
    raise AssertionError(f"{ident} never said {words!r}; it says {text!r}")


def type_into(page, ident: str, text: str) -> None:
    """Focus a text field (checked: `focus_field`) and replace what it holds (as one paste)."""
    focus_field(page, ident)
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)


def choose(page, ident: str, option: str) -> None:
    """Open a list (dropdown) and pick one of its options by its text."""
    by_id(page, ident).click()
    item = page.locator("flt-semantics[role='button']").filter(has_text=re.compile(rf"^{re.escape(option)}$"))
    item.first.wait_for(state="attached", timeout=10000)
    item.first.click()


def test_a_new_card_is_checked_saved_and_played(server, browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url)
    by_id(page, "fleets").wait_for(timeout=15000)
    by_id(page, "fleets").click()

    # the fleets screen: the shipped cards are the printed cards, checked: no "unverified" mark
    wait_text(page, "card-tile-hml-raven", "HML Raven")
    assert by_id(page, "unverified-hml-raven").count() == 0

    # a new card: name, side, dice from a list, a number with its stepper
    by_id(page, "fleets-new").click()
    wait_text(page, "editor-problems", "ready to save")
    type_into(page, "ed-name", "HMS Tester")
    type_into(page, "ed-faction", "British")
    choose(page, "ed-bow-go", "DYellow")
    by_id(page, "more-structural-integrity").click()

    # five slots in the port location: the plain message, and no saving
    by_id(page, "tab-port").click()
    by_id(page, "remove-port-5").wait_for(state="attached", timeout=10000)
    by_id(page, "more-port-1-breach").click()
    by_id(page, "remove-port-5").click()
    wait_text(page, "editor-problems", FIVE_SLOTS)
    save = by_id(page, "editor-save").locator("[role='button']")
    assert save.get_attribute("aria-disabled") == "true"
    wait_text(page, "loc-port", FIVE_SLOTS)
    shoot(page, "editor-desktop")

    # fixed: a sixth slot, then save
    by_id(page, "add-slot-port").click()
    wait_text(page, "editor-problems", "The card is complete: ready to save.")
    assert save.get_attribute("aria-disabled") != "true"
    by_id(page, "editor-save").click()
    wait_text(page, "fleets-message", "Saved HMS Tester to your cards (id my-hms-tester).")
    wait_text(page, "card-tile-my-hms-tester", "British · Type 1 · SI 19")
    shoot(page, "fleets-desktop")

    # the card in a new game: in the ship picker, then on the table
    by_id(page, "fleets-back").click()
    by_id(page, "new-game").click()
    pick = by_id(page, "pick-first-my-hms-tester")
    pick.wait_for(timeout=15000)
    assert "HMS Tester on the first side" in text_of(pick)
    pick.click()
    page.get_by_role("button", name="Create game").click()
    deadline = time.monotonic() + 15
    while "/game/" not in page.url and time.monotonic() < deadline:
        time.sleep(0.1)
    page.get_by_role("button", name="Ships").last.click()
    by_id(page, "ship-my-hms-tester").click()
    card = wait_text(page, "card-my-hms-tester", "HMS Tester")
    assert "British" in card
    slot = wait_text(page, "slot-my-hms-tester-port-1", "port slot 1 Gun: working")
    assert slot
    context.close()

    # the same screens on a phone
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    open_app(page, server.url + "fleets")
    wait_text(page, "card-tile-my-hms-tester", "HMS Tester")
    shoot(page, "fleets-phone")
    by_id(page, "edit-hml-raven").click()
    wait_text(page, "editor-problems", "ready to save")
    shoot(page, "editor-phone")
    phone.close()


def requests_get(url: str) -> int:
    """The HTTP status of a GET (a print page's address without its token is not found)."""
    import urllib.error
    import urllib.request

    try:
        return urllib.request.urlopen(url, timeout=10).status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_export_print_import_and_delete(server, browser, tmp_path):
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    page = context.new_page()
    open_app(page, server.url + "fleets")
    by_id(page, "export-pelletier").wait_for(timeout=15000)
    with page.expect_download(timeout=15000) as caught:
        by_id(page, "export-pelletier").click()
    download = caught.value
    assert download.suggested_filename == "pelletier.json"
    card = json.loads(open(download.path(), encoding="utf-8").read())
    assert card["format"] == "leviathans-card/1" and card["id"] == "pelletier"

    # pasting a bad file says what and where, in one line
    by_id(page, "fleets-import").click()
    broken = dict(card, locations=dict(card["locations"], bow=dict(card["locations"]["bow"], slots=[])))
    type_into(page, "import-text", json.dumps(broken))
    by_id(page, "import-paste").click()
    wait_text(page, "import-problem", "pasted text: locations.bow.slots: 0 slots, a location needs exactly 6")

    # the shipped card itself: it joins the player's cards as a copy with an id of its own
    type_into(page, "import-text", json.dumps(card))
    by_id(page, "import-paste").click()
    wait_text(page, "fleets-message", "Imported 1 card: Pelletier (my-pelletier).")
    wait_text(page, "card-tile-my-pelletier", "based on Pelletier")
    assert by_id(page, "unverified-my-pelletier").count() == 0  # a copy of a checked printed card

    # a file chosen from the device: a fleet of two (the Pelletier again makes a second copy, never a clash)
    fleet = {"format": "leviathans-fleet/1", "name": "Mine", "ships": [card, dict(card, id="pelletier-ii", name="Pelletier II")]}
    upload = tmp_path / "mine.json"
    upload.write_text(json.dumps(fleet), encoding="utf-8")
    by_id(page, "fleets-import").click()
    with page.expect_file_chooser(timeout=15000) as chooser:
        by_id(page, "import-file").click()
    chooser.value.set_files(str(upload))
    wait_text(page, "fleets-message", "Imported 2 cards: Pelletier (my-pelletier-2), Pelletier II (my-pelletier-ii).")

    # print: the card's print-ready page opens in a new tab, its print dialog opened (issue 14.11),
    # from the dialog's link, followed in the tap itself (WebKit blocks a tab opened later: issue 37)
    by_id(page, "print-my-pelletier-ii").click()
    with context.expect_page(timeout=15000) as opened:
        by_id(page, "print-open").click()
    printed = opened.value
    printed.wait_for_load_state()
    assert "/print/" in printed.url and "Pelletier II" in printed.content()
    assert "window.print()" in printed.content()
    printed.screenshot(path=str(SCREENSHOTS / "print-tab-desktop.png"))
    printed.close()
    by_id(page, "print-open").wait_for(state="detached", timeout=15000)
    gone = requests_get(printed.url.replace(printed.url.split("/print/")[1], "not-a-token"))
    assert gone == 404

    # delete asks first, then the card is gone
    by_id(page, "delete-my-pelletier-ii").click()
    by_id(page, "confirm-delete").click()
    wait_text(page, "fleets-message", "Deleted Pelletier II from your cards.")
    assert by_id(page, "card-tile-my-pelletier-ii").count() == 0
    context.close()
