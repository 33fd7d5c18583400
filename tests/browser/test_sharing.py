"""One game on many screens, in real browsers: the host on this computer, devices on the network.

Devices "on the network" open the server through this machine's network address (not
loopback), so the server treats them as guests: PIN first, then a side or the shared screen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import DESKTOP, PHONE, by_id, focus_field, open_app, Server, settle, SharedServer, shoot, tap_until, wait_focus

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def network_address() -> str | None:
    from companion.app.network import lan_address

    return lan_address()


@pytest.fixture
def shared_server(tmp_path):
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    srv = SharedServer(tmp_path / "data").start()
    yield srv
    srv.stop()


def label(node) -> str:
    return (node.get_attribute("aria-label") or "") + "\n" + node.inner_text()


def sync_text(page) -> str:
    node = by_id(page, "sync")
    node.wait_for(timeout=10000)
    return label(node)


def log_length(page) -> int:
    match = re.search(r"log (\d+)", sync_text(page))
    return int(match.group(1)) if match else -1


#: Installed in a page: the browser's clock when each log length first showed (`__seen`), and
#: when the last pointer went down on the page (`__pressed`), to time an action to its appearance.
WATCH = """() => {
  if (window.__seen) return;
  window.__seen = {};
  window.__pressed = 0;
  window.addEventListener('pointerdown', () => { window.__pressed = Date.now(); }, true);
  const look = () => {
    for (const e of document.querySelectorAll("[flt-semantics-identifier='sync']")) {
      const m = ((e.getAttribute('aria-label') || '') + ' ' + e.innerText).match(/log (\\d+)/);
      if (m && !(m[1] in window.__seen)) window.__seen[m[1]] = Date.now();
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  look();
}"""


def watch(page) -> None:
    page.evaluate(WATCH)


def wait_log(page, length: int, timeout: float = 10.0) -> int:
    """Wait until the page shows a log of `length` entries; the browser's clock when it first did (ms)."""
    watch(page)
    page.wait_for_function("n => window.__seen[n] !== undefined", arg=length, timeout=timeout * 1000)
    return page.evaluate("n => window.__seen[n]", length)


def wait_words(page, words: str, timeout: float = 10.0) -> None:
    """Wait until some node of the page's semantics tree says `words` (as its label or its text)."""
    page.wait_for_function(
        """w => [...document.querySelectorAll('flt-semantics')].some(
               e => (e.getAttribute('aria-label') || '').includes(w) || (e.textContent || '').includes(w))""",
        arg=words, timeout=timeout * 1000)


def enter_pin(page, pin: str) -> None:
    """Type `pin` into the PIN field as a player would (over whatever the field holds) and tap Join."""
    by_id(page, "pin-field").click()
    wait_focus(page)
    page.keyboard.press("Control+A")
    page.keyboard.type(pin, delay=20)
    by_id(page, "pin-join").click()


def join(page, url: str, pin: str, role: str | None) -> None:
    """Open `url` from the network, give the PIN, pick a role (`side-French`, `screen`)."""
    open_app(page, url)
    by_id(page, "pin-field").wait_for(timeout=15000)
    enter_pin(page, pin)
    if role:
        by_id(page, f"role-{role}").wait_for(timeout=10000)
        by_id(page, f"role-{role}").click()


def host_game_and_british_phone(server, browser):
    """The host (a desktop) starts the Quick-Start battle; a phone joins it with the PIN as British:
    (host context, host page, the game's path, phone context, phone page)."""
    host_ctx = browser.new_context(viewport=DESKTOP)
    host = host_ctx.new_page()
    open_app(host, server.url)
    by_id(host, "quick-start").wait_for(timeout=15000)
    by_id(host, "quick-start").click()
    host.wait_for_url("**/game/**", timeout=15000)
    game_path = "game/" + host.url.split("/game/")[1].split("?")[0]
    wait_log(host, 0)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = phone_ctx.new_page()
    join(phone, server.lan_url + game_path, server.pin, "side-British")
    by_id(phone, "my-role").wait_for(timeout=10000)
    return host_ctx, host, game_path, phone_ctx, phone


def test_one_game_on_many_screens(shared_server, browser):
    server = shared_server
    assert server.pin, "the server prints the join PIN"

    # the host (this computer) sees the join address, its QR code and the PIN; no PIN asked
    host_ctx = browser.new_context(viewport=DESKTOP)
    host = host_ctx.new_page()
    open_app(host, server.url)
    by_id(host, "join-pin").wait_for(timeout=15000)
    assert f"PIN {server.pin}" in label(by_id(host, "join-pin"))
    assert server.lan_url in label(by_id(host, "join-address"))
    assert by_id(host, "join-qr").count() == 1
    shoot(host, "share-home-desktop")
    by_id(host, "quick-start").click()
    host.wait_for_url("**/game/**", timeout=15000)
    game_path = "game/" + host.url.split("/game/")[1].split("?")[0]
    wait_log(host, 0)
    host_ctx.close()  # two contexts from here on: the phone and the laptop

    # a phone with a wrong PIN is refused, and sees nothing of the game
    british_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    british = british_ctx.new_page()
    open_app(british, server.lan_url + game_path)
    by_id(british, "pin-field").wait_for(timeout=15000)
    shoot(british, "join-phone")
    enter_pin(british, "000000" if server.pin != "000000" else "111111")
    message = by_id(british, "pin-message")
    message.wait_for(timeout=10000)
    assert "not right" in label(message)
    assert by_id(british, "sync").count() == 0 and by_id(british, "role-screen").count() == 0
    shoot(british, "join-refused-phone")

    # the right PIN: the role picker, then the British side
    enter_pin(british, server.pin)
    try:
        by_id(british, "role-side-British").wait_for(timeout=10000)
    except Exception:
        shoot(british, "roles-phone-failed")  # what the phone showed instead, for the report
        raise
    shoot(british, "roles-phone")
    by_id(british, "role-side-British").click()
    assert "This device: British" in label(by_id(british, "my-role"))

    # a second phone takes the French side
    french_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    french = french_ctx.new_page()
    join(french, server.lan_url + game_path, server.pin, "side-French")
    by_id(french, "my-role").wait_for(timeout=10000)

    # an action on one device appears on the other within a second (browser clock: the tap to the change)
    for page in (british, french):
        watch(page)
    settle(british)  # both screens settled
    settle(french)
    by_id(british, "start-game").click()
    wait_log(french, 1)  # the change reached the other phone (how fast: benchmarks/bench_shared.py)
    by_id(french, "roll-initiative").wait_for(timeout=5000)
    settle(french)
    by_id(french, "roll-initiative").click()
    wait_log(british, 2)

    # a side is shown the other side's ships read-only, with nothing to move them by (the server
    # refuses such a move anyway: test_server_roles, test_sharing's unit tests)
    french.get_by_role("button", name="Ships").last.click()
    tap_until(french, "ship-hml-raven", "their-ship")
    assert "British's ship: shown read-only" in label(by_id(french, "their-ship"))
    assert by_id(french, "step-forward").count() == 0
    assert log_length(french) == 2 and log_length(british) == 2

    # the shared screen has nothing to act with, and tapping it changes nothing
    tv_ctx = browser.new_context(viewport=DESKTOP)
    tv = tv_ctx.new_page()
    join(tv, server.lan_url + game_path, server.pin, "screen")
    by_id(tv, "screen-headline").wait_for(timeout=10000)
    wait_log(tv, 2)
    assert "Initiative" in label(by_id(tv, "screen-last-roll"))
    for ident in ("start-game", "roll-initiative", "step-forward", "end-move", "end-turn", "undo", "my-role"):
        assert by_id(tv, ident).count() == 0
    tv.mouse.click(400, 450)
    tv.mouse.click(600, 300)
    settle(tv)
    settle(british)
    assert log_length(british) == 2
    shoot(tv, "screen-desktop")
    tv_ctx.close()

    # the host sees every device at the game, to hand a side over
    host_ctx = browser.new_context(viewport=DESKTOP)
    host = host_ctx.new_page()
    open_app(host, server.url + game_path)
    by_id(host, "devices").wait_for(timeout=15000)
    by_id(host, "devices").click()
    seats = host.locator("[flt-semantics-identifier^='seat-']")
    seats.first.wait_for(timeout=10000)
    assert seats.count() >= 3  # the phone, the laptop and this computer (the TV has left)
    shoot(host, "devices-desktop")
    host_ctx.close()

    # a reload (a phone that slept and was woken) comes back to the game and its role, no PIN
    british.reload()
    open_app(british, british.url)
    by_id(british, "my-role").wait_for(timeout=15000)
    assert "This device: British" in label(by_id(british, "my-role"))
    assert log_length(british) == 2
    # a new tab on the same phone knows the device too
    second = british_ctx.new_page()
    open_app(second, server.lan_url + game_path)
    by_id(second, "my-role").wait_for(timeout=15000)
    assert by_id(second, "pin-field").count() == 0
    assert "This device: British" in label(by_id(second, "my-role"))
    for ctx in (british_ctx, french_ctx):
        ctx.close()


def test_shared_screen_and_join_on_a_phone(shared_server, browser):
    """The screens to look at on a phone: the host home with its QR code, the shared screen."""
    server = shared_server
    host_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    host = host_ctx.new_page()
    open_app(host, server.url)
    by_id(host, "join-qr").wait_for(timeout=15000)
    shoot(host, "share-home-phone")
    by_id(host, "quick-start").click()
    host.wait_for_url("**/game/**", timeout=15000)
    game_path = "game/" + host.url.split("/game/")[1].split("?")[0]
    by_id(host, "start-game").wait_for(timeout=10000)
    by_id(host, "start-game").click()
    by_id(host, "roll-initiative").wait_for(timeout=10000)
    by_id(host, "roll-initiative").click()
    wait_log(host, 2)

    desk_ctx = browser.new_context(viewport=DESKTOP)
    desk = desk_ctx.new_page()
    open_app(desk, server.lan_url)
    by_id(desk, "pin-field").wait_for(timeout=15000)
    shoot(desk, "join-desktop")

    tv_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tv = tv_ctx.new_page()
    join(tv, server.lan_url + game_path, server.pin, "screen")
    by_id(tv, "screen-headline").wait_for(timeout=10000)
    wait_log(tv, 2)
    assert "Initiative" in label(by_id(tv, "screen-last-roll"))
    shoot(tv, "screen-phone")
    for ctx in (host_ctx, desk_ctx, tv_ctx):
        ctx.close()


def test_a_role_change_and_a_waiting_device_wait_for_the_host(shared_server, browser):
    """Issue 11.4 and 11.6: a device asks for another side and the host approves it; a device asks to
    be let in and the host lets it in with one tap; a guest cannot start a game, a War Fleet battle neither."""
    server = shared_server
    host_ctx, host, game_path, phone_ctx, phone = host_game_and_british_phone(server, browser)
    assert "This device: British" in label(by_id(phone, "my-role"))

    # Change asks the host; the phone keeps British until the host approves
    by_id(phone, "change-role").click()
    by_id(phone, "role-needs-host").wait_for(timeout=10000)
    tap_until(phone, "role-side-French", "role-asked")
    assert "Asked the host for French" in label(by_id(phone, "role-asked"))
    assert "This device: British" in label(by_id(phone, "my-role"))
    approve = host.locator("[flt-semantics-identifier^='approve-']")
    approve.first.wait_for(timeout=10000)
    shoot(host, "role-request-desktop")
    approve.first.click()
    wait_words(phone, "This device: French", timeout=15000)
    assert by_id(phone, "role-asked").count() == 0

    # a guest starts no game (no War Fleet battle either: it joins the host's, issue 13) and loads no scenario
    open_app(phone, server.lan_url + "warfleet")
    by_id(phone, "host-only").wait_for(timeout=15000)
    assert "Only the host starts games" in label(by_id(phone, "host-only"))
    assert by_id(phone, "wf-start-20v20").count() == 0
    open_app(phone, server.lan_url + "load")
    by_id(phone, "host-only").wait_for(timeout=15000)
    assert "Only the host starts games" in label(by_id(phone, "host-only"))
    assert by_id(phone, "load-path").count() == 0 and by_id(phone, "load-button").count() == 0
    for screen in ("fleets", "editor"):  # the host's card library: refused on the server (issue 11)
        open_app(phone, server.lan_url + screen)
        by_id(phone, "host-only").wait_for(timeout=15000)
        assert "Only the host changes the ship cards" in label(by_id(phone, "host-only"))
        assert by_id(phone, "fleets-new").count() == 0 and by_id(phone, "editor-save").count() == 0
    open_app(phone, server.lan_url)
    by_id(phone, "guest-note").wait_for(timeout=15000)
    for ident in ("quick-start", "new-game", "load-scenario", "war-fleet", "join-pin", "fleets"):
        assert by_id(phone, ident).count() == 0
    phone_ctx.close()

    # a laptop asks to be let in without the PIN; the host's home lists it, one tap lets it in
    open_app(host, server.url)
    by_id(host, "join-pin").wait_for(timeout=15000)
    laptop_ctx = browser.new_context(viewport=DESKTOP)
    laptop = laptop_ctx.new_page()
    open_app(laptop, server.lan_url + game_path)
    by_id(laptop, "pin-ask").wait_for(timeout=15000)
    by_id(laptop, "pin-ask").click()
    by_id(laptop, "pin-asked").wait_for(timeout=10000)
    let_in = host.locator("[flt-semantics-identifier^='let-in-']")
    let_in.first.wait_for(timeout=10000)
    shoot(host, "waiting-device-desktop")
    let_in.first.click()
    by_id(laptop, "role-side-British").wait_for(timeout=15000)
    assert by_id(laptop, "pin-field").count() == 0
    by_id(laptop, "role-side-British").click()
    by_id(laptop, "my-role").wait_for(timeout=10000)
    name = re.search(r"· ((?:Phone|Tablet|Computer) \d+)", label(by_id(laptop, "my-role"))).group(1)

    # the host forgets the laptop: its screen goes back to the PIN at once
    open_app(host, server.url + game_path)
    by_id(host, "devices").wait_for(timeout=15000)
    by_id(host, "devices").click()
    by_id(host, f"forget-{name}").wait_for(timeout=10000)
    by_id(host, f"forget-{name}").click()
    by_id(laptop, "pin-field").wait_for(timeout=15000)
    assert by_id(laptop, "my-role").count() == 0
    for ctx in (host_ctx, laptop_ctx):
        ctx.close()


def test_the_host_renames_a_phone_and_forgets_it(shared_server, browser):
    """Issue 18: the host names a phone "Anna's phone" on its Devices list; the phone's bar and the
    host's list show the name and what the phone holds; Forget sends the phone back to the PIN."""
    server = shared_server
    host_ctx, host, game_path, phone_ctx, phone = host_game_and_british_phone(server, browser)
    ident = re.search(r"· ((?:Phone|Tablet|Computer) \d+)", label(by_id(phone, "my-role"))).group(1)

    tap_until(host, "devices", f"rename-{ident}")
    assert "British" in label(by_id(host, f"holds-{ident}"))
    tap_until(host, f"rename-{ident}", "rename-field")
    by_id(host, "rename-field").click()
    wait_focus(host)
    host.keyboard.press("Control+A")
    host.keyboard.type("Anna's phone", delay=20)
    by_id(host, "rename-save").click()
    wait_words(host, "Anna's phone: British", timeout=15000)  # the host's list
    wait_words(phone, "This device: British · Anna's phone", timeout=15000)  # the phone's bar
    shoot(host, "devices-list-desktop")
    shoot(phone, "renamed-phone")

    # the phone names itself (its own name only), from Change
    tap_until(phone, "change-role", "name-me")
    tap_until(phone, "name-me", "rename-field")
    by_id(phone, "rename-field").click()
    wait_focus(phone)
    phone.keyboard.press("Control+A")
    phone.keyboard.type("Ben's phone", delay=20)
    by_id(phone, "rename-save").click()
    wait_words(host, "Ben's phone: British", timeout=15000)
    tap_until(phone, "role-side-British", "my-role")  # the role it holds: straight back to the game
    wait_words(phone, "This device: British · Ben's phone", timeout=15000)

    by_id(host, f"forget-{ident}").click()
    by_id(phone, "pin-field").wait_for(timeout=15000)  # its token ended: the PIN again
    assert by_id(phone, "my-role").count() == 0
    for ctx in (host_ctx, phone_ctx):
        ctx.close()


def test_load_a_scenario_refuses_a_device_and_a_huge_board_in_plain_words(server, browser):
    """Issue 11.7: `/dev/zero` took the server to 2.7 GB; a pasted 999 x 999 board left it unanswering."""
    import json

    from companion.engine.quick_start.scenario import scenario_of

    from random_games import starting_state

    data = scenario_of(starting_state(1), "Quick-Start").model_dump(mode="json")
    page = browser.new_context(viewport=DESKTOP).new_page()
    open_app(page, server.url + "load")
    focus_field(page, "load-path")  # a click lost while the screen was laid out (seen under load) is made again
    page.keyboard.insert_text("/dev/zero")
    by_id(page, "load-button").click()
    wait_words(page, "is a device, not a plain file", timeout=15000)
    focus_field(page, "load-paste")
    page.keyboard.insert_text(json.dumps(dict(data, board={"columns": 999, "rows": 999})))
    by_id(page, "load-button").click()
    wait_words(page, "a board of 999 columns is too big for the table app", timeout=15000)
    shoot(page, "load-refused-desktop")
    page.context.close()


def test_the_other_sides_ship_is_shown_read_only(shared_server, browser):
    """Issue 14.6: on a phone holding British, a French ship's card shows, with no moves and no taps."""
    server = shared_server
    host = browser.new_context(viewport=DESKTOP).new_page()
    open_app(host, server.url)
    by_id(host, "quick-start").wait_for(timeout=15000)
    by_id(host, "quick-start").click()
    host.wait_for_url("**/game/**", timeout=15000)
    game_path = "game/" + host.url.split("/game/")[1].split("?")[0]
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    join(phone, server.lan_url + game_path, server.pin, "side-British")
    by_id(phone, "my-role").wait_for(timeout=10000)
    tap_until(phone, "tab-ship", "ship-pontbriand")
    tap_until(phone, "ship-pontbriand", "their-ship")
    assert "French's ship: shown read-only, as this device holds British" in label(by_id(phone, "their-ship"))
    by_id(phone, "card-pontbriand").wait_for(timeout=10000)
    assert by_id(phone, "face-N").count() == 0 and by_id(phone, "step-forward").count() == 0
    shoot(phone, "their-ship-phone")
    tap_until(phone, "ship-hml-raven", "face-N")  # its own ship: the moves are there
    assert by_id(phone, "their-ship").count() == 0
    for page in (host, phone):
        page.context.close()


def test_the_other_sides_guns_offer_no_declare_in_combat(tmp_path, browser):
    """Issue 14.6 on the fire tab: in combat a phone holding French sees the Raven's guns and odds
    with nothing to declare a shot by; the Pontbriand, its own, has its Declare buttons."""
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    from companion.engine.roller import Roller
    from companion.store import TinyDBStore

    from .conftest import SEED
    from .test_fire_ship_destroyed import one_slot_from_wrecked

    state, ident, _ = one_slot_from_wrecked()
    store = TinyDBStore(tmp_path / "data")
    game = store.new_game(state, "combat on a shared table", roller=Roller.from_seed(SEED))
    store.close()
    server = SharedServer(tmp_path / "data").start()
    try:
        host = browser.new_context(viewport=DESKTOP).new_page()
        open_app(host, f"{server.url}game/{game.id}")
        by_id(host, "tab-fire").wait_for(timeout=20000)
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        join(phone, f"{server.lan_url}game/{game.id}", server.pin, "side-French")
        by_id(phone, "my-role").wait_for(timeout=10000)
        tap_until(phone, "tab-fire", "fire-hml-raven")
        tap_until(phone, "fire-hml-raven", "their-guns")
        assert "Shown read-only: this device holds French" in label(by_id(phone, "their-guns"))
        by_id(phone, ident).wait_for(timeout=10000)  # the odds are there
        assert by_id(phone, ident.replace("ship-destroyed-", "declare-")).count() == 0
        shoot(phone, "their-guns-phone")
        tap_until(phone, "fire-pontbriand", "fire-pontbriand")
        by_id(phone, "fire-pontbriand").click()
        phone.wait_for_function(
            "() => document.querySelector(\"[flt-semantics-identifier^='declare-']\") !== null", timeout=20000)
        assert by_id(phone, "their-guns").count() == 0
        for page in (host, phone):
            page.context.close()
    finally:
        server.stop()
