"""Firefox and WebKit for the cross-engine smoke test (issue 37), beside Playwright's Chromium.

Playwright's own Firefox and WebKit builds cannot be had here, so each engine is driven by what
Debian ships:

- Firefox ESR answers WebDriver BiDi itself (`--remote-debugging-port`): `Firefox` speaks it over
  one websocket (the `websockets` package the server already needs), and hears every page error
  and console error as the page logs it (`log.entryAdded`).
- WebKitGTK (Safari's engine) through `WebKitWebDriver` (package webkit2gtk-driver) and Selenium,
  its MiniBrowser in a virtual X display (`xvfb-run`); it will not go below 447 px wide.  Its
  errors are caught by a hook the page gets as soon as it has loaded.

Both tap a Flet control as a finger does, with a pointer at its centre (WebKit refuses an
element click on Flutter's semantics nodes).  `Engine` is what the test uses of either.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
XVFB_RUN = "/usr/bin/xvfb-run"
MINIBROWSER = next(iter(sorted(Path("/usr/lib").glob("*/webkit2gtk-4.*/MiniBrowser"))), None)

#: Installed in a WebKit page: its uncaught errors, rejected promises and console errors, kept.
ERROR_HOOK = """
if (!window.__errors) {
  window.__errors = [];
  window.addEventListener('error', (e) => window.__errors.push('error: ' + (e.message || e.type)));
  window.addEventListener('unhandledrejection', (e) => window.__errors.push('rejection: ' + String(e.reason)));
  const said = console.error.bind(console);
  console.error = (...args) => { window.__errors.push('console: ' + args.map(String).join(' ')); said(...args); };
}
"""


def missing() -> str | None:
    """What this computer lacks for the two engines (.ci/run installs it), or None."""
    needs = {FIREFOX: "firefox-esr", WEBKIT_DRIVER: "webkit2gtk-driver", XVFB_RUN: "xvfb"}
    lacking = [package for path, package in needs.items() if not Path(path).exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        lacking.append("selenium (pip)")
    return ", ".join(lacking) or None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Engine:
    """What the smoke test asks of a browser: open, run a script, tap at a point, the page's errors."""

    name = ""

    def goto(self, url: str) -> None: ...
    def js(self, expression: str): ...
    def tap(self, x: float, y: float) -> None: ...
    def errors(self) -> list[str]: ...
    def pages(self) -> list[str]: ...
    def close(self) -> None: ...


