"""A monkey for the app (issue 25.4): random taps on whatever the screen shows, on a phone, a tablet,
a desktop and the shared screen, for every ruleset; shared by tests/browser/test_monkey.py (a short
run) and benchmarks/monkey.py (long runs).

What it finds: a session crash or a traceback in the server's output, the Flet client's "Error
running app", a dialog shown without a button (issue 35), or a screen left with no control to tap.  Between bursts of taps it waits out the
client's 10 s method timeout (a server call to a client method on a control that is not shown
times out after 10 s and, unguarded, ends the session) and looks at the page again.

Everything random comes from one `random.Random(seed)`: the seed is printed, and MONKEY_SEED
replays it (the app's own dice are seeded too: COMPANION_SEED of the server): the same screens and
rulesets, the same draws for each tap.  What a draw lands on is the control list the screen shows at
that moment, so on a loaded machine a replay can part from the run it replays after a tap that the
screen took late; the report's last taps (name and point) say what was tapped.
"""

from __future__ import annotations

import os
import random
import re
import string
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

#: The four screens: viewport, and whether it is a touch phone or tablet.
SCREENS: dict[str, dict] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "tablet": {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "tv": {"viewport": {"width": 1920, "height": 1080}},
}
#: The rulesets a game is started in.
RULESETS = ("quick-start", "house-rules", "war-fleet", "decisive-victory")
#: The Flet client's method timeout: the monkey waits longer than this once a run, then looks again.
CLIENT_TIMEOUT = 10.0
#: What a server's output says when a session died or a handler raised: the crash guard's words.
try:
    from .conftest import CRASH
except ImportError:  # an older conftest
    CRASH = re.compile(r"Traceback \(most recent call last\)|crashed|Unhandled error|Timeout waiting for invoke method")
