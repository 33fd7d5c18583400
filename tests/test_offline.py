"""The pages' Content-Security-Policy (companion/app/offline.py, issue 18): the app's pages load only
from the server that served them and open a websocket only back to it."""

from __future__ import annotations

import asyncio

from companion.app.offline import content_policy, with_policy


def directives(policy: str) -> dict[str, list[str]]:
    return {name: rest for name, *rest in (d.split() for d in policy.split(";") if d.strip())}


def test_the_policy_names_no_other_host():
    policy = directives(content_policy("192.168.1.20:8550"))
    for name, sources in policy.items():
        for source in sources:
            assert source.startswith("'") or source in ("data:", "blob:") or "192.168.1.20:8550" in source, (name, source)
    assert policy["connect-src"][-2:] == ["ws://192.168.1.20:8550", "wss://192.168.1.20:8550"]
    assert policy["object-src"] == ["'none'"]


def test_a_strange_host_header_adds_no_source():
    for host in ("evil.example 'unsafe-hashes'", "a;script-src *", "", None):
        policy = directives(content_policy(host))
        assert policy["connect-src"] == ["'self'", "data:", "blob:"], host
        assert "*" not in content_policy(host)


def sent_headers(content_type: bytes) -> dict[bytes, bytes]:
    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "headers": [(b"host", b"127.0.0.1:8550")]}
    wrapped = with_policy(scope, send)
    body = b"<html><head><title>x</title></head><body></body></html>"

    async def respond():
        await wrapped({"type": "http.response.start", "status": 200,
                       "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]})
        await wrapped({"type": "http.response.body", "body": body[:20], "more_body": True})
        await wrapped({"type": "http.response.body", "body": body[20:]})

    asyncio.run(respond())
    return {**dict(sent[0]["headers"]), b"body": b"".join(m.get("body", b"") for m in sent[1:])}


def test_a_page_asks_no_cdn_for_rive_and_reads_english_under_a_posix_locale():
    """Issue 37: each HTML page gets, first in its head, the scripts that leave out Flet's Rive runtime
    and that read English when the browser's language is no BCP 47 tag; its length is set again."""
    from companion.app.offline import LANGUAGE_FALLBACK, NO_RIVE

    page = sent_headers(b"text/html; charset=utf-8")
    assert page[b"body"].startswith(b"<html><head>\n" + NO_RIVE.encode() + b"\n" + LANGUAGE_FALLBACK.encode())
    assert int(page[b"content-length"]) == len(page[b"body"])
    assert sent_headers(b"image/png")[b"body"].startswith(b"<html><head><title>")  # other files as they are


def test_pages_get_the_policy_and_files_do_not():
    page = sent_headers(b"text/html; charset=utf-8")
    assert b"ws://127.0.0.1:8550" in page[b"content-security-policy"]
    assert b"content-security-policy" not in sent_headers(b"image/png")
    assert b"content-security-policy" not in sent_headers(b"text/javascript")
