"""A short Quick-Start game in a real browser, from the one-tap set-up to a reload.

The same game is played alongside through the engine in this process, with the
server's dice seed, so every position, refusal and dice result the browser must
show is derived here rather than written down.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import pytest

from .conftest import DESKTOP, PHONE, by_id, open_app, Server, shoot

pytestmark = pytest.mark.browser

RAVEN = "hml-raven"
#: The dice seed of this test's server: with the printed Quick-Start cards (issue 12) the
#: Raven's first offered shot at the Pontbriand destroys a slot with seed "1" (not with "3").
SEED = "1"


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "data", seed=SEED).start()
    yield srv
    srv.stop()


# --- the same game through the engine -------------------------------------------


@dataclass
class Expected:
    """What the browser must show, from the engine played with the server's seed."""

    before_raven: list[str] = field(default_factory=list)  # ships whose move ends before the Raven's
    steps: list[str] = field(default_factory=list)  # the event text of each Raven step
    mp: list[str] = field(default_factory=list)  # the Raven's MP left after each step, as shown
    refusal: str = ""  # the rule's reason for the second turn in one hex
    after_raven: list[str] = field(default_factory=list)
    declare: str = ""  # identifier of the Declare button
    target: str = ""
    location: str = ""
    result: str = ""  # the result sentence of the roll
    slot: int = 0


def play_in_engine() -> Expected:
    from companion.app import banners, panels, viewmodels as vm
    from companion.app.setup import build_setup, quick_start_picks
    from companion.engine.quick_start import actions as A
    from companion.engine.quick_start.game import apply
    from companion.files import load_catalogue

    def act(state, action):
        outcome = apply(state, action)
        assert outcome.ok, outcome.reason
        return outcome.state, outcome.events

    expected = Expected()
    state = build_setup(quick_start_picks(), load_catalogue(), seed=SEED)
    state, _ = act(state, A.StartGame())
    state, _ = act(state, A.RollInitiative())
    while banners.banner(state).next_ships[0] != RAVEN:
        ship = banners.banner(state).next_ships[0]
        expected.before_raven.append(ship)
        state, _ = act(state, A.EndMove(ship=ship))
    for step in ("forward", "forward", "port"):
        state, events = act(state, A.Step(ship=RAVEN, step=step))
        expected.steps.append(events[-1].text)
        raven = state.ship(RAVEN)
        expected.mp.append(f"{raven.mp_left}/{raven.movement_points} MP")
    refused = apply(state, A.Step(ship=RAVEN, step="port"))
    assert not refused.ok
    expected.refusal = refused.reason
    state, _ = act(state, A.EndMove(ship=RAVEN))
    while state.phase == "movement":
        ship = banners.banner(state).next_ships[0]
        expected.after_raven.append(ship)
        state, _ = act(state, A.EndMove(ship=ship))
    # the first shot the fire panel offers the Raven at the Pontbriand
    gun, target, strike = next((g, t, s) for g in panels.fire_panel(state, RAVEN) for t in g.targets
                               for s in t.strikes if t.target == "pontbriand")
    expected.declare = f"declare-{gun.location}-{gun.slot}-{target.target}-{strike.location}"
    expected.target, expected.location = target.target, strike.location
    state, _ = act(state, A.DeclareShot(attacker=RAVEN, location=gun.location, slot=gun.slot,
                                        target=target.target, target_location=strike.location))
    state, _ = act(state, A.ResolveShot(shot=state.shots[-1].id))
    result = state.shots[-1].result
    assert result.outcome == "slot_destroyed", (
        f"with seed {SEED} the shot ends '{result.outcome}'; the test needs a seed whose shot destroys a slot")
    expected.result, expected.slot = result.text, result.slot
    return expected


# --- reading the page ---------------------------------------------------------------


def text_of(node) -> str:
    """What a screen reader hears for a node: its label and the text inside it."""
    return (node.get_attribute("aria-label") or "") + "\n" + node.inner_text()


def banner_text(page) -> str:
    return text_of(by_id(page, "banner")).strip()


