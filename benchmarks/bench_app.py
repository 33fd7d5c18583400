"""The table app's speed: from a tap to the updated screen being sent, and from start to home.

Taps.  The real app runs in this process on a real Flet session whose
connection encodes every message exactly as the web server does (msgpack) and
notes when it was handed over; a tap is the click event the browser would send,
dispatched to the real control.  The time is from the dispatch to the last
message the tap caused (the engine, the save to the TinyDB store, the view
models, the render, the patches).  Three taps, on the four-ship Quick-Start
table and on a 40-ship board (20 against 20):

- select a ship (its arcs shaded, its card and moves shown),
- one movement step (forward),
- one roll (a declared shot resolved with the app's dice, fire panel shown).

Start.  `companion app --no-browser` is started with no internet (chromium
resolves every name but 127.0.0.1 to nothing), and the time is from starting
the command to the home screen's Quick-Start button being on screen in
chromium (already running, as a player's browser is).

The start is measured alternating with the code at a baseline commit (`--baseline`, default 46446a8,
the code before issue 30), A B A B in one run, each with the server's CPU seconds to Home.

Run: `python benchmarks/bench_app.py` (needs /usr/bin/chromium and Playwright
for the start time; `--taps` or `--start` runs one part; `--quick`: three taps of each kind on
the four-ship table on a phone and one start, in seconds, for the suite's smoke test).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import msgpack  # noqa: E402
import flet as ft  # noqa: E402
from flet.controls.base_control import BaseControl  # noqa: E402
from flet.messaging.connection import Connection  # noqa: E402
from flet.messaging.protocol import MessageAction, configure_encode_object_for_msgpack  # noqa: E402
from flet.messaging.session import Session as FletSession  # noqa: E402
from flet.pubsub.pubsub_hub import PubSubHub  # noqa: E402

from companion.app.main import create_app  # noqa: E402
from companion.app.server import PEER_KEY  # noqa: E402
from companion.app.setup import build_setup, quick_start_picks  # noqa: E402
from companion.engine.quick_start import actions as A
from companion.engine.quick_start.game import apply  # noqa: E402
from companion.engine.quick_start.state import GameState  # noqa: E402
from companion.files import load_catalogue  # noqa: E402
from companion.store import open_store  # noqa: E402

QUIET = 0.15  # s without a message: the tap's work is over
REPEATS = 15
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


class RecordingConnection(Connection):
    """Encodes each message as the web server does and notes when; answers the client's part
    of method calls (storage, zoom) at once, as a browser would."""

    def __init__(self, loop):
        super().__init__()
        self.loop = loop
        self.executor = ThreadPoolExecutor()
        self.pubsubhub = PubSubHub(loop=loop, executor=self.executor)
        self.session: FletSession | None = None
        self.sent: list[tuple[float, int]] = []
        self._encode = configure_encode_object_for_msgpack(BaseControl)

    def send_message(self, message) -> None:
        body = msgpack.packb([message.action, message.body], default=self._encode)
        self.sent.append((time.perf_counter(), len(body)))
        if message.action == MessageAction.INVOKE_METHOD and self.session is not None:
            call = message.body
            self.loop.call_soon(self.session.handle_invoke_method_results, call.control_id, call.call_id, None, None)


def find(control, identifier: str):
    """The control tagged `identifier` (its Semantics wrapper's content), depth first."""
    stack = [control]
    seen = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ft.Semantics) and node.identifier == identifier:
            return node.content
        for name in ("content", "controls", "actions", "destinations", "items"):
            child = getattr(node, name, None)
            if isinstance(child, list):
                stack.extend(reversed(child))
            elif isinstance(child, BaseControl):
                stack.append(child)
    raise LookupError(f"no control tagged {identifier!r} on screen")


