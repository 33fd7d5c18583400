"""The web server in front of Flet's: who is the host, which pages may connect, what one connection may cost.

Flet 1.0.5 serves web mode with `flet_web.fastapi.app(main)`: static files, and a websocket at `/ws`
where each connection is a `FletApp` that reads msgpack frames and turns them into a session's
register, control events and property updates.  Used as it is, it trusts the client for things
only the server can know, so this module wraps it (issue 11):

- **The host** is decided from the server's own view of the connection: the socket's peer address
  (Starlette's `websocket.client.host`), stamped on the session's server-side store at every
  register.  `page.client_ip` and `page.web` are the client's to patch (in the register and in any
  property update), so they decide nothing; updates to them are dropped.
- **Origins**: a websocket upgrade is refused (HTTP 403) unless its `Origin` is one of the app's own
  addresses: loopback names, the address served on, the LAN address printed for phones, or an IP
  address that is also the request's `Host` (a page can only have that origin if it came from this
  server).  A missing or `null` Origin is refused: the app's pages always send theirs, and a page on
  another site (or a DNS name rebound to this computer) must not drive the table with the host's
  rights.
- **Cost per device** (issue 36): one register per socket, `MAX_SOCKETS_PER_ADDRESS` sockets per
  address and `MAX_SOCKETS_PER_DEVICE` per device; every budget below is one device's `Allowance`,
  shared by all its sockets (the device as the server knows it: the token it issued, read by the
  app's `identify` and told here by `observed_device`; until then, every socket of an address not
  yet known shares one), and charged to its address's too (`ADDRESS_SHARES` devices' worth, so a
  device that gives a fresh token on every socket is held by its address); a budget of frames
  charged before a frame is decoded (events and property updates over
  it are dropped unread; other frames, the answers to the server's own calls, wait for it); events
  for controls the session does not have are dropped before Flet searches the whole page for them;
  the events left are charged to a budget of taps (a notice such as a resize a tenth of a tap), and
  those over it, or beyond `MAX_RUNNING` being handled at once, dropped; a resize (and the like)
  waits for the one being handled and only the newest is handled; frames larger than `MAX_FRAME`
  close the socket.  What is dropped is counted and logged on the host.  So one device flooding
  the server gets its share, and the others' taps are handled (issue 25).
- **A closed socket's session** is dropped after `SESSION_GRACE` seconds unless its browser came back
  (Flet keeps it an hour).
- **A crash** shows a plain message on the device; the traceback goes to the host's log only.

- **A browser gone mid-send** ends its connection quietly, so its session can be reconnected.

Flet's private names (`_FletApp__on_message`, `_FletApp__receive_loop`, `_FletApp__send_loop`,
`_FletApp__session`, `_FletApp__send_queue`, `_FletApp__websocket`) are used where Flet offers no
seam; they are those of flet-web 1.0.5, the version this project pins.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import ipaddress
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

import flet as ft
from flet.controls.context import _context_page, context
from flet.messaging.protocol import InvokeMethodResponseBody, Message, MessageAction, SessionCrashedBody

from ..web.browser import IN_BROWSER
from . import offline, prints

if not IN_BROWSER:  # the server's own libraries: the static web build (Pyodide) has none, and serves nothing
    import flet_web.fastapi as flet_fastapi
    import uvicorn
    import webbrowser
    from flet_web.fastapi.flet_app import FletApp
    from flet_web.fastapi.flet_app_manager import app_manager
    from starlette.responses import HTMLResponse, PlainTextResponse
    from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

log = logging.getLogger(__name__)

PEER_KEY = "companion.peer"  # the socket's peer address, in the session's server-side store
WS_PATH = "/ws"
MAX_SOCKETS_PER_ADDRESS = 24  # open at once: a host's tabs, a table of phones (the load test: eight)
MAX_SOCKETS_PER_DEVICE = 8  # open at once by one device (one browser's tabs share its token), once it is known
ADDRESS_SHARES = 12  # an address may spend this many devices' budgets (the load tests' 20 devices share one)
DEVICE_KEY = "companion.device"  # the token of the session's device, in its server-side store (`observed_device`)
MAX_FRAME = 4 * 1024 * 1024  # bytes: a fleet file read from disk (about 125 KB) fits many times over
CRASHED_MESSAGE = ("Something went wrong on the computer running the table. Reload the page to carry on: "
                   "the game is saved.")
APP_NAME, APP_SHORT_NAME = "Leviathans Table Companion", "Leviathans"  # as in assets/manifest.json
APP_DESCRIPTION = "Beside the table for Leviathans air-fleet battles: ship cards, arcs, odds and dice."
# Seconds a session waits for its browser after the socket closed (a phone asleep, a reload, the Wi-Fi
# lost); then it is dropped, and a browser that comes back later starts a new one on the same page.
# Flet keeps it an hour (about 77 KB for the home screen, megabytes for a game's, each still redrawn
# on every change to its game).
SESSION_GRACE = float(os.environ.get("COMPANION_SESSION_GRACE") or 60)
CLIENT_ONLY = frozenset({"client_ip", "client_user_agent", "web"})  # page facts the client may not rewrite

# Wire actions (flet.messaging.protocol.MessageAction)
REGISTER_CLIENT, CONTROL_EVENT, UPDATE_CONTROL_PROPS = 1, 3, 4
INVOKE_METHOD = 5  # the browser's answer to a method call of the server's (a scroll, a stored value)
FAILED_LINE = "That did not work: {reason}. The game is saved."  # a handler's failure, as the device is told


# --- decisions (pure) ------------------------------------------------------------------------------


def allowed_origins(served_host: str | None, port: int, join_address: str | None) -> frozenset[str]:
    """Origins (`scheme://host[:port]`, lower case) of the app's own pages: loopback names, the host
    it is served on (unless every interface), and the LAN address printed for phones."""
    hosts = {"127.0.0.1", "localhost", "[::1]"}
    if served_host and served_host not in ("0.0.0.0", "::", "*", ""):
        hosts.add(f"[{served_host}]" if ":" in served_host else served_host)
    if join_address:
        lan = urlsplit(join_address).hostname
        if lan:
            hosts.add(f"[{lan}]" if ":" in lan else lan)
    return frozenset(_origin("http", h.lower(), port) for h in hosts)


def _origin(scheme: str, host: str, port: int) -> str:
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port == default else f"{scheme}://{host}:{port}"


def origin_allowed(origin: str | None, host_header: str | None, allowed: frozenset[str]) -> bool:
    """May a page of this origin open the websocket?  Its origin must be one of the app's own; an IP
    address that is also where the request was sent (its `Host`) counts too (another interface of
    this computer: a page has that origin only if this server served it), a name does not (anyone
    can point a DNS name at this computer)."""
    page = _address(origin)
    if page is None or page[0] != "http":
        return False
    if _origin(*page) in allowed:
        return True
    target = _address(f"http://{host_header}") if host_header else None
    return _is_ip(page[1]) and target is not None and page == target


def _address(url: str | None) -> tuple[str, str, int] | None:
    """(scheme, host as written in a URL, port) of an origin, or None if it is none ('null', garbage)."""
    if not url or url == "null":
        return None
    try:
        parts = urlsplit(url.strip().lower())
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return parts.scheme, host, port


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


@dataclass
class Bucket:
    """A token bucket: `rate` tokens a second up to `capacity`; `take` spends if it can.
    Time comes from the caller, so the arithmetic is testable without a clock."""

    rate: float
    capacity: float
    tokens: float = field(default=-1.0)
    at: float = 0.0

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.capacity

    def _fill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self, cost: float, now: float) -> bool:
        self._fill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def wait_for(self, cost: float, now: float) -> float:
        """Seconds until `cost` can be taken (0: now); a cost over the capacity waits for a full bucket."""
        self._fill(now)
        return max(0.0, (min(cost, self.capacity) - self.tokens) / self.rate)

    def owe(self, cost: float, now: float) -> None:
        """Spend `cost` even past empty: a frame bigger than the bucket is paid for by the next ones."""
        self._fill(now)
        self.tokens -= cost


def take_all(buckets, cost: float, now: float) -> bool:
    """Spend `cost` from every bucket, or from none if one has too little."""
    for bucket in buckets:
        bucket._fill(now)
    if any(bucket.tokens < cost for bucket in buckets):
        return False
    for bucket in buckets:
        bucket.tokens -= cost
    return True


def wait_all(buckets, cost: float, now: float) -> float:
    return max(bucket.wait_for(cost, now) for bucket in buckets)


def owe_all(buckets, cost: float, now: float) -> None:
    for bucket in buckets:
        bucket.owe(cost, now)


FRAME_RATE, FRAME_BURST = 100.0, 200.0  # frames a second read and decoded, whatever they hold
DROP_RATE = 500.0  # frames a second read and dropped unread past the budget; more wait unread
TAP_RATE, TAP_BURST = 3.0, 30.0  # taps a second handled, and at once: a person taps a few times a second
LAYOUT_COST = 3.0  # taps of a resize handled after another (the screen laid out anew): a drag ends laid out
MAX_RUNNING = 3  # a device's taps being handled at once; one more is dropped (a slow screen is not queued up)
BYTES_PER_TOKEN = 64 * 1024
NOTICES = frozenset({  # what the browser reports of itself as it happens: cheap to handle, many at once
    "resize", "interaction_start", "interaction_update", "interaction_end", "scroll", "hover", "enter",
    "exit", "focus", "blur", "media_change", "platform_brightness_change", "app_lifecycle_state_change",
    "keyboard_event", "connect", "disconnect", "change",  # a key typed into a field
})
NOTICE_COST = 0.1  # a window dragged to a new size sends dozens of resizes; a wheel, an event a notch
LATEST_ONLY = frozenset({  # notices of a state where only the newest counts: one handled at a time per control,
    "resize", "interaction_update", "scroll", "hover", "media_change",  # the rest replaced by the newest
    "platform_brightness_change", "app_lifecycle_state_change", "change",  # (a field's change: its value)
})


@dataclass
class Allowance:
    """What one device (or one address) may spend, whatever number of sockets it spends it through
    (issue 36: one device's twelve sockets took twelve devices' share): frames read and decoded,
    frames read and dropped unread, taps handled, taps being handled at once; and its sockets open."""

    frames: Bucket
    drops: Bucket
    events: Bucket
    most_running: int
    running: int = 0
    sockets: int = 0

    @classmethod
    def of(cls, shares: int = 1) -> "Allowance":
        """`shares` devices' worth (an address: `ADDRESS_SHARES`)."""
        return cls(Bucket(FRAME_RATE * shares, FRAME_BURST * shares), Bucket(DROP_RATE * shares, DROP_RATE * shares),
                   Bucket(TAP_RATE * shares, TAP_BURST * shares), MAX_RUNNING * shares)

    def idle(self, now: float) -> bool:
        """No socket spends it and every budget is full again: forgetting it changes nothing."""
        for bucket in (self.frames, self.drops, self.events):
            bucket._fill(now)
        return not self.sockets and all(b.tokens >= b.capacity for b in (self.frames, self.drops, self.events))


