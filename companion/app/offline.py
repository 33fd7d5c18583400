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


def with_policy(scope, send):
    """`send` with the policy added to an HTML page's headers (Flet's index.html, whatever its route)."""
    host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1") or None

    async def sending(message) -> None:
        if message.get("type") == "http.response.start":
            headers = list(message.get("headers") or [])
            kind = dict(headers).get(b"content-type", b"")
            if kind.startswith(b"text/html"):
                headers.append((b"content-security-policy", content_policy(host).encode("latin-1")))
                message = {**message, "headers": headers}
        await send(message)

    return sending
