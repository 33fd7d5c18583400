"""How long a change on the shared table takes to reach every device (issue 14), whether one flooding
device slows the others (issue 25, part 7), and what closed sessions leave in memory (part 8).

`python -m companion web` serves one Quick-Start game; 8, then 20 raw websocket clients (Flet's own
protocol, msgpack frames, no browsers: a browser's drawing would be measured instead of the server)
open it at /game/<id>.  Every other device keeps tapping a ship chip (another ship selected, its card
and arcs drawn for that device) about once a second, as players at the table do, while one device
taps Undo and Redo in turn (after one initiative roll), 30 times.  Measured per tap:

- first frame back: from the Undo/Redo tap's event sent to the first frame the tapping device receives;
- reached all: from the tap to the moment every device has received the new log count and check
  code in its top bar (the `sync` line), so every screen is in step;
- a ship tap: from a player's tap on a ship chip to the address bar's `?ship=` of that ship pushed
  to its device (the card and arcs are sent before it): the player's tap has taken effect.

**The flood**: then one of the devices (a raw client that reads nothing it is sent) sends about
3,600 events a second for 40 s, clicks on its own ship chips and resize notices swinging between a
phone's width and a desktop's, while the others go on as before; the same figures are measured for
them, and how many of their taps took effect within 15 s.

**Memory**: the server's resident memory (VmRSS) before the devices open, with them open, once they
and 30 home-screen sessions have closed and been dropped, and after 30 more (the server runs with
COMPANION_SESSION_GRACE=2; its log says when each Flet session is garbage collected).

Run: `python benchmarks/bench_shared.py` (about ten minutes); `--quick` (3 devices, a few taps, a
4-s flood, 5 more sessions: a smoke run); `--devices 8` for one size; `--sockets 12`: the flooding
device floods through 12 sockets, its own token in each (issue 36: they share one device's budget,
and the server keeps `server.MAX_SOCKETS_PER_DEVICE` of them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import types
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from random_games import starting_state  # noqa: E402
from test_server_security import EVENT, INVOKE, PAGE, REGISTER, Client, Served, frame, objects, shows  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from companion.engine.quick_start.scenario import scenario_of  # noqa: E402

SYNC = re.compile(r"log \d+ · [0-9a-f]{6}")
SHIPS = ("hertfordshire", "raven", "pontbriand", "pelletier")
EFFECT_LIMIT = 15.0  # s: a tap not in effect by then had no effect
GRACE = "2"  # s: COMPANION_SESSION_GRACE of the measured server


@dataclass
class Plan:
    devices: tuple[int, ...] = (8, 20)
    taps: int = 30  # Undo/Redo taps in each phase
    flood_seconds: float = 40.0
    flood_rate: int = 3600  # events a second
    home_sessions: int = 60  # more sessions opened and closed for the memory figures
    sockets: int = 1  # the flooding device's sockets (its token in each, as a browser's tabs share theirs)


QUICK = Plan(devices=(3,), taps=4, flood_seconds=4.0, home_sessions=5)


def new_game(data: Path) -> str:
    """A Quick-Start game made by `companion new`, its id."""
    scenario = data.parent / "scenario.json"
    scenario.write_text(json.dumps(scenario_of(starting_state(1), "Quick-Start").model_dump(mode="json")))
    made = subprocess.run([sys.executable, "-m", "companion", "new", str(scenario), "--data", str(data),
                           "--seed", "3"], capture_output=True, text=True, cwd=ROOT, check=True)
    return made.stdout.strip()


class Tab(Client):
    """A raw client with a browser's storage: the device token the server gives it kept and given back
    (shared by a browser's tabs: the same device, however many sockets)."""

    storage: dict | None = None

    def answer(self, call: dict):
        args, storage = call.get("args") or {}, self.storage if self.storage is not None else {}
        if call.get("name") == "set":
            storage[args.get("key")] = args.get("value")
            return True
        return storage.get(args.get("key")) if call.get("name") == "get" else None


class Device:
    """One raw client, the newest `sync` line it has been sent, and the ship it shows."""

    def __init__(self, client: Client):
        self.client = client
        self.seen = 0  # messages already looked at for the sync line
        self.sync = ""
        self.scanned = 0  # messages already looked at for controls
        self.ids: dict[str, int] = {}
        self.ship = ""

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


@dataclass
class Phase:
    """What the devices saw in one phase: seconds per tap, None for a tap not in effect in time."""

    cpu: float = 0.0  # the server's CPU seconds a second of the phase
    client: float = 0.0  # the measuring process's (its devices' reading and answering, the timing)
    first: list[float] = field(default_factory=list)  # Undo/Redo: first frame back
    everyone: list[float | None] = field(default_factory=list)  # Undo/Redo: reached all
    ships: list[float | None] = field(default_factory=list)  # a player's ship tap in effect


async def open_devices(served: Served, game: str, count: int, storage: dict | None = None) -> list[Device]:
    devices = []
    for _ in range(count):
        # no keepalive pings from the client: a measurement, not a liveness check
        ws = await connect(served.url(), origin=served.origin(), max_size=None, open_timeout=30, ping_interval=None)
        await ws.send(frame(REGISTER, {"session_id": None, "page_name": "", "page": {
            "route": f"/game/{game}", "web": True, "width": 1280, "height": 800}}))
        client = Tab(ws)
        client.storage = storage
        devices.append(Device(client))

    def table_shown(client: Client) -> bool:
        return any(node.get("identifier") == "roll-initiative" for node in objects(client))

    for device in devices:
        if not await device.client.pump(table_shown, 60):
            raise RuntimeError("a device never showed the table")
        device.newest_sync()
    return devices


async def read(client: Client, stop: asyncio.Event) -> None:
    """Read (and answer) what the server sends this client until `stop` is set (within a second).

    Not until cancelled: Python 3.11's `asyncio.wait_for` (under `Client.pump`) can lose a cancel that
    comes as a message arrives (it returns the message, python/cpython#86296, fixed in 3.12), and the
    read went on for its hour: the benchmark hung waiting for its readers (here, 20 devices) or the
    flooding device for its reader before the flood ("never finished its flood")."""
    while not stop.is_set():
        await client.pump(lambda c: stop.is_set(), 1.0)


def pushed(device: Device, since: int, end: int, ship: str) -> bool:
    """Whether the address bar's `?ship=` of `ship` came in messages `since` to `end`."""
    wanted = f"ship={ship}"
    return any(action == INVOKE and wanted in str(body) for action, body in device.client.messages[since:end])


async def select_ships(device: Device, rng: random.Random, phase: Phase) -> None:
    """A player looking at ships: another ship chip tapped about once a second, until cancelled;
    each tap's time to take effect on its device kept in `phase.ships` (None: not within the limit)."""
    while True:
        await asyncio.sleep(rng.uniform(0.5, 1.5))
        ship = rng.choice([s for s in SHIPS if s != device.ship])
        since = len(device.client.messages)
        started = time.perf_counter()
        await device.client.ws.send(frame(EVENT, {"target": device.control(f"ship-{ship}"), "name": "click",
                                                  "data": None}))
        took = None
        while time.perf_counter() - started < EFFECT_LIMIT:  # each message looked at once: the
            end = len(device.client.messages)  # measuring process must not be what is measured
            if pushed(device, since, end, ship):
                took = time.perf_counter() - started
                break
            since = end
            await asyncio.sleep(0.005)
        phase.ships.append(took)
        device.ship = ship


async def tap(devices: list[Device], identifier: str, limit: float) -> tuple[float, float | None]:
    """Tap `identifier` on the first device; (first frame back, reached all or None past `limit`) in s."""
    tapper = devices[0]
    before = [d.newest_sync() for d in devices]
    target = tapper.control(identifier)
    sent = len(tapper.client.messages)
    started = time.perf_counter()
    await tapper.client.ws.send(frame(EVENT, {"target": target, "name": "click", "data": None}))
    first = None
    while time.perf_counter() - started < limit:
        if first is None and len(tapper.client.messages) > sent:
            first = time.perf_counter() - started
        if all(d.newest_sync() != was for d, was in zip(devices, before)):
            return (first if first is not None else time.perf_counter() - started), time.perf_counter() - started
        await asyncio.sleep(0.002)
    return (first if first is not None else limit), None


async def undo_redo(devices: list[Device], rng: random.Random, phase: Phase, taps: int, limit: float) -> None:
    for number in range(taps):
        await asyncio.sleep(rng.uniform(0.5, 1.5))
        first, everyone = await tap(devices, "undo" if number % 2 == 0 else "redo", limit)
        phase.first.append(first)
        phase.everyone.append(everyone)


async def play(devices: list[Device], rng: random.Random, taps: int, limit: float) -> Phase:
    """The tapper's Undo/Redo taps while every other device selects ships."""
    phase = Phase()
    players = [asyncio.create_task(select_ships(d, rng, phase)) for d in devices[1:]]
    try:
        await undo_redo(devices, rng, phase, taps, limit)
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
    return phase


async def flood(device: Device, seconds: float, rate: int, rejoin) -> tuple[int, int]:
    """`rate` events a second for `seconds` from `device`: clicks on its ship chips and resizes
    between a phone's width and a desktop's; (events sent, times the server cut it off).  Cut off
    (the server's keepalive ping waits behind the flood it has not read), it comes back to its
    session as a browser does (`rejoin`) and floods on."""
    chips = [device.control(f"ship-{ship}") for ship in SHIPS]
    frames = [frame(EVENT, {"target": chips[i % len(chips)], "name": "click", "data": None}) for i in range(8)]
    frames += [frame(EVENT, {"target": PAGE, "name": "resize", "data": {"width": w, "height": 800}})
               for w in (390, 1280, 412, 1440)]
    batch = max(1, rate // 100)  # every 10 ms
    sent, cuts, started, tick = 0, 0, time.perf_counter(), 0
    drained = asyncio.create_task(drain(device))
    while time.perf_counter() - started < seconds:
        try:
            for _ in range(batch):
                await device.client.ws.send(frames[sent % len(frames)])
                sent += 1
        except ConnectionClosed:
            cuts += 1
            drained.cancel()
            device = await rejoin()
            drained = asyncio.create_task(drain(device))
            continue
        tick += 1
        await asyncio.sleep(max(0.0, started + tick * 0.01 - time.perf_counter()))
    drained.cancel()
    device.client.ws.transport.abort()  # gone, as a browser closed: what it sent and was not read is lost
    return sent, cuts


async def drain(device: Device) -> None:
    """Read what the flooder is sent and throw it away (it answers nothing)."""
    try:
        async for _ in device.client.ws:
            pass
    except ConnectionClosed:
        pass


def cpu_seconds(served: Served) -> float:
    fields = Path(f"/proc/{served.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def rss_kb(served: Served) -> int:
    status = Path(f"/proc/{served.process.pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))


def collected(served: Served) -> set[str]:
    return set(re.findall(r"Session was garbage collected: (\w+)", served.log.read_text()))


async def wait_collected(served: Served, ids: set[str], limit: float = 300) -> int:
    """Wait until the sessions `ids` are garbage collected; how many were."""
    deadline = time.monotonic() + limit
    while not ids <= collected(served) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    return len(ids & collected(served))


async def home_sessions(served: Served, count: int) -> set[str]:
    """`count` sessions opened on the home screen (ten at a time) and closed; their ids."""
    ids: set[str] = set()
    for start in range(0, count, 10):
        clients = [await Client.register(served.url(), served.origin()) for _ in range(min(10, count - start))]
        for client in clients:
            if not await client.pump(shows(served.pin), 60):
                raise RuntimeError("a home screen never came")
        for client in clients:
            ids.add(client.session_id)
            await client.close()
    return ids


@dataclass
class Result:
    normal: Phase
    flooded: Phase
    flood_sent: int
    cuts: int  # times the server cut the flooder off (it came back each time)
    memory: dict[str, int]
    sockets: int = 1  # the flooding device's sockets the server kept


async def measure(count: int, plan: Plan) -> Result:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        game = new_game(data)
        os.environ.update(COMPANION_SESSION_GRACE=GRACE, COMPANION_LOG="info")  # the server's, read as it starts
        served = Served(data)
        try:
            return await _measure(served, game, count, plan)
        finally:
            served.stop()


async def _measure(served: Served, game: str, count: int, plan: Plan) -> Result:
    host = await Client.register(served.url(), served.origin())  # the host's screen, open throughout
    host_stop = asyncio.Event()
    host_reader = asyncio.create_task(read(host, host_stop))
    await asyncio.sleep(1)
    memory = {"before": rss_kb(served)}
    devices = await open_devices(served, game, count - 1)
    flooder = await start_flooder(served, game, plan)  # the last device, in a process of its own
    stop = asyncio.Event()
    readers = [asyncio.create_task(read(d.client, stop)) for d in devices]
    memory["open"] = rss_kb(served)
    await tap(devices, "roll-initiative", 60)
    rng = random.Random(count)
    cpu, wall, own = cpu_seconds(served), time.perf_counter(), time.process_time()
    normal = await play(devices, rng, plan.taps, 60)
    normal.cpu = (cpu_seconds(served) - cpu) / (time.perf_counter() - wall)
    normal.client = (time.process_time() - own) / (time.perf_counter() - wall)

    flooder.stdin.write(b"go\n")
    await flooder.stdin.drain()
    flooded = Phase()
    players = [asyncio.create_task(select_ships(d, rng, flooded)) for d in devices[1:]]
    undoing = asyncio.create_task(undo_redo(devices, rng, flooded, 10 ** 6, EFFECT_LIMIT))
    cpu, wall, own = cpu_seconds(served), time.perf_counter(), time.process_time()
    try:  # "sent N K": the flood is over
        said = (await asyncio.wait_for(flooder.stdout.readline(), plan.flood_seconds + 120)).decode().split()
    except TimeoutError:
        flooder.kill()
        raise RuntimeError("the flooding device never finished its flood") from None
    if len(said) != 3 or said[0] != "sent":
        raise RuntimeError("the flooding device stopped before the end of its flood")
    sent, cuts = int(said[1]), int(said[2])
    flooded.cpu = (cpu_seconds(served) - cpu) / (time.perf_counter() - wall)
    flooded.client = (time.process_time() - own) / (time.perf_counter() - wall)
    for task in players + [undoing]:
        task.cancel()
    await asyncio.gather(*players, undoing, return_exceptions=True)

    ids = {d.client.session_id for d in devices} | {flooder.session_id}
    stop.set()
    await asyncio.gather(*readers, return_exceptions=True)
    for device in devices:
        await device.client.close()
    await flooder.wait()
    half = plan.home_sessions // 2
    ids |= await home_sessions(served, half)
    memory["dropped"] = await wait_collected(served, ids)
    memory["after"] = rss_kb(served)
    more = await home_sessions(served, plan.home_sessions - half)
    memory["dropped"] += await wait_collected(served, more)
    memory["closed"] = len(ids) + len(more)
    memory["again"] = rss_kb(served)
    host_stop.set()
    await asyncio.gather(host_reader, return_exceptions=True)
    await host.close()
    return Result(normal, flooded, sent, cuts, memory, flooder.sockets)


async def start_flooder(served: Served, game: str, plan: Plan):
    """This file again, as `--flooder`: a device of its own (its own process, so that its sending is
    not the measuring clients' delay) that shows the table, then floods when told."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--flooder", served.url(), served.origin(), game, str(plan.flood_seconds),
        str(plan.flood_rate), str(plan.sockets), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        cwd=ROOT)
    ready = (await process.stdout.readline()).decode().split()
    if not ready or ready[0] != "ready":
        raise RuntimeError("the flooding device never showed the table")
    process.session_id, process.sockets = ready[1], int(ready[2])
    return process


async def flooder(url: str, origin: str, game: str, seconds: float, rate: int, sockets: int) -> None:
    """The flooding device: opens the table on `sockets` sockets, one device (its token kept and given
    back on each, as a browser's tabs do), prints `ready <session id> <sockets the server kept>` once
    they show it, reads (and answers) what they are sent until a line comes on its input, then floods
    through every one (`rate` events a second between them) and prints `sent <events> <cuts>`."""
    where = types.SimpleNamespace(url=lambda: url, origin=lambda: origin)
    storage: dict = {}
    devices = []
    for _ in range(sockets):  # one after another: the first is given the token the others give back
        try:
            devices += await open_devices(where, game, 1, storage)
        except (ConnectionClosed, RuntimeError):
            pass  # the server closed it: the device has as many sockets open as it may have
    if not devices:
        raise RuntimeError("the server kept none of the flooding device's sockets")
    print("ready", devices[0].client.session_id, len(devices), flush=True)
    stop = asyncio.Event()
    readers = [asyncio.create_task(read(device.client, stop)) for device in devices]
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    stop.set()
    await asyncio.gather(*readers, return_exceptions=True)  # one reader at a time on a socket

    def rejoin_of(session_id: str):
        async def rejoin() -> Device:
            ws = await connect(url, origin=origin, max_size=None, open_timeout=30, ping_interval=None)
            await ws.send(frame(REGISTER, {"session_id": session_id, "page_name": "", "page": {
                "route": f"/game/{game}", "web": True, "width": 1280, "height": 800}}))
            client = Tab(ws)
            client.storage = storage
            again = Device(client)
            await again.client.pump(lambda c: any(node.get("identifier") == "ship-raven" for node in objects(c)), 60)
            return again
        return rejoin

    floods = await asyncio.gather(*(flood(device, seconds, max(1, rate // len(devices)),
                                          rejoin_of(device.client.session_id)) for device in devices))
    print("sent", sum(sent for sent, _ in floods), sum(cuts for _, cuts in floods), flush=True)


def _p95(values: list[float]) -> float:
    """The 95th percentile, nearest rank."""
    return sorted(values)[max(0, math.ceil(0.95 * len(values)) - 1)] if values else float("nan")


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ms(seconds: float) -> str:
    return "-" if seconds != seconds else f"{seconds * 1000:.0f}"


def in_effect(values: list[float | None]) -> tuple[list[float], str]:
    done = [v for v in values if v is not None]
    return done, f"{len(done)}/{len(values)}"


def row(count: int, phase: Phase, label: str) -> str:
    everyone, reached = in_effect(phase.everyone)
    ships, took = in_effect(phase.ships)
    return (f"| {count} | {label} | {ms(_median(phase.first))} / {ms(_p95(phase.first))} | "
            f"{ms(_median(everyone))} / {ms(_p95(everyone))} ({reached}) | "
            f"{ms(_median(ships))} / {ms(_p95(ships))} ({took}) | {phase.cpu:.2f} | {phase.client:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 devices, a few taps, a 4-s flood: a smoke run")
    parser.add_argument("--devices", type=int, action="append", help="devices at the table (again for more sizes)")
    parser.add_argument("--nice", type=int, default=None,
                        help="run the benchmark, its server and its flooding device at this niceness (e.g. -10 "
                             "as root): on a machine busy with other work the server then gets the CPU a quiet "
                             "machine would give it, and the figures are the server's, not the neighbours'")
    parser.add_argument("--sockets", type=int, default=1,
                        help="the flooding device's sockets, its own token in each (issue 36: one device, 12 sockets)")
    parser.add_argument("--flooder", nargs=6, metavar=("URL", "ORIGIN", "GAME", "SECONDS", "RATE", "SOCKETS"),
                        help=argparse.SUPPRESS)  # the flooding device, run by the benchmark itself
    args = parser.parse_args()
    if args.flooder:
        url, origin, game, seconds, rate, sockets = args.flooder
        asyncio.run(flooder(url, origin, game, float(seconds), int(rate), int(sockets)))
        return 0
    if args.nice is not None:  # inherited by the server and the flooder, started after this
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
    plan = QUICK if args.quick else Plan()
    plan.sockets = args.sockets
    if args.devices:
        plan.devices = tuple(args.devices)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"The shared table (ms, median / p95; in brackets the taps in effect within {EFFECT_LIMIT:.0f} s), "
          f"raw websocket clients; flood: {plan.flood_rate:,} events/s for {plan.flood_seconds:.0f} s from one device "
          f"({plan.sockets} sockets asked for); "
          f"load average {load} on {os.cpu_count()} cores at the start, niceness {os.getpriority(os.PRIO_PROCESS, 0)}")
    print("| devices | phase | Undo/Redo: first frame back | reached all | another player's ship tap "
          "| server CPU s/s | measuring CPU s/s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    results = {}
    for count in plan.devices:
        r = results[count] = asyncio.run(measure(count, plan))
        print(row(count, r.normal, "normal"), flush=True)
        through = f" through {r.sockets} sockets" if plan.sockets > 1 else ""
        print(row(count, r.flooded, f"one floods{through} ({r.flood_sent:,} events, cut off {r.cuts} times)"),
              flush=True)
    print()
    half = plan.home_sessions // 2
    print(f"Server memory (VmRSS, MB): before the devices open, with them open, after they and "
          f"{half} home-screen sessions closed, after {plan.home_sessions - half} more")
    print("| devices | before | open | after all closed | after more closed | sessions closed "
          "| dropped and collected |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    failed = False
    for count, r in results.items():
        m = r.memory
        print(f"| {count} | {m['before'] / 1024:.1f} | {m['open'] / 1024:.1f} | {m['after'] / 1024:.1f} | "
              f"{m['again'] / 1024:.1f} | {m['closed']} | {m['dropped']} |")
        taken = [v for v in r.normal.everyone + r.normal.ships + r.flooded.everyone + r.flooded.ships if v is not None]
        failed |= not taken or m["dropped"] < m["closed"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
