"""What one change or one flood costs the server (issue 25 part 7): work a device's event makes is
only what it needs, so a flood of resizes from one device leaves time for the others."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from flet.controls.context import context

from companion.app import server as guard


class FakeControl:
    session = None  # no Flet session: not in components mode

    def __init__(self, seen: list):
        self.seen = seen

    async def _trigger_event(self, name, data) -> None:
        self.seen.append((name, context.auto_update_enabled()))


def a_session(seen: list):
    page, button = FakeControl(seen), FakeControl(seen)
    controls = {1: page, 2: button}
    session = SimpleNamespace(page=page, store=SimpleNamespace(get=lambda key: "127.0.0.1"), id="s")
    session._Session__resolve_event_control = controls.get
    guard.handle_failures_of(session)
    return session


def test_a_resize_of_the_page_is_not_followed_by_an_update_of_the_whole_page():
    """`App._on_resize` sends what it lays out itself; Flet's update of the whole page after it (a diff
    of every control) is skipped, for that event only: a tap still gets Flet's update after it."""
    seen: list = []
    session = a_session(seen)

    async def events() -> None:
        for target, name in ((1, "resize"), (2, "click"), (1, "route_change"), (2, "resize"), (1, "resize")):
            await asyncio.create_task(session.dispatch_event(target, name, None))  # a task per event, as the server

    asyncio.run(events())
    assert seen == [("resize", False), ("click", True), ("route_change", True), ("resize", True), ("resize", False)]
    assert context.auto_update_enabled()  # Flet's process-wide default untouched


def test_the_benchmarks_readers_stop_when_told_even_where_a_cancel_would_be_lost():
    """bench_shared hung in 2 runs of 4: its readers were cancelled, and Python 3.11's `wait_for` can
    lose a cancel that comes with a message (python/cpython#86296).  They stop on an event now."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from bench_shared import read

    class Deaf:
        """A client whose read loses every cancel, as `wait_for` did when a message came with it."""

        async def pump(self, until, timeout: float) -> bool:
            try:
                await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                pass
            return until(self)

    async def go() -> bool:
        stop = asyncio.Event()
        reader = asyncio.create_task(read(Deaf(), stop))
        await asyncio.sleep(0.05)
        reader.cancel()  # lost
        await asyncio.sleep(0.05)
        lost = not reader.done()
        stop.set()
        await asyncio.wait_for(reader, 5)
        return lost

    assert asyncio.run(go())


def test_the_server_looks_for_cycles_seldom_and_never_in_what_it_imported():
    """A full cycle collection with 20 devices' screens took 120 to 716 ms every few seconds, every
    device waiting; the server sets the collector to look seldom (in its own process: here, another)."""
    import subprocess
    import sys

    code = ("import gc; from companion.app import server; server.collect_seldom(); "
            "print(gc.get_threshold() == server.GC_THRESHOLDS, gc.get_freeze_count() > 1000)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["True", "True"], out.stderr
