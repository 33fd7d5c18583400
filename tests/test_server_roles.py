"""Who may do what in a shared game (issue 11), tested as an attacker would: the real server
(`python -m companion web --host 0.0.0.0`) and Flet's websocket protocol spoken directly, no browser.

The host (a socket from this computer's loopback address) starts the Quick-Start battle; devices on
the network (sockets from this machine's non-loopback address) then try what a phone could try by
hand-writing frames: clicks for controls of the host's screen, clicks for controls of their own screen
that act for the other side, a change of role without the host, the host's screens by a forged route.
Every test checks what the server did: the game's log on disk, the role the server gives the device
(its role bar and the host's list of questions), the screen it sent back.  Waits are generous; no
speed is asserted.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from test_server_security import (
    EVENT, JOIN_SCREEN, LAN, PAGE, PROPS, Client, Served, frame, needs_lan, objects, shows, strings,
)

from companion.engine.hexes import FACING_NAMES
from companion.store.store import TinyDBStore

WAIT = 30  # seconds: generous, for a loaded machine

pytestmark = needs_lan


# --- speaking to the server -------------------------------------------------------------------------------


def tagged(client: Client, identifier: str) -> list[int]:
    """Ids of the controls a person can use (a tap or a text field) inside the control tagged
    `identifier` on this client's screen, as the server sent them (latest last)."""
    found: list[int] = []

    def walk(node, inside: bool) -> None:
        if isinstance(node, dict):
            inside = inside or node.get("identifier") == identifier
            if inside and (node.get("on_click") or node.get("_c") == "TextField") and "_i" in node:
                found.append(node["_i"])
            for value in node.values():
                walk(value, inside)
        elif isinstance(node, list):
            for value in node:
                walk(value, inside)

    for _, body in client.messages:
        walk(body, False)
    return found


def tappable(client: Client) -> set[int]:
    """Every control id this client was sent with a tap handler."""
    return {node["_i"] for node in objects(client) if node.get("on_click") and isinstance(node.get("_i"), int)}


def said_since(client: Client, start: int) -> str:
    """The words of what the server sent this client after its `start`-th message."""
    return " ".join(s for _, body in client.messages[start:] for s in strings(body, []))


async def tap(client: Client, identifier: str) -> None:
    ids = tagged(client, identifier)
    assert ids, f"no {identifier!r} on this screen"
    await client.ws.send(frame(EVENT, {"target": ids[-1], "name": "click", "data": None}))


async def tap_each(client: Client, targets, name: str = "click") -> None:
    """Send an event to each control id, no faster than a person taps (so the server's budget for
    taps drops none of them: what it refuses, it refuses for who sent it)."""
    for target in sorted(targets):
        await client.ws.send(frame(EVENT, {"target": target, "name": name, "data": None}))
        await client.pump(lambda c: False, 0.15)


async def type_into(client: Client, identifier: str, text: str) -> None:
    """What a browser sends as a person types: the field's new value."""
    ids = tagged(client, identifier)
    assert ids, f"no {identifier!r} field on this screen"
    await client.ws.send(frame(PROPS, {"id": ids[-1], "props": {"value": text}}))


async def go_to(client: Client, route: str) -> None:
    """What a browser sends when its address changes: the page's route, then the route change."""
    await client.ws.send(frame(PROPS, {"id": PAGE, "props": {"route": route}}))
    await client.ws.send(frame(EVENT, {"target": PAGE, "name": "route_change", "data": {"route": route}}))


async def settle(client: Client, seconds: float = 2.0) -> None:
    """Read (and answer) whatever the server still sends for a while."""
    await client.pump(lambda c: False, seconds)


def log_length(data: Path, game_id: str) -> int:
    """The game's log as saved on disk (read afresh, as `companion games` would)."""
    return len(TinyDBStore(data).game(game_id).entries)


def ship_at(data: Path, game_id: str, ship: str) -> tuple[str, int]:
    """Where a ship stands in the saved game: its bow hex label and facing."""
    state = TinyDBStore(data).game(game_id).state
    placed = state.ship(ship)
    return state.board.label(placed.bow), placed.facing


# --- the table: a host with the Quick-Start battle -----------------------------------------------------------


