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
import gc
import re
import weakref
from types import SimpleNamespace

import pytest
import uvicorn
from random_games import starting_state
from test_server_roles import said_since, settle, tagged, tap, type_into
from test_server_security import JOIN_SCREEN, LAN, Client, Served, free_port, needs_lan, objects, shows

from companion.app import server
from companion.app.main import create_app
from companion.app.sharing import Sharing
from companion.store.store import TinyDBStore


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


# --- a phone that joined, took a side and left is forgotten, all but its name and token (issue 36) ------------


@needs_lan
def test_a_phone_that_joined_took_a_side_and_left_leaves_no_page_screen_or_listener(tmp_path, monkeypatch):
    """The server in this process (so the departed page can be watched by a weak reference), a phone
    speaking Flet's protocol from the network address: the PIN, a side, the whole table screen, gone.
    Its page and App (holding the table screen) are collected; the hub keeps only the device record.
    Before issue 36, two screens opened at once as the PIN let it in (the Join tap's and the hub's news
    that it was let in) each listened to the game's table, and one listener was never stopped: the
    table held every departed phone's App, and through it its whole screen."""
    monkeypatch.setattr(server, "SESSION_GRACE", 0.5)
    store = TinyDBStore(tmp_path / "data")
    game = store.new_game(starting_state(1), "battle")
    port = free_port()
    sharing = Sharing(address=f"http://{LAN}:{port}/")
    served = SimpleNamespace(pin=sharing.pin, url=lambda a: f"ws://{a}:{port}/ws", origin=lambda a: f"http://{a}:{port}")
    pages: list[weakref.ref] = []
    play = create_app(store, sharing=sharing)

    async def main(page) -> None:
        pages.append(weakref.ref(page))
        await play(page)

    async def go() -> tuple[weakref.ref, weakref.ref, str]:
        app = server.CompanionServer(main, served_host="0.0.0.0", port=port, join_address=sharing.address,
                                     assets_dir=None)
        web = uvicorn.Server(uvicorn.Config(app, host="0.0.0.0", port=port, log_level="warning",
                                            ws="websockets-sansio", lifespan="on"))
        serving = asyncio.create_task(web.serve())
        try:
            while not web.started:
                await asyncio.sleep(0.05)
            phone = await Client.register(served.url(LAN), served.origin(LAN), page={"route": f"/game/{game.id}"})
            assert await phone.pump(shows(JOIN_SCREEN), 60)
            await type_into(phone, "pin-field", served.pin)
            await tap(phone, "pin-join")
            assert await phone.pump(lambda c: tagged(c, "role-side-British"), 60), "the PIN did not let it in"
            await settle(phone, 0.5)
            start = len(phone.messages)
            await tap(phone, "role-side-British")
            assert await phone.pump(lambda c: "This device: " in said_since(c, start)
                                    and any(str(n.get("identifier", "")).startswith("ship-") for n in objects(c)),
                                    60), "the table screen never came"
            page = pages[-1]
            the_app = weakref.ref(page().on_close.__self__)  # the App: the table screen, its listeners
            assert the_app().table is not None and sharing.table(store.game(game.id)).listeners >= 1
            token = the_app().device.token
            await phone.close()
            deadline = asyncio.get_running_loop().time() + 60
            while (page() is not None or the_app() is not None) and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.2)
                gc.collect()
            return page, the_app, token
        finally:
            web.should_exit = True
            await serving

    page, the_app, token = asyncio.run(go())
    assert the_app() is None, "the departed phone's App (and its table screen) is still held"
    assert page() is None, "the departed phone's page is still held"
    assert sharing.device(token) is not None  # its name and token stay: it may come back as itself
    assert all(not table.listeners for table in sharing._tables.values())


def test_two_screens_opening_one_game_at_once_leave_one_listener_and_a_closed_app_none(tmp_path):
    """The race the phones lost memory to, without a server: two `show`s reading the game at once (the
    Join tap's and the hub's news that the PIN let the device in) subscribe once between them; the
    session's close unsubscribes it, and a game read after the close subscribes nothing."""
    from companion.app.main import App

    store = TinyDBStore(tmp_path / "data")
    game = store.new_game(starting_state(1), "battle")
    sharing = Sharing()
    app = App(SimpleNamespace(), store, dict, None, sharing)
    app.device = sharing.connect(None, "192.168.1.7")

    async def go() -> None:
        await asyncio.gather(app._open_game(game.id), app._open_game(game.id))
        assert sharing.table(app.game).listeners == 1
        await app._on_close(None)
        assert sharing.table(app.store.game(game.id)).listeners == 0
        assert await app._open_game(game.id) is None and sharing.table(store.game(game.id)).listeners == 0

    asyncio.run(go())
