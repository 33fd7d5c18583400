"""No screen dies (issue 25): a late answer to the server's method call, a handler that fails, a
listener that fails.  Raw websocket clients speak Flet's own msgpack protocol to a real server
(`python -m companion web`), as the server's security tests and `benchmarks/bench_shared.py` do."""

from __future__ import annotations

import asyncio
import logging

from companion.app import server as guard
from companion.app.client_calls import ask, shown
from companion.app.listeners import tell
from store_helpers import played_game
from companion.store import MemoryStore
from test_server_security import (  # noqa: F401  (own_server: a fixture)
    CRASHED, EVENT, INVOKE, PAGE, PATCH, Client, frame, own_server, shows, strings, theme_button,
)

THE_LINE = "That did not work:"


def answered_a_tap(client: Client) -> bool:
    """Tap the home screen's theme switch and wait for its dialog: the session still answers."""
    async def go() -> bool:
        before = len(client.messages)
        await client.ws.send(frame(EVENT, {"target": theme_button(client), "name": "click", "data": None}))
        return await client.pump(lambda c: any(a == PATCH and "theme-dialog" in strings(body, [])
                                               for a, body in c.messages[before:]), 20)
    return go()


# --- the late answer -----------------------------------------------------------------------------------


def test_a_late_answer_for_a_control_that_has_gone_leaves_the_device_in_the_game(own_server):
    """A slow device answers one of the server's method calls after the control has gone (a panel
    rebuilt, a service dropped): Flet raised on it and ended the session's receive loop, so the device
    got no more updates.  Now the answer is dropped and the device's next tap is answered."""
    async def go() -> tuple[bool, Client]:
        client = await Client.register(own_server.url(), own_server.origin())
        assert await client.pump(shows(own_server.pin), 30)
        asked = [body for action, body in client.messages if action == INVOKE]
        assert asked, "the server made no method call on the browser (its stored token is asked for)"
        gone = 987_654  # no control of this session has this id
        await client.ws.send(frame(INVOKE, {"control_id": gone, "call_id": asked[0]["call_id"],
                                            "result": None, "error": None}))
        answered = await answered_a_tap(client)
        await client.close()
        return answered, client

    answered, client = asyncio.run(go())
    assert answered, "the device got no update after its late answer"
    assert not any(action == CRASHED for action, _ in client.messages)
    assert "not registered" not in own_server.log.read_text()


def test_a_late_answer_is_dropped_and_logged_at_debug_level(caplog):
    class Session:
        def handle_invoke_method_results(self, control_id, call_id, result, error):
            raise RuntimeError(f"Error handling invoke method results. Control with ID {control_id} is not registered.")

    with caplog.at_level(logging.DEBUG, logger=guard.__name__):
        guard.take_answer(Session(), {"control_id": 50, "call_id": "abc", "result": None, "error": None}, "10.0.0.7")
        guard.take_answer(Session(), {"no such field": 1}, "10.0.0.7")
    dropped = [r for r in caplog.records if "answer to a method call dropped" in r.getMessage()]
    assert len(dropped) == 2 and all(r.levelno == logging.DEBUG for r in dropped)
    assert "10.0.0.7" in dropped[0].getMessage() and "not registered" in dropped[0].getMessage()


# --- a handler that fails ------------------------------------------------------------------------------


def test_a_failing_handler_says_one_plain_line_and_the_session_goes_on(own_server):
    async def go() -> tuple[bool, Client]:
        client = await Client.register(own_server.url(), own_server.origin())
        assert await client.pump(shows(own_server.pin), 30)
        # a resize whose data does not fit Flet's event type: its handler raises
        await client.ws.send(frame(EVENT, {"target": PAGE, "name": "resize", "data": {"no such field": 1}}))
        told = await client.pump(lambda c: THE_LINE in c.words(), 20)
        assert told, "the device was not told that its tap did not work"
        answered = await answered_a_tap(client)
        await client.close()
        return answered, client

    answered, client = asyncio.run(go())
    assert answered, "the session stopped answering after a handler failed"
    assert not any(action == CRASHED for action, _ in client.messages), "the session was crashed"
    line = next(s for _, body in client.messages for s in strings(body, []) if THE_LINE in s)
    assert line.endswith("The game is saved.") and "\n" not in line
    sent = b"".join(client.raw).decode("utf-8", "replace")
    assert "Traceback" not in sent and ".py" not in sent
    host_log = own_server.log.read_text()
    assert "a tap did not work on the device at 127.0.0.1" in host_log and "Traceback" in host_log


