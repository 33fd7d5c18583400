"""One full turn of Decisive Victory on two phones (390x844, one per side, through shared play) and
a TV (the shared screen): the host starts the sample scenario from Home; command points and an
ability; initiative with the table's dice; a move with a turn typed as numbers; a gun attack whose
exact odds show before rolling, rolled with table faces so its N7 bonus roll is certain, two
armour saves failed and two grid boxes marked; a torpedo; the maintenance rolls due; the turn
ended; the log; a grid box marked by hand and undone.  Screenshots in tests/screenshots/dv-*.png.

Checked from the page, waiting generously: a latency is the benchmark's, never asserted here.
"""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, PHONE, by_id, open_app, settle, step, tap_until, wait_focus
from .test_e2e import text_of, wait_for_text
from .test_sharing import SharedServer, join, label, network_address, shoot

pytestmark = pytest.mark.browser


def says(page, ident: str, words: str, timeout: float = 30) -> str:
    node = by_id(page, ident)
    return wait_for_text(lambda: text_of(node) + label(node), re.escape(words), ident, timeout)


def banner_says(page, words: str, timeout: float = 30) -> str:
    return says(page, "dv-banner", words, timeout)


def tap(page, ident: str) -> None:
    node = by_id(page, ident)
    node.wait_for(timeout=20000)
    node.click()


def middle(page, node) -> None:
    """Scroll the panel under `node` (with the mouse wheel, as Flutter scrolls) until the node sits
    near the middle of the screen: a field at the screen's edge may not take a click's focus."""
    for _ in range(5):
        box, height = node.bounding_box(), page.viewport_size["height"]
        if box is None or height * 0.2 < box["y"] + box["height"] / 2 < height * 0.7:
            return
        page.mouse.move(box["x"] + box["width"] / 2, min(max(box["y"], 5), height - 5))
        page.mouse.wheel(0, box["y"] + box["height"] / 2 - height / 2)
        settle(page, quiet_ms=150)


def type_into(page, ident: str, text: str) -> None:
    node = by_id(page, ident)
    node.wait_for(timeout=20000)
    middle(page, node)
    node.click()
    page.wait_for_timeout(200)  # the new field has the focus, not the last one
    wait_focus(page)
    page.keyboard.press("Control+A")
    page.keyboard.type(text, delay=20)


def select(page, ship: str) -> None:
    """Open the Ships tab and the ship: its card on screen."""
    tap_until(page, "dv-tab-ship", f"dv-ship-{ship}")
    tap_until(page, f"dv-ship-{ship}", f"dv-card-{ship}")


def half_and_end(page, ship: str, last: bool = False) -> None:
    """Slow to half speed and stay: its move done (the last ship's ends movement: the Attacks tab opens)."""
    select(page, ship)
    tap_until(page, "dv-speed-half", "dv-speed-full")  # half now: Full is offered instead
    tap(page, "dv-end-move")
    if not last:
        says(page, f"dv-speed-{ship}", "Half speed · moved 0\", 0 turns")


