"""The crash guard of the browser tests reads a server's log: what counts as a crash."""

from __future__ import annotations

from .conftest import crashes_in

LOG = """Leviathans companion: http://127.0.0.1:5000/
Unhandled error in 'on_click' handler
Traceback (most recent call last):
  File "x.py", line 1, in handle
TimeoutError: Timeout waiting for invoke method listener for Column(1).scroll_to
"""


def test_a_handler_error_and_its_traceback_are_quoted():
    found = crashes_in(LOG)
    assert found and found[0].startswith("Unhandled error in 'on_click' handler")
    assert "scroll_to" in found[0]


def test_a_quiet_log_and_an_allowed_line_pass():
    assert crashes_in("Leviathans companion: http://127.0.0.1:5000/\n(games are saved in x)\n") == []
    assert crashes_in("session abc crashed\n", allowed=(r"session abc",)) == []
    assert crashes_in("session abc crashed\n") == ["session abc crashed"]