class Allowances:
    """The server's allowances: one per device known (by its token), one for the sockets of an address
    whose device is not known yet, one per address; forgotten once idle (`Allowance.idle`)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], Allowance] = {}

    def of(self, kind: str, key: str, now: float | None = None) -> Allowance:
        """The allowance of a `device` (its token), a `new` device at an address, or an `address`."""
        now = time.monotonic() if now is None else now
        if len(self.kept) > 64:
            for name in [name for name, allowance in self.kept.items() if allowance.idle(now)]:
                del self.kept[name]
        allowance = self.kept.get((kind, key))
        if allowance is None:
            allowance = self.kept[(kind, key)] = Allowance.of(ADDRESS_SHARES if kind == "address" else 1)
        return allowance


def frame_cost(data: bytes) -> tuple[float, bool]:
    """(tokens, droppable) of one websocket frame, read from its first bytes without decoding it:
    Flet frames are `0x00` then a msgpack array of two, `[action, body]`.  Control events and
    property updates (what a person did) may be dropped; the rest (answers to the server's own
    calls) wait for the budget instead."""
    action = data[2] if len(data) > 2 and data[0] == 0 and data[1] == 0x92 else None
    return 1.0 + len(data) / BYTES_PER_TOKEN, action in (CONTROL_EVENT, UPDATE_CONTROL_PROPS)


def event_cost(name) -> float:
    """Tokens of one control event handled: a tap (click, submit, route change) one; a notice of the
    browser's own (a resize, a zoom of the map, a hover) or a key typed into a field a tenth."""
    return NOTICE_COST if name in NOTICES else 1.0


