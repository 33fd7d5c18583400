"""Who is the host, which pages may open the websocket, and what one connection can make the server do
(issue 11), tested as an attacker would: `python -m companion web` in a subprocess and Flet's own
websocket protocol spoken directly (msgpack frames on /ws), no browser.

A device on the network is reached from this machine's own non-loopback address (the server listens
on 0.0.0.0 and the client connects to the LAN address, so the server's socket sees that address as
its peer); without one, those tests are skipped with a reason.
"""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from companion.app.network import lan_address

ROOT = Path(__file__).resolve().parents[1]
REGISTER, PATCH, EVENT, PROPS, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6
PAGE = 1  # the page's control id in every Flet session
JOIN_SCREEN = "Join the table"  # the PIN screen's title: what a device on the network sees first
LAN = lan_address()
needs_lan = pytest.mark.skipif(LAN is None, reason="this machine has no non-loopback address to connect from")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


class Served:
    """`python -m companion web --host 0.0.0.0` with its own data folder; `pin` read from what it prints."""

    def __init__(self, data: Path):
        self.port = free_port()
        data.mkdir(parents=True, exist_ok=True)
        self.log = data.parent / "server.log"  # what the host's terminal shows
        with open(self.log, "w") as errors:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "web", "--host", "0.0.0.0", "--port", str(self.port),
                 "--data", str(data)],
                cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True,
            )
        self.pin = ""
        for line in self.process.stdout:
            found = re.search(r"PIN (\d{6})", line)
            if found:
                self.pin = found.group(1)
                break
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("the app server did not start")

    def url(self, address: str = "127.0.0.1") -> str:
        return f"ws://{address}:{self.port}/ws"

    def origin(self, address: str = "127.0.0.1") -> str:
        return f"http://{address}:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process.stdout.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    srv = Served(tmp_path_factory.mktemp("served") / "data")
    yield srv
    srv.stop()


@pytest.fixture
def own_server(tmp_path):
    srv = Served(tmp_path / "data")
    yield srv
    srv.stop()