def test_the_reason_a_device_is_told_is_short_and_plain():
    assert guard.failure_reason(TimeoutError()) == "this device did not answer in time"
    assert guard.failure_reason(RuntimeError("Timeout waiting for invoke method listener for Column(12).scroll_to")) \
        == "this device did not answer in time"
    assert guard.failure_reason(PermissionError("Only the host may do that.\nmore")) == "Only the host may do that"
    assert guard.failure_reason(KeyError("/home/host/x.py")) == "something went wrong on the computer running the table"


# --- calls on the browser: only on what it shows, never fatal --------------------------------------------


class Node:
    def __init__(self, parent=None, visible=True, page=True):
        self.parent, self.visible, self._page = parent, visible, page

    @property
    def page(self):
        if not self._page:
            raise RuntimeError("not on a page")
        return object()


def test_a_control_under_a_hidden_one_is_not_shown():
    cover = Node(Node(), visible=False)
    assert shown(Node(Node(Node())))
    assert not shown(Node(cover))
    assert not shown(Node(page=False))


def test_a_call_on_a_control_not_shown_is_not_made_and_a_failing_call_gives_the_default():
    made = []

    async def call():
        made.append(1)
        raise RuntimeError("Timeout waiting for invoke method listener for Column(12).scroll_to")

    async def slow():
        await asyncio.sleep(10)

    async def go():
        hidden = Node(Node(visible=False))
        assert await ask("scroll", call, on=hidden, default="no") == "no"
        assert made == []
        assert await ask("scroll", call, on=Node(), default="no") == "no"
        assert made == [1]
        assert await ask("read", slow, wait=0.05, default=7) == 7

    asyncio.run(go())


# --- listeners ---------------------------------------------------------------------------------------------


def test_a_failing_listener_is_logged_and_the_others_hear(caplog):
    heard = []

    def broken(*args):
        raise ValueError("a closed session")

    with caplog.at_level(logging.ERROR):
        tell([broken, heard.append], "change")
    assert heard == ["change"]
    failed = [r for r in caplog.records if "a listener failed" in r.getMessage()]
    assert failed and failed[0].exc_info and "a closed session" in caplog.text


def test_a_failing_listener_of_a_game_is_logged_and_the_others_hear(caplog):
    game = played_game(MemoryStore(), actions=2)
    heard = []

    def broken(game, entry):
        raise ValueError("a closed browser session")

    game.listen(broken)
    game.listen(lambda g, entry: heard.append(entry.index))
    with caplog.at_level(logging.ERROR):
        assert game.undo()
    assert heard, "the second listener was not told"
    failed = [r for r in caplog.records if "a listener of game" in r.getMessage()]
    assert failed and failed[0].exc_info and "a closed browser session" in caplog.text


def test_a_failing_background_task_is_logged_with_its_traceback(caplog):
    from companion.app import tasks

    class Page:
        session = None

    async def lay_out() -> None:
        raise ValueError("a map that would not lay out")

    async def go() -> None:
        assert tasks.soon(Page(), lay_out)
        await asyncio.gather(*list(tasks._RUNNING))

    with caplog.at_level(logging.ERROR):
        asyncio.run(go())
    failed = [r for r in caplog.records if "a background task of a screen failed" in r.getMessage()]
    assert failed and failed[0].exc_info and "a map that would not lay out" in caplog.text


def test_what_a_handler_draws_after_its_browser_went_is_dropped_not_raised():
    """A browser gone mid-send ends the connection's send loop; a handler still running (a reload's
    lifecycle notice) then drew into no queue, and that failure went to the handler."""
    from flet.messaging.protocol import Message, MessageAction, SessionCrashedBody

    async def go() -> None:
        connection = guard._guarded_flet_app_class()(loop=asyncio.get_running_loop(), executor=None, main=None,
                                                      before_main=None, guard=guard._Guard("10.0.0.7"))
        connection._FletApp__send_queue = None
        connection.send_message(Message(MessageAction.SESSION_CRASHED, SessionCrashedBody("gone")))

    asyncio.run(go())


def test_a_background_call_cut_short_by_its_closing_session_is_no_failure(caplog):
    """Flet answers a call pending on a browser whose session closed with RuntimeError("Session closed")
    (an address-bar update of a flooding phone that left): logged at debug, with no traceback."""
    from companion.app import tasks

    class Page:
        session = None

    async def push_route() -> None:
        raise RuntimeError(tasks.CLOSED)

    async def go() -> None:
        assert tasks.soon(Page(), push_route)
        await asyncio.gather(*list(tasks._RUNNING))

    with caplog.at_level(logging.DEBUG, logger="companion.app.tasks"):
        asyncio.run(go())
    records = [r for r in caplog.records if r.name == "companion.app.tasks"]
    assert records and all(r.levelno == logging.DEBUG and not r.exc_info for r in records)
    assert "ended with its session" in records[0].getMessage()
