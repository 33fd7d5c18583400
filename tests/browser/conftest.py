"""Browser tests: the app served by `python -m companion web` in a subprocess, driven by
Playwright through Debian's chromium (never `playwright install`)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SEED = "3"  # the dice seed of the served app (COMPANION_SEED): the same seed, the same dice


def pytest_collection_modifyitems(config, items):
    missing = not Path(CHROMIUM).exists()
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing = True
    for item in items:
        if "browser" in item.keywords and missing:
            item.add_marker(pytest.mark.skip(reason=f"browser tests need Playwright and {CHROMIUM} (Debian's chromium)"))
        elif "browser" in item.keywords:
            # A real browser drawing in software on a busy 2-core machine: a test that fails (or hangs,
            # cut by pytest-timeout) runs once more, and both reports are printed (-rR in .ci/run).
            # The assertions are the same on both runs.
            item.add_marker(pytest.mark.flaky(reruns=1, reruns_delay=5))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`python -m companion web` on a free port with its own data folder and dice seed."""

    def __init__(self, data: Path, seed: str = SEED):
        self.data, self.seed = data, seed
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.started = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> "Server":
        env = dict(os.environ, FLET_WEB_RENDERER="canvaskit", COMPANION_SEED=self.seed,
                   COMPANION_DATA=str(self.data))
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "web", "--port", str(self.port)],
            env=env, cwd=Path(__file__).resolve().parents[2],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            time.sleep(0.05)
        raise RuntimeError("the app server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "data").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def open_app(page, url: str) -> None:
    """Load the app and switch on Flutter's semantics tree (controls by role, text, identifier)."""
    for _ in range(3):
        page.goto(url)
        page.wait_for_selector("#loading", state="detached", timeout=30000)
        placeholder = page.locator("flt-semantics-placeholder")
        try:
            placeholder.wait_for(state="attached", timeout=10000)
            placeholder.dispatch_event("click")
            return
        except Exception:
            continue
    raise RuntimeError("the app did not come up")


def by_id(page, identifier: str):
    return page.locator(f"[flt-semantics-identifier='{identifier}']")


def tap_until(page, tap: str, shown: str, timeout: float = 45) -> None:
    """Tap the control `tap` until the control `shown` appears: on a busy machine a tap that lands
    while Flutter is still laying the screen out can be lost, so tap again while `tap` is still there
    (never once `shown` is).  Waits generously; fails naming both."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if by_id(page, shown).count():
            return
        if by_id(page, tap).count():
            try:
                by_id(page, tap).click(timeout=5000)
            except Exception:  # gone meanwhile: the screen changed under the tap
                pass
        try:
            by_id(page, shown).wait_for(timeout=5000)
            return
        except Exception:
            continue
    raise AssertionError(f"tapping {tap!r} never showed {shown!r}")


def words_in(node) -> str:
    """Every label and text under a semantics node (a box whose lines are nodes of their own)."""
    return node.evaluate("""e => [e, ...e.querySelectorAll('*')].map(
        n => (n.getAttribute('aria-label') || '') + ' ' + (n.childElementCount ? '' : n.textContent)).join(' ')""")