#: Tappable semantics nodes: buttons, tabs, toggles, menu entries, text fields, and any tagged control.
CONTROLS_JS = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const picked = [];
  const seen = new Set();
  const roles = 'button,tab,checkbox,switch,radio,menuitem,menuitemcheckbox,menuitemradio,option,slider,link,textbox,combobox';
  const nodes = document.querySelectorAll(
      roles.split(',').map(r => `flt-semantics[role=${r}]`).join(',')
      + ',flt-semantics[flt-tappable],[flt-semantics-identifier],input,textarea');
  for (const e of nodes) {
    if (seen.has(e)) continue;
    seen.add(e);
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0);
    const x1 = Math.min(r.right, vw), y1 = Math.min(r.bottom, vh);
    if (x1 - x0 < 2 || y1 - y0 < 2) continue;
    const role = e.getAttribute('role') || '';
    const tag = e.tagName.toLowerCase();
    const text = tag === 'input' || tag === 'textarea' || role === 'textbox'
        || !!e.querySelector('input,textarea');
    const ident = e.getAttribute('flt-semantics-identifier') || '';
    const tappable = !!role || e.hasAttribute('flt-tappable') || text;
    if (!tappable && ident !== 'map') continue;
    const label = (e.getAttribute('aria-label') || e.textContent || '').slice(0, 60);
    const href = e.getAttribute('href') || (e.closest('a') || {}).href || '';
    picked.push({x0, y0, x1, y1, role, ident, label, text, href});
  }
  return picked;
}"""
#: Dialogs shown with no button in them (issue 35: a "Not possible" dialog had none on a phone, and
#: nothing said how to close it): each one's title, or "a dialog".
BUTTONLESS_JS = """() => [...document.querySelectorAll('flt-semantics[role=alertdialog],flt-semantics[role=dialog]')]
  .filter(d => !d.querySelector('[role=button]'))
  .map(d => ((d.getAttribute('aria-label') || d.textContent || '').trim().slice(0, 60)) || 'a dialog')"""
#: Words the Flet client shows when the session died.
DEAD_JS = """() => [...document.querySelectorAll('flt-semantics, flt-semantics *')].some(
    e => /Error running app|Reload the page to carry on/.test((e.getAttribute('aria-label') || '') + ' ' + (e.textContent || '')))"""


def new_seed() -> int:
    """MONKEY_SEED if set (a failure replays), else a fresh one; the caller prints it."""
    wanted = os.environ.get("MONKEY_SEED", "").strip()
    return int(wanted) if wanted else random.SystemRandom().randrange(1, 10**9)


def make_games(data: Path, dice: str = "3") -> dict[str, str]:
    """One saved game of each ruleset in a fresh data folder (before the server starts): {ruleset: id}."""
    from companion.app.rulesets.decisive_victory.model import sample_game
    from companion.app.setup import build_setup, played_by, quick_start_picks
    from companion.app.rulesets.war_fleet.model import twenty_against_twenty
    from companion.engine.quick_start.table_rules import HouseRules, TableRules
    from companion.files import load_catalogue, shipped_fleets_dir
    from companion.store.store import open_store

    data.mkdir(parents=True, exist_ok=True)
    store = open_store(data)
    try:
        catalogue = load_catalogue()
        quick = build_setup(quick_start_picks(), catalogue, None, dice)
        house = played_by(quick, HouseRules(unit_initiative=True, seize_initiative=True, declared_turns=True),
                          TableRules())
        states = {"quick-start": quick, "house-rules": house,
                  "war-fleet": twenty_against_twenty(catalogue, shipped_fleets_dir(), dice),
                  "decisive-victory": sample_game(shipped_fleets_dir(), dice, store)}
        return {ruleset: store.new_game(state, f"Monkey {ruleset}").id for ruleset, state in states.items()}
    finally:
        store.close()


class MonkeyFailure(AssertionError):
    """What the monkey found, with the seed that replays it."""


@dataclass
class Figures:
    """What a run did: taps, screens reached (a screen: the path and its set of tagged controls),
    method-timeout waits, and the crashes it found (each a line of words)."""

    taps: int = 0
    typed: int = 0
    waits: int = 0
    screens: set[str] = field(default_factory=set)
    crashes: list[str] = field(default_factory=list)
    found: list[str] = field(default_factory=list)  # each finding in full, when a run keeps going
    unopened: int = 0  # screens that never came up (a loaded machine) or the monkey's own failures

    def line(self) -> str:
        return (f"taps {self.taps} (typed into {self.typed} fields), screens reached {len(self.screens)}, "
                f"timeout waits {self.waits}, crashes {len(self.crashes)}, screens not opened {self.unopened}")


class ServerLog:
    """The server's output file, read from where it was last read."""

    def __init__(self, path: Path):
        self.path, self.offset = Path(path), 0

    def new_problems(self) -> list[str]:
        if not self.path.exists():
            return []
        with open(self.path, encoding="utf-8", errors="replace") as f:
            f.seek(self.offset)
            text = f.read()
            self.offset = f.tell()
        lines = text.splitlines()
        found = []
        for i, line in enumerate(lines):
            if CRASH.search(line):
                found.append("\n".join(lines[max(0, i - 1): i + 25]))
        return found


