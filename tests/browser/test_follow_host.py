"""Devices follow the host (issue 28): the host starts another Quick-Start battle and the phone that
holds British in the first one is offered it ("The host started Quick-Start: join as British?"); one
tap and it plays British in the new game, without going home or picking a role again."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, by_id, open_app, shoot, tap_until
from .test_sharing import join, label, wait_log
from .test_sharing import shared_server  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser


def _game_path(page) -> str:
    return "game/" + page.url.split("/game/")[1].split("?")[0]


def test_a_phone_follows_the_host_into_its_new_game(shared_server, browser):  # noqa: F811
    server = shared_server
    host = browser.new_context(viewport=DESKTOP).new_page()
    open_app(host, server.url)
    tap_until(host, "quick-start", "banner", timeout=60)
    host.wait_for_url("**/game/**", timeout=15000)
    first = _game_path(host)

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    join(phone, server.lan_url + first, server.pin, "side-British")
    wait_log(phone, 0, timeout=30)

    open_app(host, server.url)  # Home, and a second battle
    # The reload resumes the host's session, which shows the first game (its banner) until the new
    # address reaches the server: tap only once Home is there, or the old banner passes for the new.
    by_id(host, "quick-start").wait_for(timeout=30000)
    tap_until(host, "quick-start", "banner", timeout=60)
    host.wait_for_url(lambda url: "/game/" in url and first not in url, timeout=30000)
    second = _game_path(host)

    question = by_id(phone, "follow-question")
    question.wait_for(timeout=30000)
    assert "The host started Quick-Start: join as British?" in label(question)
    shoot(phone, "follow-host-offer-phone")
    by_id(phone, "follow-join").click()
    phone.wait_for_url(f"**/{second}**", timeout=30000)
    by_id(phone, "banner").wait_for(timeout=30000)
    by_id(phone, "my-role").wait_for(timeout=10000)
    assert "British" in label(by_id(phone, "my-role"))
    assert by_id(phone, "role-side-British").count() == 0  # no role picked again
    phone.context.close()
    host.context.close()


def test_the_tv_follows_the_hosts_new_war_fleet_battle_and_a_phone_is_offered_it_once(shared_server, browser):  # noqa: F811
    """Issue 35: the host's new War Fleet battle is offered as Quick-Start's are; a phone that reloads
    sees one offer; the shared screen is asked nothing and follows the host as the shared screen."""
    from .test_warfleet import start_battle, wait_text

    server = shared_server
    host = browser.new_context(viewport=DESKTOP).new_page()
    open_app(host, server.url)
    tap_until(host, "quick-start", "banner", timeout=60)
    host.wait_for_url("**/game/**", timeout=15000)
    first = _game_path(host)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    join(phone, server.lan_url + first, server.pin, "side-British")
    wait_log(phone, 0, timeout=30)
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    join(tv, server.lan_url + first, server.pin, "screen")
    by_id(tv, "screen-headline").wait_for(timeout=30000)

    open_app(host, server.url)
    by_id(host, "war-fleet").wait_for(timeout=30000)
    start_battle(host)
    host.wait_for_url(lambda url: "/game/" in url and first not in url, timeout=30000)
    second = _game_path(host)

    tv.wait_for_url(f"**/{second}**", timeout=60000)  # by itself: no one at a TV answers a dialog
    wait_text(tv, "screen-headline", r"Turn 1 · Initiative", timeout=60)
    assert by_id(tv, "follow-question").count() == 0
    shoot(tv, "follow-host-tv-followed")

    question = by_id(phone, "follow-question")
    question.wait_for(timeout=30000)
    assert "The host started War Fleet: join as British?" in label(question)
    open_app(phone, phone.url)  # a reload: one offer, the newest game's
    question = by_id(phone, "follow-question")
    question.wait_for(timeout=60000)
    assert question.count() == 1 and "War Fleet" in label(question)
    by_id(phone, "follow-join").click()
    phone.wait_for_url(f"**/{second}**", timeout=30000)
    wait_text(phone, "my-role", "British", timeout=30)
    for page in (phone, tv, host):
        page.context.close()