def observed_address(page) -> str | None:
    """The address the server itself saw this session connect from, never what the client said:
    the socket's peer, stamped by this module's web server; the loopback address for Flet's
    transports that only this device can reach (the desktop window's local socket, the packaged
    app's in-process bridge, the browser's own Python in a static build); None when not known
    (then the device is not the host)."""
    session = getattr(page, "session", None)
    if session is None:
        return None
    stamped = session.store.get(PEER_KEY)
    if isinstance(stamped, str):
        return stamped
    return "127.0.0.1" if type(session.connection).__name__ in LOCAL_TRANSPORTS else None


LOCAL_TRANSPORTS = frozenset({"FletSocketServer", "FletDartBridgeServer", "PyodideConnection"})


def observed_device(page, token: str) -> None:
    """The app has identified this session's device (`Sharing.connect`: the token the server issued it,
    at the address the server saw): from now on its socket spends that device's budget, shared with
    the device's other sockets (and a reconnected socket of this session spends it from its register).
    A transport with no budgets (the desktop window, the static build) has nothing to do."""
    try:
        session = getattr(page, "session", None)
    except RuntimeError:  # Flet has let the session go already (its browser left as it started)
        return
    if session is None:
        return
    session.store.set(DEVICE_KEY, token)
    known_as = getattr(session.connection, "known_as", None)
    if known_as is not None:
        known_as(token)


# --- no screen dies: one edge for a handler's failure, late answers dropped (issue 25) -------------------


