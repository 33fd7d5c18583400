"""A turn no side can stall (issue 35), on two devices holding the two sides: the host's browser and
a phone that joined with the PIN.  The phone is never offered an End movement that would end the
other side's moves: it says what it waits for, the other side's ships stay that side's to move, and
an H1 sealed record survives until its reveal.  The host may end movement for everyone, and the
phone is told.  Screenshots: tests/screenshots/end-movement-*.png."""

from __future__ import annotations

import re

import pytest

from cards_for_tests import position, ship
from companion.engine.board import Board
from companion.engine.quick_start.house_rules import with_house_rules
from companion.engine.quick_start.table_rules import HouseRules
from companion.engine.roller import Roller
from companion.files import load_catalogue
from companion.store import TinyDBStore
from random_games import starting_state

from .conftest import DESKTOP, PHONE, SEED, SharedServer, by_id, open_app, shoot, tap_until
from .test_sharing import join, network_address
from .test_warfleet import start_battle, tap, text_of, wait_text

pytestmark = pytest.mark.browser


def stored(data, state, name: str) -> str:
    """A game saved before the server starts, played on with `actions` (each accepted): its id."""
    store = TinyDBStore(data)
    game = store.new_game(state, name, roller=Roller.from_seed(SEED))
    store.close()
    return game.id


def play(data, game_id: str, *actions) -> None:
    store = TinyDBStore(data)
    game = store.game(game_id)
    for action in actions:
        assert game.act(action).ok, action
    store.close()


def quick_start_in_movement(data) -> str:
    game_id = stored(data, starting_state(SEED), "two sides")
    store = TinyDBStore(data)
    game = store.game(game_id)
    while game.state.phase != "movement":  # the initiative, rolled again on a tie
        assert game.act({"kind": "roll_initiative"}).ok
    store.close()
    return game_id


def h1_with_a_sealed_record(data) -> str:
    """House rule H1, section 9's H1-3: the Raven moved, the Hertfordshire's record sealed, the
    Pontbriand's (French) still to make."""
    cards = load_catalogue()
    places = {"hertfordshire": ("British", "hml-hertfordshire", "1014", "N"),
              "raven": ("British", "hml-raven", "2014", "N"),
              "pontbriand": ("French", "pontbriand", "1006", "S"),
              "pelletier": ("French", "pelletier", "2006", "S")}
    ships = [ship(i, side, cards[card], bow, facing, board=Board()) for i, (side, card, bow, facing) in places.items()]
    state = with_house_rules(position(*ships, board=Board(), phase="initiative", seed=SEED),
                             HouseRules(unit_initiative=True))
    game_id = stored(data, state, "sealed record")
    play(data, game_id,
         {"kind": "roll_unit_initiative", "faces": {"hertfordshire": [4, 6], "raven": [10], "pontbriand": [4, 6],
                                                    "pelletier": [3]}},
         {"kind": "end_move", "ship": "raven"},
         {"kind": "record_move", "ship": "hertfordshire", "bow": "1011", "facing": "N"})
    return game_id


def host_holds(host, side: str) -> None:
    """The host's browser takes one side (it plays the whole table until it picks another)."""
    tap_until(host, "change-role", f"role-side-{side}")
    tap_until(host, f"role-side-{side}", "change-role")
    wait_text(host, "my-role", side)


def menu_says(page, pattern: str) -> str:
    """Open the game's menu, read its End movement line, close the menu: the words it shows."""
    tap_until(page, "menu", "menu-end-movement")
    words = wait_text(page, "menu-end-movement", pattern)
    page.keyboard.press("Escape")
    by_id(page, "menu-end-movement").wait_for(state="detached", timeout=20000)
    return words


@pytest.fixture
def two_sides(tmp_path, browser):
    """(server, data folder, open): `open(game_id, host_side, phone_side)` gives the host's page
    holding one side and a phone's that joined with the PIN holding the other."""
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    data = tmp_path / "data"
    servers, contexts = [], []

    def open_(game_id: str | None, host_side: str, phone_side: str, prefix: str = ""):
        server = SharedServer(data).start()
        servers.append(server)
        host_ctx = browser.new_context(viewport=DESKTOP)
        contexts.append(host_ctx)
        host = host_ctx.new_page()
        if game_id is None:  # the host starts a War Fleet battle from Home
            open_app(host, server.url)
            start_battle(host)
            host.wait_for_url("**/game/**", timeout=15000)
            game_id = host.url.split("/game/")[1].split("?")[0]
        else:
            open_app(host, f"{server.url}game/{game_id}")
        by_id(host, prefix + "banner").wait_for(timeout=30000)
        host_holds(host, host_side)
        phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        contexts.append(phone_ctx)
        phone = phone_ctx.new_page()
        join(phone, f"{server.lan_url}game/{game_id}", server.pin, f"side-{phone_side}")
        wait_text(phone, "my-role", phone_side, timeout=30)
        return host, phone

    yield data, open_
    for context in contexts:
        context.close()
    for server in servers:
        server.stop()