class Monkey:
    """Random taps on one page of the app; `check` raises MonkeyFailure naming the seed."""

    def __init__(self, page, rng: random.Random, log: ServerLog, figures: Figures, where: str, seed: int,
                 say: Callable[[str], None] = print, home: str = ""):
        self.page, self.rng, self.log, self.figures = page, rng, log, figures
        self.where, self.seed, self.say, self.home = where, seed, say, home
        self.trail: list[str] = []  # the last taps, for the report

    # --- looking -----------------------------------------------------------------------------

    def controls(self) -> list[dict]:
        try:
            found = self.page.evaluate(CONTROLS_JS)
        except Exception:  # the page is navigating: nothing to tap this instant
            return []
        return [c for c in found if not external(c["href"], self.page.url)]

    def wait_controls(self, timeout: float = 30.0) -> list[dict]:
        """The controls, waiting while a screen lays out (polling at 0.2 s)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.controls()
            if found or time.monotonic() > deadline:
                return found
            self.page.wait_for_timeout(200)

    def screen_name(self, found: list[dict]) -> str:
        path = re.sub(r"https?://[^/]+", "", self.page.url).split("?")[0]
        path = re.sub(r"/game/[^/]+", "/game/*", path)
        idents = sorted({re.sub(r"\d+", "#", c["ident"]) for c in found if c["ident"]})
        return f"{self.where.split(' ')[0]} {path} " + ",".join(idents)

    def fail(self, what: str) -> None:
        picture = self.picture()
        message = (f"{what}\non {self.where} at {self.page.url}\nlast taps: {self.trail[-12:]}\n"
                   f"the screen: {picture}\nreplay with MONKEY_SEED={self.seed}")
        self.figures.crashes.append(what.splitlines()[0])
        raise MonkeyFailure(message)

    def picture(self) -> str:
        """A screenshot of the page as the monkey found it (tests/screenshots/monkey-*.png), for the report."""
        from .conftest import SCREENSHOTS

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"monkey-{self.seed}-{len(self.figures.crashes)}-{self.where.split(' ')[0]}.png"
        try:
            self.page.screenshot(path=str(path))
        except Exception as exc:  # the page itself is gone
            return f"no screenshot ({type(exc).__name__})"
        return str(path)

    def check(self) -> list[dict]:
        """The server said nothing of a crash, the client is alive, and something is there to tap."""
        problems = self.log.new_problems()
        if problems:
            self.fail("the server logged a crash or a traceback:\n" + "\n----\n".join(problems))
        try:
            dead = self.page.evaluate(DEAD_JS)
        except Exception:
            dead = False
        if dead:
            self.fail("the screen died: 'Error running app'")
        buttonless = self.buttonless()
        if buttonless:
            self.fail(f"a dialog without a button: {buttonless[0]!r}")
        found = self.wait_controls()
        if not found:
            self.fail("a screen left with no control to tap")
        self.figures.screens.add(self.screen_name(found))
        return found

    def buttonless(self) -> list[str]:
        """The dialogs shown with no button, still so 0.4 s later (not one laying out its buttons)."""
        try:
            found = self.page.evaluate(BUTTONLESS_JS)
            for _ in range(2):
                if not found:
                    return []
                self.page.wait_for_timeout(200)
                found = self.page.evaluate(BUTTONLESS_JS)
        except Exception:  # the page is navigating
            return []
        return found

    # --- tapping ------------------------------------------------------------------------------

    def tap(self, found: list[dict]) -> None:
        control = self.rng.choice(found)
        if control["ident"] == "map" or (control["x1"] - control["x0"]) * (control["y1"] - control["y0"]) > 60000:
            x = self.rng.uniform(control["x0"] + 2, control["x1"] - 2)  # a hex, or anywhere on a big panel
            y = self.rng.uniform(control["y0"] + 2, control["y1"] - 2)
        else:
            x, y = (control["x0"] + control["x1"]) / 2, (control["y0"] + control["y1"]) / 2
        name = control["ident"] or control["label"].strip()[:30] or control["role"]
        self.trail.append(f"{name}@{int(x)},{int(y)}")
        self.page.mouse.click(x, y)
        self.figures.taps += 1
        if control["text"]:
            self.page.wait_for_timeout(150)
            if self.rng.random() < 0.5:
                self.page.keyboard.press("Control+A")
            words = random_text(self.rng)
            self.page.keyboard.type(words, delay=10)
            if self.rng.random() < 0.3:
                self.page.keyboard.press("Enter")
            self.trail[-1] += f" typed {words!r}"
            self.figures.typed += 1

    def burst(self, taps: int, until: float | None = None) -> None:
        """`taps` random taps (fewer if time.monotonic() passes `until`; at least one), each on a control
        the screen shows then; popups closed, the app kept."""
        for n in range(taps):
            if n and until is not None and time.monotonic() > until:
                return
            found = self.check()
            self.tap(found)
            self.page.wait_for_timeout(self.rng.choice((50, 150, 400)))
            self.keep_in_app()

    def keep_in_app(self) -> None:
        for other in self.page.context.pages:
            if other is not self.page:  # a print page or a download opened in a new tab
                other.close()
        if self.home and not self.page.url.startswith(self.home):
            self.say(f"  {self.where}: left the app for {self.page.url}: back")
            self.page.goto(self.home)

    def wait_out_timeout(self) -> None:
        """Wait past the client's method timeout, then look again (the crash issue 25 found)."""
        self.page.wait_for_timeout(int((CLIENT_TIMEOUT + 1.5) * 1000))
        self.figures.waits += 1
        self.check()


