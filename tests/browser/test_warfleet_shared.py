"""A War Fleet battle shared like a Quick-Start game (issue 13): the host starts it, two phones join
with the PIN as British and French and a TV as the shared screen; a table step on one phone and a
move on the other show everywhere, and the French phone's try at moving a British ship is refused
on the server.  Screenshots: tests/screenshots/warfleet-shared-*.png."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, by_id, open_app
from .test_sharing import join, shared_server  # noqa: F401  (the fixture)
from .test_warfleet import shoot, start_battle, tap, wait_text

pytestmark = pytest.mark.browser


def test_a_war_fleet_battle_on_two_phones_and_a_tv(shared_server, browser):  # noqa: F811
    server = shared_server
    host_ctx = browser.new_context(viewport=DESKTOP)
    host = host_ctx.new_page()
    open_app(host, server.url)
    start_battle(host)
    host.wait_for_url("**/game/**", timeout=15000)
    game_path = "game/" + host.url.split("/game/")[1].split("?")[0]

    contexts, pages = [host_ctx], {}
    for name, role, viewport in (("british", "side-British", PHONE), ("french", "side-French", PHONE),
                                 ("tv", "screen", DESKTOP)):
        context = browser.new_context(viewport=viewport, is_mobile=viewport is PHONE, has_touch=viewport is PHONE)
        contexts.append(context)
        pages[name] = context.new_page()
        join(pages[name], server.lan_url + game_path, server.pin, role)
        # the TV has War Fleet's shared-screen layout (issue 28), the phones the game frame
        wait_text(pages[name], "screen-headline" if name == "tv" else "wf-banner", r"Turn 1 · Initiative", timeout=60)
    british, french, tv = pages["british"], pages["french"], pages["tv"]
    assert by_id(tv, "wf-undo").count() == 0 and by_id(tv, "wf-roll-initiative").count() == 0  # it changes nothing

    tap(french, "wf-roll-initiative")  # a step of the whole table: any side's phone takes it
    for page in (british, host):
        wait_text(page, "wf-banner", r"British: class 4 ships move now", timeout=60)
    wait_text(tv, "screen-whose", r"British: class 4 ships move", timeout=60)
    names = tv.locator("[flt-semantics-identifier^='screen-name-']")
    assert names.count() >= 1  # ships named large on the TV's map, where no name hides another
    boxes = [names.nth(n).bounding_box() for n in range(names.count())]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert (a["x"] + a["width"] <= b["x"] + 1 or b["x"] + b["width"] <= a["x"] + 1
                    or a["y"] + a["height"] <= b["y"] + 1 or b["y"] + b["height"] <= a["y"] + 1)

    tap(french, "wf-ship-hml-leviathan")
    tap(french, "wf-starboard")
    wait_text(french, "wf-note", r"HML Leviathan is a British ship: only a device holding British can move")
    shoot(french, "warfleet-shared-refused-phone")

    tap(british, "wf-ship-hml-leviathan")
    tap(british, "wf-starboard")
    wait_text(british, "wf-note", r"turns to starboard")
    wait_text(tv, "sync", r"log 2 ·", timeout=60)  # the TV is in step: the roll and the turn
    tap(french, "wf-tab-log")
    log = wait_text(french, "wf-log", r"HML Leviathan turns to starboard", timeout=60)
    assert log.count("turns to starboard") == 1  # the refused try left nothing in the log
    shoot(british, "warfleet-shared-moved-phone")
    shoot(tv, "warfleet-shared-tv")
    for context in contexts:
        context.close()
