"""Load: eight browser sessions on one game for two minutes of random legal actions from their sides.

Four phones hold the British side and four the French; each taps what its side may do now
(roll initiative, pick a ship of its own to move and step or end its move, end the turn, undo a
lost game) at random moments, so several phones often tap the same thing at once.  Checked:
every change the server applied is in the saved log exactly once and in order, the applied
actions of each phone are a subsequence of its own taps (nothing applied twice), and every
session ends showing the same log length and check code as the saved game.  The time from a
tap to its appearance on the other seven sessions is measured on the browsers' clock and
printed (median and worst) for the README.

`LOAD_SECONDS` shortens or lengthens the run (default 120).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import re
import statistics
import time

import pytest

from .conftest import ARGS, CHROMIUM, PHONE
from .test_sharing import WATCH, SharedServer, network_address

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SECONDS = float(os.environ.get("LOAD_SECONDS", "120"))
SIDES = {"British": ("hml-hertfordshire", "hml-raven"), "French": ("pontbriand", "pelletier")}
LOG_LINE = re.compile(r"^(\d+\.\d+) companion\.app\.sharing: game (\S+) entry (\d+) (\S+) by (.+)$")


@pytest.fixture
def logged_server(tmp_path):
    if network_address() is None:
        pytest.skip("this machine has no network address besides loopback: no device can join from the network")
    srv = SharedServer(tmp_path / "data")
    srv.extra_env = {"COMPANION_LOG": "info"}
    srv.start()
    yield srv
    srv.stop()


async def semantics_text(page, ident: str) -> str:
    return await page.evaluate(
        """id => [...document.querySelectorAll(`[flt-semantics-identifier='${id}']`)]
                 .map(e => (e.getAttribute('aria-label') || '') + '\\n' + e.innerText).join('\\n')""", ident)


#: Tap the control with this identifier (its tappable semantics node): the browser's clock, or 0.
TAP = """id => {
  const node = document.querySelector(`[flt-semantics-identifier='${id}']`);
  if (!node) return 0;
  const target = node.matches('[flt-tappable]') ? node : node.querySelector('[flt-tappable]');
  if (!target) return 0;
  const now = Date.now();
  target.click();
  return now;
}"""

LOOK = """() => {
  const banner = [...document.querySelectorAll("[flt-semantics-identifier='banner']")]
    .map(e => (e.getAttribute('aria-label') || '') + '\\n' + e.innerText).join('\\n');
  const next = [...document.querySelectorAll("[flt-semantics-identifier^='next-']")]
    .map(e => e.getAttribute('flt-semantics-identifier').slice(5));
  return [banner, next];
}"""


class Player:
    """One phone holding one side: taps what its side may do now, at random moments."""

    def __init__(self, page, side: str, seed: int):
        self.page, self.side = page, side
        self.rng = random.Random(seed)
        self.taps: list[tuple[int, str]] = []  # (browser time of the tap, what was tapped)
        self.name = ""
        self.selected: str | None = None

    async def tap(self, ident: str, kind: str) -> None:
        """Tap a control, if it is on screen, through the semantics tree as a screen reader does
        (no waiting for the page to stand still between frames, which this machine draws in
        software); note the browser's clock at the tap."""
        tapped = await self.page.evaluate(TAP, ident)
        if tapped:
            self.taps.append((tapped, kind))

    async def look(self) -> tuple[str, list[str]]:
        """The banner's words and the ships it names to move now, in one look."""
        return await self.page.evaluate(LOOK)

    async def turn(self) -> None:
        banner, moving = await self.look()
        if "Game over" in banner:
            await self.tap("undo", "undo")
        elif "Deployment" in banner:
            await self.tap("start-game", "start_game")
        elif "Initiative" in banner:
            await self.tap("roll-initiative", "roll_initiative")
        elif "Movement" in banner:
            mine = [ship for ship in moving if ship in SIDES[self.side]]
            if not mine:
                return
            ship = mine[0]
            if self.selected != ship:
                await self.tap(f"next-{ship}", "select")
                self.selected = ship
                try:  # the ship's steps on screen
                    await self.page.locator("[flt-semantics-identifier='step-forward']").wait_for(timeout=5000)
                except Exception:  # the turn moved on meanwhile: the next look decides
                    return
            step = self.rng.choices(["forward", "port", "starboard", "end"], [5, 1, 1, 3])[0]
            if step == "end":
                await self.tap("end-move", "end_move")
            else:
                await self.tap(f"step-{step}", "step")
        elif "Fire" in banner and self.rng.random() < 0.5:
            await self.tap("end-turn", "end_turn")

    async def play(self, until: float) -> None:
        while time.monotonic() < until:
            await self.turn()
            await asyncio.sleep(self.rng.uniform(0.3, 1.5))