def external(href: str, url: str) -> bool:
    """A link that leaves the app (another host): the monkey does not follow it."""
    if not href or href.startswith(("#", "/")):
        return False
    host = re.match(r"https?://([^/]+)", url)
    return not (host and href.startswith(("http://" + host.group(1), "https://" + host.group(1))))


def random_text(rng: random.Random) -> str:
    """Short random text a player might type: digits, words, hexes, and the odd stray character."""
    kind = rng.randrange(5)
    if kind == 0:
        return str(rng.randrange(0, 10000))
    if kind == 1:
        return f"{rng.randrange(0, 30):02d}{rng.randrange(0, 30):02d}"
    if kind == 2:
        return "".join(rng.choice(string.ascii_letters) for _ in range(rng.randrange(1, 9)))
    if kind == 3:
        return rng.choice(["-1", "0", "1.5", "", " ", "é", "Ω", "<b>", "9" * 12, "N", "HML Raven"])
    return "".join(rng.choice(string.printable[:94]) for _ in range(rng.randrange(1, 7)))


def plan(rng: random.Random, screens=tuple(SCREENS), rulesets=RULESETS) -> list[tuple[str, str]]:
    """Which ruleset each screen plays: every screen and every ruleset at least once, shuffled by
    the seed (four screens and four rulesets: a random matching)."""
    order = list(rulesets)
    rng.shuffle(order)
    pairs = [(screen, order[i % len(order)]) for i, screen in enumerate(screens)]
    for ruleset in order[len(screens):]:
        pairs.append((rng.choice(screens), ruleset))
    return pairs


# --- a run: screens opened on a shared server, bursts of taps, the timeout waited out ---------------


def open_screen(browser, server, screen: str, game: str, rng: random.Random, lan: str | None):
    """A page on `screen` showing `game`: the phone joins from the network as a side (when this machine
    has a network address), the TV as the shared screen; the tablet and the desktop are the host."""
    from .conftest import open_app, tap_until

    context = browser.new_context(**SCREENS[screen])
    page = context.new_page()
    if screen in ("phone", "tv") and lan:
        open_app(page, f"{lan}game/{game}")
        wanted = "role-screen" if screen == "tv" else "role-side-"
        try:
            role = pick_role(page, server.pin, wanted, rng, timeout=40)
        except AssertionError:  # the monkey on the host tapped New PIN: ask the host's screen for it
            server.pin = host_pin(browser, server)
            role = pick_role(page, server.pin, wanted, rng)
        tap_until(page, role, "change-role")  # a tap lost while the picker lays out is tapped again
        return page, lan
    open_app(page, f"{server.url}game/{game}")
    return page, server.url


def start_server(data: Path, dice: str = "3"):
    """The app served from the network (`--host 0.0.0.0`, its join PIN read) with its output kept in a file."""
    from .conftest import SharedServer

    return SharedServer(data, seed=dice).start()


def host_pin(browser, server) -> str:
    """The join PIN as the host's home screen shows it now (the host may have drawn a new one)."""
    from .conftest import open_app

    page = browser.new_context(**SCREENS["desktop"]).new_page()
    try:
        open_app(page, server.url)
        node = page.locator("[flt-semantics-identifier='join-pin']")
        node.wait_for(timeout=30000)
        found = re.search(r"PIN (\d{6})", (node.get_attribute("aria-label") or "") + " " + node.inner_text())
        if not found:
            raise AssertionError("the host's home screen shows no PIN")
        return found.group(1)
    finally:
        page.context.close()