def failure_reason(exc: BaseException) -> str:
    """The short reason a device is told that a tap did not work, in plain words (the traceback goes to
    the host's terminal only): a browser that did not answer a call in time, a refusal in its own words,
    else that the computer running the table failed."""
    text = str(exc).strip()
    if isinstance(exc, TimeoutError) or text.lower().startswith("timeout"):
        return "this device did not answer in time"
    if isinstance(exc, PermissionError) and text:
        return text.splitlines()[0].rstrip(".")[:160]
    return "something went wrong on the computer running the table"


def handle_failures_of(session) -> None:
    """Every event handler of this session fails at one edge (`handler_failed`).  Flet's own
    `Session.dispatch_event` answered any exception (a bug, or a client call that timed out) with
    SESSION_CRASHED: the whole screen became "Error running app", for good.  This one is Flet's
    (this session's page bound for the event's task, the control found as Flet finds it) with that
    answer replaced; set on the session object, once, at its register."""
    if getattr(session, "_companion_edge", False):
        return

    async def dispatch_event(control_id, event_name, event_data) -> None:
        _context_page.set(session.page)
        control = session._Session__resolve_event_control(control_id)
        if control is None:
            return
        if event_name in LAID_OUT_BY_HANDLER and control is session.page:
            without_auto_update()
        try:
            await control._trigger_event(event_name, event_data)
        except Exception as exc:
            handler_failed(session, event_name, exc)

    session.dispatch_event = dispatch_event
    session._companion_edge = True


#: Page events whose handler sends what it changes itself (`App._on_resize` lays the game's screen
#: out anew only when the width class changed): Flet's own update of the whole page after each (its
#: "auto update", a diff of every control on the page) found nothing to send, and cost a flood of
#: resizes most of the server's time (py-spy, bench_shared's flood: 768 of 3,198 samples).
LAID_OUT_BY_HANDLER = frozenset({"resize"})


def without_auto_update() -> None:
    """No update of the whole page after the event handled in this task: a fresh update state of
    this task's own context (so Flet's process-wide default is not touched), with auto update off;
    Flet's `_trigger_event` starts the handler's from it."""
    context.reset_auto_update()
    context.disable_auto_update()


def handler_failed(session, event_name, exc: BaseException) -> None:
    """A handler raised: its traceback to the host's terminal with the device's address and session,
    one plain line on that device (a snack bar, over any screen); the session goes on."""
    peer = session.store.get(PEER_KEY)
    log.error("a tap did not work on the device at %s (session %s, on_%s); its session goes on", peer,
              session.id, event_name, exc_info=exc)
    line = FAILED_LINE.format(reason=failure_reason(exc))
    try:
        session.page.show_dialog(ft.SnackBar(ft.Semantics(identifier="failed", content=ft.Text(line)),
                                             show_close_icon=True, duration=ft.Duration(seconds=8)))
    except Exception:
        log.error("the device at %s (session %s) could not be told: %s", peer, session.id, line, exc_info=True)


def take_answer(session, body: dict, peer: str) -> None:
    """The browser's answer to one of the server's method calls.  Flet 1.0.5 raises on an answer for a
    control that has gone meanwhile (a slow phone answering a scroll of a panel rebuilt since), which
    ended the session's receive loop: that device silently got no more updates.  Such an answer (or a
    malformed one) is dropped, logged at debug level; the loop goes on."""
    try:
        answer = InvokeMethodResponseBody(**body)
        session.handle_invoke_method_results(answer.control_id, answer.call_id, answer.result, answer.error)
    except Exception as exc:
        log.debug("connection from %s: an answer to a method call dropped: %s", peer, exc)


# --- the server ----------------------------------------------------------------------------------------


class _MeteredSocket:
    """The Starlette websocket as Flet's `FletApp` sees it, with each received frame charged to the
    connection's bucket before Flet decodes it."""

    def __init__(self, websocket, guard: "_Guard"):
        self._ws = websocket
        self._guard = guard

    def __getattr__(self, name):
        return getattr(self._ws, name)

    async def receive_bytes(self) -> bytes:
        while True:
            try:
                data = await self._ws.receive_bytes()
            except WebSocketDisconnected:  # a send found the browser gone first: the same close, said quietly
                raise WebSocketDisconnect(1006) from None
            if self._guard.refused:  # its device has too many sockets open: nothing more is read
                raise WebSocketDisconnect(1008)
            if await self._guard.admit(data):
                return data


Event = tuple  # (target, name, data) of one control event, as the client sent it


