"""Every browser engine players have (issue 37): the app in Firefox and in WebKit, as in Chromium.

For each engine (Firefox ESR over WebDriver BiDi, WebKitGTK through WebKitWebDriver: engines.py; WebKit's in test_engines_webkit.py, so the suite's
two workers take one engine each)
and each build (the server app, `companion web`; the static build, `companion build-web`, served
by `python -m http.server`), on a phone's viewport where the engine allows (WebKitGTK's
MiniBrowser is at least 447 px wide): Home paints, the Quick-Start game plays to one shot, fired
with its odds shown and rolled, the result the engine played alongside gives; a card is printed
(its print page opens in a new tab from the tap: WebKit blocks a tab opened later). Any page
error, uncaught or logged, fails the test.  The static build is built once for the module.

Then, in Chromium (slow: `pytest -m slow`), the static build as a phone's own app: 20 actions with no
failed save in the console, Devices in its words, the report saved as a web page with its charts, a
card's print page at 390 px, and a full storage said on the screen.
"""

from __future__ import annotations

import re
import time

import pytest

from . import engines
from .conftest import PHONE, SCREENSHOTS, Server, by_id, shoot
from .test_e2e import RAVEN, SEED, play_in_engine, text_of, wait_banner
from .test_sharing import sync_text
from .test_static_build import StaticServer, open_static

pytestmark = pytest.mark.browser
other_engines = pytest.mark.skipif(engines.missing() is not None, reason=f"needs {engines.missing()} (.ci/run installs them)")

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
        self.open_semantics()

    def open_semantics(self) -> None:
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


def print_a_card(screen: Screen, fleets_url: str) -> str:
    """Fleets, Print on a shipped card, then the dialog's link: its print page opens in a new tab
    (the link is followed in the tap itself; WebKit blocks a tab the app opens later). The page's address."""
    if fleets_url.startswith("#"):
        screen.engine.js(f"location.hash = '{fleets_url}'")  # the static build: the same page, its route
    else:
        screen.engine.goto(fleets_url)
        screen.open_semantics()
    deadline = time.monotonic() + 60
    while screen.find("print-open") is None:  # a tap while the screen still moved may miss: again
        assert time.monotonic() < deadline, f"{screen.engine.name}: Print showed no dialog"
        screen.tap("print-pelletier", timeout=60)
        for _ in range(25):
            if screen.find("print-open") is not None:
                break
            time.sleep(0.2)
    screen.tap("print-open", timeout=60)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        opened = [url for url in screen.engine.pages() if "/print/" in url or url.startswith("blob:")]
        if opened:
            return opened[0]
        time.sleep(0.2)
    raise AssertionError(f"{screen.engine.name}: no print page opened: {screen.engine.pages()}; errors: {screen.engine.errors()}")


@other_engines
@pytest.mark.parametrize("build", ["server", "static"])
def test_the_app_in_firefox(build, expected, request, tmp_path):
    play_in_an_engine("firefox", build, request, expected, tmp_path)


def play_in_an_engine(name, build, request, expected, tmp_path):
    """The app of `build` in the engine `name`: Home, one shot with its odds, a card printed, no page error."""
    if build == "server":
        host = Server(tmp_path / "data", seed=SEED).start()
    else:
        host = StaticServer(request.getfixturevalue("static_site"))
    # WebKit under a POSIX locale for the server app: its navigator.language "C" is no BCP 47 tag, which
    # stopped Flutter's client at the splash; the page reads English (offline.LANGUAGE_FALLBACK)
    engine = engines.ENGINES[name](*SIZES[name], lang="C" if (name, build) == ("webkit", "server") else "en_US.UTF-8")
    try:
        screen = Screen(engine)
        screen.open(host.url)
        screen.wait("quick-start", timeout=STARTS)
        if name == "webkit" and build == "server":
            assert engine.js("navigator.language") == "en-US"
        width = engine.js("window.innerWidth")
        assert width <= 460, f"{name}: not a phone's width: {width} px"
        play_one_shot(screen, expected)
        printed = print_a_card(screen, host.url + "fleets" if build == "server" else "#/fleets")
        assert engine.errors() == [], (printed, engine.errors())
    finally:
        engine.close()
        host.stop()


# --- the static build as a phone's own app, in Chromium (issue 37) ------------------------------

NOT_KEPT = re.compile(r"could not be kept|did not keep the game")


def tap_any_next(page) -> str:
    """The banner's next ship, picked and its move ended where it stands."""
    chip = page.locator("[flt-semantics-identifier^='next-']").first
    chip.wait_for(timeout=30000)
    ident = chip.get_attribute("flt-semantics-identifier")
    chip.click()
    by_id(page, "end-move").click()
    by_id(page, ident).wait_for(state="detached", timeout=30000)
    return ident