class Client:
    """One browser session on the app, driven by events."""

    def __init__(self, store, size: tuple[int, int], route: str):
        self.store, self.size, self.route = store, size, route

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        self.conn = RecordingConnection(loop)
        self.session = self.conn.session = FletSession(self.conn)
        self.session.store.set(PEER_KEY, "127.0.0.1")  # the host's browser, as the web server stamps it
        width, height = self.size
        self.session.apply_page_patch({"route": self.route, "width": width, "height": height, "web": True,
                                       "client_ip": "127.0.0.1", "client_user_agent": "bench"})
        self.session.get_page_patch()
        self.main = create_app(self.store)
        await self.main(self.session.page)
        await self.settle()

    @property
    def page(self) -> ft.Page:
        return self.session.page

    async def settle(self) -> None:
        """Wait until no message has gone out for QUIET seconds."""
        while True:
            count = len(self.conn.sent)
            await asyncio.sleep(QUIET)
            if len(self.conn.sent) == count:
                return

    async def tap(self, identifier: str, event: str = "click", may_send_nothing: bool = False) -> tuple[float, int]:
        """Click a tagged control as the browser would; seconds to the last message sent, and its bytes
        (a tap that changes nothing on screen, as selecting the ship already selected, may send nothing)."""
        control = find(self.page, identifier)
        before = len(self.conn.sent)
        started = time.perf_counter()
        await self.session.dispatch_event(control._i, event, None)
        await self.settle()
        sent = self.conn.sent[before:]
        if not sent:
            if may_send_nothing:
                return 0.0, 0
            raise RuntimeError(f"tapping {identifier} sent nothing")
        return sent[-1][0] - started, sum(size for _, size in sent)


def four_ship_game() -> GameState:
    state = build_setup(quick_start_picks(), load_catalogue(), seed="7")
    for action in (A.StartGame(), A.SetInitiative(side="French")):
        state = apply(state, action).state
    return state


def forty_ship_game() -> GameState:
    from bench_solutions import forty_ship_board

    quick_start = {p.card_id for p in quick_start_picks()}
    catalogue = {k: v for k, v in load_catalogue().items() if k in quick_start}
    board = forty_ship_board(catalogue)
    state = board.model_copy(update={"phase": "setup", "ships": [s.model_copy(update={"moved": False}) for s in board.ships]})
    # the ships stand where a battle left them, not in deployment zones: the rule checks are off for the start
    for action in (A.SetBookkeeping(on=True), A.StartGame(), A.SetBookkeeping(on=False), A.SetInitiative(side="French")):
        outcome = apply(state, action)
        assert outcome.ok, getattr(outcome, "reason", "")
        state = outcome.state
    return state


def next_to_move(game) -> str:
    from companion.app.banners import banner

    return banner(game.state).next_ships[0]


async def measure_taps(label: str, state: GameState, size_name: str, repeats: int = REPEATS) -> dict[str, list[float]]:
    folder = tempfile.mkdtemp(prefix="bench-app-")
    store = open_store(folder)
    game = store.new_game(state, label)
    client = Client(store, SIZES[size_name], f"/game/{game.id}")
    await client.open()
    times: dict[str, list[float]] = {"select": [], "step": [], "roll": []}
    sizes: dict[str, list[int]] = {k: [] for k in times}
    mover = next_to_move(game)
    other = next(s.id for s in game.state.ships if s.id != mover)
    tab = "tab-ship"
    await client.tap(tab)
    for i in range(repeats):  # select: alternate between two ships
        seconds, size = await client.tap(f"ship-{other if i % 2 == 0 else mover}")
        times["select"].append(seconds)
        sizes["select"].append(size)
    if f"ship={mover}" not in client.page.route:
        await client.tap(f"ship-{mover}")
    for _ in range(repeats):  # one step forward, taken back (untimed) for the next one
        seconds, size = await client.tap("step-forward")
        times["step"].append(seconds)
        sizes["step"].append(size)
        await asyncio.to_thread(game.undo)
        await client.settle()
    # to the fire phase, one shot declared by the first ship with a target in arc and range
    await asyncio.to_thread(game.act, A.EndMovement())
    from companion.app.panels import fire_panel

    shooter, declare = None, None
    for ship in game.state.active_ships:
        for gun in fire_panel(game.state, ship.id):
            for target in gun.targets:
                if target.strikes:
                    shooter = ship.id
                    declare = A.DeclareShot(attacker=ship.id, location=gun.location, slot=gun.slot,
                                            target=target.target, target_location=target.strikes[0].location)
                    break
            if declare:
                break
        if declare:
            break
    assert declare is not None, "no ship has a target in arc and range"
    await asyncio.to_thread(game.act, declare)
    await client.settle()
    await client.tap("tab-fire")
    await client.tap(f"fire-{shooter}", may_send_nothing=True)  # the shooter may be selected already
    shot = game.state.shots[-1].id
    for _ in range(repeats):  # roll, taken back (untimed) for the next one
        seconds, size = await client.tap(f"roll-{shot}")
        times["roll"].append(seconds)
        sizes["roll"].append(size)
        await asyncio.to_thread(game.undo)
        await client.settle()
    return {k: (v, sizes[k]) for k, v in times.items()}


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