def wait_for_text(read, wanted: str, what: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = read()
        if re.search(wanted, text):
            return text
        time.sleep(0.1)
    raise AssertionError(f"{what} never showed {wanted!r}; it says: {text!r}")


def wait_banner(page, pattern: str, timeout: float = 15) -> str:
    return wait_for_text(lambda: banner_text(page), pattern, "the banner", timeout)


def wait_note(page, pattern: str, timeout: float = 15) -> str:
    """The answer to the last tap: what happened, or the rule's reason for a refusal."""
    return wait_for_text(lambda: text_of(by_id(page, "note")), pattern, "the note", timeout)


def wait_slot(page, ident: str, words: str, timeout: float = 10) -> str:
    node = by_id(page, ident)
    node.wait_for(timeout=10000)
    return wait_for_text(lambda: text_of(node), re.escape(words), ident, timeout)


def end_move_of(page, ship: str) -> None:
    """Pick the ship the banner names and end its move where it stands."""
    chip = by_id(page, f"next-{ship}")
    chip.wait_for(timeout=10000)
    chip.click()
    by_id(page, "end-move").click()
    chip.wait_for(state="detached", timeout=10000)


#: Controls left out of the 48 px check: none now (the sharing bar's Devices and Change were 38 px
#: high and left out until issue 28 made them 48).
OTHERS: tuple[str, ...] = ()


def small_targets(page) -> list[str]:
    """Buttons on screen smaller than 48 x 48 px (the phone's touch target).

    A button half scrolled out of view reports only its visible part, so on a
    game screen the ones touching the edge of the scrolled area (under the
    banner, over the bottom navigation, within the panel's padding) are left out.
    """
    top, bottom = 0.0, float(PHONE["height"])
    if by_id(page, "banner").count():
        box = by_id(page, "banner").bounding_box()
        top = box["y"] + box["height"]
        bottom = by_id(page, "tab-map").bounding_box()["y"]
    others = [by_id(page, ident).bounding_box() for ident in OTHERS if by_id(page, ident).count()]
    found = []
    for node in page.locator("flt-semantics[role='button'], flt-semantics[role='tab'], "
                             "flt-semantics[role='checkbox'], flt-semantics[role='link']").all():
        box = node.bounding_box()
        if not box or box["y"] >= PHONE["height"] or box["y"] + box["height"] <= 0:
            continue
        if any(o and o["x"] <= box["x"] + 1 and box["x"] + box["width"] <= o["x"] + o["width"] + 1
               and o["y"] <= box["y"] + 1 and box["y"] + box["height"] <= o["y"] + o["height"] + 1 for o in others):
            continue
        inside = box["y"] >= top + 16 and box["y"] + box["height"] <= bottom - 16  # clear of the panel's edges
        if (box["y"] + box["height"] <= top or inside) and (box["width"] < 47.5 or box["height"] < 47.5):
            label = (node.get_attribute("aria-label") or node.inner_text() or "?").strip().splitlines()[0]
            found.append(f"{label} {box['width']:.0f}x{box['height']:.0f} at y {box['y']:.0f} (top {top:.0f}, bottom {bottom:.0f})")
    return found


# --- the game -----------------------------------------------------------------------------


def test_a_short_quick_start_game(server, browser):
    expected = play_in_engine()
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_app(page, server.url)
    by_id(page, "quick-start").wait_for(timeout=15000)
    shoot(page, "home-desktop")

    # one-tap set-up, start, initiative
    by_id(page, "quick-start").click()
    wait_banner(page, "Deployment")
    by_id(page, "start-game").click()
    wait_banner(page, "Initiative")
    by_id(page, "roll-initiative").click()
    wait_banner(page, "Movement")

    # the ships ahead of the Raven in the movement order stay put
    for ship in expected.before_raven:
        end_move_of(page, ship)
    by_id(page, f"next-{RAVEN}").click()
    # the move buttons stay on screen between ships: step once the Raven is selected (its route shown)
    page.wait_for_function(f"() => location.href.includes('{RAVEN}')", timeout=10000)
    # forward twice and a turn, then a second turn in the same hex: refused with the rule's reason
    for step, text, mp in zip(("forward", "forward", "port"), expected.steps, expected.mp):
        by_id(page, f"step-{step}").click()
        wait_note(page, re.escape(text))
        wait_for_text(lambda: text_of(by_id(page, "mp-left")), re.escape(mp), "the MP left")
    by_id(page, "step-port").click()
    wait_note(page, re.escape(expected.refusal[0].upper() + expected.refusal[1:]))
    shoot(page, "table-desktop")
    by_id(page, "end-move").click()
    for ship in expected.after_raven:
        end_move_of(page, ship)
    wait_banner(page, "Turn 1 · Fire")

    # open fire: the Raven's first shot at the Pontbriand, rolled by the app with the fixed seed
    by_id(page, "tab-fire").click()
    by_id(page, f"fire-{RAVEN}").click()
    declare = by_id(page, expected.declare)
    declare.wait_for(timeout=10000)
    declare.click()
    by_id(page, "roll-1").wait_for(timeout=10000)
    by_id(page, "roll-1").click()
    result = by_id(page, "result-1")
    result.wait_for(timeout=10000)
    assert expected.result in text_of(result)
    shoot(page, "fire-desktop")

    # the slot the sentence names is circled on the target's card
    named = re.search(r"slot (\d) \(", text_of(result))
    assert named and int(named.group(1)) == expected.slot
    slot_id = f"slot-{expected.target}-{expected.location}-{expected.slot}"
    by_id(page, "tab-ship").click()
    by_id(page, f"ship-{expected.target}").click()
    wait_slot(page, slot_id, "destroyed this turn (circled)")
    shoot(page, "card-desktop")

    # end the turn: struck through
    by_id(page, "end-turn").click()
    wait_banner(page, "Turn 2 · Initiative")
    wait_slot(page, slot_id, "destroyed (struck through)")

    # the log shows the roll with its dice; undo takes the end of the turn back
    by_id(page, "tab-log").click()
    by_id(page, "log-undo").wait_for(timeout=10000)
    wait_for_text(lambda: text_of(by_id(page, "log")), re.escape(expected.result), "the log")
    shoot(page, "log-desktop")
    by_id(page, "log-undo").click()
    wait_banner(page, "Turn 1 · Fire")

    # a reload comes back to the same game, turn, ship and card
    by_id(page, "tab-ship").click()
    wait_slot(page, slot_id, "destroyed this turn (circled)")
    url = page.url
    assert "/game/" in url and f"ship={expected.target}" in url
    open_app(page, url)
    wait_banner(page, "Turn 1 · Fire")
    wait_slot(page, slot_id, "destroyed this turn (circled)")
    context.close()

    # the same game on a phone: home, map, card, fire and log, every button at least 48 px
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    open_app(page, server.url)
    by_id(page, "quick-start").wait_for(timeout=15000)
    shoot(page, "home-phone")
    assert small_targets(page) == []
    game = url.split("?")[0]
    for tab, ship, name in (("map", expected.target, "table-phone"), ("ship", expected.target, "card-phone"),
                            ("fire", RAVEN, "fire-phone"), ("log", expected.target, "log-phone")):
        open_app(page, f"{game}?ship={ship}&tab={tab}")
        wait_banner(page, "Turn 1 · Fire")
        by_id(page, {"map": "map", "ship": f"card-{ship}", "fire": "fire", "log": "log"}[tab]).wait_for(timeout=10000)
        shoot(page, name)
        assert small_targets(page) == [], name
    phone.close()

    # the dark theme, for a look
    dark = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, color_scheme="dark")
    page = dark.new_page()
    open_app(page, f"{game}?ship={expected.target}&tab=ship")
    by_id(page, f"card-{expected.target}").wait_for(timeout=10000)
    shoot(page, "card-phone-dark")
    dark.close()
    dark = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    page = dark.new_page()
    open_app(page, f"{game}?ship={RAVEN}&tab=fire")
    by_id(page, "fire").wait_for(timeout=10000)
    shoot(page, "table-desktop-dark")
    dark.close()
