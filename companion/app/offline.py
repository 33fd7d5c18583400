"""The app's pages fetch nothing from the internet (issue 18): a Content-Security-Policy on every
page Flet serves lets the page load scripts, fonts, images and data only from the server that
served it, and open a websocket only back to it.

Flet 1.0.5's client, served with `no_cdn=True`, takes CanvasKit and its fonts from our server, but
its compiled Flutter code (main.dart.js and main.dart.wasm alike) still appends a script from a CDN
at start-up: the Rive animation runtime (`@rive-app/flutter-native-wasm`), which the app never uses.
Offline that script fails to load and Rive never starts; with this policy the browser refuses it
before it asks the network, online too, so the page behaves the same everywhere and tells no third
party that it was opened.  The policy is the browser's, so it also stops whatever a later Flet
client may try to fetch elsewhere (tests/browser/test_offline_assets.py watches every request).
Firefox reports each refusal as a page error, so the page is not even let ask: `NO_RIVE`, put in
every page's head (here and in the static build), drops the script before it is appended (issue 37);
Rive then never starts, as offline.
"""

from __future__ import annotations

#: What a page may load, and from where: its own server ('self'), data: and blob: URLs the page makes
#: itself, inline scripts and styles (Flet's index.html has them), and WebAssembly (CanvasKit, skwasm).
POLICY = ("default-src 'self' data: blob:; "
          "script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:; "
          "style-src 'self' 'unsafe-inline'; "
          "connect-src 'self' data: blob: {sockets}; "
          "object-src 'none'; base-uri 'self'")


def content_policy(host: str | None) -> str:
    """The policy of a page requested with this `Host` header: its websocket may go back to that host
    only (by ws: and wss:, which some browsers do not count as 'self')."""
    sockets = f"ws://{host} wss://{host}" if host and _plain(host) else ""
    return POLICY.format(sockets=sockets).replace("  ", " ").replace(" ;", ";")


def _plain(host: str) -> bool:
    """A Host header that can stand in a policy as it is (no spaces, quotes or separators)."""
    return all(c.isalnum() or c in ".:-[]_" for c in host)


#: Put first in a page's head: Flet's client appends the Rive runtime's script from jsDelivr; this
#: leaves that one script out (the app never uses Rive), so the page asks no other host for it.
NO_RIVE = ("<script>(() => { const append = Element.prototype.append;"
           " const rive = (n) => n instanceof HTMLScriptElement && n.src.startsWith('https://cdn.jsdelivr.net/npm/@rive-app/');"
           " Element.prototype.append = function (...nodes) { return append.apply(this, nodes.filter((n) => !rive(n))); };"
           " })();</script>")


#: Put first in a page's head: a browser whose language is no BCP 47 tag (WebKit under a POSIX locale,
#: LANG=C, says "C") stops Flutter's client at the splash ("invalid language tag"); the page then
#: reads English, and only the valid tags of the browser's list (issue 37).
LANGUAGE_FALLBACK = ("<script>(() => { const valid = (tag) => { try { new Intl.Locale(tag); return true; }"
                     " catch (e) { return false; } };"
                     " const tags = [...(navigator.languages || [navigator.language])].filter(valid);"
                     " if (valid(navigator.language) && tags.length === (navigator.languages || []).length) { return; }"
                     " const first = valid(navigator.language) ? navigator.language : (tags[0] || 'en-US');"
                     " const list = tags.length ? tags : ['en-US'];"
                     " Object.defineProperty(Navigator.prototype, 'language', { get: () => first, configurable: true });"
                     " Object.defineProperty(Navigator.prototype, 'languages', { get: () => list, configurable: true });"
                     " })();</script>")


def with_no_rive(page: str) -> str:
    """An HTML page with `NO_RIVE` and `LANGUAGE_FALLBACK` at the top of its head."""
    return page.replace("<head>", "<head>\n" + NO_RIVE + "\n" + LANGUAGE_FALLBACK, 1)


def with_policy(scope, send):
    """`send` with the policy added to an HTML page's headers (Flet's index.html, whatever its route),
    and `NO_RIVE` in its head (the body is held until whole, its length set again)."""
    host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1") or None
    held: dict = {}

    async def sending(message) -> None:
        if message.get("type") == "http.response.start":
            headers = list(message.get("headers") or [])
            kind = dict(headers).get(b"content-type", b"")
            if kind.startswith(b"text/html"):
                headers.append((b"content-security-policy", content_policy(host).encode("latin-1")))
                held.update(start={**message, "headers": headers}, body=b"")
                return
        elif message.get("type") == "http.response.body" and "start" in held:
            held["body"] += message.get("body", b"")
            if message.get("more_body"):
                return
            body = with_no_rive(held["body"].decode("utf-8")).encode("utf-8")
            start = held.pop("start")
            start["headers"] = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            start["headers"].append((b"content-length", str(len(body)).encode()))
            await send(start)
            message = {"type": "http.response.body", "body": body}
        await send(message)

    return sending
