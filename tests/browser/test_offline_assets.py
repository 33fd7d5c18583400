"""The app fetches nothing from the internet (issue 18): the app served, opened in Chromium with
every request to another host refused and every request recorded, home and a Quick-Start game
loaded; no request went elsewhere and none failed.  The web manifest the page links is ours (name,
icons), and each of its icons loads at its size; screenshots of the icons as a phone's home screen
shows them and of the home screen in the app's fonts."""

from __future__ import annotations

import base64
import os
import subprocess
from unittest import mock
from urllib.parse import urlsplit

import pytest

from .conftest import PHONE, by_id, module_scoped_server, open_app, Server, settle, shoot, tap_until

pytestmark = pytest.mark.browser
server = module_scoped_server()  # one server for the module: each test starts its own games

NAME, SHORT_NAME = "Leviathans Table Companion", "Leviathans"


class Traffic:
    """Every request the page makes: those to the app's own host go on, any other is refused."""

    def __init__(self, own: str):
        self.own = own
        self.seen: list[str] = []
        self.elsewhere: list[str] = []
        self.failed: list[str] = []
        self.bad: list[str] = []
        self.refused: list[str] = []

    def route(self, route) -> None:
        url = route.request.url
        self.seen.append(url)
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob") or parts.netloc == self.own:
            route.continue_()
        else:
            self.elsewhere.append(url)
            route.abort("blockedbyclient")

    def failure(self, request) -> None:
        if request.failure == "csp":  # refused by the page's policy: never sent
            self.refused.append(request.url)
        else:
            self.failed.append(f"{request.url} ({request.failure})")

    def watch(self, context, page) -> None:
        """Record the page's failures and errors, and what the page's policy refused to fetch."""
        context.add_init_script("window.__refused = []; document.addEventListener("
                                "'securitypolicyviolation', e => window.__refused.push(e.blockedURI));")
        page.on("requestfailed", self.failure)
        page.on("response", lambda r: r.status >= 400 and self.bad.append(f"{r.url} {r.status}"))
        page.on("websocket", lambda ws: self.seen.append(ws.url) if urlsplit(ws.url).netloc == self.own
                else self.elsewhere.append(ws.url))


def test_the_app_fetches_nothing_from_the_internet(server, browser):
    traffic = Traffic(f"127.0.0.1:{server.port}")
    context = browser.new_context(viewport=PHONE)
    context.route("**/*", traffic.route)
    page = context.new_page()
    traffic.watch(context, page)
    open_app(page, server.url)
    by_id(page, "quick-start").wait_for(timeout=30000)
    assert page.title().startswith("Leviathans")
    shoot(page, "identity-home-phone")
    tap_until(page, "dice-roller", "roll-dice")  # a screen of headings: the display font
    shoot(page, "identity-dice-phone")
    by_id(page, "back").click()
    tap_until(page, "quick-start", "start-game")
    shoot(page, "identity-game-phone")
    refused = page.evaluate("window.__refused")
    page.reload()  # a second load, from the browser's cache and the server again
    page.wait_for_selector("#loading", state="detached", timeout=30000)
    page.wait_for_load_state("networkidle")  # everything the second load fetches has been fetched
    page.locator("flt-semantics-placeholder").wait_for(state="attached", timeout=10000)
    settle(page)
    context.close()

    assert traffic.elsewhere == [], f"requests to other hosts: {traffic.elsewhere}"
    assert traffic.failed == [], f"failed requests: {traffic.failed}"
    assert traffic.bad == [], f"requests answered with an error: {traffic.bad}"
    # the page's policy (companion/app/offline.py) refused nothing: Flet's client no longer even asks
    # a CDN for the Rive animation runtime the app never uses (offline.NO_RIVE, issue 37)
    assert refused + traffic.refused == [], refused + traffic.refused
    fetched = {urlsplit(u).path for u in traffic.seen}
    # the page, Flutter's engine from the app's own server, our fonts, the websocket
    assert {"/", "/fonts/OldStandard-Bold.ttf", "/fonts/Lato-Regular.ttf", "/ws"} <= fetched, sorted(fetched)
    assert any(p.startswith("/canvaskit/") and p.endswith(".wasm") for p in fetched), sorted(fetched)


