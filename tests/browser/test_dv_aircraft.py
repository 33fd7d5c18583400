"""Decisive Victory aircraft in the browser (issue 16, spec decisive-victory.md §12): the host starts
the shipped carrier strike (fleets/decisive-victory/carrier-strike.json) from Home, a TV joins as the
shared screen.  Turn 1: the initiative as the table decided it, the aircraft phase's attacking stage
resolved (the bombing squadron, launched before the battle, is On Target), the squadron placed, AA
fire from its target with the points typed and the table's dice, its strike's whole hit chain's
odds read before rolling, the strike rolled with the table's dice (a hit, the save failed, box
(1, 4) marked), the returning stage resolved and the torpedo squadron launched at a measured
distance (close and slow: 2 turns); then by hand the rule checks off and on and a rudder locked.  Screenshots in tests/screenshots/dv-air-*.png.
"""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, by_id, open_app, tap_until
from .test_dv_phones import banner_says, says, tap, type_into
from .test_sharing import SharedServer, join, network_address, shoot

pytestmark = pytest.mark.browser

VB, VT = "uss-carrier.vb", "uss-carrier.vt"


def test_a_carrier_strike_through_its_stages(tmp_path, browser):
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    server = SharedServer(tmp_path / "data").start()
    try:
        host = browser.new_context(viewport=DESKTOP).new_page()
        open_app(host, server.url)
        tap_until(host, "decisive-victory", "dv-scenario-carrier-strike")  # both shipped scenarios offered
        by_id(host, "dv-scenario-sample").wait_for(timeout=20000)
        shoot(host, "dv-air-scenarios")
        tap_until(host, "dv-scenario-carrier-strike", "dv-banner")
        host.wait_for_url(re.compile(r"/game/"), timeout=20000)
        game = host.url.rsplit("/game/", 1)[1].split("?")[0]
        banner_says(host, "Set-up")

        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        join(tv, f"{server.lan_url}game/{game}", server.pin, None)
        tap_until(tv, "role-screen", "screen-headline")
        says(tv, "screen-flights", "Bombing squadron")

        # command, then the initiative as the table decided it (by hand: set_initiative)
        tap_until(host, "dv-start", "dv-end-command")
        tap_until(host, "dv-end-command", "dv-roll-initiative")
        tap_until(host, "dv-tab-ship", "dv-set-initiative-American")
        tap(host, "dv-set-initiative-American")
        banner_says(host, "Aircraft")
        banner_says(host, "Initiative: American")

        # the attacking stage: the bombing squadron is On Target, to be placed
        tap_until(host, "dv-tab-air", "dv-air-resolve-attacking")
        tap_until(host, "dv-air-resolve-attacking", "dv-air-resolve-returning")
        says(host, f"dv-flight-{VB}-stage", "On Target · to be placed")
        tap_until(host, f"dv-flight-{VB}", f"dv-flight-{VB}-picked")
        tap_until(host, f"dv-air-{VB}-place-flight-0", f"dv-air-{VB}-air-strike-ijn-cruiser")
        says(host, f"dv-flight-{VB}-stage", "On Target · on the table")

        # AA fire from IJN Sample Cruiser: 1 point typed (+3 against quality 2), the table's 1, 1: nothing
        aa = f"dv-air-{VB}-aa-ijn-cruiser"
        says(host, f"{aa}-odds", "3 AA points at +7: destroyed 83.3% (5/6)")
        type_into(host, f"{aa}-points", "1")
        says(host, f"{aa}-odds", "1 AA point at +3: destroyed 44.4% (4/9)")
        shoot(host, "dv-air-aa-odds")
        type_into(host, f"{aa}-attack", "1 1")
        tap(host, f"{aa}-table")
        says(tv, "screen-last-roll", "fires 1 AA at Bombing squadron")

        # the strike: its whole chain's odds before rolling, then the table's dice: hit, save failed, box (1, 4)
        strike = f"dv-air-{VB}-air-strike-ijn-cruiser"
        says(host, f"{strike}-odds", "Hit 66.7% (2/3) at +5")
        says(host, f"{strike}-odds", "Save fails")
        shoot(host, "dv-air-strike-odds")
        type_into(host, f"{strike}-distance", "1")
        type_into(host, f"{strike}-attack", "3 4")
        type_into(host, f"{strike}-save", "1 1")
        type_into(host, f"{strike}-damage", "4 5 6")
        tap(host, f"{strike}-table")
        by_id(tv, "dv-box-ijn-cruiser-1-4-marked").wait_for(timeout=30000)
        says(tv, "screen-ship-ijn-cruiser", "Damage 3 (CDT 5)")
        says(tv, "screen-flights", "Returning")
        shoot(tv, "dv-air-strike-tv")

        # the returning stage, then the torpedo squadron launched 60" away: close, slow: 2 turns
        tap_until(host, "dv-air-resolve-returning", "dv-air-end-aircraft")
        tap_until(host, f"dv-flight-{VT}", f"dv-flight-{VT}-picked")
        launch = f"dv-air-{VT}-launch-flight"
        tap_until(host, "dv-air-target-ijn-kaze", "dv-air-target-ijn-kaze-picked")
        type_into(host, f"{launch}-distance", "60")
        says(host, f"{launch}-band", "60\" is close range")
        shoot(host, "dv-air-launch")
        tap(host, launch)
        says(host, f"dv-flight-{VT}-stage", "Attacking · 2 turns to its target")
        says(tv, "screen-flights", "2 turns to its target")
        shoot(tv, "dv-air-flights-tv")
        shoot(host, "dv-air-launched")
        tap_until(host, "dv-air-end-aircraft", "dv-end-movement")
        banner_says(host, "Movement")

        # by hand: the rule checks off and on again (the Log tab), a rudder locked on the ship card
        tap_until(host, "dv-tab-log", "dv-bookkeeping-on")
        tap_until(host, "dv-bookkeeping-on", "dv-bookkeeping-off")
        says(host, "dv-bookkeeping", "Rule checks are off")
        tap_until(host, "dv-bookkeeping-off", "dv-bookkeeping-on")
        tap_until(host, "dv-tab-ship", "dv-ship-ijn-kaze")
        tap_until(host, "dv-ship-ijn-kaze", "dv-card-ijn-kaze")
        tap_until(host, "dv-by-hand", "dv-rudder-ahead")
        tap_until(host, "dv-rudder-ahead", "dv-rudder-free")
        shoot(host, "dv-air-by-hand")
        for page in (host, tv):
            page.context.close()
    finally:
        server.stop()