async def until_shown(wanted, tap_again, seconds: float = 90) -> None:
    """Wait for `wanted`, tapping `tap_again` again while it is still there (on a busy machine a tap
    made while the page was still busy drawing can be lost)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            await wanted.wait_for(timeout=10000)
            return
        except Exception:
            try:
                if await tap_again.count():
                    await tap_again.click(timeout=10000)
            except Exception:  # it went meanwhile: the wanted screen is coming
                pass
    await wanted.wait_for(timeout=1000)  # raises, naming what never came


async def join(browser, url: str, pin: str, side: str):
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = await context.new_page()
    for _ in range(3):
        try:
            await page.goto(url, timeout=90000)
        except Exception:  # a slow start on a busy machine: try again
            continue
        await page.wait_for_selector("#loading", state="detached", timeout=60000)
        try:
            await page.locator("flt-semantics-placeholder").wait_for(state="attached", timeout=15000)
            await page.locator("flt-semantics-placeholder").dispatch_event("click")
            break
        except Exception:
            continue
    by = lambda ident: page.locator(f"[flt-semantics-identifier='{ident}']")  # noqa: E731
    await by("pin-field").wait_for(timeout=30000)
    await by("pin-field").click()
    await page.keyboard.type(pin)
    await by("pin-join").click()
    await by(f"role-side-{side}").click(timeout=30000)
    await until_shown(by("sync"), by(f"role-side-{side}"))
    # play from the Ships tab: the ship card and its move buttons (a map redrawn in software on
    # eight pages at once would measure this machine's drawing, not the sharing)
    await page.get_by_role("button", name="Ships").last.click(timeout=30000)
    await page.evaluate(WATCH)
    name = re.search(r"· ((?:Phone|Tablet|Computer|This computer)(?: \d+)?)", await semantics_text(page, "my-role"))[1]
    return context, page, name


async def run_load(server, game_path: str) -> tuple[list[Player], list]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        players, contexts = [], []
        sides = ["British" if n % 2 == 0 else "French" for n in range(8)]
        gate = asyncio.Semaphore(2)  # two phones joining at a time

        async def one(side):
            async with gate:
                return await join(browser, server.lan_url + game_path, server.pin, side)

        joined = await asyncio.gather(*(one(side) for side in sides))
        for n, ((context, page, name), side) in enumerate(zip(joined, sides)):
            contexts.append(context)
            players.append(Player(page, side, n))
            players[-1].name = name
        until = time.monotonic() + SECONDS
        await asyncio.gather(*(p.play(until) for p in players))
        # let every screen settle, then read what each shows
        await asyncio.sleep(3)
        shown = []
        for p in players:
            shown.append((await semantics_text(p.page, "sync"), await p.page.evaluate("window.__seen")))
        for context in contexts:
            await context.close()
        await browser.close()
    return players, shown


def create_game(server) -> str:
    """The host (this computer) starts a Quick-Start game; its path."""
    from playwright.sync_api import sync_playwright

    from .conftest import DESKTOP, by_id, open_app

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=DESKTOP)
        open_app(page, server.url)
        by_id(page, "quick-start").click()
        page.wait_for_url("**/game/**", timeout=15000)
        by_id(page, "sync").wait_for(timeout=15000)
        path = "game/" + page.url.split("/game/")[1].split("?")[0]
        browser.close()
    return path


def test_eight_sessions_two_minutes(logged_server, tmp_path):
    server = logged_server
    game_path = create_game(server)
    game_id = game_path.removeprefix("game/")
    players, shown = asyncio.run(run_load(server, game_path))
    server.stop()

    # the server's record of every change: which device, in order, each entry once
    applied = [LOG_LINE.match(line) for line in server.log.read_text().splitlines()]
    applied = [(float(m[1]), int(m[3]), m[4], m[5]) for m in applied if m and m[2] == game_id]
    indices = [index for _, index, _, _ in applied]
    assert indices == list(range(len(indices))) and len(indices) >= 10, indices[:50]

    # the saved game, reopened as after a restart, holds exactly those entries
    from companion.store import TinyDBStore

    store = TinyDBStore(server.data)
    game = store.game(game_id)
    assert len(game.entries) == len(applied)
    for (_, index, kind, _), entry in zip(applied, game.entries):
        assert entry.index == index and (entry.action or {}).get("kind", entry.kind) == kind
    code = hashlib.sha256(game.state.model_dump_json().encode()).hexdigest()[:6]

    # each session ends showing that log position (the actions in effect) and that position's code
    for text, _ in shown:
        assert f"log {game.actions_in_effect} · {code}" in text, text

    # nothing applied twice: each phone's applied actions are a subsequence of its own taps
    names = {p.name: p for p in players}
    assert len(names) == 8
    for player, (_, seen) in zip(players, shown):
        player.seen = {int(k): v for k, v in seen.items()}
    for device in {d for *_, d in applied}:
        assert device in names, f"a change by {device}, which is none of the eight phones"
        mine = [kind for _, _, kind, d in applied if d == device]
        assert _subsequence(mine, [kind for _, kind in names[device].taps]), f"{device}: {mine}"

    # the time from a tap to its appearance on every other session (browser clock, ms)
    latencies, to_server = [], []
    for server_time, index, kind, device in applied:
        owner = names[device]
        taps = [t for t, k in owner.taps if t <= server_time * 1000 + 5]
        if not taps:
            continue
        tapped = max(taps)
        to_server.append(server_time * 1000 - tapped)
        for other in players:
            if other is owner:
                continue
            times = [v for k, v in other.seen.items() if k >= index + 1]
            if times:
                latencies.append(min(times) - tapped)
    latencies.sort()
    median, worst = statistics.median(latencies), latencies[-1]
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(f"\nload: 8 sessions, {SECONDS:.0f} s, {len(applied)} changes applied, "
          f"{sum(len(p.taps) for p in players)} taps; tap to other sessions: median {median:.0f} ms, "
          f"95th percentile {p95:.0f} ms, worst {worst:.0f} ms ({len(latencies)} appearances); "
          f"tap to applied on the server: median {statistics.median(to_server):.0f} ms, worst {max(to_server):.0f} ms")
    assert latencies, "no change was seen on another session"  # speed is the benchmark's, never asserted here


def _subsequence(needle: list[str], haystack: list[str]) -> bool:
    it = iter(haystack)
    return all(any(kind == tapped for tapped in it) for kind in needle)