MANIFEST_FACTS = """async () => {
    const link = document.querySelector('link[rel=manifest]');
    const manifest = await (await fetch(link.href)).json();
    const icons = [];
    for (const icon of manifest.icons) {
        const img = new Image();
        img.src = new URL(icon.src, link.href).href;
        await img.decode();
        icons.push({src: icon.src, sizes: icon.sizes, purpose: icon.purpose || 'any',
                    drawn: img.naturalWidth + 'x' + img.naturalHeight, url: img.src});
    }
    const favicon = document.querySelector('link[rel=icon]').href;
    const touch = document.querySelector('link[rel=apple-touch-icon]').href;
    const title = document.querySelector('meta[name=apple-mobile-web-app-title]').content;
    return {name: manifest.name, short: manifest.short_name, display: manifest.display,
            theme: manifest.theme_color, icons, favicon, touch, title};
}"""


def test_the_manifest_and_icons_are_ours(server, browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server.url)
    facts = page.evaluate(MANIFEST_FACTS)
    assert (facts["name"], facts["short"], facts["display"]) == (NAME, SHORT_NAME, "standalone")
    assert facts["title"] == NAME
    assert {(i["sizes"], i["purpose"]) for i in facts["icons"]} >= {
        ("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")}
    for icon in facts["icons"]:
        assert icon["drawn"] == icon["sizes"], icon
    assert facts["favicon"].endswith("/favicon.png") and facts["touch"].endswith("/icons/apple-touch-icon-192.png")

    # the icons as a phone shows them: the maskable icon cut to a circle (Android), the touch icon
    # rounded (iOS), the plain icon and the favicon, each with the name under it, on a wallpaper
    # (each icon fetched from the server and drawn from its bytes)
    def drawn(url: str) -> str:
        answer = context.request.get(url)
        assert answer.ok and answer.headers["content-type"] == "image/png", url
        return "data:image/png;base64," + base64.b64encode(answer.body()).decode()

    maskable = next(i["url"] for i in facts["icons"] if i["purpose"] == "maskable" and i["sizes"] == "192x192")
    plain = next(i["url"] for i in facts["icons"] if i["purpose"] == "any" and i["sizes"] == "192x192")
    tiles = [(maskable, "width:96px;height:96px;border-radius:50%", SHORT_NAME),
             (facts["touch"], "width:96px;height:96px;border-radius:22%", facts["title"]),
             (plain, "width:96px;height:96px", SHORT_NAME),
             (facts["favicon"], "width:32px;height:32px;image-rendering:pixelated", "tab")]
    cells = "".join(f"<figure><img src='{drawn(src)}' style='{style}'><figcaption>{label}</figcaption></figure>"
                    for src, style, label in tiles)
    page.set_viewport_size({"width": 560, "height": 200})
    page.set_content(
        "<body style='margin:0;padding:24px;background:linear-gradient(#203a2f,#51637a);font:13px sans-serif;"
        "color:white;display:flex;gap:24px;align-items:flex-start'>" + cells +
        "<style>figure{margin:0;text-align:center;width:110px}figcaption{margin-top:6px;"
        "white-space:nowrap;overflow:hidden;text-overflow:ellipsis}</style></body>")
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth)")
    shoot(page, "identity-icons")
    context.close()


def test_the_default_renderer_starts_under_the_pages_policy(tmp_path, browser):
    """The other tests force CanvasKit (dart2js); a phone's Chrome picks skwasm (dart2wasm, drawing in
    a worker) when Flet's renderer is left on auto: the home screen comes up under the same policy
    and nothing is fetched elsewhere.  (Headless screenshots of skwasm are blank, so none is taken.)"""
    def popen(args, env=None, **kw):  # the test server's command, with Flet's renderer left on auto
        return real_popen(args, env={k: v for k, v in (env or os.environ).items() if k != "FLET_WEB_RENDERER"}, **kw)

    real_popen = subprocess.Popen
    srv = Server(tmp_path / "data")
    with mock.patch("subprocess.Popen", popen):
        srv.start()
    try:
        traffic = Traffic(f"127.0.0.1:{srv.port}")
        context = browser.new_context(viewport=PHONE)
        context.route("**/*", traffic.route)
        page = context.new_page()
        traffic.watch(context, page)
        open_app(page, srv.url)
        by_id(page, "quick-start").wait_for(timeout=30000)
        renderer = page.evaluate("() => window._flutter_skwasmInstance ? 'skwasm' : 'canvaskit'")
        refused = page.evaluate("window.__refused")
        context.close()
    finally:
        srv.stop()
    assert renderer == "skwasm"
    assert traffic.elsewhere == [] and traffic.failed == [] and traffic.bad == [], \
        (traffic.elsewhere, traffic.failed, traffic.bad)
    assert refused + traffic.refused == [], refused + traffic.refused