class Firefox(Engine):
    """Firefox ESR, headless, a new profile, driven over WebDriver BiDi."""

    name = "firefox"

    def __init__(self, width: int, height: int, lang: str = ""):
        from websockets.sync.client import connect

        self.profile = tempfile.mkdtemp(prefix="firefox-profile-")
        Path(self.profile, "user.js").write_text(
            'user_pref("browser.shell.checkDefaultBrowser", false);\n'
            'user_pref("datareporting.policy.dataSubmissionEnabled", false);\n'
            'user_pref("browser.startup.homepage_override.mstone", "ignore");\n', encoding="utf-8")
        self.process = subprocess.Popen([FIREFOX, "--headless", "--no-remote", "--profile", self.profile,
                                         "--remote-debugging-port=0", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                        start_new_session=True)
        address = self._address()
        self.socket = connect(address + "/session", max_size=None, open_timeout=30)
        self.next_id, self.answers, self.events, self.lock = 0, {}, [], threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.send("session.new", {"capabilities": {}})
        self.send("session.subscribe", {"events": ["log.entryAdded", "browsingContext.contextCreated"]})
        self.context = self.send("browsingContext.getTree", {})["contexts"][0]["context"]
        self.send("browsingContext.setViewport", {"context": self.context,
                                                  "viewport": {"width": width, "height": height}})

    def _address(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if "WebDriver BiDi listening on" in line:
                threading.Thread(target=self.process.stderr.read, daemon=True).start()  # keep the pipe drained
                return line.split("listening on", 1)[1].strip()
            if not line and self.process.poll() is not None:
                break
        raise RuntimeError("Firefox did not offer WebDriver BiDi")

    def _read(self) -> None:
        try:
            while True:
                data = json.loads(self.socket.recv())
                with self.lock:
                    if "id" in data:
                        self.answers[data["id"]] = data
                    else:
                        self.events.append(data)
                    self.lock.notify_all()
        except Exception:  # the socket closed
            with self.lock:
                self.lock.notify_all()

    def send(self, method: str, params: dict, timeout: float = 120):
        with self.lock:
            self.next_id += 1
            ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        with self.lock:
            while ident not in self.answers:
                if not self.lock.wait(max(0.0, deadline - time.monotonic())) and time.monotonic() > deadline:
                    raise TimeoutError(f"Firefox did not answer {method}")
            answer = self.answers.pop(ident)
        if answer.get("type") == "error":
            raise RuntimeError(f"{method}: {answer.get('error')}: {answer.get('message')}")
        return answer["result"]

    def goto(self, url: str) -> None:
        self.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def js(self, expression: str):
        result = self.send("script.evaluate", {"expression": f"JSON.stringify(({expression}))",
                                                "target": {"context": self.context}, "awaitPromise": True})
        if result.get("type") == "exception":
            raise RuntimeError(result["exceptionDetails"].get("text"))
        value = result["result"].get("value")
        return None if value is None else json.loads(value)

    def tap(self, x: float, y: float) -> None:
        self.send("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "finger", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "x": int(x), "y": int(y)}, {"type": "pointerDown", "button": 0},
                        {"type": "pause", "duration": 50}, {"type": "pointerUp", "button": 0}]}]})

    def errors(self) -> list[str]:
        with self.lock:
            entries = [e["params"] for e in self.events if e.get("method") == "log.entryAdded"]
        return [f"{e.get('type')}: {e.get('text')}" for e in entries
                if e.get("type") == "javascript" or e.get("level") == "error"]

    def pages(self) -> list[str]:
        tree = self.send("browsingContext.getTree", {})["contexts"]
        return [c["url"] for c in tree]

    def close(self) -> None:
        try:
            self.send("session.end", {}, timeout=10)
            self.socket.close()
        except Exception:
            pass
        _stop(self.process)
        shutil.rmtree(self.profile, ignore_errors=True)


class WebKit(Engine):
    """WebKitGTK's MiniBrowser through WebKitWebDriver and Selenium, in a virtual X display."""

    name = "webkit"

    def __init__(self, width: int, height: int, lang: str = "en_US.UTF-8"):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options

        port = _free_port()
        env = dict(os.environ, LANG=lang, LC_ALL=lang)  # "C": navigator.language is "C", no BCP 47 tag
        self.process = subprocess.Popen([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", WEBKIT_DRIVER,
                                         f"--port={port}"], env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        options = Options()
        if MINIBROWSER:
            options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        self.driver = webdriver.Remote(command_executor=f"http://127.0.0.1:{port}", options=options)
        self.driver.set_script_timeout(120)
        self.driver.set_window_size(width, height)
        self.main = self.driver.current_window_handle

    def goto(self, url: str) -> None:
        self.driver.get(url)
        self.driver.execute_script(ERROR_HOOK)

    def js(self, expression: str):
        self.driver.execute_script(ERROR_HOOK)  # a reload forgets it
        value = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve(({expression})).then((v) => done(JSON.stringify(v)), (e) => done(JSON.stringify({{__error: String(e)}})));")
        result = None if value is None else json.loads(value)
        if isinstance(result, dict) and "__error" in result:
            raise RuntimeError(result["__error"])
        return result

    def tap(self, x: float, y: float) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(int(x), int(y)).click()
        actions.perform()

    def errors(self) -> list[str]:
        return list(self.driver.execute_script("return window.__errors || []"))

    def pages(self) -> list[str]:
        urls = []
        for handle in self.driver.window_handles:
            self.driver.switch_to.window(handle)
            urls.append(self.driver.current_url)
        self.driver.switch_to.window(self.main)
        return urls

    def close(self) -> None:
        try:
            self.driver.quit()
        except Exception:
            pass
        _stop(self.process)


def _stop(process: subprocess.Popen) -> None:
    """End a browser or driver started here, with the processes it started (its own session)."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


ENGINES = {"firefox": Firefox, "webkit": WebKit}