def frame(action: int, body) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def strings(value, out: list[str]) -> list[str]:
    """Every string in a decoded message (texts on screen, control names, property names)."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            strings(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            strings(item, out)
    return out


def objects(client: "Client"):
    """Every object (a control, a patch) in the messages a client was sent, nested ones too, in
    the order they were sent."""
    stack = [body for _, body in reversed(client.messages)]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            yield value
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, (list, tuple)):
            stack.extend(reversed(value))


class Client:
    """A raw Flet web client: registers, answers the server's method calls, records what it is sent."""

    def __init__(self, ws, before_device_token=None):
        self.ws = ws
        self.raw: list[bytes] = []
        self.messages: list[tuple[int, object]] = []
        self.session_id: str | None = None
        self.before_device_token = before_device_token  # an attack to make before answering it

    @classmethod
    async def register(cls, url: str, origin: str | None, page: dict | None = None, session_id=None,
                       before_device_token=None) -> "Client":
        ws = await connect(url, origin=origin, max_size=None, open_timeout=30)
        client = cls(ws, before_device_token)
        fields = {"route": "/", "web": True, "width": 1280, "height": 800, **(page or {})}
        await ws.send(frame(REGISTER, {"session_id": session_id, "page_name": "", "page": fields}))
        return client

    def answer(self, call: dict):
        """What this browser answers a method call of the server's: nothing stored, nothing done."""
        return None

    def words(self) -> str:
        return " ".join(s for _, body in self.messages for s in strings(body, []))

    async def pump(self, until, timeout: float) -> bool:
        """Read and answer messages until `until(self)` holds (True) or the time is up (False)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not until(self):
            left = end - loop.time()
            if left <= 0:
                return False
            try:
                raw = await asyncio.wait_for(self.ws.recv(), left)
            except TimeoutError:
                return False
            self.raw.append(raw)
            if raw[:1] != b"\x00":
                continue
            action, body = msgpack.unpackb(raw[1:], strict_map_key=False)
            self.messages.append((action, body))
            if action == REGISTER:
                self.session_id = body["session_id"]
            elif action == INVOKE:
                if body.get("name") == "get" and self.before_device_token is not None:
                    await self.before_device_token(self)
                    self.before_device_token = None
                await self.ws.send(frame(INVOKE, {"control_id": body["control_id"], "call_id": body["call_id"],
                                                  "result": self.answer(body), "error": None}))
        return True

    async def close(self) -> None:
        await self.ws.close()


def shows(text: str):
    return lambda client: text in client.words()


async def first_screen(url: str, origin: str | None, **kwargs) -> Client:
    """Register and read until a screen with a title has come (the PIN screen or the home screen)."""
    client = await Client.register(url, origin, **kwargs)
    came = await client.pump(lambda c: JOIN_SCREEN in c.words() or "Quick-Start" in c.words(), 30)
    await client.close()
    assert came, "no screen came"
    return client


# --- who is the host: only the server's own view of the socket ----------------------------------------


def test_a_browser_on_this_computer_is_the_host(served):
    client = asyncio.run(first_screen(served.url(), served.origin()))
    assert JOIN_SCREEN not in client.words()
    assert served.pin in client.words()  # the host's home screen shows the join PIN


@needs_lan
def test_a_device_on_the_network_sees_the_pin_screen(served):
    client = asyncio.run(first_screen(served.url(LAN), served.origin(LAN)))
    assert JOIN_SCREEN in client.words()
    assert served.pin not in client.words()


@needs_lan
def test_a_device_that_says_it_is_not_a_web_client_is_not_the_host(served):
    client = asyncio.run(first_screen(served.url(LAN), served.origin(LAN), page={"web": False}))
    assert JOIN_SCREEN in client.words()
    assert served.pin not in client.words()


@needs_lan
def test_a_device_that_registers_with_a_loopback_client_ip_is_not_the_host(served):
    client = asyncio.run(first_screen(served.url(LAN), served.origin(LAN), page={"client_ip": "127.0.0.1"}))
    assert JOIN_SCREEN in client.words()
    assert served.pin not in client.words()


@needs_lan
def test_a_device_that_sets_a_loopback_client_ip_before_the_device_token_is_not_the_host(served):
    async def claim_loopback(client: Client) -> None:
        await client.ws.send(frame(PROPS, {"id": PAGE, "props": {"client_ip": "127.0.0.1", "web": False}}))
        await asyncio.sleep(0.2)

    client = asyncio.run(first_screen(served.url(LAN), served.origin(LAN), before_device_token=claim_loopback))
    assert JOIN_SCREEN in client.words()
    assert served.pin not in client.words()


# --- which pages may open the websocket -------------------------------------------------------------------


@pytest.mark.parametrize("origin", ["http://evil.example", "null", None, "http://evil.example:{port}",
                                    "http://127.0.0.1:1", "https://127.0.0.1:{port}"])
def test_a_websocket_from_another_origin_is_refused(served, origin):
    async def attempt() -> None:
        wanted = origin.format(port=served.port) if origin else None
        with pytest.raises(InvalidStatus) as refused:
            ws = await connect(served.url(), origin=wanted, open_timeout=30)
            await ws.close()
        assert refused.value.response.status_code == 403

    asyncio.run(attempt())


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "lan"])
def test_the_apps_own_addresses_may_open_the_websocket(served, name):
    if name == "lan" and LAN is None:
        pytest.skip("this machine has no non-loopback address")
    address = LAN if name == "lan" else name
    client = asyncio.run(first_screen(served.url(LAN if name == "lan" else "127.0.0.1"), served.origin(address)))
    assert client.session_id


def test_a_session_that_reconnects_comes_back(served):
    """A phone that slept: Flet reconnects the same session on a new socket (tried again, as the
    browser does, until the server has seen the old socket go)."""
    async def go() -> None:
        first = await first_screen(served.url(), served.origin())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 90  # generous: a busy 2-core machine took over 15 s to see the socket go
        while loop.time() < deadline:
            await asyncio.sleep(1)
            again = await Client.register(served.url(), served.origin(), session_id=first.session_id)
            assert await again.pump(lambda c: c.session_id is not None, 30)
            await again.close()
            if again.session_id == first.session_id:
                return
        pytest.fail("the session did not come back")

    asyncio.run(go())


# --- what one connection can make the server do ------------------------------------------------------------


def test_a_browser_gone_while_its_first_screen_is_built_comes_back(own_server):
    """A phone that slept just as its screen was being built: its session must not crash (Flet's
    run_task needs the connection; the home screen's background work used it) and must reconnect."""
    async def go() -> None:
        first = await Client.register(own_server.url(), own_server.origin())
        assert await first.pump(lambda c: c.session_id is not None, 30)
        await first.close()  # gone before the screen is drawn
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 90
        while loop.time() < deadline:
            await asyncio.sleep(1)
            again = await Client.register(own_server.url(), own_server.origin(), session_id=first.session_id)
            came = await again.pump(lambda c: c.session_id is not None and (JOIN_SCREEN in c.words()
                                                                         or "Quick-Start" in c.words()), 30)
            await again.close()
            if again.session_id == first.session_id:
                assert came, "the session came back without its screen"
                return
        pytest.fail("the session did not come back")

    asyncio.run(go())
    time.sleep(1)
    assert "Unhandled error processing page session" not in own_server.log.read_text()


def test_an_event_flood_leaves_the_table_answering(own_server):
    """20,000 events for controls the flooding session does not show (Flet looks for each one in the
    whole page), then another browser opens the app: it is answered (a generous wait; no speed asserted)."""
    async def go() -> None:
        flooder = await Client.register(own_server.url(), own_server.origin())
        assert await flooder.pump(shows(own_server.pin), 30)
        for i in range(20_000):
            await flooder.ws.send(frame(EVENT, {"target": 900_000 + i, "name": "click", "data": None}))
        other = await Client.register(own_server.url(), own_server.origin())
        answered = await other.pump(shows(own_server.pin), 20)
        await other.close()
        await flooder.close()
        assert answered, "the other browser was not answered while the flood was handled"

    asyncio.run(go())


def test_a_click_flood_on_a_real_control_is_bounded(own_server):
    """2,000 clicks on a real button in a moment (the theme switch: each handled one sends a change
    back): most are dropped, and the table still answers another browser."""
    async def go() -> None:
        flooder = await Client.register(own_server.url(), own_server.origin())
        assert await flooder.pump(shows(own_server.pin), 30)
        target = theme_button(flooder)
        before = len(flooder.messages)
        for _ in range(2000):
            await flooder.ws.send(frame(EVENT, {"target": target, "name": "click", "data": None}))
        other = await Client.register(own_server.url(), own_server.origin())
        answered = await other.pump(shows(own_server.pin), 20)
        await flooder.pump(lambda c: False, 3)
        handled = sum(1 for action, _ in flooder.messages[before:] if action == PATCH)
        await other.close()
        await flooder.close()
        assert answered, "the other browser was not answered while the clicks were handled"
        assert 0 < handled < 500, f"{handled} of 2,000 clicks were handled"

    asyncio.run(go())


def test_a_window_dragged_to_a_new_size_does_not_use_up_the_taps(own_server):
    """A browser reports each step of a resize (and each notch of a wheel on the map): 150 resizes at
    once, then a tap on the theme switch, which is handled (a notice costs a tenth of a tap)."""
    async def go() -> None:
        client = await Client.register(own_server.url(), own_server.origin())
        assert await client.pump(shows(own_server.pin), 30)
        target = theme_button(client)
        for width in range(600, 1350, 5):
            await client.ws.send(frame(EVENT, {"target": PAGE, "name": "resize",
                                               "data": {"width": width, "height": 800}}))
        before = len(client.messages)
        await client.ws.send(frame(EVENT, {"target": target, "name": "click", "data": None}))
        changed = await client.pump(lambda c: any(a == PATCH and "theme-dialog" in strings(body, [])
                                                  for a, body in c.messages[before:]), 20)
        await client.close()
        assert changed, "the tap after the resizes was not handled"

    asyncio.run(go())


def theme_button(client: Client) -> int:
    """The id of the home screen's theme button (its tooltip names the dark theme; a tap opens the choice)."""
    found = [node["_i"] for node in objects(client) if node.get("on_click")
             and isinstance(node.get("tooltip"), (str, dict)) and "dark" in str(node["tooltip"]).lower()]
    assert found, "no theme switch on the home screen"
    return found[0]


# --- a crash: a plain message on screen, the rest in the host's log -------------------------------------------


def test_a_crashing_handler_sends_a_plain_message_and_no_traceback(own_server):
    async def go() -> Client:
        client = await Client.register(own_server.url(), own_server.origin())
        assert await client.pump(shows(own_server.pin), 30)
        # a resize event whose data does not fit Flet's event type: the handler raises
        await client.ws.send(frame(EVENT, {"target": PAGE, "name": "resize", "data": {"no such field": 1}}))
        told = await client.pump(lambda c: "That did not work" in c.words(), 20)  # issue 25: the session goes on
        await client.close()
        assert told, "no plain message came"
        return client

    client = asyncio.run(go())
    sent = b"".join(client.raw).decode("utf-8", "replace")
    assert "Traceback" not in sent
    assert ".py" not in sent and "site-packages" not in sent and str(ROOT) not in sent
    assert not any(action == CRASHED for action, _ in client.messages)
    assert "The game is saved." in client.words()
    assert "Traceback" in own_server.log.read_text()  # the rest is in the host's log


# --- the decisions behind the server, as plain functions ---------------------------------------------------


def test_the_apps_own_origins():
    from companion.app.server import allowed_origins, origin_allowed

    own = allowed_origins("0.0.0.0", 8550, "http://192.168.1.20:8550/")
    assert origin_allowed("http://127.0.0.1:8550", "127.0.0.1:8550", own)
    assert origin_allowed("http://localhost:8550", "localhost:8550", own)
    assert origin_allowed("http://[::1]:8550", "[::1]:8550", own)
    assert origin_allowed("http://192.168.1.20:8550", "192.168.1.20:8550", own)
    # another interface of this computer: an IP address the request was sent to
    assert origin_allowed("http://10.0.0.5:8550", "10.0.0.5:8550", own)
    # a page of another server on the network, sending to this one
    assert not origin_allowed("http://10.0.0.9:8550", "192.168.1.20:8550", own)
    # a DNS name pointed at this computer (rebinding): Origin and Host agree, still refused
    assert not origin_allowed("http://evil.example:8550", "evil.example:8550", own)
    for bad in (None, "", "null", "http://evil.example", "http://127.0.0.1:1", "https://127.0.0.1:8550",
                "file://", "http://127.0.0.1:notaport", "ws://127.0.0.1:8550"):
        assert not origin_allowed(bad, "127.0.0.1:8550", own), bad
    served_on_one = allowed_origins("192.168.1.20", 80, None)
    assert origin_allowed("http://192.168.1.20", "192.168.1.20", served_on_one)


def test_the_bucket_spends_and_refills():
    from companion.app.server import Bucket

    bucket = Bucket(rate=10, capacity=40)
    assert sum(bucket.take(1, 0.0) for _ in range(100)) == 40
    assert not bucket.take(1, 0.05)
    assert bucket.take(1, 0.2)  # 0.2 s: two tokens back, less the half spent trying
    assert bucket.wait_for(5, 0.2) > 0
    bucket.owe(100, 10.0)  # a frame bigger than the bucket: paid for by what comes after it
    assert bucket.wait_for(1, 10.0) == (1 - (40 - 100)) / 10


def test_frames_are_priced_before_they_are_decoded():
    from companion.app.server import event_cost, frame_cost

    click = frame(EVENT, {"target": 5, "name": "click", "data": None})
    assert frame_cost(click) == (1.0 + len(click) / 65536, True)
    assert frame_cost(frame(PROPS, {"id": 1, "props": {}}))[1] is True
    assert frame_cost(frame(INVOKE, {"call_id": "x"}))[1] is False  # an answer the server waits for
    assert frame_cost(b"\x01\x00\x00\x00\x00" + bytes(1 << 20))[0] > 16  # a megabyte costs its size
    assert event_cost("click") == event_cost("submit") == event_cost("route_change") == 1
    assert event_cost("resize") == event_cost("interaction_start") == event_cost("change") < 1


def test_only_the_server_side_transport_decides_where_a_session_is():
    from types import SimpleNamespace

    from flet.messaging.flet_socket_server import FletSocketServer
    from flet.messaging.session_store import SessionStore

    from companion.app.server import PEER_KEY, observed_address

    def page(connection, peer=None):
        store = SessionStore()
        if peer:
            store.set(PEER_KEY, peer)
        return SimpleNamespace(session=SimpleNamespace(store=store, connection=connection),
                               client_ip="127.0.0.1", web=False)  # what a client may claim: ignored

    assert observed_address(page(object(), "192.168.1.7")) == "192.168.1.7"
    assert observed_address(page(object())) is None  # a connection not ours, not known: not the host
    assert observed_address(page(object.__new__(FletSocketServer))) == "127.0.0.1"  # the desktop window


@needs_lan
def test_one_address_may_hold_only_so_many_sockets(own_server):
    """Each socket has its own budget, so one address may not open sockets without end (24 at once,
    `server.MAX_SOCKETS_PER_ADDRESS`: a host's tabs and the load test's eight browsers fit)."""
    async def go() -> None:
        sockets = []
        try:
            for _ in range(24):
                sockets.append(await connect(own_server.url(LAN), origin=own_server.origin(LAN), open_timeout=30))
            with pytest.raises(InvalidStatus):
                extra = await connect(own_server.url(LAN), origin=own_server.origin(LAN), open_timeout=30)
                await extra.close()
        finally:
            for ws in sockets:
                await ws.close()
        await asyncio.sleep(1)
        again = await first_screen(own_server.url(LAN), own_server.origin(LAN))  # freed when they close
        assert JOIN_SCREEN in again.words()

    asyncio.run(go())
