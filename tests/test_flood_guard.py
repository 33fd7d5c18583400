"""Fairness under a flood (issue 25, part 7): one device sending thousands of events a second gets
only its share; the others' taps are all handled.  The guard's decisions are tested with the clock
given (no timing asserted); a raw websocket flood against `python -m companion web` shows the drops
counted in the host's log while another device's tap is still answered."""

from __future__ import annotations

import asyncio
import re
import time

from test_server_security import (  # noqa: F401  (own_server: the fixture)
    EVENT, PAGE, PATCH, Client, frame, own_server, shows, strings, theme_button,
)

from websockets.exceptions import ConnectionClosed

from companion.app import server
from companion.app.server import (
    ADDRESS_SHARES, LATEST_ONLY, MAX_RUNNING, MAX_SOCKETS_PER_ADDRESS, MAX_SOCKETS_PER_DEVICE, TAP_BURST, TAP_RATE,
    Allowances, _Guard,
)
from companion.app.views.join import TOKEN_KEY


def handled_at_once(guard: _Guard, events, now: float) -> list:
    """Offer `events` at one moment, each started one handled before the next comes (a fast screen);
    the taps started at once."""
    started = []
    for event in events:
        wait = guard.offer(event, now)
        if wait is not None:
            if wait == 0 and event[1] not in LATEST_ONLY:
                started.append(event)
            guard.finished(guard.newest(event), now)
    return started


def test_a_flooding_device_gets_its_burst_and_the_rest_is_dropped_and_counted():
    flooder = _Guard("10.0.0.9")
    started = handled_at_once(flooder, [(7, "click", None)] * 3600, now=0.0)
    assert len(started) == TAP_BURST
    assert flooder.dropped == 3600 - TAP_BURST
    one_second_on = handled_at_once(flooder, [(7, "click", None)] * 3600, now=1.0)
    assert len(one_second_on) == int(TAP_RATE)  # then its rate, however much it sends


def test_another_devices_taps_all_take_effect_while_one_floods():
    flooder, player = _Guard("10.0.0.9"), _Guard("10.0.0.7")
    taken = 0
    for second in range(40):
        handled_at_once(flooder, [(7, "click", None), (1, "resize", {"width": 390})] * 1800, now=float(second))
        taken += len(handled_at_once(player, [(12, "click", None)], now=second + 0.5))
    assert taken == 40  # every tap of the other device: its budget is its own
    assert player.dropped == 0 and flooder.dropped > 40 * 1700


def test_taps_beyond_those_running_at_once_are_dropped():
    guard = _Guard("10.0.0.9")
    assert all(guard.offer((7, "click", None), 0.0) == 0 for _ in range(MAX_RUNNING))
    assert guard.offer((8, "click", None), 0.0) is None and guard.dropped == 1
    guard.finished((7, "click", None), 0.0)
    assert guard.offer((8, "click", None), 0.0) == 0


def test_resizes_wait_for_the_one_being_laid_out_and_only_the_newest_is_handled():
    guard = _Guard("10.0.0.9")
    first = (PAGE, "resize", {"width": 600})
    assert guard.offer(first, 0.0) == 0
    assert guard.newest(first) == first
    for width in range(605, 1300, 5):
        assert guard.offer((PAGE, "resize", {"width": width}), 0.0) is None
    assert guard.coalesced == len(range(605, 1300, 5)) - 1 and guard.dropped == 0
    assert guard.finished(first, 0.0) == 0  # the budget has a tap for the newest now
    last = guard.newest(first)
    assert last == (PAGE, "resize", {"width": 1295})  # laid out for the size it ends at
    assert guard.offer((PAGE, "resize", {"width": 1300}), 0.0) is None  # waits for that one
    while guard.events.take(1.0, 0.0):
        pass  # the budget spent (by taps)
    assert guard.finished(last, 0.0) > 0  # the next waits for the budget: a layout is a tap's work
    assert guard.newest(last) == (PAGE, "resize", {"width": 1300})
    assert guard.finished((PAGE, "resize", {"width": 1300}), 5.0) is None
    assert guard.offer((PAGE, "resize", {"width": 390}), 5.0) == 0  # none running: handled now
    assert guard.offer((PAGE, "scroll", {}), 5.0) == 0  # another kind is not held up


def test_a_field_typed_into_fast_is_never_dropped_and_its_newest_value_is_handled():
    guard = _Guard("10.0.0.9")
    while guard.events.take(1.0, 0.0):
        pass  # the budget spent
    field = (31, "change", "B")
    wait = guard.offer(field, 0.0)
    assert wait is not None and wait > 0  # waits for the budget, never dropped
    for typed in ("Be", "Ben", "Ben's"):
        assert guard.offer((31, "change", typed), 0.0) is None
    assert guard.newest(field) == (31, "change", "Ben's")  # what is handled once it may be
    assert guard.dropped == 0


