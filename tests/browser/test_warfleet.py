"""War Fleet in the browser: one turn of the 20-against-20 battle (initiative, a move, an attack
declared with its odds and rolled, casualties, the end of the turn), the converted card beside
its source, and a pocket sent to Quick-Start scale and brought back.  Screenshots go to
tests/screenshots/warfleet-*.png."""

from __future__ import annotations

import re
import time

import pytest

from .conftest import DESKTOP, PHONE, by_id, open_app, shoot, step, tap_until
from .test_sharing import wait_words

pytestmark = pytest.mark.browser


def text_of(node) -> str:
    return (node.get_attribute("aria-label") or "") + "\n" + node.inner_text()


def wait_text(page, ident: str, pattern: str, timeout: float = 30) -> str:
    node = by_id(page, ident).first
    node.wait_for(timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = text_of(node)
        if re.search(pattern, text):
            return text
        time.sleep(0.1)
    raise AssertionError(f"{ident} never showed {pattern!r}; it says: {text!r}")


def tap(page, ident: str, timeout: float = 30) -> None:
    node = by_id(page, ident).first
    node.wait_for(timeout=timeout * 1000)
    node.click()


def start_battle(page) -> None:
    tap(page, "war-fleet")
    tap(page, "wf-start-20v20")
    wait_text(page, "wf-banner", r"Turn 1 · Initiative")


def move_the_leviathan(page) -> None:
    tap(page, "wf-roll-initiative")
    wait_text(page, "wf-banner", r"British: class 4 ships move now")  # the only class 4 ship
    tap(page, "wf-ship-hml-leviathan")
    for control, words in (("wf-starboard", "turns to starboard"), ("wf-forward", "moves forward to 1108"),
                           ("wf-forward", "moves forward to 1207")):
        tap(page, control)
        wait_text(page, "wf-note", re.escape(words))
    wait_text(page, "wf-selected", r"1207 facing NE · MP 1 of 4")


def end_movement(page, picture: str | None = None) -> None:
    """End movement: the app asks first, naming the ships that have not moved (issue 14.9)."""
    step(page, "wf-end-movement")  # in the banner's menu on a phone (issue 28)
    confirm = by_id(page, "wf-end-movement-confirm")
    confirm.wait_for(timeout=30000)
    assert page.get_by_text(re.compile(r"\d+ ships have not moved: ")).count() == 1
    if picture:
        shoot(page, f"warfleet-{picture}")
    confirm.click()
    wait_text(page, "wf-banner", r"Turn 1 · Combat")


def to_combat(page) -> None:
    """From the home screen: a new battle, the Leviathan's move, and on to combat."""
    start_battle(page)
    move_the_leviathan(page)
    end_movement(page)


def test_one_war_fleet_turn_on_the_20_against_20_battle(server, browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url)
    start_battle(page)
    shoot(page, "warfleet-start")

    move_the_leviathan(page)
    shoot(page, "warfleet-move")
    end_movement(page, "end-movement-asks")

    # the Leviathan's attacks, each with its exact odds; declare the first, then roll every declared attack
    tap(page, "wf-ship-hml-leviathan")
    option = wait_text(page, "wf-option-row-0", r"destroyed \d+\.\d%, casualty \d+\.\d%")
    assert "Bow 12in at" in option  # the printed card's label
    tap(page, "wf-option-0")
    declared = wait_text(page, "wf-attack-1", r"casualty \d+\.\d%")
    assert "HML Leviathan Bow at" in declared
    wait_text(page, "wf-banner", r"1 attack declared, 1 to roll")
    shoot(page, "warfleet-declared")
    tap(page, "wf-roll-all")
    result = wait_text(page, "wf-attack-1", r"DBlack \d+ = \d+ against \d+")
    shoot(page, "warfleet-rolled")

    # the converted card beside its Quick-Start source
    tap(page, "wf-tab-card")
    wait_text(page, "wf-card", r"Converted from HML Leviathan: Type 4, SI 33, MP 4")  # the printed card
    bow = wait_text(page, "wf-card-bow", r"Quick-Start")
    assert "Resilience 7" in bow and "12in DBlack 8/DRed 16 (12)" in bow  # 14 + 2 armour - 9 (DRed & DBlue)
    shoot(page, "warfleet-card")

    # end of combat: a casualty leaves the map; then the end of the turn
    tap(page, "wf-end-combat")
    wait_text(page, "wf-banner", r"End of turn")
    if "casualty" in result:
        wait_text(page, "wf-note", r"Combat is over")
    tap(page, "wf-end-turn")
    wait_text(page, "wf-banner", r"Turn 2 · Initiative")
    tap(page, "wf-tab-log")
    log = wait_text(page, "wf-log", r"End of turn 1\.")
    assert "HML Leviathan moves forward to 1207" in log and "wins the initiative" in log
    shoot(page, "warfleet-turn-2")
    context.close()


def test_a_pocket_goes_to_quick_start_and_comes_back(server, browser):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url)
    to_combat(page)

    tap(page, "wf-ship-hml-leviathan")
    tap(page, "wf-tab-pocket")
    tap(page, "wf-pocket-reach-2")
    wait_text(page, "wf-open-pocket", r"Open pocket battle")
    tap(page, "wf-open-pocket")
    row = wait_text(page, "wf-pocket-1", r"Being fought at Quick-Start scale")
    assert "HML Leviathan" in row and "Pontbriand" in row
    shoot(page, "warfleet-pocket")

    # the Quick-Start battle, with the ships' full cards
    tap(page, "wf-play-pocket-1")
    by_id(page, "banner").wait_for(timeout=20000)
    assert re.search(r"Initiative", text_of(by_id(page, "banner")))
    shoot(page, "warfleet-pocket-quick-start")

    # back to War Fleet: bring the result back (nothing was destroyed)
    tap_until(page, "home", "war-fleet")  # a tap lost while a screen lays out is tapped again
    tap_until(page, "war-fleet", "wf-tab-pocket")
    tap_until(page, "wf-tab-pocket", "wf-bring-back-1")
    tap(page, "wf-bring-back-1")
    wait_text(page, "wf-pocket-1", r"Result: no damage")
    wait_text(page, "wf-note", r"its result is back in the War Fleet game")
    context.close()


def test_the_war_fleet_table_on_a_phone(server, browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    open_app(page, server.url)
    start_battle(page)
    # it opens on the map (issue 35: on an empty Ship tab), the ships to move one tap away under it
    by_id(page, "map").wait_for(timeout=30000)
    assert by_id(page, "wf-selected").count() == 0
    shoot(page, "warfleet-phone-opens")
    tap(page, "wf-roll-initiative")
    wait_text(page, "wf-banner", r"Turn 1 · Movement")
    by_id(page, "wf-ship-hml-leviathan").wait_for(timeout=30000)  # the strip under the map: the ships to move
    wait_words(page, "British: class 4 to move")  # the strip's words (the Ship tab says "ships to move")
    shoot(page, "warfleet-phone-movement-map")
    tap(page, "wf-ship-hml-leviathan")  # the strip's chip: its Ship tab opens
    wait_text(page, "wf-selected", r"HML Leviathan")
    shoot(page, "warfleet-phone")
    tap(page, "wf-tab-map")
    by_id(page, "map").wait_for(timeout=30000)  # the map (not a crash message) on a phone's map tab
    shoot(page, "warfleet-phone-map")
    context.close()
