"""Does the server forget the devices that left (issue 36)?  Waves of phones join, take a side, leave.

`python -m companion web --host 0.0.0.0` serves one Quick-Start game, opened on the host's screen (a
browser on this computer, open throughout).  Each wave, N raw websocket clients (Flet's own protocol,
no browsers) connect from this machine's network address, as phones do: the PIN screen, the PIN typed,
the role picker, a side taken (British and French in turn), and the whole table screen drawn for that
side (its map, ship chips, cards: what a browser would be sent).  Then every phone of the wave closes
its socket; the server (COMPANION_SESSION_GRACE=2) drops each session once its grace has passed, and
its log says when Flet's Session object is garbage collected.  Measured: the server's resident memory
(VmRSS) with the wave on the table and once it has gone (every session of the wave collected, a
second more).  The figure that matters: after each wave has left, the resident size is back within
`FLAT_MB` of what it was after the first wave left (the first wave also pays for what the server
loads once: the map's drawing code, the fonts' metrics).

Run: `python benchmarks/bench_memory.py` (four waves of 20, about five minutes); `--quick` (two waves
of 3: a smoke run); `--waves`, `--devices` to change them.  Exits 1 if a wave's sessions were not all
collected or the resident size after a wave left is more than `FLAT_MB` over the first wave's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_shared import collected, new_game, read, rss_kb  # noqa: E402
from test_server_roles import said_since, settle, tagged, tap, type_into  # noqa: E402
from test_server_security import JOIN_SCREEN, LAN, REGISTER, Client, Served, frame, objects  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

FLAT_MB = 10.0  # the resident size after a wave left, at most this over the first wave's
GRACE = "2"  # s: COMPANION_SESSION_GRACE of the measured server
WAIT = 120  # s: generous, for a loaded machine
SIDES = ("British", "French")


@dataclass
class Wave:
    joined_mb: float
    left_mb: float
    collected: int
    devices: int


@dataclass
class Run:
    before_mb: float
    waves: list[Wave] = field(default_factory=list)


async def register(served: Served, route: str, address: str) -> Client:
    ws = await connect(served.url(address), origin=served.origin(address), max_size=None, open_timeout=WAIT,
                       ping_interval=None)  # no keepalive pings: a measurement, not a liveness check
    await ws.send(frame(REGISTER, {"session_id": None, "page_name": "", "page": {
        "route": route, "web": True, "width": 412, "height": 915}}))  # a phone's size
    return Client(ws)


def table_shown(client: Client, start: int) -> bool:
    """The table screen of a side: its role bar ("This device: ...") and its ships' chips."""
    return ("This device: " in said_since(client, start)
            and any(str(node.get("identifier", "")).startswith("ship-") for node in objects(client)))


async def phone(served: Served, side: str) -> Client:
    """A phone that joined with the PIN, took `side`, and shows the table (then reads what it is sent)."""
    client = await register(served, "/", LAN)
    if not await client.pump(lambda c: JOIN_SCREEN in c.words(), WAIT):
        raise RuntimeError("a phone never saw the PIN screen")
    await type_into(client, "pin-field", served.pin)
    await tap(client, "pin-join")
    if not await client.pump(lambda c: tagged(c, f"role-side-{side}"), WAIT):
        raise RuntimeError("the PIN did not let a phone in")
    await settle(client, 0.5)  # and answer the address bar's change, as a browser does at once
    start = len(client.messages)
    await tap(client, f"role-side-{side}")
    if not await client.pump(lambda c: table_shown(c, start), WAIT):
        raise RuntimeError(f"a phone holding {side} never showed the table")
    return client


async def wave(served: Served, devices: int) -> Wave:
    phones, stop = [], asyncio.Event()
    readers = []
    for number in range(devices):
        client = await phone(served, SIDES[number % 2])
        phones.append(client)
        readers.append(asyncio.create_task(read(client, stop)))
    await asyncio.sleep(1)
    joined = rss_kb(served) / 1024
    ids = {client.session_id for client in phones}
    stop.set()
    await asyncio.gather(*readers, return_exceptions=True)
    for client in phones:
        await client.close()
    deadline = time.monotonic() + WAIT
    while not ids <= collected(served) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(1)
    return Wave(joined, rss_kb(served) / 1024, len(ids & collected(served)), devices)


async def measure(waves: int, devices: int) -> Run:
    if LAN is None:
        raise SystemExit("this machine has no non-loopback address for the phones to connect from")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        game = new_game(data)
        os.environ.update(COMPANION_SESSION_GRACE=GRACE, COMPANION_LOG="info")  # the server's, read as it starts
        served = Served(data)
        try:
            host = await register(served, f"/game/{game}", "127.0.0.1")  # the host's screen, open throughout
            if not await host.pump(lambda c: "log 0" in c.words(), WAIT):
                raise RuntimeError("the host's screen never showed the game")
            stop = asyncio.Event()
            host_reader = asyncio.create_task(read(host, stop))
            await asyncio.sleep(1)
            run = Run(rss_kb(served) / 1024)
            for number in range(waves):
                run.waves.append(await wave(served, devices))
                w = run.waves[-1]
                print(f"| {number + 1} | {w.joined_mb:.1f} | {w.left_mb:.1f} | "
                      f"{w.left_mb - run.waves[0].left_mb:+.1f} | {w.collected}/{w.devices} |", flush=True)
            stop.set()
            await asyncio.gather(host_reader, return_exceptions=True)
            await host.close()
            return run
        finally:
            served.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two waves of 3 phones: a smoke run")
    parser.add_argument("--waves", type=int, default=None, help="waves of phones (default 4)")
    parser.add_argument("--devices", type=int, default=None, help="phones in each wave (default 20)")
    args = parser.parse_args()
    waves = args.waves or (2 if args.quick else 4)
    devices = args.devices or (3 if args.quick else 20)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Server memory (VmRSS, MB): {waves} waves of {devices} phones, each joined with the PIN, took a side "
          f"(its table screen drawn), and left; grace {GRACE} s; load average {load} on {os.cpu_count()} cores")
    print("| wave | all joined | all left | left, beside the first wave's | sessions collected |")
    print("| --- | --- | --- | --- | --- |", flush=True)
    run = asyncio.run(measure(waves, devices))
    first = run.waves[0].left_mb
    grown = max(w.left_mb - first for w in run.waves)
    print(f"\nBefore any phone: {run.before_mb:.1f} MB; after every wave left: at most {grown:+.1f} MB beside "
          f"the first wave's ({FLAT_MB:.0f} MB allowed)")
    lost = any(w.collected < w.devices for w in run.waves)
    return 1 if lost or grown > FLAT_MB else 0


if __name__ == "__main__":
    sys.exit(main())