@pytest.mark.slow  # about two minutes more: out of the default run (`pytest -m slow`), as test_static_build is
def test_the_static_build_keeps_every_action_saves_its_report_and_says_when_storage_fails(static_site, browser, tmp_path):
    host = StaticServer(static_site)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="allow",
                                  accept_downloads=True)
    console: list[str] = []
    context.on("console", lambda message: console.append(message.text))
    page = context.new_page()
    page.on("worker", lambda worker: worker.on("console", lambda message: console.append(message.text)))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # every words the loading bar shows, as it shows them (build.PROGRESS)
    page.add_init_script("""window.__progress = []; const seen = setInterval(() => {
        const words = document.getElementById('leviathans-progress-words');
        if (words && window.__progress[window.__progress.length - 1] !== words.textContent) { window.__progress.push(words.textContent); }
    }, 20);""")
    try:
        open_static(page, host.url)
        by_id(page, "quick-start").wait_for(timeout=STARTS * 1000)
        page.wait_for_selector("#leviathans-progress", state="detached", timeout=30000)  # gone with the first screen
        progress = page.evaluate("window.__progress")
        # (a main thread busy starting Flutter may take several steps at once: these two always show)
        assert "Starting Python in this browser (the first open takes longest)" in progress and "Unpacking the app" in progress, progress
        assert "this device alone" in text_of(by_id(page, "join-browser"))

        # 20 actions: start, then three turns of initiative, four moves ended and the turn ended, and an initiative
        by_id(page, "quick-start").click()
        wait_banner(page, "Deployment", timeout=60)
        by_id(page, "start-game").click()
        for turn in (1, 2, 3):
            wait_banner(page, f"Turn {turn} · Initiative", timeout=60)
            by_id(page, "roll-initiative").click()
            wait_banner(page, "Movement", timeout=60)
            for _ in range(4):
                tap_any_next(page)
            wait_banner(page, "Fire", timeout=60)
            by_id(page, "end-turn").click()
        wait_banner(page, "Turn 4 · Initiative", timeout=60)
        by_id(page, "roll-initiative").click()
        wait_banner(page, "Turn 4 · Movement", timeout=60)
        log_words = sync_text(page)
        assert re.search(r"log 20\b", log_words), log_words
        assert [line for line in console if NOT_KEPT.search(line)] == [], console

        # Devices says what this build does: one device; Export to go on with others
        by_id(page, "devices").click()
        assert "this device alone" in text_of(by_id(page, "devices-browser")) and "Export" in text_of(by_id(page, "devices-browser"))
        page.keyboard.press("Escape")
        by_id(page, "devices-browser").wait_for(state="detached", timeout=30000)

        # the report, saved from the phone: the same page as `companion report`, with its four charts
        game_id = page.url.split("#/game/")[1].split("?")[0].split("/")[0]
        page.evaluate(f"location.hash = '#/report/{game_id}'")
        by_id(page, "report-save").wait_for(timeout=60000)
        with page.expect_download(timeout=60000) as download:
            by_id(page, "report-save").click()
        saved = tmp_path / "report.html"
        download.value.save_as(saved)
        report = context.new_page()
        report.goto(saved.as_uri())
        assert report.locator("svg").count() == 4
        assert "After-action report" in report.content() or report.title()
        report.close()

        # a card printed on the phone: its print page, from the dialog's link, fits the phone's width
        page.evaluate("location.hash = '#/fleets'")
        by_id(page, "print-pelletier").click()
        with context.expect_page(timeout=60000) as opened:
            by_id(page, "print-open").click()
        printed = opened.value
        printed.wait_for_load_state()
        assert "Pelletier" in printed.content()
        width = printed.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1] == PHONE["width"], width
        printed.screenshot(path=str(SCREENSHOTS / "static-print-phone.png"))
        printed.close()

        # storage full: the next action is not kept, and the screen says so in words
        # (in the page's Python worker, IndexedDB refuses every write as a full storage does)
        python = next(w for w in page.workers if w.url.endswith("python-worker.js"))
        python.evaluate("""() => { IDBObjectStore.prototype.put = function () {
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); }; }""")
        page.evaluate(f"location.hash = '#/game/{game_id}'")
        tap_any_next(page)
        words = by_id(page, "storage-failed")
        words.wait_for(timeout=60000)
        assert "This browser did not keep the game: storage is full" in text_of(words), text_of(words)
        shoot(page, "static-storage-full")
    finally:
        context.close()
        host.stop()
    assert errors == [], errors
