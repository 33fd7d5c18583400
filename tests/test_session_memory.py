"""Sessions are dropped once their socket has closed for good (issue 25, part 8): Flet 1.0.5 keeps a
closed socket's session an hour (about 77 KB each on the home screen, megabytes on a game's screen,
each still redrawn on every change).  The server keeps it `SESSION_GRACE` seconds for its browser to
come back (the reconnect tests in test_server_security.py run with the default), then drops it.
Raw websocket clients against `python -m companion web` with a one-second grace; the server's log
(COMPANION_LOG=info) says when Flet's Session objects are garbage collected.

Flet's own sweep of expired sessions (every 10 s) keeps the last session it looked at in a local
variable until its next look: one browser stays connected through the test (registered last, so the
one the sweep holds), as at a table where the host's screen stays open."""

from __future__ import annotations

import asyncio
import re

import pytest
from test_server_security import Client, Served, shows


@pytest.fixture
def short_grace_server(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_SESSION_GRACE", "1")
    monkeypatch.setenv("COMPANION_LOG", "info")
    srv = Served(tmp_path / "data")
    yield srv
    srv.stop()


def collected(served: Served) -> set[str]:
    return set(re.findall(r"Session was garbage collected: (\w+)", served.log.read_text()))


def test_sessions_whose_sockets_closed_are_dropped_and_collected_and_an_open_one_is_kept(short_grace_server):
    served = short_grace_server

    async def go() -> None:
        gone = [await Client.register(served.url(), served.origin()) for _ in range(6)]
        kept = await Client.register(served.url(), served.origin())
        for client in gone + [kept]:
            assert await client.pump(shows(served.pin), 60), "no home screen came"
        for client in gone:
            await client.close()
        ids = {client.session_id for client in gone}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while not ids <= collected(served) and loop.time() < deadline:
            await kept.pump(lambda c: False, 0.2)  # the open one keeps reading, as a browser does
        assert ids <= collected(served), f"sessions still held after their sockets closed: {ids - collected(served)}"
        assert kept.session_id not in collected(served), "an open socket's session was dropped"
        assert "Delete session (1 left)" in served.log.read_text()
        await kept.close()

    asyncio.run(go())