class Table:
    """The served game: the server, its Quick-Start game, the host's open browser, and devices joining."""

    def __init__(self, served: Served, game_id: str, host: Client, loop):
        self.served, self.game_id, self.host, self.loop = served, game_id, host, loop
        self.data = served.log.parent / "data"

    def run(self, coroutine):
        return self.loop.run_until_complete(coroutine)

    @property
    def log(self) -> int:
        return log_length(self.data, self.game_id)

    async def device(self) -> Client:
        """A device on the network at the PIN screen."""
        client = await Client.register(self.served.url(LAN), self.served.origin(LAN))
        assert await client.pump(shows(JOIN_SCREEN), WAIT), "no PIN screen"
        return client

    async def joined(self) -> Client:
        """A device on the network that typed the PIN the host's screen shows: at the role picker of
        the game on the table (the host's), not at the host's home screen (issue 14.2)."""
        client = await self.device()
        await type_into(client, "pin-field", self.served.pin)
        await tap(client, "pin-join")
        assert await client.pump(shows("What is this device for?"), WAIT), "the PIN did not let it in"
        await settle(client, 1)  # and answer the address bar's change, as a browser does at once
        return client

    async def seated(self, role: str) -> Client:
        """A joined device that opened the game and picked `role` (`side-British`, `screen`)."""
        client = await self.joined()
        start = len(client.messages)
        await tap(client, f"role-{role}")
        if role == "screen":
            assert await client.pump(lambda c: len(c.messages) > start + 1 and "log " in said_since(c, start), WAIT)
        else:
            assert await client.pump(lambda c: "This device: " in said_since(c, start), WAIT)
        await settle(client, 1)
        return client


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The server, and its host's browser that started the Quick-Start battle (one event loop for the
    module, so the host's socket stays open between tests)."""
    served = Served(tmp_path_factory.mktemp("roles") / "data")
    loop = asyncio.new_event_loop()

    async def start() -> Table:
        host = await Client.register(served.url(), served.origin())
        assert await host.pump(shows(served.pin), WAIT)
        await tap(host, "quick-start")
        assert await host.pump(lambda c: "log 0" in c.words() and "/game/" in c.words(), WAIT), \
            "the Quick-Start battle did not start"
        route = next(s for s in strings([b for _, b in host.messages], []) if s.startswith("/game/"))
        await settle(host, 1)
        return Table(served, route.removeprefix("/game/"), host, loop)

    try:
        table = loop.run_until_complete(start())
        yield table
        loop.run_until_complete(table.host.close())
    finally:
        loop.close()
        served.stop()


async def select_and_place(client: Client, table: Table, ship: str) -> int:
    """Select `ship` on the device's table and place it where it stands (a legal place in the
    deployment): the hex typed, then its facing tapped.  Returns where the answer starts."""
    start = len(client.messages)
    await tap(client, f"ship-{ship}")
    name = TinyDBStore(table.data).game(table.game_id).state.ship(ship).card.name
    assert await client.pump(lambda c: name in said_since(c, start) and tagged(c, "place-hex"), WAIT)
    await settle(client, 1)
    hex_label, facing = ship_at(table.data, table.game_id, ship)
    start = len(client.messages)
    await type_into(client, "place-hex", hex_label)
    await tap(client, f"face-{FACING_NAMES[facing]}")
    return start


async def select_theirs(client: Client, ship: str) -> None:
    """Select another side's ship: its card shows read-only, with no place field and no moves
    (issue 14.6; the server refuses such a move anyway, tested in test_sharing)."""
    start = len(client.messages)
    await tap(client, f"ship-{ship}")
    assert await client.pump(lambda c: "shown read-only, as this device holds" in said_since(c, start), WAIT)
    await settle(client, 1)
    assert not tagged(client, "place-hex") and not tagged(client, "face-N")


# --- 1. no PIN: nothing ------------------------------------------------------------------------------------


def test_a_device_without_the_pin_changes_nothing_in_the_game(table):
    """It asks for the game by its address and taps every control of the host's game screen (by
    id, as it was never sent them): the log stays as it was and it is shown only the PIN screen."""
    async def go() -> Client:
        device = await table.device()
        await go_to(device, f"/game/{table.game_id}")
        await settle(device)
        await tap_each(device, tappable(table.host) - tappable(device))
        await settle(device)
        await device.close()
        return device

    before = table.log
    device = table.run(go())
    assert table.log == before
    seen = device.words()
    assert JOIN_SCREEN in seen
    assert "This device:" not in seen and "Pontbriand" not in seen and "What is this device for?" not in seen


# --- 2. a side: only its own ships, its role changed only by the host, none of the host's screens -----------


def test_a_device_holding_british_cannot_move_a_french_ship(table):
    async def go() -> tuple[Client, int, int]:
        device = await table.seated("side-British")
        before = table.log
        await select_theirs(device, "pontbriand")
        after_french = table.log
        # the same taps for its own ship are offered and taken (so what was withheld was the role's)
        start = await select_and_place(device, table, "hml-raven")
        await device.pump(lambda c: "This device holds" in said_since(c, start), 5)
        await settle(device)
        await device.close()
        return device, before, after_french

    device, before, after_french = table.run(go())
    assert after_french == before
    assert table.log == before + 1


