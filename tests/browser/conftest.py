"""Browser tests: the app served by `python -m companion web` in a subprocess, driven by
Playwright through Debian's chromium (never `playwright install`)."""

from __future__ import annotations

import os
import re
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: What a server logs when a session died or a handler failed: the crash guard fails the test on it.
CRASH = re.compile(r"Traceback \(most recent call last\)|crashed|Unhandled error|Task exception was never retrieved"
                   r"|Exception in callback|Timeout waiting for invoke method")


class Server:
    """`python -m companion web` on a free port with its own data folder and dice seed.

    Its output (stdout and stderr) goes to `server-<port>.log` beside the data folder; every
    server started is kept in `Server.started_servers` so the crash guard (`crash_guard`, autouse)
    reads what each logged during a test and fails the test on a crash or a traceback."""

    started_servers: list["Server"] = []
    host: str = "127.0.0.1"
    extra_env: dict[str, str] = {}

    def __init__(self, data: Path, seed: str = SEED):
        self.data, self.seed = data, seed
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.started = 0.0
        self.log = data.parent / f"server-{self.port}.log"
        self.checked = 0  # the crash guard has read the log up to this byte

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> "Server":
        self.data.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, FLET_WEB_RENDERER="canvaskit", COMPANION_SEED=self.seed,
                   COMPANION_DATA=str(self.data), PYTHONUNBUFFERED="1", **self.extra_env)
        self.started = time.monotonic()
        with open(self.log, "w") as out:  # the child keeps its own copy of the file
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "web", "--host", self.host, "--port", str(self.port)],
                env=env, cwd=Path(__file__).resolve().parents[2], stdout=out, stderr=subprocess.STDOUT,
            )
        Server.started_servers.append(self)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"the app server did not start:\n{self.output()}")

    def output(self, offset: int = 0) -> str:
        """What the server has written since byte `offset` of its log."""
        try:
            with open(self.log, "rb") as f:
                f.seek(offset)
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def log_size(self) -> int:
        try:
            return self.log.stat().st_size
        except FileNotFoundError:
            return 0

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def crashes_in(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """The log's lines that say a session crashed or a handler failed, each with the 12 lines after
    it (the traceback), leaving out lines matching one of `allowed` (regular expressions)."""
    lines = text.splitlines()
    found, quoted_to = [], 0
    for i, line in enumerate(lines):
        if i >= quoted_to and CRASH.search(line) and not any(re.search(a, line) for a in allowed):
            found.append("\n".join(lines[i:i + 13]))
            quoted_to = i + 13
    return found


@pytest.fixture(autouse=True)
def crash_guard(request):
    """Every browser test: fail at teardown if a server logged a session crash or a traceback while
    the test ran (module-scoped servers too: what was written since the last test's check).  A test
    that provokes a logged error on purpose names it: `@pytest.mark.server_log_allows("regex")`."""
    if "browser" not in request.keywords:
        yield
        return
    yield
    allowed = tuple(a for m in request.node.iter_markers("server_log_allows") for a in m.args)
    problems = []
    for srv in list(Server.started_servers):
        size = srv.log_size()
        for crash in crashes_in(srv.output(srv.checked), allowed):
            problems.append(f"server on port {srv.port} ({srv.log}):\n{crash}")
        srv.checked = size
        if srv.process is not None and srv.process.poll() is not None:
            Server.started_servers.remove(srv)  # stopped: nothing more to read
    if problems:
        pytest.fail("the app server logged a crash or a traceback during this test:\n\n"
                    + "\n\n".join(problems[:5]), pytrace=False)


class SharedServer(Server):
    """`companion web --host 0.0.0.0`: reachable from the network, with the PIN it prints."""

    host = "0.0.0.0"

    def start(self) -> "SharedServer":
        super().start()
        match = re.search(r"type the PIN (\d{6})", self.output())
        self.pin = match.group(1) if match else None
        return self

    @property
    def lan_url(self) -> str:
        from companion.app.network import lan_address

        return f"http://{lan_address()}:{self.port}/"


@pytest.fixture
def server(tmp_path):
    """A fresh server for this test alone (its own data folder)."""
    srv = Server(tmp_path / "data").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    """One server for a whole test module, where each test only reads or starts games of its own:
    a module takes it as its `server` with `server = module_scoped_server()` (the crash guard still
    reads what it logged during each test)."""
    srv = Server(tmp_path_factory.mktemp("server") / "data").start()
    yield srv
    srv.stop()


def module_scoped_server():
    """A module's `server` fixture that is the module's one `module_server`."""
    @pytest.fixture(scope="module")
    def server(module_server):
        return module_server
    return server


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


# --- waiting on what the screen shows (no fixed sleeps) -----------------------------------------

#: Installed in a page: the browser's clock at the last change of the semantics tree (`__changed`).
QUIET = """() => {
  if (window.__changed === undefined) {
    window.__changed = performance.now();
    new MutationObserver(() => { window.__changed = performance.now(); })
      .observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  }
}"""


#: The game frame's paint counter in the page: its node `painted`, labelled "painted <N>".
PAINTED = """() => Math.max(-1, ...[...document.querySelectorAll("[flt-semantics-identifier='painted']")]
    .map(e => parseInt(((e.getAttribute('aria-label') || '') + ' ' + e.textContent).match(/painted (\\d+)/)?.[1] ?? '-1')))"""


def painted(page) -> int:
    """The game frame's paint counter (the renders it sent), or -1 off a game."""
    return page.evaluate(PAINTED)


def wait_painted(page, after: int, timeout: float = 20) -> int:
    """Wait until the game frame has sent a render after the `after`-th; the new count."""
    page.wait_for_function(f"n => ({PAINTED})() > n", arg=after, timeout=timeout * 1000, polling=50)
    return painted(page)


def settle(page, quiet_ms: int = 250, timeout: float = 20) -> None:
    """Wait until the screen has stopped changing: no change in the semantics tree for `quiet_ms`,
    then two animation frames drawn (the canvas shows what the tree says)."""
    page.evaluate(QUIET)
    page.wait_for_function("ms => performance.now() - window.__changed > ms", arg=quiet_ms,
                           timeout=timeout * 1000, polling=50)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")


def shoot(page, name: str, settled: bool = True) -> None:
    """A screenshot to tests/screenshots/<name>.png of the screen once it has settled (the pointer
    moved off, so no hover tooltip is in the picture); `settled=False`: at the next frame drawn
    (a brief thing on screen: a note, a tumble, a flash)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.mouse.move(1, 1)
    try:
        if settled:
            settle(page)
        else:
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(true)))")
    except Exception:  # a screen that never stops moving (a spinner): the picture as it is
        pass
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def wait_focus(page, timeout: float = 10) -> None:
    """Wait until a text field has the keyboard's focus (Flutter's editing element is active)."""
    page.wait_for_function("""() => { const a = document.activeElement;
        return !!a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA'); }""", timeout=timeout * 1000, polling=50)


FOCUSED_IN = """box => { const a = document.activeElement;
    if (!a || (a.tagName !== 'INPUT' && a.tagName !== 'TEXTAREA')) return false;
    const r = a.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x >= box.x - 2 && x <= box.x + box.width + 2 && y >= box.y - 2 && y <= box.y + box.height + 2; }"""


def focus_field(page, identifier: str, tries: int = 4) -> None:
    """Click a text field until the keyboard's focus is in it: Flutter's editing element stands over
    the field, so the focus is checked by where it is (another field's focus does not count), and a
    click lost while the screen was laid out is made again."""
    node = by_id(page, identifier)
    node.wait_for(timeout=20000)
    for _ in range(tries):
        node.click()
        try:
            page.wait_for_function(FOCUSED_IN, arg=node.bounding_box(), timeout=5000, polling=50)
            return
        except Exception:
            continue
    raise AssertionError(f"{identifier} never took the keyboard's focus")


def step(page, identifier: str, shown: str | None = None, timeout: float = 45) -> None:
    """Tap one of the banner's steps: on a phone the steps after the first sit in the banner's menu
    (`…banner-more`, issue 28), opened first when the step is not on screen.  With `shown`, tapped
    again (menu and all) until that control appears: a tap lost in a layout is made again."""
    deadline = time.monotonic() + timeout
    node = by_id(page, identifier)
    while time.monotonic() < deadline:
        if shown and by_id(page, shown).count():
            return
        if not node.count():
            more = page.locator("[flt-semantics-identifier$='banner-more']")
            if more.count():
                more.first.click()
            try:
                node.first.wait_for(timeout=5000)
            except Exception:
                continue
        try:
            node.first.click(timeout=5000)
        except Exception:
            continue
        if shown is None:
            return
        try:
            by_id(page, shown).first.wait_for(timeout=5000)
            return
        except Exception:
            continue
    raise AssertionError(f"the step {identifier!r} never" + (f" showed {shown!r}" if shown else " took a tap"))


def wait_until(check, what: str, timeout: float = 20):
    """Poll `check()` (every 0.1 s) until it returns something true; that value. Fails naming `what`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.1)