@dataclass
class _Guard:
    """What one connection has running and has had dropped (logged now and then), and the allowances it
    spends: its device's, shared with the device's other sockets, and its address's (issue 36).

    A flood from one device (thousands of clicks and resizes a second, through one socket or many) must
    not slow the others: its frames over `FRAME_RATE` are dropped unread, its taps over `TAP_RATE` or
    beyond `MAX_RUNNING` at once are dropped, and a notice in `LATEST_ONLY` waits while one of its kind
    for the same control is handled, replaced by any newer one (a window dragged to a new size is laid
    out for the size it ends at, not for each step).  Until its device is known (`known_as`) the socket
    spends the allowance every socket of its address shares before that; without `allowances` (a test
    of one guard) it has allowances of its own."""

    peer: str
    allowances: Allowances | None = None
    device: Allowance = field(default=None)  # type: ignore[assignment]
    address: Allowance = field(default=None)  # type: ignore[assignment]
    token: str | None = None  # the device's, once known
    dropped: int = 0
    unknown: int = 0
    coalesced: int = 0
    running: int = 0  # this socket's own taps being handled (counted in its allowances too)
    notices: dict = field(default_factory=dict)  # (target, name) being handled -> newest data waiting, or _NONE
    logged_at: float = 0.0
    refused: bool = False  # its device had too many sockets open: the socket is being closed

    def __post_init__(self) -> None:
        if self.allowances is None:
            self.device, self.address = Allowance.of(), Allowance.of(ADDRESS_SHARES)
        else:
            self.device = self.allowances.of("new", self.peer)
            self.address = self.allowances.of("address", self.peer)
        self.device.sockets += 1
        self.address.sockets += 1

    @property
    def frames(self) -> Bucket:
        return self.device.frames

    @property
    def events(self) -> Bucket:
        return self.device.events

    def known_as(self, token: str) -> bool:
        """The socket's device is known (its token): from now on it spends that device's allowance.
        False, and nothing changes, if the device already has `MAX_SOCKETS_PER_DEVICE` open."""
        if self.allowances is None or token == self.token:
            return True
        device = self.allowances.of("device", token)
        if device.sockets >= MAX_SOCKETS_PER_DEVICE:
            return False
        self.device.sockets -= 1
        self.device.running -= self.running
        self.device, self.token = device, token
        device.sockets += 1
        device.running += self.running
        return True

    def closed(self) -> None:
        """The socket has closed: it no longer counts among its device's and address's sockets."""
        self.device.sockets -= 1
        self.address.sockets -= 1

    def _buckets(self, name: str) -> tuple[Bucket, Bucket]:
        return getattr(self.device, name), getattr(self.address, name)

    async def admit(self, data: bytes) -> bool:
        """May this frame be decoded?  Over the frame budget, events and updates are dropped
        unread; anything else waits for the budget (the client waits; nothing else does)."""
        cost, droppable = frame_cost(data)
        now = time.monotonic()
        frames = self._buckets("frames")
        if take_all(frames, cost, now):
            return True
        if droppable:  # and past `DROP_RATE` the next is read when it may be: the rest wait in the
            self.drop()  # network's buffers (the client's sends wait too), costing this server nothing
            drops = self._buckets("drops")
            if not take_all(drops, 1.0, now):
                await asyncio.sleep(wait_all(drops, 1.0, now))
            return False
        await asyncio.sleep(wait_all(frames, cost, now))
        owe_all(frames, cost, time.monotonic())
        return True

    def handle(self, event_name, now: float | None = None) -> bool:
        """May this control event (for a control on the session's screen) be handled?"""
        if take_all(self._buckets("events"), event_cost(event_name), time.monotonic() if now is None else now):
            return True
        self.drop()
        return False

    def offer(self, event: Event, now: float | None = None) -> float | None:
        """An event for a control on the session's screen: the seconds to wait before handling it
        (0: at once), or None: dropped (a tap over the budget), or kept as the newest of its kind
        for the one being handled (`finished`).  A notice in `LATEST_ONLY` is never dropped: the
        newest value of a field typed into, or the size a window ended at, must arrive."""
        now = time.monotonic() if now is None else now
        target, name, data = event
        if name in LATEST_ONLY:
            key = (target, name)
            if key in self.notices:
                if self.notices[key] is not _NONE:
                    self.coalesced += 1
                    self.note()
                self.notices[key] = data
                return None
            self.notices[key] = _NONE
            return self._owe(event_cost(name), now)
        if any(a.running >= a.most_running for a in (self.device, self.address)):
            self.drop()
            return None
        if not self.handle(name, now):
            return None
        self._running(1)
        return 0.0

    def _running(self, change: int) -> None:
        self.running += change
        self.device.running += change
        self.address.running += change

    def _owe(self, cost: float, now: float) -> float:
        events = self._buckets("events")
        wait = wait_all(events, cost, now)
        owe_all(events, cost, now)
        return wait

    def newest(self, event: Event) -> Event:
        """`event`, or the newer notice of its kind that came while it waited (`offer`, `finished`)."""
        target, name, data = event
        if name in LATEST_ONLY and self.notices.get((target, name), _NONE) is not _NONE:
            data, self.notices[(target, name)] = self.notices[(target, name)], _NONE
        return (target, name, data)

    def finished(self, event: Event, now: float | None = None) -> float | None:
        """`event` has been handled: None, or, if a newer notice of its kind came meanwhile, the
        seconds to wait before handling it (`newest`): its cost owed, `LAYOUT_COST` for a resize (a
        screen laid out anew)."""
        target, name, _ = event
        if name not in LATEST_ONLY:
            self._running(-1)
            return None
        if self.notices.get((target, name), _NONE) is _NONE:
            self.notices.pop((target, name), None)
            return None
        cost = LAYOUT_COST if name == "resize" else event_cost(name)
        return self._owe(cost, time.monotonic() if now is None else now)

    def gone(self, event: Event) -> None:
        """`event`'s handling was cancelled: none of its kind is being handled any more."""
        if event[1] in LATEST_ONLY:
            self.notices.pop((event[0], event[1]), None)
        else:
            self._running(-1)

    def drop(self) -> None:
        self.dropped += 1
        self.note()

    def note(self, final: bool = False) -> None:
        """Log the counts, at most every 5 s (and once more as the connection ends, if any)."""
        now = time.monotonic()
        if (now - self.logged_at >= 5 and not final) or (final and self.logged_at):
            self.logged_at = now
            log.warning("connection from %s: %d events over the rate limit dropped, %d notices replaced by a "
                        "newer one, %d for controls not on its screen dropped so far", self.peer, self.dropped,
                        self.coalesced, self.unknown)