def pick_role(page, pin: str, wanted: str, rng: random.Random, timeout: float = 60) -> str:
    """Give the PIN (again, if a busy machine lost a key or the tap on Join) until the role picker
    shows; the identifier of a role starting with `wanted`, picked at random."""
    from .test_sharing import enter_pin

    roles = page.locator(f"[flt-semantics-identifier^='{wanted}']")
    deadline, typed = time.monotonic() + timeout, 0.0
    while time.monotonic() < deadline:
        if roles.count():
            return roles.nth(rng.randrange(roles.count())).get_attribute("flt-semantics-identifier")
        if page.locator("[flt-semantics-identifier='pin-field']").count() and time.monotonic() - typed > 10:
            enter_pin(page, pin)
            typed = time.monotonic()
        page.wait_for_timeout(200)
    raise AssertionError(f"the PIN never showed the role picker ({wanted}): {page.url}")


def play(browser, server, games: dict[str, str], seed: int, figures: Figures, *, taps: int, bursts: int,
         wait_pairs: set[int] | None = None, pairs: list[tuple[str, str]] | None = None, lan: str | None = None,
         say: Callable[[str], None] = print, stop_at: float | None = None, keep_going: bool = False,
         pair_seconds: float | None = None) -> None:
    """Each (screen, ruleset) of `pairs` (by default a random plan covering all four of each) gets
    `bursts` bursts of `taps` taps; between its bursts a pair whose index is in `wait_pairs` (None: every
    pair) waits out the client's method timeout and looks again.  Raises MonkeyFailure on the first
    finding (with `keep_going`, notes it in figures.found and goes on with the next pair); stops after
    the pair running at `stop_at` (time.monotonic).  With `pair_seconds`, a pair's bursts are cut
    short after that long tapping (the run's length held on a loaded machine; the waits still run)."""
    rng = random.Random(seed)
    if not hasattr(server, "monkey_log"):  # one reader for the server's whole life: each line read once
        server.monkey_log = ServerLog(server.log)
    log = server.monkey_log
    pairs = pairs or plan(rng)
    for index, (screen, ruleset) in enumerate(pairs):
        if stop_at is not None and time.monotonic() > stop_at:
            return
        size = SCREENS[screen]["viewport"]
        where = f"{screen} ({size['width']}x{size['height']}), {ruleset}"
        began = time.monotonic()
        try:
            page, home = open_screen(browser, server, screen, games[ruleset], rng, lan)
        except Exception as exc:  # the app never came up, or the PIN never showed the roles
            if not keep_going:
                raise
            say(f"NOT OPENED: {where}: {exc}")
            figures.found.append(f"{where} could not be opened: {exc}")
            figures.unopened += 1
            continue
        say(f"monkey: {where}: open in {time.monotonic() - began:.0f} s ({figures.taps} taps so far)")
        monkey = Monkey(page, rng, log, figures, where, seed, say, home)
        ends = [t for t in (stop_at, None if pair_seconds is None else time.monotonic() + pair_seconds) if t]
        until = min(ends) if ends else None  # the run's end cuts a screen's bursts short too
        try:
            for burst in range(bursts):
                monkey.burst(taps, until)
                if stop_at is not None and time.monotonic() > stop_at:
                    break  # the run is over (a screen's own time only cuts its bursts: its wait still runs)
                if burst < bursts - 1 and (wait_pairs is None or index in wait_pairs):
                    monkey.wait_out_timeout()
            monkey.check()
        except MonkeyFailure as exc:
            if not keep_going:
                raise
            say(f"FOUND: {exc}")
            figures.found.append(str(exc))
        except Exception as exc:  # the browser's side: a page gone under the monkey's hand
            if not keep_going:
                raise
            say(f"MONKEY ERROR on {where}: {type(exc).__name__}: {exc}")
            figures.found.append(f"the monkey itself failed on {where}: {type(exc).__name__}: {exc}")
            figures.unopened += 1
        finally:
            page.context.close()