def test_a_device_holding_british_cannot_tap_controls_it_was_never_sent(table):
    async def go() -> None:
        device = await table.seated("side-British")
        await tap_each(device, tappable(table.host) - tappable(device))
        await settle(device)
        await device.close()

    before = table.log
    table.run(go())
    assert table.log == before


def test_a_device_holding_british_cannot_undo_a_french_move(table):
    """You may undo what you may do: the host (the whole table) places a French ship, then the
    British device taps Undo (its button is sent disabled; the tap is sent anyway)."""
    async def go() -> tuple[int, str]:
        device = await table.seated("side-British")
        await settle(table.host, 1)
        start = await select_and_place(table.host, table, "pelletier")
        assert await table.host.pump(lambda c: f"log {before + 1}" in said_since(c, start), WAIT)
        await settle(device)
        start = len(device.messages)
        await tap(device, "undo")
        came = await device.pump(lambda c: "Not undone" in said_since(c, start), WAIT)
        await device.close()
        assert came, "no refusal came back"
        return table.log, said_since(device, start)

    before = table.log
    after, said = table.run(go())
    assert after == before + 1  # the host's placing, and no undo
    assert "only a device holding French" in said


def test_a_device_holding_british_becomes_french_only_when_the_host_approves(table):
    async def go() -> int:
        device = await table.seated("side-British")
        await tap(device, "change-role")
        assert await device.pump(shows("Pick another role to ask the host"), WAIT)
        start = len(device.messages)
        await tap(device, "role-side-French")
        assert await device.pump(lambda c: "Asked the host for French" in said_since(c, start), WAIT)
        await settle(device)
        back = said_since(device, start)
        assert "This device: British" in back and "This device: French" not in back
        # the host's screen holds the question; until it answers the device still holds British
        assert await table.host.pump(lambda c: "asks for French (holds British)" in c.words(), WAIT)
        before = table.log
        await select_theirs(device, "pontbriand")
        await device.close()
        return before

    before = table.run(go())
    assert table.log == before


@pytest.mark.parametrize("route, refusal", [
    ("/new", "Only the host starts games"),
    ("/load", "Only the host starts games"),
    ("/warfleet", "Only the host starts games"),  # no War Fleet game to join: none is started
    ("/warfleet/war-fleet-1", "There is no saved game"),  # an old War Fleet address of no game
    ("/fleets", "Only the host changes the ship cards"),
    ("/editor", "Only the host changes the ship cards"),
])
def test_a_joined_device_is_refused_the_hosts_screens(table, route, refusal):
    async def go() -> str:
        device = await table.joined()
        start = len(device.messages)
        await go_to(device, route)
        came = await device.pump(lambda c: refusal in said_since(c, start), WAIT)
        await device.close()
        assert came, f"no refusal for {route}"
        return said_since(device, start)

    games = len(list((table.data / "games").iterdir()))
    table.run(go())
    assert len(list((table.data / "games").iterdir())) == games


# --- 3. the shared screen: nothing -----------------------------------------------------------------------------


def test_the_shared_screen_changes_nothing(table):
    """It taps every control it shows and every one of the host's game screen, asks for a French
    ship's fire tab by its address and taps what that shows: the log stays as it was.  (Its screen
    has no control that acts: the server's refusal for the shared screen, `sharing.may`, is
    exercised by tests/test_sharing.py.)"""
    async def go() -> None:
        device = await table.seated("screen")
        await tap_each(device, tappable(device) | tappable(table.host))
        shown = tappable(device)
        await go_to(device, f"/game/{table.game_id}?ship=pontbriand&tab=fire")
        await settle(device)
        await tap_each(device, tappable(device) - shown)
        await settle(device)
        await device.close()

    before = table.log
    table.run(go())
    assert table.log == before


# --- forged routes from a device without the PIN -------------------------------------------------------------


@pytest.mark.parametrize("route", ["/new", "/fleets", "/warfleet", "/load", "/editor", "/game/{game}"])
def test_a_device_without_the_pin_is_shown_the_pin_screen_at_any_route(table, route):
    async def go() -> tuple[str, str]:
        wanted = route.format(game=table.game_id)
        device = await Client.register(table.served.url(LAN), table.served.origin(LAN), page={"route": wanted})
        assert await device.pump(shows(JOIN_SCREEN), WAIT)
        first = device.words()
        start = len(device.messages)
        await go_to(device, wanted)
        await settle(device)
        await device.close()
        return first, said_since(device, start)

    first, after = table.run(go())
    for seen in (first, after):
        assert "Only the host" not in seen and "War Fleet is played" not in seen and "Pontbriand" not in seen

