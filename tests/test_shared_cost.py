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
