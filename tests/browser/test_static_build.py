"""The static web build on a phone with no computer (issue 29, "Done when").

`companion build-web` writes the folder (wheels fetched from the package index: the test is
skipped if they cannot be); `python -m http.server` serves it; Chromium at 390x844 refuses every
request to another host.  The page opens the app (Python in the browser), starts the Quick-Start
game, moves the Raven with the planner, fires with the odds shown and rolls; a reload shows the
same log and check code (the games are kept in the browser); with the static server stopped, a
reload opens the app from the service worker's cache, the game still there.  The game exported
from the page is read by `companion import` on this computer and `companion verify` passes.

Slow (a build, and Python starting in the browser three times): marked `slow`, so
`-m 'not slow'` leaves it out.  Nothing waits a fixed time; no speed is asserted (benchmarks/bench_static.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .conftest import PHONE, by_id, free_port, shoot, tap_until, words_in
from .test_e2e import RAVEN, SEED, end_move_of, text_of, wait_banner, wait_for_text
from .test_planner import END, FACING, hex_point, plan_in_engine
from .test_sharing import sync_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

STARTS = 240  # seconds Python may take to start in the page on a loaded machine (it takes 10 to 40)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from companion.web.build import BuildError, build_web

    out = tmp_path_factory.mktemp("static") / "site"
    try:
        build_web(out, wheels=tmp_path_factory.mktemp("wheels"), seed=SEED, say=lambda text: None)
    except BuildError as exc:
        if "wheels" in str(exc):
            pytest.skip(f"the static build needs the package index: {exc}")
        raise
    return out


class StaticServer:
    """`python -m http.server` on the folder: a plain static host, nothing of the app's own."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.process = subprocess.Popen([sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
                                         "--directory", str(folder)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import socket

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("the static server did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def open_static(page, url: str | None = None) -> None:
    """Load the page (None: reload it, as the address is), switch on Flutter's semantics, and wait
    until Python has drawn the app's first screen."""
    if url is None:
        page.reload()
    else:
        page.goto(url)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=STARTS * 1000)
    placeholder.dispatch_event("click")
    page.wait_for_selector("[flt-semantics-identifier]", timeout=STARTS * 1000)


def fire_in_engine(moved):
    """After the planned move, the other ships end theirs; the first shot the fire panel offers the Raven."""
    from companion.app import banners, panels
    from companion.engine.quick_start import actions as A
    from companion.engine.quick_start.game import apply

    state, after = moved, []
    while state.phase == "movement":
        ship = banners.banner(state).next_ships[0]
        if ship == RAVEN:
            state = apply(state, A.EndMove(ship=ship)).state
            continue
        after.append(ship)
        state = apply(state, A.EndMove(ship=ship)).state
    gun, target, strike = next((g, t, s) for g in panels.fire_panel(state, RAVEN) for t in g.targets for s in t.strikes)
    return after, f"declare-{gun.location}-{gun.slot}-{target.target}-{strike.location}"


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120)


def test_a_phone_plays_offline_from_the_static_build(built, browser, tmp_path):
    state, before, cell, view, moved = plan_in_engine()
    after, declare = fire_in_engine(moved)
    host = StaticServer(built)
    elsewhere: list[str] = []

    def route(r):
        parts = urlsplit(r.request.url)
        if parts.scheme in ("data", "blob") or parts.netloc == f"127.0.0.1:{host.port}":
            r.continue_()
        else:
            elsewhere.append(r.request.url)
            r.abort("blockedbyclient")

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="allow",
                                  accept_downloads=True)
    context.route("**/*", route)
    page = context.new_page()
    try:
        # the app opens from the static host alone; the service worker keeps every file
        open_static(page, host.url)
        by_id(page, "quick-start").wait_for(timeout=STARTS * 1000)
        wait_for_text(lambda: text_of(by_id(page, "join-browser")), "companion web", "the one line on sharing")
        shoot(page, "static-home")
        assert page.evaluate("() => navigator.serviceWorker.ready.then(r => !!r.active)")

        # the Quick-Start game from the printed cards; the Raven moves with the planner
        by_id(page, "quick-start").click()
        wait_banner(page, "Deployment", timeout=60)
        by_id(page, "start-game").click()
        wait_banner(page, "Initiative", timeout=60)
        by_id(page, "roll-initiative").click()
        wait_banner(page, "Movement", timeout=60)
        for ship in before:
            end_move_of(page, ship)
        by_id(page, f"next-{RAVEN}").click()
        page.wait_for_function(f"() => location.href.includes('{RAVEN}')", timeout=30000)
        tap_until(page, "plan-toggle", "plan", timeout=90)
        by_id(page, "centre").click()
        x, y = hex_point(page, state, cell)
        for _ in range(8):
            page.mouse.click(x, y)
            try:
                wait_for_text(lambda: text_of(by_id(page, "plan")), f"End at {END}", "the plan panel", timeout=8)
                break
            except AssertionError:
                continue
        tap_until(page, f"plan-face-{FACING}", "plan-guns", timeout=90)
        shoot(page, "static-table")
        by_id(page, "plan-move-there").click()
        after_ship = moved.ship(RAVEN)
        wait_for_text(lambda: text_of(by_id(page, "mp-left")),
                      re.escape(f"{after_ship.mp_left}/{after_ship.movement_points} MP"), "the MP left", timeout=60)
        by_id(page, "end-move").click()
        for ship in after:
            end_move_of(page, ship)
        wait_banner(page, "Fire", timeout=60)

        # fire with the odds shown, then roll
        by_id(page, "tab-fire").click()
        by_id(page, f"fire-{RAVEN}").click()
        by_id(page, declare).wait_for(timeout=30000)
        odds = words_in(by_id(page, "fire").first)
        assert re.search(r"Breach \S*\d%", odds), f"no odds shown before the shot: {odds[:300]}"
        shoot(page, "static-fire")
        by_id(page, declare).click()
        by_id(page, "roll-1").click()
        by_id(page, "result-1").wait_for(timeout=60000)
        before_reload = sync_text(page).strip()
        assert re.search(r"log \d+", before_reload), before_reload

        # a reload: the game is kept in this browser, the same log and check code
        game_url = page.url
        assert "#/game/" in game_url, game_url
        open_static(page)
        wait_for_text(lambda: sync_text(page).strip(), re.escape(before_reload), "the log after a reload", timeout=STARTS)

        # no static host at all: the service worker opens the app, the game still there
        host.stop()
        open_static(page)
        wait_for_text(lambda: sync_text(page).strip(), re.escape(before_reload), "the log with no host", timeout=STARTS)

        # export from the page; this computer imports it and verifies every roll
        by_id(page, "menu").click()
        with page.expect_download(timeout=60000) as download:
            by_id(page, "menu-export").click()
        exported = tmp_path / "game.json"
        download.value.save_as(exported)
        assert json.loads(exported.read_text())["format"] == "leviathans-game/1"
        data = tmp_path / "computer"
        imported = companion("import", str(exported), "--data", str(data))
        assert imported.returncode == 0, imported.stderr
        game_id = re.search(r" as (\S+) \(", imported.stdout).group(1)
        verified = companion("verify", game_id, "--data", str(data))
        assert verified.returncode == 0, verified.stdout + verified.stderr
    finally:
        host.stop()
        context.close()
    assert elsewhere == [], elsewhere  # not even the Rive runtime Flet's client asked for (offline.NO_RIVE)