def test_quick_start_the_phone_waits_and_the_host_ends_movement_for_everyone(two_sides):
    data, open_ = two_sides
    game_id = quick_start_in_movement(data)
    host, phone = open_(game_id, "French", "British")
    words = menu_says(phone, r"End movement: waiting for French: 2 ships still to move")
    assert "End my side's moves" not in words
    shoot(phone, "end-movement-quick-start-waiting-phone")
    wait_text(phone, "banner", r"Movement")
    # the host may: its own menu offers End movement, and every screen is told what it ended
    tap_until(host, "menu", "menu-end-movement")
    tap(host, "menu-end-movement")
    wait_text(host, "banner", r"Turn 1 · Fire")
    note = wait_text(phone, "note", r"The host ended movement: British's 2 ships not moved", timeout=60)
    assert "stay where they are" in note and "French's" not in note
    wait_text(phone, "banner", r"Turn 1 · Fire")
    shoot(phone, "end-movement-quick-start-host-ended-phone")


def test_war_fleet_a_side_ends_only_its_own_moves(two_sides):
    data, open_ = two_sides
    host, phone = open_(None, "French", "British", prefix="wf-")
    tap(phone, "wf-roll-initiative")
    wait_text(phone, "wf-banner", r"British: class 4 ships move now", timeout=60)
    # the phone ends its own group; End movement (the French ships' moves too) is not offered
    detail = wait_text(phone, "wf-banner", r"Waiting for French: 20 ships still to move")
    assert by_id(phone, "wf-end-movement").count() == 0 and by_id(phone, "wf-banner-more").count() == 0
    shoot(phone, "end-movement-war-fleet-own-group-phone")
    for ship_class in (4, 3):  # British's classes 4 and 3 first: French has neither
        wait_text(phone, "wf-banner", rf"British: class {ship_class} ships move now", timeout=60)
        tap(phone, "wf-end-group")
    wait_text(phone, "wf-banner", r"French: class \d ships move now", timeout=60)
    assert "Waiting for French" in detail
    assert by_id(phone, "wf-end-group").count() == 0  # French's group: French's to end
    # the French ships are still French's to move: the host, holding French, ends its own group
    before = wait_text(host, "wf-banner", r"French: class \d ships move now", timeout=60)
    tap(host, "wf-end-group")
    group = re.search(r"French: class \d ships move now", before).group(0)
    wait_text(host, "wf-banner", rf"^(?![\s\S]*{group})", timeout=60)
    # the host may end movement for everyone; the phone is told which of its ships stayed
    tap(host, "wf-end-movement")
    tap(host, "wf-end-movement-confirm")
    wait_text(host, "wf-banner", r"Turn 1 · Combat", timeout=60)
    note = wait_text(phone, "wf-note", r"The host ended movement: British's \d+ ships not moved", timeout=60)
    assert "French's" not in note
    shoot(phone, "end-movement-war-fleet-host-ended-phone")


def test_h1_the_other_side_never_discards_a_sealed_record(two_sides):
    data, open_ = two_sides
    game_id = h1_with_a_sealed_record(data)
    host, phone = open_(game_id, "British", "French")
    wait_text(phone, "banner", re.escape("(HML Hertfordshire recorded)"), timeout=60)
    menu_says(phone, r"End movement: waiting for British: 1 ship still to move")
    shoot(phone, "end-movement-h1-waiting-phone")
    # the record survives: the French phone records its own ship, and both are revealed
    tap_until(phone, "tab-ship", "ship-pontbriand")
    tap_until(phone, "ship-pontbriand", "place-hex")
    field = by_id(phone, "place-hex")
    field.click()
    phone.keyboard.press("Control+A")
    phone.keyboard.type("1008", delay=20)
    tap(phone, "face-S")
    wait_text(host, "banner", r"Fire|Pelletier", timeout=60)
    tap_until(host, "tab-log", "log")
    log = wait_text(host, "log", r"HML Hertfordshire .*1011", timeout=60)
    assert "discarded" not in log and "1011 facing N" in text_of(by_id(host, "log"))


def test_decisive_victory_a_side_ends_only_its_own_moves(two_sides):
    from test_dv_turn import in_movement as dv_in_movement

    data, open_ = two_sides
    game_id = stored(data, dv_in_movement(), "dv two sides")  # Japanese lose the initiative: they move first
    host, phone = open_(game_id, "British", "Japanese", prefix="dv-")
    detail = wait_text(phone, "dv-banner", r"Waiting for British: 3 ships still to move", timeout=60)
    assert "Japanese's batch" in detail
    assert by_id(phone, "dv-end-movement").count() == 0  # it would end British ships' moves: not offered
    shoot(phone, "end-movement-dv-waiting-phone")
    by_id(host, "dv-end-movement").wait_for(timeout=30000)  # the host may end movement for everyone
    assert "Waiting for" not in text_of(by_id(host, "dv-banner"))