def test_a_flood_of_clicks_and_resizes_is_dropped_and_counted_while_another_device_is_answered(own_server):
    async def go() -> None:
        flooder = await Client.register(own_server.url(), own_server.origin())
        other = await Client.register(own_server.url(), own_server.origin())
        assert await flooder.pump(shows(own_server.pin), 30) and await other.pump(shows(own_server.pin), 30)
        target = theme_button(flooder)
        for i in range(3000):
            await flooder.ws.send(frame(EVENT, {"target": target, "name": "click", "data": None}))
            await flooder.ws.send(frame(EVENT, {"target": PAGE, "name": "resize",
                                                "data": {"width": 390 if i % 2 else 1280, "height": 800}}))
        before = len(other.messages)
        await other.ws.send(frame(EVENT, {"target": theme_button(other), "name": "click", "data": None}))
        answered = await other.pump(lambda c: any(a == PATCH and "theme-dialog" in strings(body, [])
                                                  for a, body in c.messages[before:]), 30)
        # the flood stays open until the server has read into it far enough to drop (it reads a
        # flooding socket at its frame budget, so the other's tap can be answered before any drop)
        deadline = time.monotonic() + 60
        while not _drops(own_server.log.read_text()) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await flooder.close()
        await other.close()
        assert answered, "the other device's tap was not handled during the flood"

    asyncio.run(go())
    logged = re.findall(r"(\d+) events over the rate limit dropped, (\d+) notices replaced",
                        own_server.log.read_text())
    assert logged, "the host's log does not count the flood"
    assert _drops(own_server.log.read_text()) > 0  # over the frame budget: dropped unread, and the
    # rest left in the network's buffers until the server reads on (the guard's decisions: the tests above)


# --- one budget per device, however many sockets it opens (issue 36) ---------------------------------------


def sockets_of(allowances: Allowances, token: str | None, count: int, peer: str = "10.0.0.9") -> list[_Guard]:
    """`count` sockets opened from `peer`, each known as the device `token` (None: never known) if its
    device may open one more; the sockets the server keeps."""
    kept = []
    for _ in range(count):
        guard = _Guard(peer, allowances)
        if token is None or guard.known_as(token):
            kept.append(guard)
        else:
            guard.closed()
    return kept


def flood(guards: list[_Guard], now: float, taps: int = 600) -> int:
    """Every socket sends `taps` clicks at one moment; how many were started."""
    return sum(len(handled_at_once(guard, [(7, "click", None)] * taps, now)) for guard in guards)


def test_twelve_sockets_of_one_device_get_one_devices_share():
    allowances = Allowances()
    flooder = sockets_of(allowances, "flooder-token", 12)
    assert len(flooder) == MAX_SOCKETS_PER_DEVICE < 12 < MAX_SOCKETS_PER_ADDRESS  # the rest were closed
    [player] = sockets_of(allowances, "player-token", 1)  # another device at the same address
    assert flood(flooder, now=0.0) == TAP_BURST  # one burst between all its sockets, not one each
    taken = 0
    for second in range(1, 41):
        assert flood(flooder, now=float(second)) == int(TAP_RATE)  # then one device's rate, all sockets together
        taken += len(handled_at_once(player, [(12, "click", None)], now=second + 0.5))
    assert taken == 40  # every tap of the other device: its budget is its own
    assert player.dropped == 0
    assert sum(g.dropped for g in flooder) == 41 * 600 * len(flooder) - TAP_BURST - 40 * int(TAP_RATE)


def test_taps_running_at_once_are_counted_over_all_a_devices_sockets():
    allowances = Allowances()
    sockets = sockets_of(allowances, "flooder-token", MAX_RUNNING + 2)
    assert [g.offer((7, "click", None), 0.0) for g in sockets] == [0.0] * MAX_RUNNING + [None, None]
    sockets[0].finished((7, "click", None), 0.0)
    assert sockets[-1].offer((7, "click", None), 0.0) == 0.0  # one finished on any socket: one more may run


def test_sockets_of_a_device_not_known_yet_share_one_share_and_an_address_caps_its_devices():
    allowances = Allowances()
    unknown = sockets_of(allowances, None, 10)  # registered, the device's token not read yet
    assert flood(unknown, now=0.0) == TAP_BURST
    fresh = [guard for n in range(MAX_SOCKETS_PER_ADDRESS) for guard in sockets_of(allowances, f"new-{n}", 1,
                                                                                   peer="10.0.0.8")]
    # a fresh token on every socket: each its own device, all held by their address
    assert flood(fresh, now=0.0) == ADDRESS_SHARES * TAP_BURST < len(fresh) * TAP_BURST