_NONE = object()  # no newer notice waiting


def _guarded_flet_app_class():
    class GuardedFletApp(FletApp):
        """Flet's connection, with the peer stamped on the session, one register per socket, events
        for unknown controls dropped, and crash messages made plain."""

        def __init__(self, *args, guard: _Guard, **kwargs):
            super().__init__(*args, **kwargs)
            self.guard = guard
            self.registered = False
            self.handling: set[asyncio.Task] = set()  # events being handled (a task is kept only while it runs)

        @property
        def _session(self):
            return getattr(self, "_FletApp__session", None)

        async def _FletApp__receive_loop(self) -> None:
            """Flet's, then the send loop ended also for a socket closed before it registered (Flet
            ends it only for a session: its `handle` would wait for ever, one task per such socket)."""
            await FletApp._FletApp__receive_loop(self)
            queue = getattr(self, "_FletApp__send_queue", None)
            if self._session is None and queue is not None:
                queue.put_nowait(None)

        def dispose(self) -> None:
            """Flet's forgets the session here; this keeps it. Flet's own start of a session reads it
            again after the app's first screen is built, so a browser gone mid-build made that
            start crash. The session, disconnected, drops what it is sent until a browser comes back;
            this connection object is dropped once its socket and the start are done."""

        async def _FletApp__send_loop(self) -> None:
            """Flet's, but a browser gone while it was being sent to ends the loop quietly. Flet's
            raised, so its `handle` never told the app manager the session had lost its socket: the
            session kept a dead connection, a phone that slept could never come back to it, and it
            was never cleared away (issue 11).  The rest of the queue is dropped until the receive
            loop, which sees the same close, ends it; the reconnected browser is sent the page anew."""
            try:
                await FletApp._FletApp__send_loop(self)
            except Exception:
                log.info("connection from %s: gone while being sent to", self.guard.peer)
                queue = getattr(self, "_FletApp__send_queue", None)
                while queue is not None and await queue.get() is not None:
                    pass
                self._FletApp__websocket = None
                self._FletApp__send_queue = None

        async def _FletApp__on_message(self, data) -> None:  # Flet's private dispatcher, wrapped
            if not (isinstance(data, (list, tuple)) and len(data) == 2 and isinstance(data[1], dict)):
                log.info("connection from %s: a malformed message dropped", self.guard.peer)
                return
            action, body = data
            session = self._session
            if action == REGISTER_CLIENT:
                if self.registered:
                    log.info("connection from %s: a second register on one socket dropped", self.guard.peer)
                    return
                self.registered = True
                page = body.get("page")
                if isinstance(page, dict):
                    body = {**body, "page": {k: v for k, v in page.items() if k not in CLIENT_ONLY}}
                await self._register(body)
                return
            if session is None:
                return  # nothing before the register
            if action == INVOKE_METHOD:
                take_answer(session, body, self.guard.peer)
                return
            if action == CONTROL_EVENT:
                target = body.get("target")
                if not isinstance(target, int) or session.index.get(target) is None:
                    self.guard.unknown += 1
                    self.guard.note()
                    return
                self._event(session, body)
                return
            elif action == UPDATE_CONTROL_PROPS:
                props = body.get("props")
                if body.get("id") == session.page._i and isinstance(props, dict):
                    body = {**body, "props": {k: v for k, v in props.items() if k not in CLIENT_ONLY}}
            await FletApp._FletApp__on_message(self, [action, body])

        def _event(self, session, body: dict) -> None:
            """A control event for a control on the session's screen, through the guard: handled in a
            task of its own (as Flet does), the newest notice of a kind after the one being handled."""
            name, data = body.get("name"), body.get("data")
            if not isinstance(name, str) or set(body) - {"target", "name", "data"}:
                log.info("connection from %s: a malformed event dropped", self.guard.peer)
                return
            event = (body["target"], name, data)
            wait = self.guard.offer(event)
            if wait is not None:
                task = asyncio.create_task(self._handle(session, event, wait))
                self.handling.add(task)
                task.add_done_callback(self.handling.discard)

        async def _handle(self, session, event: Event, wait: float | None) -> None:
            while wait is not None:
                try:
                    if wait:
                        await asyncio.sleep(wait)
                    event = self.guard.newest(event)
                except asyncio.CancelledError:
                    self.guard.gone(event)
                    raise
                try:
                    await session.dispatch_event(*event)
                finally:
                    wait = self.guard.finished(event)

        async def _register(self, body: dict) -> None:
            """Flet's register, then the peer and the web flag stamped on the session server-side
            (before `main` runs: Flet starts it as a task, after this returns)."""
            await FletApp._FletApp__on_message(self, [REGISTER_CLIENT, body])
            session = self._session
            if session is not None:
                session.store.set(PEER_KEY, self.guard.peer)
                session.page.client_ip = self.guard.peer
                session.page.web = True
                handle_failures_of(session)
                token = session.store.get(DEVICE_KEY)  # a session come back: its device is known already
                if isinstance(token, str):
                    self.known_as(token)

        def known_as(self, token: str) -> None:
            """This socket's device is known (`observed_device`): it spends that device's budget; past
            `MAX_SOCKETS_PER_DEVICE` of that device's sockets it is closed (its session waits, as for
            a phone asleep, for a socket of its own to come back)."""
            if self.guard.known_as(token):
                return
            log.warning("connection from %s closed: its device has %d sockets open already", self.guard.peer,
                        MAX_SOCKETS_PER_DEVICE)
            self.guard.refused = True
            websocket = getattr(self, "_FletApp__websocket", None)
            if websocket is not None:
                task = asyncio.get_running_loop().create_task(_close(websocket))
                self.handling.add(task)
                task.add_done_callback(self.handling.discard)

        def send_message(self, message: Message):
            if getattr(self, "_FletApp__send_queue", None) is None:
                # the browser went (its send loop has ended): what a handler still draws is dropped, not
                # raised into the handler; a browser that comes back is sent the whole page
                log.debug("connection from %s: a message to a browser gone dropped", self.guard.peer)
                return
            if message.action == MessageAction.SESSION_CRASHED:
                log.error("session from %s crashed:\n%s", self.guard.peer, getattr(message.body, "message", ""))
                message = Message(MessageAction.SESSION_CRASHED, SessionCrashedBody(CRASHED_MESSAGE))
            elif message.action == MessageAction.REGISTER_CLIENT and getattr(message.body, "error", None):
                log.error("session from %s could not start:\n%s", self.guard.peer, message.body.error)
                message.body.error = CRASHED_MESSAGE
            super().send_message(message)

    return GuardedFletApp