def test_one_turn_on_two_phones_and_a_tv(tmp_path, browser):
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    server = SharedServer(tmp_path / "data").start()
    try:
        host = browser.new_context(viewport=DESKTOP).new_page()
        open_app(host, server.url)
        tap_until(host, "decisive-victory", "dv-scenario-sample")  # Home: Decisive Victory asks which scenario
        tap_until(host, "dv-scenario-sample", "dv-banner")
        host.wait_for_url(re.compile(r"/game/"), timeout=20000)
        game = host.url.rsplit("/game/", 1)[1].split("?")[0]
        banner_says(host, "Set-up")

        tv = browser.new_context(viewport=DESKTOP).new_page()
        join(tv, f"{server.lan_url}game/{game}", server.pin, None)
        tap_until(tv, "role-screen", "screen-headline")
        phones = {}
        for side in ("British", "Japanese"):
            phones[side] = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
            join(phones[side], f"{server.lan_url}game/{game}", server.pin, None)
            tap_until(phones[side], f"role-side-{side}", "dv-banner")  # a tap lost in a layout: tapped again
        british, japanese = phones["British"], phones["Japanese"]

        # command: points generated on entry; HMS Dash pays 1 of its 2 for Evasive Maneuvers
        tap_until(british, "dv-start", "dv-end-command")
        banner_says(japanese, "Command")
        select(british, "hms-dash")
        says(british, "dv-cp-hms-dash", "CP 2")
        tap(british, "dv-ability-evasive")
        says(british, "dv-cp-hms-dash", "CP 1 · abilities: Evasive Maneuvers")
        shoot(british, "dv-command-phone")
        tap_until(japanese, "dv-end-command", "dv-roll-initiative")

        # initiative with the table's dice: British 5 + 3 against Japanese 2 + 3
        banner_says(british, "Initiative")
        tap_until(british, "dv-tab-ship", "dv-initiative-British")
        type_into(british, "dv-initiative-British", "5")
        type_into(british, "dv-initiative-Japanese", "2")
        tap(british, "dv-initiative-table")
        banner_says(japanese, "Initiative: British")
        says(tv, "screen-last-roll", "British 5 + 3 = 8")

        # movement: the loser first; IJN Mihon moves 10" with one turn, the others slow to half and stay
        select(japanese, "ijn-mihon")
        says(japanese, "dv-move-limits", "Full speed: 8\" to 15\"")
        type_into(japanese, "dv-inches", "10")
        type_into(japanese, "dv-turns", "1")
        tap(japanese, "dv-move")
        says(japanese, "dv-note", "IJN Mihon moves 10\" and turns 1 time")
        shoot(japanese, "dv-move-phone")
        tap(japanese, "dv-end-move")
        for ship in ("ijn-kaze", "ijn-nami"):
            half_and_end(japanese, ship)
        for ship in ("hms-sample", "hms-dash", "hms-dart"):
            half_and_end(british, ship, last=ship == "hms-dart")
        banner_says(british, "Attacks")

        # a gun attack: its exact odds before rolling, then table faces: a N7, its bonus N7, both saves failed
        tap_until(british, "dv-tab-attacks", "dv-declare")
        tap_until(british, "dv-attacker-hms-sample", "dv-attacker-hms-sample-picked")
        tap_until(british, "dv-weapon-main", "dv-weapon-main-picked")
        tap_until(british, "dv-target-ijn-mihon", "dv-target-ijn-mihon-picked")
        type_into(british, "dv-distance", "10")
        says(british, "dv-preview", "Hit 44.4% (4/9) at +3")
        says(british, "dv-preview", "N7 bonus hit 2.5% (2/81)")
        shoot(british, "dv-odds-phone")
        tap(british, "dv-declare")
        says(tv, "screen-shots", "Hit 44.4% (4/9)")
        shoot(tv, "dv-declared-tv")
        type_into(british, "dv-attack-1-attack", "3 4")
        type_into(british, "dv-attack-1-bonus", "4 3")
        type_into(british, "dv-attack-1-saves", "1 1 / 1 1")
        type_into(british, "dv-attack-1-damage", "4 5 / 6 1")
        tap(british, "dv-attack-1-table")
        by_id(tv, "dv-box-ijn-mihon-3-4-marked").wait_for(timeout=30000)  # hit 1: (4-5, 4) Torp
        by_id(tv, "dv-box-ijn-mihon-3-3-marked").wait_for(timeout=30000)  # the bonus hit: (4-5, 3) Struct
        says(tv, "screen-ship-ijn-mihon", "Damage 3 (CDT 5) · minor 1")
        shoot(tv, "dv-gun-attack-tv")
        select(japanese, "ijn-mihon")
        by_id(japanese, "dv-box-ijn-mihon-3-4-marked").wait_for(timeout=30000)
        shoot(japanese, "dv-grid-phone")

        # a torpedo from HMS Dash at IJN Kaze 5" away: row 6 forced, the save failed, two of three dice 3+
        step(british, "dv-end-activation")  # the banner's menu on a phone (issue 28)
        tap_until(british, "dv-attacker-hms-dash", "dv-attacker-hms-dash-picked")
        tap_until(british, "dv-weapon-torpedoes", "dv-weapon-torpedoes-picked")
        tap_until(british, "dv-target-ijn-kaze", "dv-target-ijn-kaze-picked")
        type_into(british, "dv-distance", "5")
        says(british, "dv-preview", "at +2")
        tap(british, "dv-declare")
        type_into(british, "dv-attack-2-attack", "3 4")
        type_into(british, "dv-attack-2-saves", "1 1")
        type_into(british, "dv-attack-2-damage", "3 3 1")
        tap(british, "dv-attack-2-table")
        by_id(tv, "dv-box-ijn-kaze-4-4-marked").wait_for(timeout=30000)  # (6, 4) Speed: a destroyer's speed damaged
        says(tv, "screen-ship-ijn-kaze", "Damage 2 (CDT 3) · minor 1")
        shoot(tv, "dv-torpedo-tv")

        # maintenance: IJN Mihon's torpedo system roll (its last salvo: a 2, no damage); the turn ends
        step(british, "dv-end-attacks")  # the banner's menu on a phone (issue 28)
        banner_says(japanese, "Maintenance")
        tap_until(japanese, "dv-tab-maintenance", "dv-maint-ijn-mihon")
        type_into(japanese, "dv-maint-ijn-mihon-dice", "2")
        tap_until(japanese, "dv-maintenance-ijn-mihon-torpedoes", "dv-maintenance-ijn-mihon-minor")
        shoot(japanese, "dv-maintenance-phone")
        for ship in ("ijn-mihon", "ijn-kaze"):  # the minor damage step clears the minor damage (under 3: no grid roll)
            tap(japanese, f"dv-maintenance-{ship}-minor")
            says(tv, f"screen-ship-{ship}", "minor 0")
        banner_says(japanese, "Nothing left to roll")
        tap(japanese, "dv-end-turn")
        for page in (british, japanese):
            banner_says(page, "Turn 2 · Command")
        says(tv, "screen-headline", "Turn 2 · Command")
        shoot(tv, "dv-turn-2-tv")
        shoot(british, "dv-turn-2-phone")
        tap_until(british, "dv-tab-log", "dv-log")
        says(british, "dv-log", "IJN Mihon moves 10\" and turns 1 time")

        # by hand (the table is the truth): a box of HMS Dart marked, seen on the TV, then undone
        select(british, "hms-dart")
        tap_until(british, "dv-by-hand", "dv-points-up")
        tap_until(british, "dv-box-hms-dart-1-1", "dv-box-hms-dart-1-1-marked")
        by_id(tv, "dv-box-hms-dart-1-1-marked").wait_for(timeout=30000)
        tap(british, "dv-undo")
        by_id(tv, "dv-box-hms-dart-1-1").wait_for(timeout=30000)
        assert by_id(tv, "dv-box-hms-dart-1-1-marked").count() == 0
        for page in (host, tv, british, japanese):
            page.context.close()
    finally:
        server.stop()