def test_a_closed_socket_makes_room_for_another_of_its_device_and_an_idle_allowance_may_be_forgotten():
    allowances = Allowances()
    sockets = sockets_of(allowances, "tabs", MAX_SOCKETS_PER_DEVICE)
    assert not sockets_of(allowances, "tabs", 1)  # one more is refused
    sockets[0].closed()
    sockets += sockets_of(allowances, "tabs", 1)  # room again
    assert len(sockets) == MAX_SOCKETS_PER_DEVICE + 1
    flood(sockets[1:], now=0.0)
    for guard in sockets[1:]:
        guard.closed()
    device = allowances.of("device", "tabs")
    assert device.sockets == 0 and not device.idle(1.0)  # spent: kept, so closing and coming back refills nothing
    assert device.idle(60.0)  # full again: forgetting it changes nothing


class Tab(Client):
    """A browser tab: its device token kept in storage shared with the browser's other tabs, given back
    when the server reads it (as `ft.SharedPreferences` does)."""

    storage: dict

    def answer(self, call: dict):
        args = call.get("args") or {}
        if call.get("name") == "set":
            self.storage[args.get("key")] = args.get("value")
            return True
        return self.storage.get(args.get("key")) if call.get("name") == "get" else None


async def open_tab(served, storage: dict) -> Tab | None:
    """A tab that shows the host's home screen, or None: the server closed it."""
    tab = await Tab.register(served.url(), served.origin())
    tab.storage = storage
    try:
        if await tab.pump(shows(served.pin), 30):
            await tab.pump(lambda c: False, 0.5)  # the token read (its budget the device's from then on)
            return tab
    except ConnectionClosed:
        return None
    raise AssertionError("a tab neither showed its screen nor was closed")


def test_one_device_flooding_through_twelve_sockets_is_held_to_eight_and_another_device_is_answered(own_server):
    async def go() -> int:
        storage: dict = {}
        tabs = [await open_tab(own_server, storage) for _ in range(12)]
        assert storage.get(TOKEN_KEY), "the server gave the device no token"
        kept = [tab for tab in tabs if tab is not None]
        other = await Client.register(own_server.url(), own_server.origin())  # another device: no token
        assert await other.pump(shows(own_server.pin), 30)
        for i in range(300):
            for tab in kept:
                await tab.ws.send(frame(EVENT, {"target": theme_button(tab), "name": "click", "data": None}))
                await tab.ws.send(frame(EVENT, {"target": PAGE, "name": "resize",
                                                "data": {"width": 390 if i % 2 else 1280, "height": 800}}))
        before = len(other.messages)
        await other.ws.send(frame(EVENT, {"target": theme_button(other), "name": "click", "data": None}))
        answered = await other.pump(lambda c: any(a == PATCH and "theme-dialog" in strings(body, [])
                                                  for a, body in c.messages[before:]), 30)
        deadline = time.monotonic() + 60
        while not _drops(own_server.log.read_text()) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        for tab in kept:
            await tab.close()
        await other.close()
        assert answered, "the other device's tap was not handled during the flood"
        return len(kept)

    assert asyncio.run(go()) == MAX_SOCKETS_PER_DEVICE
    log_text = own_server.log.read_text()
    refused = f"closed: its device has {MAX_SOCKETS_PER_DEVICE} sockets open already"
    assert log_text.count(refused) == 12 - MAX_SOCKETS_PER_DEVICE
    assert _drops(log_text) > 0


def _drops(log_text: str) -> int:
    """The most events the host's log says it dropped from one connection (0: none yet)."""
    counts = re.findall(r"(\d+) events over the rate limit dropped", log_text)
    return max((int(n) for n in counts), default=0)


assert server.LATEST_ONLY >= {"resize", "scroll"}


def test_a_session_told_its_device_spends_that_devices_allowance_and_others_have_nothing_to_do():
    from types import SimpleNamespace

    from flet.messaging.session_store import SessionStore

    allowances = Allowances()
    guard = _Guard("10.0.0.9", allowances)
    connection = SimpleNamespace(known_as=guard.known_as)
    store = SessionStore()
    server.observed_device(SimpleNamespace(session=SimpleNamespace(store=store, connection=connection)), "tabs")
    assert guard.device is allowances.of("device", "tabs") and store.get(server.DEVICE_KEY) == "tabs"
    server.observed_device(SimpleNamespace(session=SimpleNamespace(store=SessionStore(), connection=None)), "x")
    server.observed_device(SimpleNamespace(session=None), "x")  # the desktop window, a session gone: nothing


assert server.MAX_SOCKETS_PER_DEVICE < 24  # fewer than the 24 sockets one address had before issue 36
