"""How long a change on the shared table takes to reach every device (issue 14).

`python -m companion web` serves one Quick-Start game; 8, then 20 raw websocket
clients (Flet's own protocol, msgpack frames, no browsers: a browser's drawing
would be measured instead of the server) open it at /game/<id>.  Every other device keeps
tapping a ship chip (a random ship selected, its card and arcs drawn for that
device) about once a second, as players at the table do, while one device taps
Undo and Redo in turn (after one initiative roll), 30 times.  Measured per tap:

- first frame back: from the tap's event sent to the first frame the tapping
  device receives;
- reached all: from the tap to the moment every device has received the new
  log count and check code in its top bar (the `sync` line), so every screen
  is in step.

Run: `python benchmarks/bench_shared.py` (about two minutes).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from random_games import starting_state  # noqa: E402
from test_server_security import EVENT, REGISTER, Client, Served, frame, objects  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from companion.engine.scenario import scenario_of  # noqa: E402

DEVICES = (8, 20)
TAPS = 30
SYNC = re.compile(r"log \d+ · [0-9a-f]{6}")


def new_game(data: Path) -> str:
    """A Quick-Start game made by `companion new`, its id."""
    scenario = data.parent / "scenario.json"
    scenario.write_text(json.dumps(scenario_of(starting_state(1), "Quick-Start").model_dump(mode="json")))
    made = subprocess.run([sys.executable, "-m", "companion", "new", str(scenario), "--data", str(data),
                           "--seed", "3"], capture_output=True, text=True, cwd=ROOT, check=True)
    return made.stdout.strip()


class Device:
    """One raw client and the newest `sync` line it has been sent."""

    def __init__(self, client: Client):
        self.client = client
        self.seen = 0  # messages already looked at for the sync line
        self.sync = ""
        self.scanned = 0  # messages already looked at for controls
        self.ids: dict[str, int] = {}

    def newest_sync(self) -> str:
        for _, body in self.client.messages[self.seen:]:
            for text in SYNC.findall(json.dumps(body, ensure_ascii=False)):
                self.sync = text
        self.seen = len(self.client.messages)
        return self.sync

    def control(self, identifier: str) -> int:
        """The id of the tappable control under the newest semantics node named `identifier` (only
        the messages not yet looked at are walked: the client must not be the bottleneck)."""
        stack = [body for _, body in reversed(self.client.messages[self.scanned:])]
        self.scanned = len(self.client.messages)
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                if isinstance(value.get("identifier"), str) and isinstance(value.get("content"), dict):
                    self.ids[value["identifier"]] = value["content"].get("_i")
                stack.extend(reversed(list(value.values())))
            elif isinstance(value, (list, tuple)):
                stack.extend(reversed(value))
        if identifier not in self.ids:
            raise RuntimeError(f"no {identifier!r} on the table screen")
        return self.ids[identifier]


async def open_devices(served: Served, game: str, count: int) -> list[Device]:
    devices = []
    for _ in range(count):
        # no keepalive pings from the client: a measurement, not a liveness check
        ws = await connect(served.url(), origin=served.origin(), max_size=None, open_timeout=30, ping_interval=None)
        await ws.send(frame(REGISTER, {"session_id": None, "page_name": "", "page": {
            "route": f"/game/{game}", "web": True, "width": 1280, "height": 800}}))
        devices.append(Device(Client(ws)))
    def table_shown(client: Client) -> bool:
        return any(node.get("identifier") == "roll-initiative" for node in objects(client))

    for device in devices:
        if not await device.client.pump(table_shown, 60):
            raise RuntimeError("a device never showed the table")
        device.newest_sync()
    return devices


async def read(device: Device) -> None:
    """Read (and answer) what the server sends this device, until cancelled."""
    await device.client.pump(lambda c: False, 3600)


async def select_ships(device: Device, rng: random.Random) -> None:
    """A player looking at ships: a random ship chip tapped about once a second, until cancelled."""
    while True:
        await asyncio.sleep(rng.uniform(0.5, 1.5))
        ship = rng.choice(["hertfordshire", "raven", "pontbriand", "pelletier"])
        await device.client.ws.send(frame(EVENT, {"target": device.control(f"ship-{ship}"), "name": "click",
                                                  "data": None}))


async def tap(devices: list[Device], identifier: str) -> tuple[float, float]:
    """Tap `identifier` on the first device; (first frame back, reached all) in seconds."""
    tapper = devices[0]
    before = [d.newest_sync() for d in devices]
    target = tapper.control(identifier)
    sent = len(tapper.client.messages)
    started = time.perf_counter()
    await tapper.client.ws.send(frame(EVENT, {"target": target, "name": "click", "data": None}))
    first = None
    while time.perf_counter() - started < 60:
        if first is None and len(tapper.client.messages) > sent:
            first = time.perf_counter() - started
        if all(d.newest_sync() != was for d, was in zip(devices, before)):
            return (first if first is not None else time.perf_counter() - started), time.perf_counter() - started
        await asyncio.sleep(0.002)
    raise RuntimeError(f"the {identifier} tap did not reach every device in 60 s")


async def measure(count: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        game = new_game(data)
        served = Served(data)
        try:
            devices = await open_devices(served, game, count)
            readers = [asyncio.create_task(read(d)) for d in devices]
            await tap(devices, "roll-initiative")
            rng = random.Random(count)
            players = [asyncio.create_task(select_ships(d, rng)) for d in devices[1:]]
            firsts, alls = [], []
            for number in range(TAPS):
                await asyncio.sleep(rng.uniform(0.5, 1.5))
                first, everyone = await tap(devices, "undo" if number % 2 == 0 else "redo")
                firsts.append(first)
                alls.append(everyone)
            for task in players + readers:
                task.cancel()
            for device in devices:
                await device.client.close()
        finally:
            served.stop()
    return {"first": statistics.median(firsts), "first95": _p95(firsts),
            "all": statistics.median(alls), "all95": _p95(alls)}


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main() -> None:
    ms = lambda seconds: f"{seconds * 1000:.0f}"  # noqa: E731
    print(f"One change on the shared table (ms), {TAPS} taps (Undo/Redo) per row, raw websocket clients")
    print(f"{'devices':>7} | {'first frame back, median':>24} | {'p95':>5} | {'reached all, median':>19} | {'p95':>5}")
    for count in DEVICES:
        r = asyncio.run(measure(count))
        print(f"{count:>7} | {ms(r['first']):>24} | {ms(r['first95']):>5} | {ms(r['all']):>19} | {ms(r['all95']):>5}")


if __name__ == "__main__":
    main()