async def _close(websocket) -> None:
    """Close a socket as a policy refusal (1008); one already closed is no matter."""
    try:
        await websocket.close(code=1008)
    except Exception as exc:
        log.debug("a refused socket was closed already: %s", exc)


class CompanionServer:
    """The ASGI app: Flet's web app for pages and files, our guarded handler for every websocket."""

    def __init__(self, main, *, served_host: str | None, port: int, join_address: str | None,
                 assets_dir: str | None):
        self.main = main
        self.port = port
        self.allowed = allowed_origins(served_host, port, join_address)
        self.app_manager = app_manager
        # The page title, iOS home-screen title and description of Flet's index.html, and the names of
        # its manifest (assets/manifest.json, served in place of Flet's, holds the icons and colours)
        self.flet = flet_fastapi.app(main, assets_dir=assets_dir, no_cdn=True, app_name=APP_NAME,
                                     app_short_name=APP_SHORT_NAME, app_description=APP_DESCRIPTION)
        self.flet_app_class = _guarded_flet_app_class()
        self.allowances = Allowances()  # what each device and address may spend, and its sockets open
        self.collecting = False  # a collection is due (`drop`)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
            return
        if scope["type"] == "http" and scope.get("path", "").startswith(prints.PREFIX):
            page = prints.page_at(scope["path"])
            response = HTMLResponse(page) if page else PlainTextResponse("No such print page (they last ten minutes).", 404)
            await response(scope, receive, send)
            return
        await self.flet(scope, receive, offline.with_policy(scope, send))  # pages load only from here

    async def websocket(self, scope, receive, send) -> None:
        websocket = WebSocket(scope, receive, send)
        peer = websocket.client.host if websocket.client else ""
        origin = websocket.headers.get("origin")
        if scope.get("path") != WS_PATH or not origin_allowed(origin, websocket.headers.get("host"), self.allowed):
            log.warning("websocket from %s refused: origin %r, path %r", peer, origin, scope.get("path"))
            await websocket.close(code=1008)  # before accept: the upgrade is answered 403
            return
        address = self.allowances.of("address", peer)
        if address.sockets >= MAX_SOCKETS_PER_ADDRESS:
            log.warning("websocket from %s refused: %d already open", peer, address.sockets)
            await websocket.close(code=1008)
            return
        guard = _Guard(peer, self.allowances)
        connection = self.flet_app_class(
            loop=asyncio.get_running_loop(), executor=self.app_manager.executor, main=self.main,
            before_main=None, guard=guard, session_timeout_seconds=SESSION_GRACE,
        )
        try:
            await connection.handle(_MeteredSocket(websocket, guard))
        except Exception:
            if connection.registered:
                raise
            log.info("websocket from %s closed before it registered", peer)  # Flet expects a session here
        finally:
            guard.closed()
            guard.note(final=True)
            self.drop_later(connection)

    def drop_later(self, connection) -> None:
        """Drop the session of a closed socket once `SESSION_GRACE` has passed, unless a browser
        came back to it, and free its memory (its controls hold cycles only a collection frees).
        Flet's own sweep (every 10 s) is stopped: it kept the last session it had looked at in a
        variable until its next look, so a dropped session could outlive the collection."""
        sweep = getattr(self.app_manager, "_FletAppManager__evict_sessions_task", None)
        if sweep is not None:  # Flet's, replaced by this: it held the last session it looked at till its
            sweep.cancel()  # next look (and, cancelled, in its traceback: so the task is let go too)
            self.app_manager._FletAppManager__evict_sessions_task = None
        session = connection._session
        if session is None:
            return
        key = connection._FletApp__get_unique_session_id(session.id)
        # in a context of their own: the socket's holds its page (Flet's context variable), so a timer
        # made in it would keep the session alive through the collection meant to free it
        asyncio.get_running_loop().call_later(
            SESSION_GRACE, lambda: asyncio.create_task(self.drop(key)), context=contextvars.Context())

    async def drop(self, key: str) -> None:
        session = await self.app_manager.get_session(key)
        expires = getattr(session, "expires_at", None)
        if session is None or session.connection is not None or expires is None:
            return  # gone already, or a browser came back to it
        if expires - datetime.now(timezone.utc) > timedelta(seconds=0.5):
            return  # closed again since: that close's timer drops it
        await self.app_manager.delete_session(key)
        if not self.collecting:  # a second on: the session's "close" handlers run first (the app lets
            self.collecting = True  # its game go), and one collection serves every session dropped by then
            asyncio.get_running_loop().call_later(1.0, self.collect, context=contextvars.Context())

    def collect(self) -> None:
        self.collecting = False
        gc.collect()