def p95(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{ordered[max(0, round(0.95 * len(ordered)) - 1)] * 1000:.0f} ms"


def run_taps(quick: bool = False) -> None:
    repeats = 3 if quick else REPEATS
    tables = (("Quick-Start, 4 ships", four_ship_game), ("40 ships, 20 against 20", forty_ship_game))
    print("Tap to updated screen sent (server side), median / 95th percentile of", repeats, "taps:")
    print("| table | screen | select a ship | one step | one roll | bytes sent (select / step / roll) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, make in tables[:1] if quick else tables:
        for size_name in ("phone",) if quick else ("desktop", "phone"):
            results = asyncio.run(measure_taps(label, make(), size_name, repeats))
            cells = [f"{ms(results[k][0])} / {p95(results[k][0])}" for k in ("select", "step", "roll")]
            kb = " / ".join(f"{statistics.median(results[k][1]) / 1024:.0f} KB" for k in ("select", "step", "roll"))
            print(f"| {label} | {size_name} | " + " | ".join(cells) + f" | {kb} |", flush=True)


# --- start to home ------------------------------------------------------------------------

NO_INTERNET = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


BASELINE = "46446a8"  # the code before issue 30: `--start` compares with it in the same run (issue 37)


def baseline_tree(commit: str, scratch: str) -> Path | None:
    """The code at `commit`, unpacked by `git archive` into `scratch` (no worktree left behind), or None."""
    tree = Path(scratch) / f"baseline-{commit}"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True)
    if archive.returncode != 0:
        print(f"no baseline: git archive {commit} failed: {archive.stderr.decode().strip()}")
        return None
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def start_once(browser, tree: Path) -> tuple[float, float, float, float]:
    """`companion app` of the code in `tree`: seconds to its first HTTP answer, to the page loaded, to
    Home shown, and the server's CPU seconds by then."""
    port = free_port()
    data = tempfile.mkdtemp(prefix="bench-start-")
    env = dict(os.environ, COMPANION_DATA=data, PYTHONPATH=str(tree))
    env.pop("COMPANION_SEED", None)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "companion", "app", "--no-browser", "--port", str(port)],
                               cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:  # the browser opens the address as soon as the server answers
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.02)
        listening = time.perf_counter() - started
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("#loading", state="detached", timeout=60000)
        loaded = time.perf_counter() - started
        placeholder = page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=30000)
        placeholder.dispatch_event("click")
        page.locator("[flt-semantics-identifier='quick-start']").wait_for(timeout=30000)
        home = time.perf_counter() - started
        cpu = cpu_seconds(process.pid)
        page.close()
    finally:
        process.terminate()
        process.wait(10)
    return listening, loaded, home, cpu


def run_start(repeats: int = 3, baseline: str | None = None) -> None:
    """Start to Home, this code and (with `baseline`) the code at that commit, alternating A B A B."""
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import ARGS, CHROMIUM

    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as pw:
        trees = {"this code": ROOT}
        if baseline and (tree := baseline_tree(baseline, scratch)) is not None:
            trees[baseline] = tree
        results: dict[str, list] = {name: [] for name in trees}
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, NO_INTERNET])
        for _ in range(repeats):
            for name, tree in trees.items():
                result = start_once(browser, tree)
                results[name].append(result)
                print(f"{name}: server answering {result[0]:.2f} s, page loaded {result[1]:.2f} s, "
                      f"home shown {result[2]:.2f} s, server CPU {result[3]:.2f} s", flush=True)
        browser.close()
    for name, runs in results.items():
        print(f"Start to home (no internet), {name}, median of {repeats}: "
              f"{statistics.median(r[2] for r in runs):.2f} s "
              f"(server answering {statistics.median(r[0] for r in runs):.2f} s, "
              f"server CPU {statistics.median(r[3] for r in runs):.2f} s)")
    print(f"load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", action="store_true", help="only the taps")
    parser.add_argument("--start", action="store_true", help="only the start time")
    parser.add_argument("--quick", action="store_true", help="seconds: 3 taps of each on 4 ships on a phone, one start")
    parser.add_argument("--baseline", default=BASELINE, metavar="COMMIT",
                        help=f"the start is compared, alternating, with this commit's code (default {BASELINE}; '' for none)")
    args = parser.parse_args()
    both = not (args.taps or args.start)
    if args.taps or both:
        run_taps(args.quick)
    if args.start or both:
        run_start(1 if args.quick else 3, None if args.quick else (args.baseline or None))


if __name__ == "__main__":
    main()