#: Python's cycle collector, told to look seldom (the default is 700, 10, 10).  A full collection
#: walks every object of every open screen: with 20 devices at a table (135 MB) each took 120 to 716 ms,
#: every few seconds, and the whole server (every device's taps) waited for it: the others' p95 ran
#: past a second though the server used under half a core (bench_shared, a gc callback timing each).
#: A young generation of 50,000 lets most of a redraw's short-lived controls go before their first
#: look, so few reach the old generations, and those are looked at about 140 times less often; a
#: dropped session is still collected at once (`CompanionServer.drop`), and what the server imported
#: before its first screen is frozen out of every look.
GC_THRESHOLDS = (50_000, 20, 10)


def collect_seldom() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def run(main, *, host: str | None, port: int, open_browser: bool, join_address: str | None,
        assets_dir: str | None) -> None:
    """Serve until interrupted (Ctrl+C or SIGTERM), as `ft.run` would in web mode, through
    `CompanionServer`."""
    host = host or "127.0.0.1"
    collect_seldom()
    app = CompanionServer(main, served_host=host, port=port, join_address=join_address, assets_dir=assets_dir)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws="websockets-sansio",
                            ws_max_size=MAX_FRAME, lifespan="on")
    server = uvicorn.Server(config)
    if open_browser:
        def wait_then_open() -> None:
            for _ in range(600):
                if server.started:
                    webbrowser.open(f"http://127.0.0.1:{port}/")
                    return
                time.sleep(0.05)

        threading.Thread(target=wait_then_open, daemon=True).start()
    server.run()
